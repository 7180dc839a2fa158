package pipeline

import (
	"fmt"
	"strings"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/inputerr"
	"github.com/capplan/capplan/plan"
)

// DAGCheckOptions are the options of DAGCheck (`capplan dag check`).
type DAGCheckOptions struct {
	Input DAGInput
	// SchedulePath is the schedule to check: a DAGSchedule JSON document
	// ({"jobs": [{"name", "tasks": [{"id", "start", "end", "machine"}]}]};
	// one DAG may give just {"tasks": […]}) or a CSV file with the header
	// job,task,start,end,machine (job optional for one DAG). Times are in
	// seconds (PSPLIB: periods); machine is an index or a machine name.
	SchedulePath string
	// Budget bounds the destructive bounds per job.
	Budget DAGBudget
	// Generator names the tool in the document header.
	Generator string
}

// DAGCheck checks a schedule (observed in a cluster, made by hand or by
// another tool) against the job DAGs and the machines, and measures it
// against the lower bounds:
//
//  1. read the DAG input and the schedule; the machines are those the
//     machine options give, else those the schedule's DAGSchedule document
//     lists, else those DAGSchedule would use;
//  2. match every scheduled job with its DAG (input order), refining the
//     DAG's clock where the schedule's times need a finer tick;
//  3. assess each schedule (dag.Assess: every precedence, capacity,
//     duration and machine violation, and the gap to each bound) and build
//     the document.
//
// A schedule with violations is a valid result: the document lists them
// (Summary.Violations); the caller decides what that means for it.
func DAGCheck(o DAGCheckOptions) (*plan.DAGCheck, error) {
	if err := o.Input.validate(); err != nil {
		return nil, err
	}
	if o.SchedulePath == "" {
		return nil, optionErrorf("--schedule is required: the schedule to check (DAGSchedule JSON or CSV job,task,start,end,machine)")
	}
	if err := o.Budget.validate(); err != nil {
		return nil, err
	}
	src, err := o.Input.readSource()
	if err != nil {
		return nil, err
	}
	data, err := datasets.ReadFile(o.SchedulePath, 0)
	if err != nil {
		return nil, err
	}
	ob, err := readDAGObserved(inputerr.FileName(o.SchedulePath), data)
	if err != nil {
		return nil, err
	}
	var machines *dagMachines
	var inputs []plan.Input
	pooled := o.Input.Pool
	if o.Input.machineOptions() || ob.machines == nil {
		if machines, inputs, err = o.Input.resolveMachines(src); err != nil {
			return nil, err
		}
	} else {
		machines, pooled = &dagMachines{groups: ob.machines}, ob.pooled
	}
	jobs, rejected, err := buildDAGJobs(src, machines)
	if err != nil {
		return nil, err
	}
	rejected = append(src.rejected, rejected...)
	matched, err := matchDAGObserved(ob, src, jobs, rejected)
	if err != nil {
		return nil, err
	}
	matched = takeShard(o.Input.shard, matched, func(m dagMatch) *dag.DAG { return jobs[m.job].costDAG() })
	flags := map[string]string{}
	o.Input.flags(flags)
	o.Budget.flags(flags)
	inputs = append(append(src.inputs, inputs...), plan.Input{Role: "schedule", Path: o.SchedulePath, SHA256: plan.Digest(data)})
	groups := machines.docGroups()
	doc := &plan.DAGCheck{
		Header:   header(plan.KindDAGCheck, o.Generator, inputs, flags, nil),
		Format:   src.format,
		Pooled:   pooled,
		Machines: groups,
		Jobs:     make([]plan.DAGCheckJob, len(matched)),
	}
	machines.annotate(&doc.Header)
	names := dagMachineIndex(groups)
	err = o.Input.forEachJob(len(matched), func(i int) error {
		m := matched[i]
		j := &jobs[m.job]
		d, err := j.dag()
		if err != nil {
			return err
		}
		d, s, err := dagObservedSchedule(o.SchedulePath, d, len(j.machines), names, ob.jobs[m.observed])
		if err != nil {
			return err
		}
		a, err := dag.AssessAll(d, j.machines, s, o.Budget.options(0, 1))
		if err != nil {
			return fmt.Errorf("job %s: %w", d.Name, err)
		}
		doc.Jobs[i] = newDAGCheckJob(d, a)
		return nil
	})
	if err != nil {
		return nil, err
	}
	doc.Summarize()
	return doc, nil
}

// dagMatch pairs an observed job with an input job (indices).
type dagMatch struct{ observed, job int }

// matchDAGObserved finds each observed job's DAG, in input order. A
// schedule without job names matches an input with one DAG.
func matchDAGObserved(ob *dagObserved, src *dagSource, jobs []dagJob, rejected []plan.DAGRejection) ([]dagMatch, error) {
	byName := map[string]int{}
	for i, j := range jobs {
		byName[j.name] = i
	}
	if len(ob.jobs) == 1 && ob.jobs[0].name == "" {
		if len(jobs) != 1 {
			return nil, fmt.Errorf("%s: the schedule names no job, but %s has %d jobs: add a job column (CSV) or jobs[].name (JSON)", ob.path, src.path, len(jobs))
		}
		return []dagMatch{{0, 0}}, nil
	}
	seen := map[string]bool{}
	var out []dagMatch
	for k, oj := range ob.jobs {
		switch {
		case oj.name == "":
			return nil, fmt.Errorf("%s: %s: job without a name in a schedule of several jobs", ob.path, oj.where)
		case seen[oj.name]:
			return nil, fmt.Errorf("%s: %s: job %s appears twice", ob.path, oj.where, oj.name)
		}
		seen[oj.name] = true
		i, ok := byName[oj.name]
		if !ok && len(jobs) == 1 && len(ob.jobs) == 1 {
			// One DAG and one job: a hand-written name may differ.
			i, ok = 0, true
		}
		if !ok {
			for _, r := range rejected {
				if r.Job == oj.name {
					return nil, fmt.Errorf("%s: %s: job %s was rejected from %s: %s", ob.path, oj.where, oj.name, src.path, r.Reason)
				}
			}
			return nil, fmt.Errorf("%s: %s: job %q is not in %s", ob.path, oj.where, oj.name, src.path)
		}
		out = append(out, dagMatch{k, i})
	}
	// Input order.
	for a := 1; a < len(out); a++ {
		for b := a; b > 0 && out[b].job < out[b-1].job; b-- {
			out[b], out[b-1] = out[b-1], out[b]
		}
	}
	return out, nil
}

// dagMachineIndex maps machine names to indices.
func dagMachineIndex(groups []plan.DAGMachineGroup) map[string]int {
	out := map[string]int{}
	for _, g := range groups {
		for i := g.First; i < g.First+g.Count; i++ {
			out[plan.MachineName(groups, i)] = i
		}
	}
	return out
}

// dagObservedSchedule turns an observed job into a dag.Schedule on the DAG,
// refined to a finer tick when the times need one. Every task must appear
// exactly once.
func dagObservedSchedule(path string, d *dag.DAG, machines int, names map[string]int, job dagObservedJob) (*dag.DAG, *dag.Schedule, error) {
	unit, factor, err := dagObservedUnit(path, d, job)
	if err != nil {
		return nil, nil, err
	}
	if d, err = refineDAG(d, unit, factor); err != nil {
		return nil, nil, fmt.Errorf("internal error: refining %s to ticks of %v: %w", d.Name, unit, err)
	}
	s := dag.NewSchedule(d.N())
	seen := make([]bool, d.N())
	for _, t := range job.tasks {
		i, ok := d.Index(t.id)
		if !ok {
			return nil, nil, fmt.Errorf("%s: %s: task %q is not a task of job %s", path, t.where, t.id, d.Name)
		}
		if seen[i] {
			return nil, nil, fmt.Errorf("%s: %s: task %s appears twice", path, t.where, t.id)
		}
		seen[i] = true
		s.Start[i], _ = dagWholeTicks(t.start, unit)
		s.End[i], _ = dagWholeTicks(t.end, unit)
		s.Machine[i] = t.machine
		if t.machineName != "" {
			m, ok := names[t.machineName]
			if !ok {
				return nil, nil, fmt.Errorf("%s: %s: unknown machine %q: want an index 0 … %d or a machine name", path, t.where, t.machineName, machines-1)
			}
			s.Machine[i] = m
		}
	}
	var missing []string
	for i, ok := range seen {
		if !ok {
			missing = append(missing, d.Tasks[i].ID)
		}
	}
	if n := len(missing); n > 0 {
		more := ""
		if n > 8 {
			more = fmt.Sprintf(" and %d more", len(missing)-8)
			missing = missing[:8]
		}
		return nil, nil, fmt.Errorf("%s: job %s: %d of %d tasks have no schedule: %s%s", path, d.Name, n, d.N(), strings.Join(missing, ", "), more)
	}
	return d, s, nil
}
