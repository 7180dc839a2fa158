package dag

import (
	"slices"
	"testing"
)

// TestWithCliques: one resource of capacity 10; a, b, c demand 6 each
// (any two exceed 10), d demands 3 and follows a, e demands 3 and is free.
// The pairwise exclusions are a–b, a–c, b–c (capacity) and a–d (the
// edge): the one clique of three or more is {a, b, c}, so one unit
// resource is added with a, b and c demanding 1 of capacity 1, and the
// original demands are kept. With maxCliques 0 nothing is added.
func TestWithCliques(t *testing.T) {
	bld := NewBuilder("cliques", []string{"cpu"}, 1)
	a := bld.AddTask("a", -1, 4, []float64{6})
	bld.AddTask("b", -1, 3, []float64{6})
	bld.AddTask("c", -1, 2, []float64{6})
	d := bld.AddTask("d", -1, 5, []float64{3})
	bld.AddTask("e", -1, 1, []float64{3})
	bld.AddEdge(a, d)
	g, err := bld.Build()
	if err != nil {
		t.Fatal(err)
	}
	p := newProblem(g, [][]float64{{10}})
	q, _ := p.withCliques(8)
	if q.k != 2 || !slices.Equal(q.cap, []int64{10, 1}) {
		t.Fatalf("k = %d, capacities %v; want 2 resources, capacities [10 1]", q.k, q.cap)
	}
	want := []int64{6, 1, 6, 1, 6, 1, 3, 0, 3, 0}
	if !slices.Equal(q.dem, want) {
		t.Errorf("demands %v, want %v", q.dem, want)
	}
	if !q.exact || p.k != 1 {
		t.Errorf("exact %v (the clique resources are redundant), original k %d changed", q.exact, p.k)
	}
	if r, _ := p.withCliques(0); r.k != 1 {
		t.Errorf("maxCliques 0: k = %d", r.k)
	}
}
