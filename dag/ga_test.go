package dag

import (
	"slices"
	"testing"
)

// TestSurvive: the survivors are the best distinct schedules, by
// makespan, older first on ties; copies fill in only when fewer than
// gaPopulation schedules are distinct.
func TestSurvive(t *testing.T) {
	ind := func(ms int64, list ...int) individual { return individual{list: list, ms: ms} }
	var pop []individual
	for k := 0; k < gaPopulation; k++ {
		pop = append(pop, ind(10, 0, 1, 2)) // one schedule, many times
	}
	pop = append(pop, ind(12, 1, 0, 2), ind(11, 2, 1, 0), ind(10, 0, 2, 1))
	out := survive(slices.Clone(pop))
	if len(out) != gaPopulation {
		t.Fatalf("%d survivors, want %d", len(out), gaPopulation)
	}
	want := []individual{ind(10, 0, 1, 2), ind(10, 0, 2, 1), ind(11, 2, 1, 0), ind(12, 1, 0, 2)}
	for k, w := range want {
		if out[k].ms != w.ms || !slices.Equal(out[k].list, w.list) {
			t.Fatalf("survivor %d: %v (makespan %d), want %v (makespan %d)", k, out[k].list, out[k].ms, w.list, w.ms)
		}
	}
	for k := len(want); k < gaPopulation; k++ {
		if !slices.Equal(out[k].list, []int{0, 1, 2}) {
			t.Fatalf("survivor %d: %v, want a copy of the best", k, out[k].list)
		}
	}
	// With enough distinct schedules no copy survives.
	var many []individual
	for k := 0; k < gaPopulation+5; k++ {
		many = append(many, ind(int64(20+k), k), ind(int64(20+k), k))
	}
	out = survive(many)
	for k := range out {
		if out[k].ms != int64(20+k) {
			t.Fatalf("survivor %d has makespan %d, want %d (each schedule once)", k, out[k].ms, 20+k)
		}
	}
}
