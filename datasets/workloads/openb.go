package workloads

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/sim"
)

// OpenBParams shape W-OPENB (SIMULATE.md §2.3).
type OpenBParams struct {
	// Copies replicates the trace (≥ 1); copies after the first jitter
	// their arrivals by U[0, 60 s).
	Copies int
	// Hold keeps the pods never scheduled (Pending): each arrives at its
	// creation and runs, once placed, for its whole life in the trace
	// (deletion − creation) [DERIVED]; otherwise they are dropped.
	Hold bool
	Seed uint64
}

// OpenB is the W-OPENB replay: the cluster (GPUs fit device by device),
// the users (one per QoS class) and the jobs (one per pod).
type OpenB struct {
	Cluster *sim.Cluster
	Users   []sim.User
	Jobs    []sim.Job
	// Dropped counts the pods left out (never scheduled, without Hold).
	Dropped int
}

// openbJitter is the arrival jitter of the copies, in seconds.
const openbJitter = 60

// NewOpenB builds W-OPENB from an openb node list (datasets.ParseOpenBCluster)
// and pod list (datasets.ParseOpenBPods): each pod is a one-task job of its
// QoS class's user, arriving at creation_time and running for deletion_time
// − scheduled_time; it asks for cpu, memory and GPUs (num_gpu whole GPUs
// when gpu_milli is 1000, gpu_milli thousandths of one GPU otherwise),
// which the simulator fits device by device (1000 milli each), on the nodes
// of the models its gpu_spec names (`gpu-model in (…)`).
func NewOpenB(c *datasets.Cluster, pods []datasets.OpenBPod, p OpenBParams, tickSeconds float64) (*OpenB, error) {
	if p.Copies < 1 {
		p.Copies = 1
	}
	gpu := slices.Index(c.Resources, "gpu")
	cpu, mem := slices.Index(c.Resources, "cpu"), slices.Index(c.Resources, "memory")
	if gpu < 0 || cpu < 0 || mem < 0 {
		return nil, fmt.Errorf("workloads: openb: the cluster needs resources cpu, memory and gpu, has %s", strings.Join(c.Resources, ", "))
	}
	demand := func(pd *datasets.OpenBPod) []int64 { // milli-units: cores, bytes, GPUs
		m := make([]int64, len(c.Resources))
		m[cpu], m[mem] = pd.CPUMilli, pd.MemoryMiB<<20*1000
		switch {
		case pd.NumGPU == 1 && pd.GPUMilli > 0 && pd.GPUMilli < 1000:
			m[gpu] = pd.GPUMilli
		default:
			m[gpu] = pd.NumGPU * 1000
		}
		return m
	}
	q := Quanta(c, func(b *sim.QuantaBuilder) {
		b.AddMilli(gpu, 1000)
		for i := range pods {
			for d, v := range demand(&pods[i]) {
				b.AddMilli(d, v)
			}
		}
	})
	out := &OpenB{Cluster: Cluster(c, q)}
	out.Cluster.Devices = &sim.Devices{Resource: gpu, PerDevice: q.DemandMilli(gpu, 1000)}
	var classes []string
	for i := range pods {
		if !slices.Contains(classes, pods[i].QoS) {
			classes = append(classes, pods[i].QoS)
		}
	}
	sort.Strings(classes)
	for _, n := range classes {
		out.Users = append(out.Users, sim.User{Name: n, Weight: 1})
	}
	conv := sim.DAGConversion{TickSeconds: tickSeconds}
	selectors := map[string]sim.Constraint{}
	for k := 0; k < p.Copies; k++ {
		rng := rand.New(rand.NewPCG(p.Seed, uint64(k)))
		for i := range pods {
			pd := &pods[i]
			start := pd.Scheduled
			if start < 0 {
				if !p.Hold {
					if k == 0 {
						out.Dropped++
					}
					continue
				}
				start = pd.Creation
			}
			jitter := 0.0
			if k > 0 {
				jitter = rng.Float64() * openbJitter
			}
			sel, ok := selectors[pd.GPUSpec]
			if !ok && pd.GPUSpec != "" {
				models := strings.Split(pd.GPUSpec, "|")
				sort.Strings(models)
				s, err := labels.Parse(fmt.Sprintf("%s in (%s)", datasets.OpenBModelLabel, strings.Join(models, ",")))
				if err != nil {
					return nil, fmt.Errorf("workloads: openb: pod %s: gpu_spec %q: %w", pd.Name, pd.GPUSpec, err)
				}
				sel = sim.Constraint{Selector: s}
				selectors[pd.GPUSpec] = sel
			}
			dem := make(sim.Vec, len(c.Resources))
			for d, v := range demand(pd) {
				dem[d] = q.DemandMilli(d, v)
			}
			name := pd.Name
			if k > 0 {
				name = fmt.Sprintf("%s#%d", pd.Name, k)
			}
			out.Jobs = append(out.Jobs, sim.Job{Name: name, User: sim.UserID(slices.Index(classes, pd.QoS)),
				Arrival: conv.Ticks(float64(pd.Creation) + jitter), Constraint: sel,
				Stages: []sim.Stage{{Name: "pod", Tasks: 1, Duration: conv.Ticks(float64(pd.Deletion - start)), Demand: dem}}})
		}
	}
	return out, nil
}
