package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/plan"
)

// dagSource is a parsed DAG input, before machines are chosen.
type dagSource struct {
	format string
	path   string
	inputs []plan.Input
	// dags are the input's job DAGs in input order; observed, parallel to
	// them, holds the run time a trace observed (Alibaba), in ticks.
	dags     []*dag.DAG
	observed []*int64
	rejected []plan.DAGRejection
	psplib   *dags.PSPLIB
	example  bool
}

// readSource reads and parses the input named by the options.
func (o *DAGInput) readSource() (*dagSource, error) {
	src := &dagSource{path: o.Path, example: o.Example}
	var data []byte
	if o.Example {
		src.path = "example:workload.yaml"
		data = datasets.ExampleFiles()["workload.yaml"]
	} else {
		var err error
		if data, err = readInput(o.Path); err != nil {
			return nil, err
		}
	}
	format, err := detectDAGFormat(src.path, data, o.Format)
	if err != nil {
		return nil, err
	}
	src.format = format
	src.inputs = []plan.Input{{Role: format, Path: src.path, SHA256: digest(data)}}
	switch format {
	case dagFormatPSPLIB:
		inst, err := dags.ParsePSPLIB(src.path, bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		base := filepath.Base(src.path)
		inst.DAG.Name = strings.TrimSuffix(base, filepath.Ext(base))
		src.psplib = inst
		src.dags = []*dag.DAG{inst.DAG}
		src.observed = []*int64{nil}
	case dagFormatWorkload:
		w, err := datasets.ParseWorkload(src.path, data)
		if err != nil {
			return nil, err
		}
		limit := o.MaxTasks
		if limit == 0 {
			limit = dags.DefaultMaxTasks
		}
		for _, j := range w.Jobs {
			n := len(j.Tasks)
			for _, s := range j.Stages {
				n += s.Tasks
			}
			if n > limit {
				return nil, fmt.Errorf("%s: job %s has %d tasks, more than the limit of %d (--max-tasks): %w", src.path, j.Name, n, limit, dag.ErrTooLarge)
			}
		}
		if src.dags, err = dags.FromWorkload(w, nil, dags.WorkloadOptions{MaxEdges: o.MaxEdges}); err != nil {
			return nil, err
		}
		src.observed = make([]*int64, len(src.dags))
	case dagFormatAlibaba:
		tr, err := dags.ParseAlibaba(src.path, bytes.NewReader(data), dags.AlibabaOptions{MaxTasks: o.MaxTasks, MaxEdges: o.MaxEdges})
		if err != nil {
			return nil, err
		}
		for i := range tr.Jobs {
			j := &tr.Jobs[i]
			span := j.ObservedSpan()
			src.dags = append(src.dags, j.DAG)
			src.observed = append(src.observed, &span)
		}
		for _, r := range tr.Rejected {
			src.rejected = append(src.rejected, plan.DAGRejection{Job: r.Job, Line: r.Line, Reason: r.Reason})
		}
		if len(src.dags) == 0 {
			return nil, dagNoJobs(src.path, "could be read", src.rejected)
		}
	}
	return src, nil
}

// detectDAGFormat tells the input format: the forced one, else by
// extension (.sm, .csv, .yaml/.yml/.json), else by content.
func detectDAGFormat(path string, data []byte, forced string) (string, error) {
	if forced != dagFormatAuto {
		return forced, nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".sm":
		return dagFormatPSPLIB, nil
	case ".csv":
		return dagFormatAlibaba, nil
	case ".yaml", ".yml", ".json":
		return dagFormatWorkload, nil
	}
	head := data[:min(len(data), 4096)]
	first, _, _ := bytes.Cut(head, []byte("\n"))
	switch {
	case bytes.Contains(head, []byte("PRECEDENCE RELATIONS")) || bytes.Contains(head, []byte("jobs (incl. supersource/sink")):
		return dagFormatPSPLIB, nil
	case bytes.HasPrefix(first, []byte("task_name,")) || bytes.Count(first, []byte(",")) == 8:
		return dagFormatAlibaba, nil
	case bytes.Contains(head, []byte("kind")):
		return dagFormatWorkload, nil
	}
	return "", optionErrorf("%s: cannot tell the input format (PSPLIB .sm, capplan Workload YAML/JSON or Alibaba batch_task CSV): use --format", path)
}

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
		if g.Hostnames != nil {
			mg.Names = g.Hostnames
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
		data, err := readInput(o.ClusterPath)
		if err != nil {
			return nil, nil, err
		}
		c, err := datasets.ParseCluster(o.ClusterPath, data, datasets.LoadOptions{RackLabel: o.RackLabel})
		if err != nil {
			return nil, nil, err
		}
		m = dagClusterMachines(c)
		inputs = append(inputs, plan.Input{Role: "cluster", Path: o.ClusterPath, SHA256: digest(data)})
	case src.format == dagFormatAlibaba:
		m = dagIdenticalMachines("alibaba", count, dagMergeCapacity(map[string]float64{"cpu": dags.AlibabaMachine[0], "mem": dags.AlibabaMachine[1]}, o.capacity))
	case o.Machines > 0 || o.MachineCapacity != "":
		m = dagIdenticalMachines("machine", count, dagMergeCapacity(dagLargestDemands(src.dags), o.capacity))
	case src.example:
		data := datasets.ExampleFiles()["cluster.yaml"]
		c, err := datasets.ParseCluster("example:cluster.yaml", data, datasets.LoadOptions{})
		if err != nil {
			return nil, nil, fmt.Errorf("embedded example is invalid: %w", err)
		}
		m = dagClusterMachines(c)
		inputs = append(inputs, plan.Input{Role: "cluster", Path: "example:cluster.yaml", SHA256: digest(data)})
	default:
		return nil, nil, optionErrorf("%s: a workload needs machines: give --cluster FILE, or --machines N (with --machine-capacity)", src.path)
	}
	m.pooled = o.Pool
	return m, inputs, nil
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

// dagLargestDemands is, per resource, the largest demand of any task of the
// DAGs: the smallest machine every task fits.
func dagLargestDemands(dags []*dag.DAG) map[string]float64 {
	out := map[string]float64{}
	for _, d := range dags {
		for i := range d.Tasks {
			for k, x := range d.Tasks[i].Demand {
				r := d.Resources[k]
				out[r] = max(out[r], x)
			}
		}
	}
	return out
}

// dagJob is one DAG ready to schedule: machines (the pool in pooled
// mode) and the machines themselves.
type dagJob struct {
	d        *dag.DAG
	machines [][]float64
	own      [][]float64
	observed *int64
}

// buildDAGJobs pairs every DAG with its machines. A job with a task that fits
// no machine is rejected (Alibaba traces) or an error (other inputs).
func buildDAGJobs(src *dagSource, m *dagMachines) ([]dagJob, []plan.DAGRejection, error) {
	var jobs []dagJob
	var rejected []plan.DAGRejection
	for i, d := range src.dags {
		own, err := m.vectors(d.Resources)
		if err != nil {
			return nil, nil, fmt.Errorf("job %s: %w", d.Name, err)
		}
		if err := dag.CheckFit(d, own); err != nil {
			var nf *dag.NoFitError
			if src.format == dagFormatAlibaba && errors.As(err, &nf) {
				rejected = append(rejected, plan.DAGRejection{Job: d.Name, Reason: strings.TrimPrefix(err.Error(), "dag: ")})
				continue
			}
			return nil, nil, fmt.Errorf("%s: job %s: %w", src.path, d.Name, err)
		}
		j := dagJob{d: d, machines: own, own: own, observed: src.observed[i]}
		if m.pooled {
			j.machines = dag.Pool(own)
		}
		jobs = append(jobs, j)
	}
	if len(jobs) == 0 && len(rejected) > 0 {
		return nil, nil, dagNoJobs(src.path, "fits the machines", rejected)
	}
	return jobs, rejected, nil
}

// dagNoJobs is the error for an input of which no job is left.
func dagNoJobs(path, what string, rejected []plan.DAGRejection) error {
	first := ""
	if len(rejected) > 0 {
		r := rejected[0]
		first = fmt.Sprintf("; the first: line %d: %s", r.Line, r.Reason)
		if r.Job != "" {
			first = fmt.Sprintf("; the first: line %d: job %s: %s", r.Line, r.Job, r.Reason)
		}
	}
	return fmt.Errorf("%s: no job %s (%d rejected%s)", path, what, len(rejected), first)
}

// dagLoaded is what schedule and bounds read: the source, the machines,
// the jobs built on them, all inputs with digests, and every rejected job.
type dagLoaded struct {
	src      *dagSource
	machines *dagMachines
	inputs   []plan.Input
	jobs     []dagJob
	rejected []plan.DAGRejection
}

// load reads the source, resolves the machines and builds the jobs,
// reporting the rejected jobs to o.Rejected.
func (o *DAGInput) load() (*dagLoaded, error) {
	src, err := o.readSource()
	if err != nil {
		return nil, err
	}
	machines, inputs, err := o.resolveMachines(src)
	if err != nil {
		return nil, err
	}
	jobs, rejected, err := buildDAGJobs(src, machines)
	if err != nil {
		return nil, err
	}
	rejected = append(src.rejected, rejected...)
	o.reject(src.path, rejected)
	return &dagLoaded{src: src, machines: machines, inputs: append(src.inputs, inputs...), jobs: jobs, rejected: rejected}, nil
}
