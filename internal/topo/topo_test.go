package topo

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func adj(n int, edges [][2]int) func(int) []int {
	s := make([][]int, n)
	for _, e := range edges {
		s[e[0]] = append(s[e[0]], e[1])
	}
	return func(v int) []int { return s[v] }
}

func TestOrderAndCycles(t *testing.T) {
	tests := []struct {
		name      string
		n         int
		edges     [][2]int
		wantOrder []int   // nil: cyclic
		wantCyc   [][]int // every back-edge cycle, in DFS order
	}{
		{"empty", 0, nil, []int{}, nil},
		// Sources 0 and 2 first (index order), then 1 once 0 is out, then
		// 3 after both 1 and 2.
		{"diamond", 4, [][2]int{{0, 1}, {1, 3}, {2, 3}}, []int{0, 2, 1, 3}, nil},
		{"self loop", 2, [][2]int{{0, 1}, {1, 1}}, nil, [][]int{{1, 1}}},
		// 0 feeds the cycle 1 → 2 → 3 → 1 but is not on it.
		{"tail", 4, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 1}}, nil, [][]int{{1, 2, 3, 1}}},
		// Two cycles sharing node 0: the DFS meets both back edges.
		{"two", 3, [][2]int{{0, 1}, {1, 0}, {0, 2}, {2, 0}}, nil, [][]int{{0, 1, 0}, {0, 2, 0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			order, ok := Order(tc.n, adj(tc.n, tc.edges))
			if ok != (tc.wantOrder != nil) || ok && !slices.Equal(order, tc.wantOrder) {
				t.Fatalf("Order = %v, %v; want %v", order, ok, tc.wantOrder)
			}
			cyc := Cycles(tc.n, adj(tc.n, tc.edges), 0)
			if len(cyc) != len(tc.wantCyc) {
				t.Fatalf("Cycles = %v, want %v", cyc, tc.wantCyc)
			}
			for i := range cyc {
				if !slices.Equal(cyc[i], tc.wantCyc[i]) {
					t.Fatalf("Cycles = %v, want %v", cyc, tc.wantCyc)
				}
			}
			if one := Cycles(tc.n, adj(tc.n, tc.edges), 1); len(tc.wantCyc) > 0 && len(one) != 1 {
				t.Fatalf("Cycles with limit 1 = %v", one)
			}
		})
	}
}

// TestRandom checks on seeded random graphs that Order succeeds exactly
// when Cycles finds none, that every order respects every edge, and that
// every cycle is made of edges of the graph.
func TestRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 500; it++ {
		n := 1 + rng.IntN(9)
		var edges [][2]int
		has := map[[2]int]bool{}
		for k := rng.IntN(2 * n); k > 0; k-- {
			e := [2]int{rng.IntN(n), rng.IntN(n)}
			edges = append(edges, e)
			has[e] = true
		}
		order, ok := Order(n, adj(n, edges))
		cyc := Cycles(n, adj(n, edges), 0)
		if ok != (cyc == nil) {
			t.Fatalf("graph %v: Order ok=%v but Cycles %v", edges, ok, cyc)
		}
		if ok {
			pos := make([]int, n)
			for k, v := range order {
				pos[v] = k
			}
			for _, e := range edges {
				if pos[e[0]] >= pos[e[1]] {
					t.Fatalf("graph %v: order %v breaks %v", edges, order, e)
				}
			}
		}
		for _, c := range cyc {
			if c[0] != c[len(c)-1] {
				t.Fatalf("cycle %v does not close", c)
			}
			for k := 0; k+1 < len(c); k++ {
				if !has[[2]int{c[k], c[k+1]}] {
					t.Fatalf("cycle %v uses a missing edge", c)
				}
			}
		}
	}
}
