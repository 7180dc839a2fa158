package pipeline

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/plan"
)

// cheapBounds are the bounds every document lists (dag.LowerBounds).
var cheapBounds = []string{"cpLength", "energy", "newLB", "nodePacking", "bin"}

// newDAGJobInfo describes d on machines with its bounds b (dag.LowerBounds,
// dag.AllBounds or a dag.Best result's). The bounds' wall-clock times are
// recorded only with timings (the one machine-dependent field).
func newDAGJobInfo(d *dag.DAG, b dag.Bounds, timings bool) plan.DAGJobInfo {
	sec := d.Seconds
	info := plan.DAGJobInfo{
		Name: d.Name, NumTasks: d.N(), Edges: d.Edges(), Stages: len(d.Stages),
		Resources: d.Resources, Unit: d.Unit,
		Bounds: plan.DAGBoundSet{
			CPLength: sec(b.CP), Energy: sec(b.Energy), NewLB: sec(b.NewLB),
			NodePacking: sec(b.NodePacking), Bin: sec(b.Bin), Best: sec(b.Best),
			TWorkByResource: map[string]float64{},
		},
	}
	for _, name := range dag.BoundNames {
		v := b.Value(name)
		if v == 0 && b.Work[name] == 0 && !slices.Contains(cheapBounds, name) {
			continue // not computed
		}
		bd := plan.DAGBound{Name: name, Value: sec(v), Work: b.Work[name]}
		if el, ok := b.Elapsed[name]; ok && timings {
			x := el.Seconds()
			bd.Seconds = &x
		}
		info.Bounds.List = append(info.Bounds.List, bd)
	}
	info.Bounds.BestBy = b.BestBy
	for r, w := range b.TWork {
		v := w * d.Unit
		info.Bounds.TWorkByResource[d.Resources[r]] = v
		info.Bounds.TWork = math.Max(info.Bounds.TWork, v)
	}
	if info.Resources == nil {
		info.Resources = []string{}
	}
	return info
}

// newDAGJob builds a job's record from a schedule produced by method. It
// returns an error, an internal one, when the schedule fails dag.Check or
// is shorter than the best lower bound: neither may be written.
func newDAGJob(d *dag.DAG, machines [][]float64, s *dag.Schedule, b dag.Bounds, method string) (plan.DAGJob, error) {
	if v := dag.Check(d, machines, s); len(v) > 0 {
		return plan.DAGJob{}, fmt.Errorf("internal error: %s: the %s schedule fails the check: %v (and %d more)", d.Name, method, v[0], len(v)-1)
	}
	ms := s.Makespan()
	if ms < b.Best {
		return plan.DAGJob{}, fmt.Errorf("internal error: %s: the %s schedule's makespan %d is below the lower bound %d", d.Name, method, ms, b.Best)
	}
	lo := int64(0)
	if d.N() > 0 {
		lo = s.Start[0]
		for _, t := range s.Start {
			lo = min(lo, t)
		}
	}
	j := plan.DAGJob{
		DAGJobInfo: newDAGJobInfo(d, b, false),
		Makespan:   d.Seconds(ms),
		Gap:        dag.Gap(ms, b.Best),
		Optimal:    ms == b.Best,
		Method:     method,
		Order:      make([]string, 0, d.N()),
		Tasks:      make([]plan.DAGTask, d.N()),
	}
	j.Certificate = plan.DAGCertificate(j.Makespan, j.Bounds)
	for _, i := range s.Order() {
		j.Order = append(j.Order, d.Tasks[i].ID)
	}
	for i := range d.Tasks {
		j.Tasks[i] = plan.DAGTask{ID: d.Tasks[i].ID, Start: d.Seconds(s.Start[i] - lo), End: d.Seconds(s.End[i] - lo), Machine: s.Machine[i]}
	}
	return j, nil
}

// newDAGCheckJob records the assessment of an observed schedule of d.
func newDAGCheckJob(d *dag.DAG, a dag.Assessment) plan.DAGCheckJob {
	info := newDAGJobInfo(d, a.Bounds, false)
	j := plan.DAGCheckJob{
		DAGJobInfo: info,
		Makespan:   d.Seconds(a.Makespan),
		Gap:        a.Gap,
		Gaps:       map[string]float64{},
		Feasible:   len(a.Violations) == 0,
		Violations: []plan.DAGViolation{},
	}
	ms := j.Makespan
	j.Certificate = plan.DAGCertificate(ms, info.Bounds)
	if !j.Feasible {
		j.Certificate = fmt.Sprintf("infeasible (%d violations)", len(a.Violations))
	}
	for _, bd := range info.Bounds.List {
		j.Gaps[bd.Name] = gap(ms, bd.Value)
	}
	for k, v := range info.Bounds.Values() {
		j.Gaps[plan.BoundNames[k]] = gap(ms, v)
	}
	for _, v := range a.Violations {
		j.Violations = append(j.Violations, newDAGViolation(d, v))
	}
	return j
}

// gap is makespan/bound − 1, 0 when the bound is not positive.
func gap(makespan, bound float64) float64 {
	if bound <= 0 {
		return 0
	}
	return makespan/bound - 1
}

func newDAGViolation(d *dag.DAG, v dag.Violation) plan.DAGViolation {
	out := plan.DAGViolation{Kind: v.Kind.String(), Task: v.Task, Machine: -1, Time: d.Seconds(v.Time), Until: d.Seconds(v.Until)}
	num := strconv.FormatFloat
	t, u := num(out.Time, 'f', -1, 64), num(out.Until, 'f', -1, 64)
	switch v.Kind {
	case dag.Precedence:
		out.Pred = v.Pred
		out.Message = fmt.Sprintf("task %s starts at %s, before its predecessor %s ends at %s", v.Task, t, v.Pred, u)
	case dag.Capacity:
		out.Machine, out.Resource, out.Used, out.Capacity = v.Machine, v.Resource, v.Used, v.Capacity
		out.Message = fmt.Sprintf("machine %d is over its %s capacity over [%s, %s): %s used > %s (overload starts with task %s)",
			v.Machine, v.Resource, t, u, num(v.Used, 'f', -1, 64), num(v.Capacity, 'f', -1, 64), v.Task)
	case dag.Duration:
		out.Machine = v.Machine
		want := d.Seconds(taskDuration(d, v.Task))
		out.Message = fmt.Sprintf("task %s runs over [%s, %s), %s long, but its duration is %s", v.Task, t, u,
			num(out.Until-out.Time, 'f', -1, 64), num(want, 'f', -1, 64))
	default:
		out.Machine = v.Machine
		out.Time, out.Until = 0, 0
		if v.Machine < 0 {
			out.Message = fmt.Sprintf("task %s has a positive duration but no machine", v.Task)
		} else {
			out.Message = fmt.Sprintf("task %s is on machine %d, which does not exist", v.Task, v.Machine)
		}
	}
	return out
}

func taskDuration(d *dag.DAG, id string) int64 {
	if i, ok := d.Index(id); ok {
		return d.Tasks[i].Duration
	}
	return 0
}
