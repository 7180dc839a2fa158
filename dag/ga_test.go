package dag

import (
	"slices"
	"testing"
)

// TestSurvive: the survivors are the best distinct schedules, by
// makespan, older first on ties; copies fill in only when fewer than
// gaPopulation schedules are distinct.
func TestSurvive(t *testing.T) {
	// Each list's schedule starts its k-th task at time k.
	ind := func(ms int64, list ...int) individual {
		start := make([]int64, slices.Max(list)+1)
		for k, v := range list {
			start[v] = int64(k)
		}
		return individual{list: list, start: start, ms: ms}
	}
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

// TestSurviveNearCopies: schedules of equal makespan whose start times
// differ for fewer than gaDistinct percent of the tasks count as one; at
// gaDistinct percent they are two, and makespans never match across.
func TestSurviveNearCopies(t *testing.T) {
	const n = 10 // gaDistinct = 30: 3 tasks of 10
	base := make([]int64, n)
	for i := range base {
		base[i] = int64(i)
	}
	moved := func(ms int64, k int) individual {
		start := slices.Clone(base)
		for i := 0; i < k; i++ {
			start[i] += 100
		}
		return individual{list: make([]int, n), start: start, ms: ms}
	}
	pop := []individual{moved(50, 0), moved(50, 2), moved(50, 3), moved(51, 1)}
	for len(pop) < gaPopulation+1 {
		pop = append(pop, moved(int64(60+len(pop)), 0))
	}
	out := survive(pop)
	got := []int64{out[0].start[0], out[1].start[0], out[2].ms}
	want := []int64{0, 100, 51} // the first, the copy that moved 3 tasks, then makespan 51
	if !slices.Equal(got, want) {
		t.Fatalf("survivors start %d, %d and have makespan %d; want %v (the copy that moved 2 of 10 tasks is the same schedule)",
			got[0], got[1], got[2], want)
	}
	if k := slices.IndexFunc(out, func(o individual) bool { return o.ms == 50 && o.start[1] == 101 && o.start[2] == 2 }); k >= 0 && k < len(out)-1 {
		t.Fatalf("the near-copy survived at %d while distinct schedules were left", k)
	}
	if !same(moved(50, 2), moved(50, 0)) || same(moved(50, 3), moved(50, 0)) || same(moved(50, 0), moved(51, 0)) {
		t.Fatal("same: want near-copies (2 of 10 moved) same, 3 of 10 moved or another makespan distinct")
	}
}
