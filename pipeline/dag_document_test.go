package pipeline

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/plan"
)

// chain builds a → b and an independent c on resource cpu, in ticks of
// half a second: a 2 ticks (1 s) of 2 cpu, b 4 ticks of 1 cpu, c 2 ticks
// of 2 cpu.
func chain(t *testing.T) *dag.DAG {
	t.Helper()
	b := dag.NewBuilder("chain", []string{"cpu"}, 0.5)
	a := b.AddTask("a", -1, 2, []float64{2})
	bb := b.AddTask("b", -1, 4, []float64{1})
	b.AddTask("c", -1, 2, []float64{2})
	b.AddEdge(a, bb)
	d, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestNewDAGJob(t *testing.T) {
	d := chain(t)
	machines := [][]float64{{2}}
	// On one machine of 2 cpu: a [0,2), c [2,4), b [4,8): 8 ticks = 4 s.
	// Bounds (ticks): critical path a+b = 6; energy ⌈(2·2+4·1+2·2)/2⌉ = 6.
	s := &dag.Schedule{Start: []int64{10, 14, 12}, End: []int64{12, 18, 14}, Machine: []int{0, 0, 0}}
	b := dag.LowerBounds(d, machines)
	j, err := newDAGJob(d, machines, s, b, "hand")
	if err != nil {
		t.Fatal(err)
	}
	if j.Makespan != 4 || j.Bounds.CPLength != 3 || j.Bounds.Energy != 3 || j.Bounds.TWork != 3 {
		t.Errorf("makespan %v, bounds %+v", j.Makespan, j.Bounds)
	}
	// Times are shifted to start at 0 and converted to seconds.
	if j.Tasks[1] != (plan.DAGTask{ID: "b", Start: 2, End: 4, Machine: 0}) {
		t.Errorf("task b %+v", j.Tasks[1])
	}
	if !slices.Equal(j.Order, []string{"a", "c", "b"}) {
		t.Errorf("order %v", j.Order)
	}
	if want := 4.0/j.Bounds.Best - 1; j.Gap != want || j.Optimal != (j.Bounds.Best == 4) {
		t.Errorf("gap %v (want %v), optimal %v", j.Gap, want, j.Optimal)
	}
	// b before a ends: refused as an internal error.
	bad := &dag.Schedule{Start: []int64{0, 1, 4}, End: []int64{2, 5, 6}, Machine: []int{0, 0, 0}}
	if _, err := newDAGJob(d, machines, bad, b, "hand"); err == nil || !strings.Contains(err.Error(), "internal error") {
		t.Errorf("infeasible schedule accepted: %v", err)
	}
}

func TestNewDAGCheckJob(t *testing.T) {
	d := chain(t)
	machines := [][]float64{{2}}
	// a and c overlap on ticks [0,2) (4 cpu > 2), b joins them at 1 (5
	// cpu) before a ends at 2: one overload over [0,2) and one precedence
	// violation.
	s := &dag.Schedule{Start: []int64{0, 1, 0}, End: []int64{2, 5, 2}, Machine: []int{0, 0, 0}}
	j := newDAGCheckJob(d, dag.Assess(d, machines, s))
	if j.Feasible || len(j.Violations) != 2 {
		t.Fatalf("violations %+v", j.Violations)
	}
	kinds := map[string]plan.DAGViolation{}
	for _, v := range j.Violations {
		kinds[v.Kind] = v
	}
	if p := kinds["precedence"]; p.Task != "b" || p.Pred != "a" || p.Time != 0.5 || p.Until != 1 ||
		p.Message != "task b starts at 0.5, before its predecessor a ends at 1" {
		t.Errorf("precedence %+v", p)
	}
	if c := kinds["capacity"]; c.Machine != 0 || c.Time != 0 || c.Until != 1 || c.Used != 5 || c.Capacity != 2 {
		t.Errorf("capacity %+v", c)
	}
	// Makespan 5 ticks = 2.5 s; critical path 6 ticks = 3 s: gap −1/6.
	if j.Makespan != 2.5 || math.Abs(j.Gaps["cpLength"]+1.0/6) > 1e-12 {
		t.Errorf("makespan %v, gaps %v", j.Makespan, j.Gaps)
	}
	doc := &plan.DAGCheck{Jobs: []plan.DAGCheckJob{j}}
	doc.Summarize()
	if doc.Summary != (plan.DAGCheckSummary{Jobs: 1, Tasks: 3, Feasible: 0, Violations: 2}) {
		t.Errorf("summary %+v", doc.Summary)
	}
}
