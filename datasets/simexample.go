package datasets

import "embed"

// simulateFS holds the example of `capplan simulate --example`: a small
// two-zone cluster, four users and forty DAG jobs arriving over half an
// hour. It is kept apart from ExampleFiles, whose set `capplan example`
// writes.
//
//go:embed examples/simulate/*.yaml
var simulateFS embed.FS

// SimulateExampleFiles returns the embedded simulation example by file
// name (cluster.yaml, demand.yaml, workload.yaml).
func SimulateExampleFiles() map[string][]byte {
	out := map[string][]byte{}
	for _, name := range []string{"cluster.yaml", "demand.yaml", "workload.yaml"} {
		data, err := simulateFS.ReadFile("examples/simulate/" + name)
		if err != nil {
			panic("datasets: embedded simulation example missing: " + err.Error())
		}
		out[name] = data
	}
	return out
}
