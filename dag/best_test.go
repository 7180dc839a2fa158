package dag

import (
	"maps"
	"runtime"
	"testing"
)

// TestBestHandBuilt: Best reaches the optimum of the hand-built DAGs and
// says so.
func TestBestHandBuilt(t *testing.T) {
	for _, in := range handBuilt(t) {
		r, err := Best(in.d, in.machines, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		mustCheck(t, "best", in, r.Schedule)
		if r.Makespan != in.opt || !r.Optimal || r.Gap != 0 {
			t.Errorf("%s: best %d (%s), opt %d, gap %v", in.name, r.Makespan, r.Method, in.opt, r.Gap)
		}
	}
}

// TestBestTiny: Best on random tiny instances is feasible, never below the
// brute-force optimum, and deterministic given the seed.
func TestBestTiny(t *testing.T) {
	rng := newTestRand(13)
	opt := 0
	for trial := 0; trial < 100; trial++ {
		in := randomTiny(t, rng, 7)
		want := bruteOpt(in.d, in.machines)
		r, err := Best(in.d, in.machines, Options{Seed: 5, MaxWork: 200 * in.d.passWork()})
		if err != nil {
			t.Fatal(err)
		}
		mustCheck(t, "best", in, r.Schedule)
		if r.Makespan < want || r.Bounds.Best > want {
			t.Fatalf("trial %d: best %d, bound %d, optimum %d", trial, r.Makespan, r.Bounds.Best, want)
		}
		if r.Makespan == want {
			opt++
		}
		again, _ := Best(in.d, in.machines, Options{Seed: 5, MaxWork: 200 * in.d.passWork()})
		if again.Makespan != r.Makespan || again.Method != r.Method {
			t.Fatalf("trial %d: not deterministic: %d (%s) then %d (%s)", trial, r.Makespan, r.Method, again.Makespan, again.Method)
		}
	}
	if opt < 95 {
		t.Errorf("Best optimal on %d/100 tiny instances", opt)
	}
}

// TestBestDeterministicAcrossCores: Best gives the same schedule, work and
// method with GOMAXPROCS 1 and 2 and any Workers, on a DAG large enough to
// run every phase in parallel (Graphene's candidates, the improvement
// phase).
func TestBestDeterministicAcrossCores(t *testing.T) {
	d, ms := genStageDAG(t, 3, 400, 12, 4)
	var first *Result
	for _, c := range []struct{ procs, workers int }{{1, 0}, {2, 0}, {2, 1}, {1, 3}} {
		prev := runtime.GOMAXPROCS(c.procs)
		r, err := Best(d, ms, Options{Seed: 9, Workers: c.workers, MaxWork: 400_000})
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = r
			continue
		}
		if fingerprint(r.Schedule) != fingerprint(first.Schedule) || r.WorkUsed != first.WorkUsed || r.Method != first.Method {
			t.Fatalf("GOMAXPROCS %d, Workers %d: makespan %d (%s, work %d), first run %d (%s, work %d)", c.procs, c.workers,
				r.Makespan, r.Method, r.WorkUsed, first.Makespan, first.Method, first.WorkUsed)
		}
	}
}

// TestBestSearchDeterministic: on DAGs small enough for the searches, Best
// runs the learning searches and the genetic-algorithm islands in
// lockstep; its schedule, work, method and bounds must not depend on
// GOMAXPROCS or Workers.
func TestBestSearchDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		// Seeds 5 and 6 are small enough (up to smallSearch tasks) for the
		// searches' larger share.
		n := 60
		if seed > 4 {
			n = 30
		}
		d, ms := genStageDAG(t, seed, n, 8, 2)
		var first *Result
		for _, c := range []struct{ procs, workers int }{{1, 0}, {2, 0}, {2, 1}, {1, 4}} {
			prev := runtime.GOMAXPROCS(c.procs)
			r, err := Best(d, ms, Options{Seed: seed, Workers: c.workers, MaxWork: 300_000})
			runtime.GOMAXPROCS(prev)
			if err != nil {
				t.Fatal(err)
			}
			mustCheck(t, "best", instance{name: d.Name, d: d, machines: ms}, r.Schedule)
			if first == nil {
				first = r
				continue
			}
			if fingerprint(r.Schedule) != fingerprint(first.Schedule) || r.WorkUsed != first.WorkUsed ||
				r.Method != first.Method || r.Bounds.Best != first.Bounds.Best || r.Bounds.BestBy != first.Bounds.BestBy ||
				!maps.Equal(r.Bounds.Work, first.Bounds.Work) {
				t.Fatalf("seed %d, GOMAXPROCS %d, Workers %d: makespan %d (%s, work %d, bound %d %s), first run %d (%s, work %d, bound %d %s)",
					seed, c.procs, c.workers, r.Makespan, r.Method, r.WorkUsed, r.Bounds.Best, r.Bounds.BestBy,
					first.Makespan, first.Method, first.WorkUsed, first.Bounds.Best, first.Bounds.BestBy)
			}
		}
		t.Logf("seed %d: makespan %d by %s, bound %d by %s, work %d", seed, first.Makespan, first.Method, first.Bounds.Best, first.Bounds.BestBy, first.WorkUsed)
	}
}
