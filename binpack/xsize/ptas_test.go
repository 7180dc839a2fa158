package xsize

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"
)

// TestPTASWithinEpsilonOfExact is the acceptance test: on random small
// instances (2–3 dimensions, n ≤ 8, K ≤ 3) one PTAS step at ε costs at most
// (1+ε)·OPT, OPT from the partition oracle, for every ε used.
func TestPTASWithinEpsilonOfExact(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4)) // fixed seed
	epss := []float64{1, 0.5, 0.25, 0.1}
	count := 0
	for it := range 400 {
		D, n, K := 2+it%2, 1+r.IntN(8), 1+r.IntN(3)
		p := randomSmall(r, D, n, K, SumCost)
		in, _ := newInstance(p)
		opt := partitionOptimum(in)
		if opt > 1e300 {
			continue
		}
		for _, eps := range epss {
			s, err := PTAS(p, PTASOptions{Eps: eps, MinEps: eps})
			if err != nil {
				t.Fatalf("instance %d ε=%v: %v", it, eps, err)
			}
			checkSolution(t, p, s)
			if s.Cost > (1+eps)*opt*(1+1e-9) {
				t.Fatalf("instance %d ε=%v: cost %v > (1+ε)·OPT = %v", it, eps, s.Cost, (1+eps)*opt)
			}
			if s.LowerBound > opt*(1+1e-9) {
				t.Fatalf("instance %d: lower bound %v > OPT %v", it, s.LowerBound, opt)
			}
			count++
		}
	}
	t.Logf("%d (instance, ε) pairs checked", count)
}

func sameSolution(a, b *Solution) bool {
	return slices.EqualFunc(a.Shapes, b.Shapes, slices.Equal) && slices.Equal(a.Assign, b.Assign) &&
		a.Cost == b.Cost && a.Epsilon == b.Epsilon && a.Method == b.Method &&
		a.LowerBound == b.LowerBound && reflect.DeepEqual(a.Steps, b.Steps) && a.WorkUsed == b.WorkUsed
}

// TestPTASMaxWork: a work budget that ends inside the second step cuts
// that step (StatusBudget) and keeps the first step's catalog and ε, the
// same way on every run; the budget of a free run changes nothing.
func TestPTASMaxWork(t *testing.T) {
	p := realisticMix(2, 2, 40, 5)
	o := PTASOptions{Eps: 0.5, MinEps: 0.2} // steps ε = 0.5, 0.25, 1/6
	full, err := PTAS(p, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Steps) != 3 || full.Steps[1].Work < 2 {
		t.Fatalf("free run: %+v", full.Steps)
	}
	o.MaxWork = full.WorkUsed
	if same, _ := PTAS(p, o); !sameSolution(same, full) {
		t.Fatal("MaxWork = a free run's work changed the result")
	}
	// The work before step 2: the incumbent's local search and step 1.
	before := full.WorkUsed - full.Steps[1].Work - full.Steps[2].Work
	o.MaxWork = before + full.Steps[1].Work/2
	cut, err := PTAS(p, o)
	if err != nil {
		t.Fatal(err)
	}
	checkSolution(t, p, cut)
	if len(cut.Steps) != 2 || cut.Steps[0] != full.Steps[0] || cut.Steps[1].Status != StatusBudget ||
		cut.Epsilon != 0.5 || cut.Method != "ptas" || cut.TimeLimitHit {
		t.Fatalf("cut inside step 2: ε %v, method %s, steps %+v", cut.Epsilon, cut.Method, cut.Steps)
	}
	if again, _ := PTAS(p, o); !sameSolution(again, cut) {
		t.Fatal("two runs with the same MaxWork differ")
	}
}

func TestPTASDeterministic(t *testing.T) {
	p := realisticMix(2, 2, 40, 5)
	o := PTASOptions{Eps: 0.5, MinEps: 0.2}
	a, err := PTAS(p, o)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := PTAS(p, o)
	if !sameSolution(a, b) {
		t.Fatalf("two runs differ:\n%+v\n%+v", a, b)
	}
	checkSolution(t, p, a)
	// The same requests in another order give the same catalog, and each
	// request keeps its shape.
	q := *p
	perm := rand.New(rand.NewPCG(1, 1)).Perm(len(p.Requests))
	q.Requests = make([]Request, len(p.Requests))
	for i, j := range perm {
		q.Requests[j] = p.Requests[i]
	}
	c, _ := PTAS(&q, o)
	if !slices.EqualFunc(a.Shapes, c.Shapes, slices.Equal) || a.Cost != c.Cost {
		t.Fatalf("request order changed the catalog: %v vs %v", a.Shapes, c.Shapes)
	}
	for i, j := range perm {
		if a.Assign[i] != c.Assign[j] {
			t.Fatalf("request %d: shape %d, after permutation %d", i, a.Assign[i], c.Assign[j])
		}
	}
}

func TestPTASStepsAndLimits(t *testing.T) {
	p := realisticMix(3, 2, 30, 4)
	var seen []Step
	s, err := PTAS(p, PTASOptions{Eps: 1, MinEps: 0.25, Progress: func(st Step) { seen = append(seen, st) }})
	if err != nil {
		t.Fatal(err)
	}
	// Harmonic sequence 1, 1/2, 1/3, 1/4: four steps, each done.
	if len(s.Steps) != 4 || len(seen) != 4 || s.Epsilon != 0.25 || s.Method != "ptas" {
		t.Fatalf("steps %+v, ε %v, method %s", s.Steps, s.Epsilon, s.Method)
	}
	for j, st := range s.Steps {
		if st.Status != StatusDone || st.Rays != j+1 || st.Cost < s.Cost {
			t.Errorf("step %d: %+v", j, st)
		}
	}
	// Without the Lagrangian bound the DP must store states, so a cap of
	// 2 refuses the first step whose a-priori bound exceeds it; with no
	// completed step the local-search incumbent is returned.
	r, err := PTAS(p, PTASOptions{Eps: 0.2, MinEps: 0.1, MaxStates: 2, noLagrange: true})
	if err != nil {
		t.Fatal(err)
	}
	checkSolution(t, p, r)
	if len(r.Steps) != 1 || r.Steps[0].Status != StatusRefused || r.Method != "local" || r.Epsilon != 0 {
		t.Errorf("refused first step: %+v", r)
	}
	// StrictStates refuses on the a-priori bound alone, (1+n₁)·K ≥ 8 > 2.
	st, err := PTAS(p, PTASOptions{Eps: 1, MinEps: 0.1, MaxStates: 2, StrictStates: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Steps) != 1 || st.Steps[0].Status != StatusRefused || st.Steps[0].States != 0 || st.Method != "local" {
		t.Errorf("strict refusal: %+v", st)
	}
	// A work budget the first local search uses up stops the loop before
	// the first step: one unit is enough, the incumbent's first pricing
	// costs more.
	b, err := PTAS(p, PTASOptions{Eps: 0.1, MinEps: 0.1, MaxWork: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkSolution(t, p, b)
	if b.Steps[0].Status != StatusBudget || b.Method != "local" || b.Epsilon != 0 || b.TimeLimitHit || b.WorkUsed < 1 {
		t.Errorf("budget: %+v", b)
	}
	// An expired time limit does the same, and says so.
	tl, err := PTAS(p, PTASOptions{Eps: 0.1, MinEps: 0.1, TimeLimit: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	checkSolution(t, p, tl)
	if tl.Steps[0].Status != StatusTimeLimit || tl.Method != "local" || !tl.TimeLimitHit {
		t.Errorf("time limit: %+v", tl)
	}
	if _, err := PTAS(p, PTASOptions{MaxWork: -1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("MaxWork -1: err = %v, want ErrInvalid", err)
	}
}
