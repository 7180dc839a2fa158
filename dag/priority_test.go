package dag

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPriorityDiamond pins each rule on the diamond a(2) -> {b(3), c(1)}
// -> d(2) with horizon T̄ = 8 (the sum of durations).
func TestPriorityDiamond(t *testing.T) {
	d := diamond(t)
	tests := []struct {
		rule Rule
		want []float64 // a, b, c, d
	}{
		// LF: d 8; b, c ≤ LS_d = 6; a ≤ min(LS_b = 3, LS_c = 5) = 3.
		{LFT, []float64{3, 6, 6, 8}},
		// LS = LF − dur.
		{LST, []float64{1, 3, 5, 6}},
		// ES: a 0, b 2, c 2, d 5; slack LS − ES: 1, 1, 3, 1.
		{MSLK, []float64{1, 1, 3, 1}},
		// transitive successors: a 3, b 1, c 1, d 0 (negated: max rule).
		{MTS, []float64{-3, -1, -1, 0}},
		{MIS, []float64{-2, -1, -1, 0}},
		// GRPW: a 2+3+1, b 3+2, c 1+2, d 2.
		{GRPW, []float64{-6, -5, -3, -2}},
		{LPT, []float64{-2, -3, -1, -2}},
		{SPT, []float64{2, 3, 1, 2}},
		// bottom levels: d 2, b 5, c 3, a 7.
		{CP, []float64{-7, -5, -3, -2}},
		// stage depth × 4 stages + stage index: 0, 4+1, 4+2, 8+3.
		{BFS, []float64{0, 5, 6, 11}},
	}
	for _, tc := range tests {
		t.Run(tc.rule.String(), func(t *testing.T) {
			if got := Priority(d, tc.rule, 0, nil); !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			if r, err := RuleByName(tc.rule.String()); err != nil || r != tc.rule {
				t.Fatalf("RuleByName(%q) = %v, %v", tc.rule, r, err)
			}
		})
	}
	if _, err := RuleByName("fastest"); err == nil {
		t.Fatal("unknown rule accepted")
	}
}

// TestSampleList: lists are precedence-feasible permutations, the same for
// the same seed, and with a huge α follow the rule.
func TestSampleList(t *testing.T) {
	d, _ := genStageDAG(t, 3, 200, 8, 4)
	prio := Priority(d, LFT, 0, nil)
	a := SampleList(d, prio, 1, rand.New(rand.NewPCG(1, 2)))
	b := SampleList(d, prio, 1, rand.New(rand.NewPCG(1, 2)))
	if !slices.Equal(a, b) {
		t.Fatal("same seed, different lists")
	}
	for _, list := range [][]int{a, SampleList(d, prio, 0, rand.New(rand.NewPCG(5, 6)))} {
		pos := make([]int, d.N())
		for i := range pos {
			pos[i] = -1
		}
		for k, v := range list {
			pos[v] = k
		}
		for v := 0; v < d.N(); v++ {
			if pos[v] < 0 {
				t.Fatalf("task %d missing", v)
			}
			for _, p := range d.Preds(v) {
				if pos[p] > pos[v] {
					t.Fatalf("task %d listed before its predecessor %d", v, p)
				}
			}
		}
	}
	// On the diamond with values a 3, b 6, c 7, d 8, regrets among b and c
	// are 1 and 0, so α = 100 weighs b (1+1)^100 = 2^100 times c: the
	// sample is the rule's order a, b, c, d.
	dm := diamond(t)
	if got := SampleList(dm, []float64{3, 6, 7, 8}, 100, rand.New(rand.NewPCG(7, 8))); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Fatalf("greedy sample %v, want [0 1 2 3]", got)
	}
}

// TestJustifyHand: one machine of capacity 2; a(1, cap 2) and b(4, cap 1)
// are sources, c(4, cap 1) follows a. SSGS in the order b, a, c puts b at
// 0, a at 4 (it needs the whole machine), c at 5: makespan 9. Right
// justification (by decreasing end) keeps c at [5,9) and a at [4,5) and
// moves b to [5,9) beside c; the left pass (by start) then puts a at
// [0,1), b and c side by side at [1,5): makespan 5.
func TestJustifyHand(t *testing.T) {
	d := spec{
		ids:    []string{"a", "b", "c"},
		dur:    []int64{1, 4, 4},
		demand: [][]float64{{2}, {1}, {1}},
		edges:  [][2]string{{"a", "c"}},
	}.build(t, "justify", []string{"cpu"})
	ms := [][]float64{{2}}
	s, _ := ListSchedule(d, ms, []int{1, 0, 2})
	if s.Makespan() != 9 {
		t.Fatalf("list schedule %d, want 9", s.Makespan())
	}
	j := Justify(d, ms, s)
	mustCheck(t, "justify", instance{name: "justify", d: d, machines: ms}, j)
	if j.Makespan() != 5 {
		t.Fatalf("justified %d, want 5", j.Makespan())
	}
}
