package pipeline

import (
	"fmt"
	"strings"
)

// SimulateFlags are the flags `capplan simulate` records in its document,
// as the command line gives them. It is their one home: the CLI builds
// them from its flags, and a sweep cell from its spec, whose file must be
// the very document the command writes for the same run.
type SimulateFlags struct {
	Policy   string
	Seed     uint64
	Tick     string
	Workload string // a generated workload's name ("" for files and the example)
	Example  bool
	Compare  []string
	Baseline string
	// Params are POLICY.KEY=VALUE, WParams KEY=VALUE, Overbook
	// RESOURCE=FACTOR, each in the order given.
	Params, WParams, Overbook []string
	View, Against, Snapshot   string
	Load, Noise               float64
	NoiseMode                 string // recorded with a positive Noise
	Until                     float64
	Misestimate               string
}

// Map returns the flags by name, leaving out those not given.
func (f SimulateFlags) Map() map[string]string {
	m := map[string]string{"policy": f.Policy, "seed": fmt.Sprint(f.Seed), "tick": f.Tick}
	add := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	add("workload", f.Workload)
	add("compare", strings.Join(f.Compare, ","))
	add("baseline", f.Baseline)
	add("param", strings.Join(f.Params, ","))
	add("wparam", strings.Join(f.WParams, ","))
	add("overbook", strings.Join(f.Overbook, ","))
	add("view", f.View)
	add("against", f.Against)
	add("snapshot", f.Snapshot)
	if f.Example {
		m["example"] = "true"
	}
	if f.Load > 0 {
		m["load"] = fmt.Sprint(f.Load)
	}
	if f.Noise > 0 {
		m["noise"] = fmt.Sprint(f.Noise)
		m["noise-mode"] = f.NoiseMode
	}
	if f.Until > 0 {
		m["until"] = fmt.Sprint(f.Until)
	}
	add("misestimate", f.Misestimate)
	return m
}
