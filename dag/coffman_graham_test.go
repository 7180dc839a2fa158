package dag

import (
	"fmt"
	"testing"
)

// TestCoffmanGrahamTwoProcessors: with unit tasks on two identical
// processors CG is optimal (Coffman & Graham 1972), so the "cg" method
// must match the brute-force optimum on random DAGs.
func TestCoffmanGrahamTwoProcessors(t *testing.T) {
	rng := newTestRand(21)
	for trial := 0; trial < 150; trial++ {
		n := 3 + rng.IntN(5)
		b := NewBuilder("unit", []string{"slot"}, 1)
		for i := 0; i < n; i++ {
			b.AddTask(fmt.Sprint(i), -1, 1, []float64{1})
		}
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if rng.Float64() < 0.3 {
					b.AddEdge(i, j)
				}
			}
		}
		d, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		machines := [][]float64{{1}, {1}}
		s, err := Run("cg", d, machines, Options{})
		if err != nil {
			t.Fatal(err)
		}
		mustCheck(t, "cg", instance{name: "unit", d: d, machines: machines}, s)
		if opt := bruteOpt(d, machines); s.Makespan() != opt {
			t.Fatalf("trial %d: cg %d, optimum %d (%v)", trial, s.Makespan(), opt, d)
		}
	}
}

// TestCoffmanGrahamLabels checks a hand-labelled DAG: a -> c, b -> c,
// b -> d, c -> e, plus the transitive edge a -> e. Sinks first: d gets 1
// and e gets 2 (both have no successors; lower index first); c's key (2)
// beats b's not-yet-ready state, so c gets 3; then a with key (3) after
// the reduction drops a -> e, and b with key (3, 1): a = 4, b = 5.
func TestCoffmanGrahamLabels(t *testing.T) {
	b := NewBuilder("cg", []string{"x"}, 1)
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		b.AddTask(id, -1, 1, []float64{1})
	}
	for _, e := range [][2]int{{0, 2}, {1, 2}, {1, 3}, {2, 4}, {0, 4}} {
		b.AddEdge(e[0], e[1])
	}
	d, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	got := CoffmanGrahamLabels(d)
	want := []int{4, 5, 3, 1, 2}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("labels %v, want %v", got, want)
		}
	}
}
