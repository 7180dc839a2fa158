package pipeline

import (
	"fmt"
	"math"
	"reflect"

	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// checkDAGDoc re-verifies a DAGSchedule document: its machines are those
// the inputs give, and DAGCheck (dag.Assess on the jobs rebuilt from the
// inputs) finds no violation of precedence, capacity, duration or
// machines in any schedule; every job's makespan is the document's and at
// least every lower bound, recomputed, which the document reports; the
// jobs left out are those that fit no machine.
func checkDAGDoc(in DAGInput, path string, doc *plan.DAGSchedule) (string, error) {
	what := fmt.Sprintf("%s %s dag.Assess (precedence, capacity, machines) and their makespans are at least every recomputed lower bound", plural.Count(len(doc.Jobs), "DAG schedule"), plural.Verb(len(doc.Jobs), "passes", "pass"))
	if err := in.validate(); err != nil {
		return what, err
	}
	src, err := in.readSource()
	if err != nil {
		return what, err
	}
	machines, _, err := in.resolveMachines(src)
	if err != nil {
		return what, err
	}
	if groups := machines.docGroups(); !reflect.DeepEqual(groups, doc.Machines) {
		return what, fmt.Errorf("%s: the machines are not the cluster's: %d groups, the inputs give %d", PlanDAGFile, len(doc.Machines), len(groups))
	}
	_, rejected, err := buildDAGJobs(src, machines)
	if err != nil {
		return what, err
	}
	if !sameJobs(rejected, doc.Rejected) {
		return what, fmt.Errorf("%s: rejected lists %d jobs, %d jobs of the workload fit no machine", PlanDAGFile, len(doc.Rejected), len(rejected))
	}
	chk, err := DAGCheck(DAGCheckOptions{Input: in, SchedulePath: path})
	if err != nil {
		return what, err
	}
	if len(chk.Jobs) != len(doc.Jobs) {
		return what, fmt.Errorf("%s: %d jobs checked of %d", PlanDAGFile, len(chk.Jobs), len(doc.Jobs))
	}
	for i, j := range chk.Jobs {
		s := doc.Jobs[i]
		field := fmt.Sprintf("%s: jobs[%d] (%s)", PlanDAGFile, i, s.Name)
		if len(j.Violations) > 0 {
			v := j.Violations[0]
			return what, fmt.Errorf("%s: the schedule breaks %d constraints, the first: %+v", field, len(j.Violations), v)
		}
		if j.Name != s.Name || !nearTime(j.Makespan, s.Makespan) {
			return what, fmt.Errorf("%s: makespan %v, the schedule's tasks end at %v", field, s.Makespan, j.Makespan)
		}
		got, want := s.Bounds.Values(), j.Bounds.Values()
		for k, name := range plan.BoundNames {
			if !nearTime(got[k], want[k]) {
				return what, fmt.Errorf("%s: bounds.%s %v, the recomputed bound is %v", field, name, got[k], want[k])
			}
			if j.Makespan < want[k]*(1-1e-9) {
				return what, fmt.Errorf("%s: makespan %v is below the %s bound %v", field, j.Makespan, name, want[k])
			}
		}
	}
	return what, nil
}

// nearTime compares two times in seconds to a relative 1e-9.
func nearTime(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// sameJobs reports whether two rejection lists name the same jobs in order.
func sameJobs(a, b []plan.DAGRejection) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Job != b[i].Job {
			return false
		}
	}
	return true
}
