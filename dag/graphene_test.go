package dag

import (
	"testing"
)

// TestGrapheneHandBuilt: Graphene is near-optimal on the hand-built DAGs
// of Graphene §2.2 and §2.4 where CP or Tetris take 2.9–4.8 × OPT.
func TestGrapheneHandBuilt(t *testing.T) {
	for _, in := range handBuilt(t) {
		s, err := Graphene(in.d, in.machines, Options{})
		if err != nil {
			t.Fatal(err)
		}
		mustCheck(t, "graphene", in, s)
		worst := int64(0)
		for _, m := range []string{"cp", "tetris"} {
			b, _ := Run(m, in.d, in.machines, Options{})
			worst = max(worst, b.Makespan())
		}
		// near-optimal: within 5% of OPT, while the worse baseline is at
		// least 2.5 × OPT.
		if 100*s.Makespan() > 105*in.opt || 10*worst < 25*in.opt {
			t.Errorf("%s: graphene %d, worst of cp/tetris %d, opt %d", in.name, s.Makespan(), worst, in.opt)
		}
		t.Logf("%s: graphene %d, worst of cp/tetris %d, opt %d", in.name, s.Makespan(), worst, in.opt)
	}
}

// TestGrapheneWorkers: the result does not depend on the number of
// workers evaluating candidates.
func TestGrapheneWorkers(t *testing.T) {
	d, ms := genStageDAG(t, 7, 600, 12, 6)
	one, err := Graphene(d, ms, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{2, 5} {
		s, _ := Graphene(d, ms, Options{Workers: w})
		for i := range s.Start {
			if s.Start[i] != one.Start[i] || s.Machine[i] != one.Machine[i] {
				t.Fatalf("workers %d: task %d at (%d, m%d), with one worker (%d, m%d)", w, i, s.Start[i], s.Machine[i], one.Start[i], one.Machine[i])
			}
		}
	}
	mustCheck(t, "graphene", instance{name: d.Name, d: d, machines: ms}, one)
}
