package pipeline

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/internal/inputerr"
	"github.com/capplan/capplan/plan"
)

// dagSource is a parsed DAG input, before machines are chosen. Its jobs
// are kept unexpanded: a job's task-level DAG is built when it is checked
// and again when a worker processes it, so memory holds the DAGs of the
// jobs in progress only, never all of them.
type dagSource struct {
	format string
	path   string
	inputs []plan.Input
	// jobs are the input's jobs in input order.
	jobs     []dagSpec
	rejected []plan.DAGRejection
	psplib   *dags.PSPLIB
	example  bool
	// largest is, per resource, the largest demand of any task
	// (workloads), the default machine of --machines.
	largest map[string]float64
	// rejectUnfit is DAGInput.RejectUnfit.
	rejectUnfit bool
}

// dagSpec is one input job: its name, how to build its DAG, and the run
// time a trace observed (Alibaba), in ticks.
type dagSpec struct {
	name     string
	build    func() (*dag.DAG, error)
	observed *int64
}

// readSource reads and parses the input named by the options. An Alibaba
// trace is streamed (memory O(rows)); the other formats are read whole.
func (o *DAGInput) readSource() (*dagSource, error) {
	// src.path names the input in messages ("standard input" for -); the
	// document records the path as given.
	src := &dagSource{path: inputerr.FileName(o.Path), example: o.Example, rejectUnfit: o.RejectUnfit}
	recorded := o.Path
	var r io.Reader
	name := src.path
	if o.Example {
		src.path = "example:workload.yaml"
		recorded = src.path
		r = bytes.NewReader(datasets.ExampleFiles()["workload.yaml"])
	} else {
		rc, n, err := datasets.Open(o.Path)
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		r, name = rc, n
	}
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(4096) // a shorter input is all head
	format, err := detectDAGFormat(src.path, head, o.Format)
	if err != nil {
		return nil, err
	}
	src.format = format
	digest := sha256.New()
	in := io.TeeReader(br, digest)
	if format == dagFormatAlibaba {
		err = o.readAlibaba(src, in)
	} else {
		var data []byte
		if data, err = datasets.ReadAll(in, name, 0); err == nil {
			err = o.readDocument(src, data, recorded)
		}
	}
	if err != nil {
		return nil, err
	}
	src.inputs = []plan.Input{{Role: format, Path: recorded, SHA256: hex.EncodeToString(digest.Sum(nil))}}
	return src, nil
}

// readDocument parses a PSPLIB file or a capplan Workload read whole;
// recorded is the path as given ("-" for standard input).
func (o *DAGInput) readDocument(src *dagSource, data []byte, recorded string) error {
	switch src.format {
	case dagFormatPSPLIB:
		inst, err := dags.ParsePSPLIB(src.path, bytes.NewReader(data))
		if err != nil {
			return err
		}
		base := filepath.Base(recorded)
		if recorded == datasets.Stdin {
			base = "stdin"
		}
		inst.DAG.Name = strings.TrimSuffix(base, filepath.Ext(base))
		src.psplib = inst
		src.jobs = []dagSpec{{name: inst.DAG.Name, build: func() (*dag.DAG, error) { return inst.DAG, nil }}}
	case dagFormatWorkload:
		w, err := datasets.ParseWorkload(src.path, data)
		if err != nil {
			return err
		}
		limit := o.MaxTasks
		if limit == 0 {
			limit = dags.DefaultMaxTasks
		}
		src.largest = map[string]float64{}
		for i := range w.Jobs {
			j := &w.Jobs[i]
			n := len(j.Tasks)
			for _, s := range j.Stages {
				n += s.Tasks
				largestDemands(src.largest, s.Demand)
			}
			for _, t := range j.Tasks {
				largestDemands(src.largest, t.Demand)
			}
			if n > limit {
				return fmt.Errorf("%s: job %s has %d tasks, more than the limit of %d (--max-tasks): %w", src.path, j.Name, n, limit, dag.ErrTooLarge)
			}
			opts := dags.WorkloadOptions{MaxEdges: o.MaxEdges}
			src.jobs = append(src.jobs, dagSpec{name: j.Name, build: func() (*dag.DAG, error) {
				d, err := dags.FromJob(j, nil, opts)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", w.Source, err)
				}
				return d, nil
			}})
		}
	}
	return nil
}

// largestDemands raises out[r] to every demand of m, in base units.
func largestDemands(out map[string]float64, m map[string]resource.Quantity) {
	for r, q := range m {
		out[r] = max(out[r], datasets.Base(q))
	}
}

// readAlibaba streams an Alibaba v2018 batch_task trace: rows grouped by
// job and checked, each job expanded only when it is needed.
func (o *DAGInput) readAlibaba(src *dagSource, r io.Reader) error {
	tr, err := dags.ReadAlibabaRows(src.path, r, dags.AlibabaOptions{MaxTasks: o.MaxTasks, MaxEdges: o.MaxEdges})
	if err != nil {
		return err
	}
	for i := range tr.Jobs {
		j := &tr.Jobs[i]
		span := j.ObservedSpan()
		src.jobs = append(src.jobs, dagSpec{name: j.Name, build: j.DAG, observed: &span})
	}
	for _, r := range tr.Rejected {
		src.rejected = append(src.rejected, plan.DAGRejection{Job: r.Job, Line: r.Line, Reason: r.Reason})
	}
	if len(src.jobs) == 0 {
		return dagNoJobs(src.path, "could be read", src.rejected)
	}
	return nil
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

// dagJob is one job ready to schedule: its DAG (built on demand), the
// machines (the pool in pooled mode) and the machines themselves.
type dagJob struct {
	name     string
	tasks    int
	build    func() (*dag.DAG, error)
	machines [][]float64
	own      [][]float64
	observed *int64
}

// costDAG builds the job's DAG for a shard's cost estimate (nil when it
// fails to build); the caller drops it at once, so that memory stays one
// DAG at a time.
func (j *dagJob) costDAG() *dag.DAG {
	d, err := j.build()
	if err != nil {
		return nil
	}
	return d
}

// dag builds the job's DAG afresh; the caller drops it when done.
func (j *dagJob) dag() (*dag.DAG, error) {
	d, err := j.build()
	if err != nil {
		return nil, fmt.Errorf("job %s: %w", j.name, err)
	}
	return d, nil
}

// buildDAGJobs pairs every job with its machines, building each DAG once,
// one at a time, to check it: a job with a task that fits no machine, or
// whose durations or capacity-to-demand ratio leave the range the dag
// package computes in (dags.CheckTicks, dags.CheckScale), is rejected
// (Alibaba traces, or DAGInput.RejectUnfit) or an error (other inputs).
func buildDAGJobs(src *dagSource, m *dagMachines) ([]dagJob, []plan.DAGRejection, error) {
	var jobs []dagJob
	var rejected []plan.DAGRejection
	for _, spec := range src.jobs {
		d, err := spec.build()
		if err != nil {
			return nil, nil, err
		}
		own, err := m.vectors(d.Resources)
		if err != nil {
			return nil, nil, fmt.Errorf("job %s: %w", d.Name, err)
		}
		err = dag.CheckFit(d, own)
		if err == nil {
			err = dags.CheckTicks(d)
		}
		if err == nil {
			err = dags.CheckScale(d, own)
		}
		if err != nil {
			var nf *dag.NoFitError
			var ie *dag.InputError
			if (src.format == dagFormatAlibaba || src.rejectUnfit) && (errors.As(err, &nf) || errors.As(err, &ie)) {
				rejected = append(rejected, plan.DAGRejection{Job: d.Name, Reason: strings.TrimPrefix(err.Error(), "dag: ")})
				continue
			}
			return nil, nil, fmt.Errorf("%s: job %s: %w", src.path, d.Name, err)
		}
		j := dagJob{name: d.Name, tasks: d.N(), build: spec.build, machines: own, own: own, observed: spec.observed}
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
	jobs = takeShard(o.shard, jobs, func(j dagJob) *dag.DAG { return j.costDAG() })
	return &dagLoaded{src: src, machines: machines, inputs: append(src.inputs, inputs...), jobs: jobs, rejected: rejected}, nil
}
