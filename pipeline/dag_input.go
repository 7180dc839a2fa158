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
	"github.com/capplan/capplan/internal/inputerr"
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
	// rejectUnfit is DAGInput.RejectUnfit.
	rejectUnfit bool
}

// readSource reads and parses the input named by the options.
func (o *DAGInput) readSource() (*dagSource, error) {
	// src.path names the input in messages ("standard input" for -); the
	// document records the path as given.
	src := &dagSource{path: inputerr.FileName(o.Path), example: o.Example, rejectUnfit: o.RejectUnfit}
	recorded := o.Path
	var data []byte
	if o.Example {
		src.path = "example:workload.yaml"
		recorded = src.path
		data = datasets.ExampleFiles()["workload.yaml"]
	} else {
		var err error
		if data, err = datasets.ReadFile(o.Path, 0); err != nil {
			return nil, err
		}
	}
	format, err := detectDAGFormat(src.path, data, o.Format)
	if err != nil {
		return nil, err
	}
	src.format = format
	src.inputs = []plan.Input{{Role: format, Path: recorded, SHA256: plan.Digest(data)}}
	switch format {
	case dagFormatPSPLIB:
		inst, err := dags.ParsePSPLIB(src.path, bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		base := filepath.Base(recorded)
		if recorded == datasets.Stdin {
			base = "stdin"
		}
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

// dagJob is one DAG ready to schedule: machines (the pool in pooled
// mode) and the machines themselves.
type dagJob struct {
	d        *dag.DAG
	machines [][]float64
	own      [][]float64
	observed *int64
}

// buildDAGJobs pairs every DAG with its machines. A job with a task that fits
// no machine is rejected (Alibaba traces, or DAGInput.RejectUnfit) or an
// error (other inputs).
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
			if (src.format == dagFormatAlibaba || src.rejectUnfit) && errors.As(err, &nf) {
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
	jobs = takeShard(o.shard, jobs, func(j dagJob) *dag.DAG { return j.d })
	return &dagLoaded{src: src, machines: machines, inputs: append(src.inputs, inputs...), jobs: jobs, rejected: rejected}, nil
}
