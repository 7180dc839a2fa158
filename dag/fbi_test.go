package dag

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortTasks: the packed-key sort gives the order of the comparison it
// replaces (a, then b, then rank; all reversed when descending), for times
// that fit the packing (including negative ones) and for times that do
// not, where it falls back to comparing.
func TestSortTasks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(60)
		d := chainFree(t, n)
		a, b := make([]int64, n), make([]int64, n)
		spread := []int64{3, 1000, 1 << 40, math.MaxInt64 / 2}[trial%4]
		for i := range a {
			a[i] = rng.Int64N(spread) - spread/2
			b[i] = a[i] + rng.Int64N(4)
		}
		desc := trial%3 == 0
		list := rng.Perm(n)
		want := slices.Clone(list)
		sg := 1
		if desc {
			sg = -1
		}
		slices.SortFunc(want, func(x, y int) int {
			if c := cmp.Compare(a[x], a[y]); c != 0 {
				return sg * c
			}
			if c := cmp.Compare(b[x], b[y]); c != 0 {
				return sg * c
			}
			return sg * (d.rank[x] - d.rank[y])
		})
		sortTasks(d, list, a, b, desc, nil)
		if !slices.Equal(list, want) {
			t.Fatalf("trial %d (spread %d, desc %v): %v, want %v", trial, spread, desc, list, want)
		}
	}
}

// chainFree returns a DAG of n unit tasks without edges.
func chainFree(t *testing.T, n int) *DAG {
	t.Helper()
	sp := spec{}
	for i := 0; i < n; i++ {
		sp.ids = append(sp.ids, fmt.Sprintf("t%d", i))
		sp.dur = append(sp.dur, 1)
		sp.demand = append(sp.demand, []float64{1})
	}
	return sp.build(t, "free", []string{"cpu"})
}

// TestJustifierReuse: one justifier reused for many schedules, as a
// genetic-algorithm island reuses its own, returns what a fresh one does,
// on one machine and on several (where the free round runs).
func TestJustifierReuse(t *testing.T) {
	for _, m := range []int{1, 4} {
		d, ms := genStageDAG(t, uint64(10+m), 80, 8, m)
		j := newJustifier(d, ms)
		rng := rand.New(rand.NewPCG(3, uint64(m)))
		prio := Priority(d, LFT, 0, rng)
		for k := 0; k < 30; k++ {
			list := SampleList(d, prio, 1, rng)
			s := NewSchedule(d.N())
			serialList(d, NewSpace(ms), list, nil, forward, 0, s)
			free := k%2 == 0
			want, ww := newJustifier(d, ms).run(s, free)
			got, gw := j.run(s, free)
			if gw != ww || !slices.Equal(got.Start, want.Start) || !slices.Equal(got.Machine, want.Machine) {
				t.Fatalf("%d machines, schedule %d: the reused justifier gives makespan %d (work %d), a fresh one %d (work %d)",
					m, k, got.Makespan(), gw, want.Makespan(), ww)
			}
			mustCheck(t, "justify", instance{name: "reuse", d: d, machines: ms}, got)
		}
	}
}
