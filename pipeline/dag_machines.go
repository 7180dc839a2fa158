package pipeline

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/internal/inputerr"
	"github.com/capplan/capplan/plan"
)

// dagMachines are the machines jobs are scheduled on, as groups; a
// cluster's machines are expanded with dags.Machines.
type dagMachines struct {
	groups  []plan.DAGMachineGroup
	cluster *datasets.Cluster
	pooled  bool
	cache   map[string][][]float64
}

// vectors returns the machines' capacities in the order of resources
// (not pooled); a resource a group does not name has capacity 0.
func (m *dagMachines) vectors(resources []string) ([][]float64, error) {
	key := strings.Join(resources, "\x00")
	if v, ok := m.cache[key]; ok {
		return v, nil
	}
	var out [][]float64
	if m.cluster != nil {
		var err error
		if out, err = dags.Machines(m.cluster, resources); err != nil {
			return nil, err
		}
	} else {
		for _, g := range m.groups {
			v := make([]float64, len(resources))
			for k, r := range resources {
				v[k] = g.Capacity[r]
			}
			for i := 0; i < g.Count; i++ {
				out = append(out, v)
			}
		}
	}
	if m.cache == nil {
		m.cache = map[string][][]float64{}
	}
	m.cache[key] = out
	return out, nil
}

// docGroups are the groups a document lists: the pool in pooled mode.
func (m *dagMachines) docGroups() []plan.DAGMachineGroup {
	if !m.pooled {
		return m.groups
	}
	sum := map[string]float64{}
	for _, g := range m.groups {
		for r, c := range g.Capacity {
			sum[r] += c * float64(g.Count)
		}
	}
	return []plan.DAGMachineGroup{{Name: "pool", Count: 1, Capacity: sum}}
}

// dagIdenticalMachines is a single group of n machines.
func dagIdenticalMachines(name string, n int, capacity map[string]float64) *dagMachines {
	return &dagMachines{groups: []plan.DAGMachineGroup{{Name: name, Count: n, Capacity: capacity}}}
}

// dagClusterMachines describes a cluster's node groups.
func dagClusterMachines(c *datasets.Cluster) *dagMachines {
	m := &dagMachines{cluster: c}
	first := 0
	for _, g := range c.Groups {
		capacity := map[string]float64{}
		for i, q := range g.Capacity {
			capacity[c.Resources[i]] = datasets.Base(q)
		}
		mg := plan.DAGMachineGroup{Name: g.Name, Count: g.Count, First: first, Capacity: capacity}
		if g.Members != nil {
			for i := range g.Count {
				mg.Names = append(mg.Names, g.NodeName(i))
			}
		}
		m.groups = append(m.groups, mg)
		first += g.Count
	}
	return m
}

// resolveMachines chooses the machines from the flags and the input (see
// the --machines help): PSPLIB, the file's machine (×--machines);
// workloads, -c, --machines or the example cluster; Alibaba, -c or
// --machines Alibaba machines (default 1).
func (o *DAGInput) resolveMachines(src *dagSource) (*dagMachines, []plan.Input, error) {
	count := 1
	if o.Machines > 0 {
		count = o.Machines
	}
	var m *dagMachines
	var inputs []plan.Input
	switch {
	case src.format == dagFormatPSPLIB:
		if o.ClusterPath != "" || o.MachineCapacity != "" {
			return nil, nil, optionErrorf("%s: a PSPLIB file gives its own capacities; --cluster and --machine-capacity do not apply (use --machines N for N such machines)", src.path)
		}
		capacity := map[string]float64{}
		for k, r := range src.psplib.DAG.Resources {
			capacity[r] = src.psplib.Capacity[k]
		}
		m = dagIdenticalMachines("machine", count, capacity)
	case o.ClusterPath != "":
		data, err := datasets.ReadFile(o.ClusterPath, 0)
		if err != nil {
			return nil, nil, err
		}
		c, err := datasets.ParseCluster(inputerr.FileName(o.ClusterPath), data, datasets.LoadOptions{RackLabel: o.RackLabel})
		if err != nil {
			return nil, nil, err
		}
		if n := c.NumNodes(); n > MaxDAGMachines {
			return nil, nil, fmt.Errorf("%s: %d nodes, more than %d machines, the most a DAG is scheduled on", inputerr.FileName(o.ClusterPath), n, MaxDAGMachines)
		}
		// No demand says what tolerates a taint: NoSchedule and NoExecute
		// nodes are left out.
		m = dagClusterMachines(datasets.Schedulable(c, nil))
		inputs = append(inputs, plan.Input{Role: "cluster", Path: o.ClusterPath, SHA256: plan.Digest(data)})
	case src.format == dagFormatAlibaba:
		base := map[string]float64{"cpu": dags.AlibabaMachine[0], "mem": dags.AlibabaMachine[1]}
		if err := checkCapacityNames(src.path, base, o.capacity); err != nil {
			return nil, nil, err
		}
		m = dagIdenticalMachines("alibaba", count, dagMergeCapacity(base, o.capacity))
	case o.Machines > 0 || o.MachineCapacity != "":
		if err := checkCapacityNames(src.path, src.largest, o.capacity); err != nil {
			return nil, nil, err
		}
		m = dagIdenticalMachines("machine", count, dagMergeCapacity(src.largest, o.capacity))
	case src.example:
		data := datasets.ExampleFiles()["cluster.yaml"]
		c, err := datasets.ParseCluster("example:cluster.yaml", data, datasets.LoadOptions{})
		if err != nil {
			return nil, nil, fmt.Errorf("embedded example is invalid: %w", err)
		}
		m = dagClusterMachines(c)
		inputs = append(inputs, plan.Input{Role: "cluster", Path: "example:cluster.yaml", SHA256: plan.Digest(data)})
	default:
		return nil, nil, optionErrorf("%s: a workload needs machines: give --cluster FILE, or --machines N (with --machine-capacity)", src.path)
	}
	m.pooled = o.Pool
	return m, inputs, nil
}

// annotate records in h the nodes of the cluster left out (cordoned,
// tainted) and the notes on how it was read.
func (m *dagMachines) annotate(h *plan.Header) {
	if m.cluster != nil {
		annotate(h, m.cluster)
	}
}

// dagMergeCapacity returns base with the entries of over replacing its own.
func dagMergeCapacity(base, over map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for r, v := range base {
		out[r] = v
	}
	for r, v := range over {
		out[r] = v
	}
	return out
}

// checkCapacityNames refuses a --machine-capacity resource that the
// input's tasks do not use: it would be ignored, which hides a typo.
func checkCapacityNames(path string, known, capacity map[string]float64) error {
	for _, r := range slices.Sorted(maps.Keys(capacity)) {
		if _, ok := known[r]; !ok {
			return optionErrorf("invalid --machine-capacity %s: no task of %s uses resource %q (resources: %s)", r, path, r, strings.Join(slices.Sorted(maps.Keys(known)), ", "))
		}
	}
	return nil
}
