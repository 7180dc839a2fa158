package dag

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
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
		r, err := Best(in.d, in.machines, Options{Seed: 5, Iterations: 200})
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
		again, _ := Best(in.d, in.machines, Options{Seed: 5, Iterations: 200})
		if again.Makespan != r.Makespan || again.Method != r.Method {
			t.Fatalf("trial %d: not deterministic: %d (%s) then %d (%s)", trial, r.Makespan, r.Method, again.Makespan, again.Method)
		}
	}
	if opt < 95 {
		t.Errorf("Best optimal on %d/100 tiny instances", opt)
	}
}

// TestBestPSPLIB runs Best with a small budget on all 480 J30 instances:
// every schedule passes the checker and none beats the proven optimum.
// DAG_J30_ITER overrides the budget (e.g. 0 for the default, as in the
// reported figures).
func TestBestPSPLIB(t *testing.T) {
	iters := 300
	if v, err := strconv.Atoi(os.Getenv("DAG_J30_ITER")); err == nil {
		iters = v
	}
	insts := loadPSPLIB(t, "j30", "j30opt.sm")
	var st psplibStats
	var worst time.Duration
	for _, in := range insts {
		inst := instance{name: fmt.Sprint(in.Key), d: in.Inst.DAG, machines: in.Inst.Machines(), opt: in.Ref}
		t0 := time.Now()
		r, err := Best(inst.d, inst.machines, Options{Seed: 1, Iterations: iters})
		took := time.Since(t0)
		worst = max(worst, took)
		if err != nil {
			t.Fatal(err)
		}
		mustCheck(t, "best", inst, r.Schedule)
		if r.Makespan < in.Ref || r.Bounds.Best > in.Ref {
			t.Fatalf("j30 %v: makespan %d, bound %d, optimum %d", in.Key, r.Makespan, r.Bounds.Best, in.Ref)
		}
		if r.Optimal != (r.Makespan == in.Ref && r.Bounds.Best == in.Ref) {
			t.Fatalf("j30 %v: Optimal %v with makespan %d, bound %d", in.Key, r.Optimal, r.Makespan, r.Bounds.Best)
		}
		st.add(r.Makespan, in.Ref, in.Inst.MPM, took)
	}
	t.Logf("J30 best (iterations %d): %v, worst %v", iters, st, worst)
}
