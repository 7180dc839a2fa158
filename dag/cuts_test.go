package dag

import (
	"fmt"
	"slices"
	"testing"
)

// TestCutsBruteForce compares Cuts with the definition on random DAGs: k
// is a cut when every task of Topo()[k:] is a descendant of every task of
// Topo()[:k], checked with reachability by depth-first search.
func TestCutsBruteForce(t *testing.T) {
	rng := newTestRand(31)
	found := 0
	for trial := 0; trial < 300; trial++ {
		n := 2 + rng.IntN(9)
		b := NewBuilder("cuts", []string{"x"}, 1)
		for i := 0; i < n; i++ {
			b.AddTask(fmt.Sprint(i), -1, 1, []float64{1})
		}
		p := 0.2 + 0.6*rng.Float64()
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if rng.Float64() < p {
					b.AddEdge(i, j)
				}
			}
		}
		d, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		reach := make([][]bool, n)
		for v := 0; v < n; v++ {
			reach[v] = make([]bool, n)
			stack := []int{v}
			for len(stack) > 0 {
				u := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, s := range d.Succs(u) {
					if !reach[v][s] {
						reach[v][s] = true
						stack = append(stack, s)
					}
				}
			}
		}
		var want []int
		topo := d.Topo()
		for k := 1; k < n; k++ {
			ok := true
			for _, a := range topo[:k] {
				for _, c := range topo[k:] {
					ok = ok && reach[a][c]
				}
			}
			if ok {
				want = append(want, k)
			}
		}
		if got := Cuts(d); !slices.Equal(got, want) {
			t.Fatalf("trial %d: cuts %v, want %v", trial, got, want)
		}
		found += len(want)
	}
	if found == 0 {
		t.Fatal("no cuts in any trial: the test is vacuous")
	}
}
