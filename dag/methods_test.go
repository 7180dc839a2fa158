package dag

import (
	"math/rand/v2"
	"testing"
)

// TestHandBuiltBaselines pins the baselines on the hand-built DAGs to the
// makespans worked out in corpus_test.go, and checks every method's
// schedule with the checker and against the optimum.
func TestHandBuiltBaselines(t *testing.T) {
	want := map[string]map[string]int64{
		"figure2":   {"cp": 310, "tetris": 310},
		"lemma2-k5": {"cp": 485, "tetris": 105},
		"lemma1-d5": {"cp": 105, "tetris": 505},
	}
	for _, in := range handBuilt(t) {
		if b := LowerBounds(in.d, in.machines); b.Best != in.opt {
			t.Errorf("%s: best bound %d, want the optimum %d", in.name, b.Best, in.opt)
		}
		for _, name := range Methods() {
			s, err := Run(name, in.d, in.machines, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			mustCheck(t, name, in, s)
			if s.Makespan() < in.opt {
				t.Errorf("%s on %s: makespan %d below the optimum %d", name, in.name, s.Makespan(), in.opt)
			}
			if w, ok := want[in.name][name]; ok && s.Makespan() != w {
				t.Errorf("%s on %s: makespan %d, want %d", name, in.name, s.Makespan(), w)
			}
		}
	}
}

// TestMethodsTiny runs every method on random tiny instances: feasible,
// and never below the brute-force optimum.
func TestMethodsTiny(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := 0; trial < 150; trial++ {
		in := randomTiny(t, rng, 7)
		opt := bruteOpt(in.d, in.machines)
		for _, name := range Methods() {
			s, err := Run(name, in.d, in.machines, Options{Seed: uint64(trial)})
			if err != nil {
				t.Fatal(err)
			}
			mustCheck(t, name, in, s)
			if s.Makespan() < opt {
				t.Fatalf("trial %d: %s makespan %d below the optimum %d", trial, name, s.Makespan(), opt)
			}
			j := Justify(in.d, in.machines, s)
			mustCheck(t, name+"+fbi", in, j)
			if j.Makespan() > s.Makespan() || j.Makespan() < opt {
				t.Fatalf("trial %d: %s justified %d from %d (opt %d)", trial, name, j.Makespan(), s.Makespan(), opt)
			}
		}
	}
}

func TestRunErrors(t *testing.T) {
	d := diamond(t)
	if _, err := Run("nope", d, [][]float64{{4}}, Options{}); err == nil {
		t.Fatal("unknown method accepted")
	}
	// Capacity 1 < demand 2 of a, b, c.
	_, err := Run("cp", d, [][]float64{{1}}, Options{})
	var nf *NoFitError
	if !errorsAs(err, &nf) || len(nf.Tasks) != 3 {
		t.Fatalf("got %v, want a NoFitError for 3 tasks", err)
	}
}

// TestDegenerate: empty DAGs, single tasks and zero-duration tasks go
// through every method and Best without trouble.
func TestDegenerate(t *testing.T) {
	empty, err := NewBuilder("empty", []string{"cpu"}, 1).Build()
	if err != nil {
		t.Fatal(err)
	}
	zero := spec{ids: []string{"a", "b", "c"}, dur: []int64{0, 3, 0}, demand: [][]float64{{1}, {2}, {0}},
		edges: [][2]string{{"a", "b"}, {"b", "c"}, {"a", "c"}}}.build(t, "zero", []string{"cpu"})
	one := spec{ids: []string{"x"}, dur: []int64{4}, demand: [][]float64{{2}}}.build(t, "one", []string{"cpu"})
	for _, in := range []instance{{name: "empty", d: empty, opt: 0}, {name: "zero", d: zero, opt: 3}, {name: "one", d: one, opt: 4}} {
		in.machines = [][]float64{{2}, {2}}
		for _, name := range Methods() {
			s, err := Run(name, in.d, in.machines, Options{})
			if err != nil {
				t.Fatal(err)
			}
			mustCheck(t, name, in, s)
			if s.Makespan() != in.opt {
				t.Errorf("%s on %s: makespan %d, want %d", name, in.name, s.Makespan(), in.opt)
			}
		}
		r, err := Best(in.d, in.machines, Options{})
		if err != nil || r.Makespan != in.opt || !r.Optimal {
			t.Errorf("best on %s: %+v, %v", in.name, r, err)
		}
	}
}
