package export_test

import (
	"fmt"

	"github.com/capplan/capplan/export"
	"github.com/capplan/capplan/plan"
)

// Three applications share one machine (1 core, 1Gi) equally. A third of a
// core is 333.33m, a third of 1Gi is 341.33Mi: rounded down, the quotas
// would lose 1m and 1Mi of the plan; the largest-remainder rule gives the
// leftover unit to the first application (equal remainders), so the quotas
// add up to exactly the machine.
func ExampleKubernetesObjects() {
	third := 1.0 / 3
	doc := &plan.FairShare{
		Header:       plan.Header{APIVersion: plan.APIVersion, Kind: plan.KindFairShare},
		Resources:    []string{"cpu", "memory"},
		MachineTypes: []plan.MachineType{{Name: "m", Count: 1, Capacity: map[string]float64{"cpu": 1, "memory": 1 << 30}}},
	}
	for _, name := range []string{"a", "b", "c"} {
		doc.Shares = append(doc.Shares, plan.Share{Application: name, Weight: 1, Machines: third, ByType: map[string]float64{"m": third}})
	}
	objs, err := export.KubernetesObjects(export.Input{FairShare: doc})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, q := range objs.ResourceQuotas {
		cpu, mem := q.Spec.Hard["requests.cpu"], q.Spec.Hard["requests.memory"]
		fmt.Printf("%s: cpu %s, memory %s\n", q.Namespace, cpu.String(), mem.String())
	}
	// Output:
	// a: cpu 334m, memory 342Mi
	// b: cpu 333m, memory 341Mi
	// c: cpu 333m, memory 341Mi
}
