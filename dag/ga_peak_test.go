package dag

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPeakWindow checks peak against brute force: the capacity used in
// every window of length l starting at each tick, summed tick by tick. The
// window found must use the most, and no earlier window as much. Short
// tasks take the tick-by-tick profile, long ones the sorted one.
func TestPeakWindow(t *testing.T) {
	for _, maxDur := range []int64{4, 400} {
		for seed := range uint64(60) {
			rng := rand.New(rand.NewPCG(seed, uint64(maxDur)))
			n := 1 + rng.IntN(25)
			b := NewBuilder("peak", []string{"cpu", "mem"}, 1)
			st := b.Stage("s")
			start := make([]int64, n)
			for i := range n {
				dur := rng.Int64N(maxDur + 1)
				b.AddTask(fmt.Sprint(i), st, dur, []float64{float64(rng.IntN(5)), float64(rng.IntN(9))})
				start[i] = rng.Int64N(3 * maxDur)
			}
			d, err := b.Build()
			if err != nil {
				t.Fatal(err)
			}
			ps := newPeakSpace(d, [][]float64{{4, 8}, {6, 8}})
			var lo, hi int64 = math.MaxInt64, 0
			for i, task := range d.Tasks {
				if ps.share[i] > 0 {
					lo, hi = min(lo, start[i]), max(hi, start[i]+task.Duration)
				}
			}
			if lo == math.MaxInt64 {
				if got, _ := ps.peak(d, start, 3); got != 0 {
					t.Fatalf("seed %d: no task uses anything, peak %d, want 0", seed, got)
				}
				continue
			}
			// prefix[k] is the capacity used over ticks [lo, lo+k).
			prefix := make([]float64, hi-lo+1)
			for k := range hi - lo {
				u := 0.0
				for i, task := range d.Tasks {
					if tick := lo + k; start[i] <= tick && tick < start[i]+task.Duration {
						u += ps.share[i]
					}
				}
				prefix[k+1] = prefix[k] + u
			}
			for _, l := range []int64{1, 1 + rng.Int64N(hi-lo+1), hi - lo + 5} {
				window := func(t1 int64) float64 {
					return prefix[min(t1+l, hi)-lo] - prefix[min(t1, hi)-lo]
				}
				got, _ := ps.peak(d, start, l)
				best := math.Inf(-1)
				for t1 := lo; t1 <= hi; t1++ {
					best = max(best, window(t1))
				}
				if v := window(got); got < lo || math.Abs(v-best) > 1e-9 {
					t.Fatalf("durations ≤ %d, seed %d, l %d: window at %d uses %g, best %g (starts from %d)",
						maxDur, seed, l, got, v, best, lo)
				}
				for t1 := lo; t1 < got; t1++ {
					if window(t1) > best-1e-9 {
						t.Fatalf("durations ≤ %d, seed %d, l %d: window at %d, but the earlier one at %d uses as much",
							maxDur, seed, l, got, t1)
					}
				}
			}
		}
	}
}

// TestPeakCrossover: on generated DAGs, a child of two schedules' start
// orders is a precedence-feasible permutation that keeps the mother's
// peak window in her order, with the tasks before it and after it in the
// father's order.
func TestPeakCrossover(t *testing.T) {
	for seed := range uint64(20) {
		d, machines := genStageDAG(t, seed, 60, 6, 2)
		rng := rand.New(rand.NewPCG(seed, 5))
		prio := Priority(d, LFT, 0, rng)
		mom := serialSchedule(t, d, machines, SampleList(d, prio, gaAlpha, rng))
		dad := startOrder(d, serialSchedule(t, d, machines, SampleList(d, prio, gaAlpha, rng)))
		momList := startOrder(d, mom)
		ps := newPeakSpace(d, machines)
		l := 1 + rng.Int64N(mom.Makespan())
		t1, _ := ps.peak(d, mom.Start, l)
		child, _ := ps.crossover(d, momList, mom.Start, dad, l)
		if got := slices.Sorted(slices.Values(child)); !slices.Equal(got, d.allTasks()) {
			t.Fatalf("seed %d: child %v is not a permutation of the tasks", seed, child)
		}
		pos := make([]int, d.N())
		for k, v := range child {
			pos[v] = k
		}
		for v := range d.N() {
			for _, p := range d.Preds(v) {
				if pos[p] > pos[v] {
					t.Fatalf("seed %d: child places %d before its predecessor %d", seed, v, p)
				}
			}
		}
		part := func(v int) int {
			switch s := mom.Start[v]; {
			case s < t1:
				return 0
			case s < t1+l:
				return 1
			}
			return 2
		}
		var want []int
		for g := range 3 {
			order := dad
			if g == 1 {
				order = momList
			}
			for _, v := range order {
				if part(v) == g {
					want = append(want, v)
				}
			}
		}
		if !slices.Equal(child, want) {
			t.Fatalf("seed %d: child %v, want %v", seed, child, want)
		}
	}
}

// serialSchedule decodes list with the forward serial SGS.
func serialSchedule(t *testing.T, d *DAG, machines [][]float64, list []int) *Schedule {
	t.Helper()
	s := NewSchedule(d.N())
	serialListWith(d, NewSpace(machines), list, nil, forward, 0, s, newStageTimes(len(d.Stages)))
	if v := Check(d, machines, s); len(v) > 0 {
		t.Fatalf("serial SGS schedule: %v", v[0])
	}
	return s
}
