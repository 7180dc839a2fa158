package pipeline

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/internal/memguard"
	"github.com/capplan/capplan/internal/par"
	"github.com/capplan/capplan/plan"
)

// DAGScheduleOptions are the options of DAGSchedule (`capplan dag
// schedule`).
type DAGScheduleOptions struct {
	Input DAGInput
	// Method is one of DAGMethods ("" = best).
	Method string
	// Compare lists methods whose makespans are also reported.
	Compare []string
	// Seed drives every random choice (random rule, sampling, the genetic
	// algorithm of best); at most math.MaxInt64.
	Seed uint64
	// Budget bounds best's search per job (--method best only).
	Budget DAGBudget
	// Generator names the tool in the document header.
	Generator string
}

// DAGScheduleResult is a DAGSchedule document with run statistics.
type DAGScheduleResult struct {
	Doc   *plan.DAGSchedule
	Stats DAGStats
}

// DAGStats are the timings of a DAG job: reading the input and building
// the jobs, then processing them Workers at a time.
type DAGStats struct {
	Load, Run time.Duration
	Workers   int
}

// DAGSchedule builds a preferred schedule for every job DAG of the input
// and measures it against the lower bounds:
//
//  1. read the input (Workload, PSPLIB or Alibaba), choose the machines and
//     pair every DAG with them; a job with a task that fits no machine is
//     rejected (Alibaba) or an error;
//  2. schedule each job with the method (dag.Best or a named scheduler),
//     Input.Workers jobs at a time; jobs keep their input order;
//  3. check every schedule independently (dag.Check) and against the best
//     lower bound (a makespan below it is an internal error), add the
//     pooled, comparison and observed evidence, and build the document.
func DAGSchedule(o DAGScheduleOptions) (*DAGScheduleResult, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	t0 := time.Now()
	ld, err := o.Input.load()
	if err != nil {
		return nil, err
	}
	if err := ld.checkMemory(o.Input.MemoryLimit); err != nil {
		return nil, err
	}
	tLoad := time.Now()
	seed := int64(o.Seed)
	doc := &plan.DAGSchedule{
		Header: header(plan.KindDAGSchedule, o.Generator, ld.inputs, o.flags(), &seed),
		Format: ld.src.format, Method: o.Method, Pooled: ld.machines.pooled, Machines: ld.machines.docGroups(),
		Jobs: make([]plan.DAGJob, len(ld.jobs)), Rejected: ld.rejected,
	}
	ld.machines.annotate(&doc.Header)
	cut := make([]bool, len(ld.jobs))
	inner := par.Share(len(ld.jobs), o.Input.Workers)
	err = o.Input.forEachJob(len(ld.jobs), func(i int) error {
		j, c, err := o.scheduleJob(&ld.jobs[i], inner)
		doc.Jobs[i], cut[i] = j, c
		return err
	})
	if err != nil {
		return nil, err
	}
	if o.Method == "best" {
		doc.Search = &plan.Search{WorkUnit: "dag work units per job", WorkBudget: o.Budget.MaxWork, TimeLimit: o.Budget.TimeLimit.Seconds(),
			CutByTimeLimit: slices.Contains(cut, true)}
	}
	doc.Summarize()
	return &DAGScheduleResult{Doc: doc, Stats: DAGStats{Load: tLoad.Sub(t0), Run: time.Since(tLoad), Workers: o.Input.Workers}}, nil
}

func (o *DAGScheduleOptions) validate() error {
	if err := o.Input.validate(); err != nil {
		return err
	}
	if o.Method == "" {
		o.Method = "best"
	}
	if err := checkDAGMethod("--method", o.Method); err != nil {
		return err
	}
	o.Compare = slices.Compact(slices.Sorted(slices.Values(o.Compare)))
	for _, m := range o.Compare {
		if err := checkDAGMethod("--compare method", m); err != nil {
			return err
		}
	}
	switch {
	case o.Seed > math.MaxInt64:
		return optionErrorf("invalid --seed %d: at most %d", o.Seed, int64(math.MaxInt64))
	case o.Budget.set() && o.Method != "best":
		return optionErrorf("--budget and --time-limit apply to --method best only")
	}
	return o.Budget.validate()
}

// flags records the options that shape a DAGSchedule, by flag name.
func (o *DAGScheduleOptions) flags() map[string]string {
	m := map[string]string{"method": o.Method}
	o.Input.flags(m)
	o.Budget.flags(m)
	if len(o.Compare) > 0 {
		m["compare"] = strings.Join(o.Compare, ",")
	}
	return m
}

// dagOptions are the scheduler options of one job.
func (o *DAGScheduleOptions) dagOptions(inner int) dag.Options {
	return o.Budget.options(o.Seed, inner)
}

// scheduleJob schedules one job with the method, checks the schedule and
// adds the pooled-mode, comparison and observed evidence. cut reports
// whether best's search lasted the time limit without reaching a lower
// bound or its work budget: the limit cut it.
func (o *DAGScheduleOptions) scheduleJob(j *dagJob, inner int) (out plan.DAGJob, cut bool, err error) {
	d, err := j.dag()
	if err != nil {
		return plan.DAGJob{}, false, err
	}
	opts := o.dagOptions(inner)
	var s *dag.Schedule
	var b dag.Bounds
	method, schedules := o.Method, 0
	var work int64
	if o.Method == "best" {
		r, err := dag.Best(d, j.machines, opts)
		if err != nil {
			return plan.DAGJob{}, false, fmt.Errorf("job %s: %w", d.Name, err)
		}
		s, b, method, schedules = r.Schedule, r.Bounds, r.Method, r.Schedules
		work, cut = r.WorkUsed, r.TimeLimitHit
	} else {
		if s, err = runDAGMethod(o.Method, d, j.machines, opts); err != nil {
			return plan.DAGJob{}, false, err
		}
		b = dag.LowerBounds(d, j.machines)
	}
	if out, err = newDAGJob(d, j.machines, s, b, method); err != nil {
		return plan.DAGJob{}, false, err
	}
	out.Schedules, out.WorkUsed, out.TimeLimitHit = schedules, work, cut
	if o.Input.Pool {
		ms, err := dagMakespan(o.Method, d, j.own, opts)
		if err != nil {
			return plan.DAGJob{}, false, err
		}
		out.MachinesMakespan = &ms
	}
	for _, m := range o.Compare {
		ms, err := dagMakespan(m, d, j.machines, opts)
		if err != nil {
			return plan.DAGJob{}, false, err
		}
		if out.Compare == nil {
			out.Compare = map[string]float64{}
		}
		out.Compare[m] = ms
	}
	if j.observed != nil {
		span := d.Seconds(*j.observed)
		g := dag.Gap(*j.observed, b.Best)
		out.ObservedSpan, out.ObservedGap = &span, &g
	}
	return out, cut, nil
}

// runDAGMethod runs a library scheduler (or an alias) and normalises the
// schedule to start at 0.
func runDAGMethod(name string, d *dag.DAG, machines [][]float64, opts dag.Options) (*dag.Schedule, error) {
	lib := name
	if a, ok := dagMethodAliases[name]; ok {
		lib = a
	}
	s, err := dag.Run(lib, d, machines, opts)
	if err != nil {
		return nil, fmt.Errorf("job %s: %w", d.Name, err)
	}
	s.Normalize()
	return s, nil
}

// dagMakespan runs a method and returns its checked makespan in seconds.
func dagMakespan(method string, d *dag.DAG, machines [][]float64, opts dag.Options) (float64, error) {
	var s *dag.Schedule
	if method == "best" {
		r, err := dag.Best(d, machines, opts)
		if err != nil {
			return 0, fmt.Errorf("job %s: %w", d.Name, err)
		}
		s = r.Schedule
	} else {
		var err error
		if s, err = runDAGMethod(method, d, machines, opts); err != nil {
			return 0, err
		}
	}
	if v := dag.Check(d, machines, s); len(v) > 0 {
		return 0, fmt.Errorf("internal error: %s: the %s schedule fails the check: %v", d.Name, method, v[0])
	}
	return d.Seconds(s.Makespan()), nil
}

// dagTaskBytes estimates the memory one scheduled task costs until the
// document is written: its entries in the document (order and placement,
// about 70 bytes), its share of the encoded output held while writing,
// and the collector's headroom. Measured: the Alibaba sample's 491,136
// tasks peaked at 392 MB with JSON output and 496 MB with --xlsx.
const dagTaskBytes = 500

// checkMemory refuses a schedule whose document would not fit in limit
// bytes (0: no limit), before any job is scheduled.
func (ld *dagLoaded) checkMemory(limit uint64) error {
	tasks := 0
	for i := range ld.jobs {
		tasks += ld.jobs[i].tasks
	}
	if need := uint64(tasks) * dagTaskBytes; limit > 0 && need > limit {
		return fmt.Errorf("%s: the schedules of %d jobs and %d tasks need about %s, more than the --max-memory limit of %s: raise --max-memory, lower --max-tasks, or schedule part of the input",
			ld.src.path, len(ld.jobs), tasks, memguard.Bytes(need), memguard.Bytes(limit))
	}
	return nil
}
