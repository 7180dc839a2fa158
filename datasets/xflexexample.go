package datasets

import "embed"

// xflexFS holds W-XFLEX's inputs (SIMULATE.md §2.3): the six-node cluster,
// the three applications (flex, fair, fifo) with their sharing bounds and
// request profiles, and the default packing plan (AMs on nodes 0–2, owners
// round-robin), so that `capplan shapes`, `capplan pack` and
// `capplan simulate --workload xflex` chain on the same inputs.
//
//go:embed examples/xflex/cluster.yaml examples/xflex/demand.yaml examples/xflex/plan.json
var xflexFS embed.FS

// XFlexExampleFiles returns W-XFLEX's inputs by file name (cluster.yaml,
// demand.yaml, plan.json).
func XFlexExampleFiles() map[string][]byte {
	out := map[string][]byte{}
	for _, name := range []string{"cluster.yaml", "demand.yaml", "plan.json"} {
		data, err := xflexFS.ReadFile("examples/xflex/" + name)
		if err != nil {
			panic("datasets: embedded W-XFLEX input missing: " + err.Error())
		}
		out[name] = data
	}
	return out
}
