package dag

import (
	"os"
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

// TestAlibabaSchedules schedules the accepted jobs of the Alibaba sample
// with up to 300 tasks on 20 Alibaba machines with Graphene: every
// schedule passes the checker and is not below the bounds.
func TestAlibabaSchedules(t *testing.T) {
	p := needData(t, "alibaba-v2018/batch_task_dag_sample_hliangzhao.csv")
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := ParseAlibaba("sample", f, AlibabaOptions{MaxTasks: 300, MaxEdges: 20_000})
	if err != nil {
		t.Fatal(err)
	}
	ms := make([][]float64, 20)
	for i := range ms {
		ms[i] = AlibabaMachine
	}
	var gapSum float64
	for _, j := range tr.Jobs {
		s, err := Graphene(j.DAG, ms, Options{MaxCandidates: 4})
		if err != nil {
			t.Fatal(err)
		}
		a := Assess(j.DAG, ms, s)
		if len(a.Violations) > 0 || a.Makespan < a.Bounds.Best {
			t.Fatalf("%s: %d violations, makespan %d, bound %d", j.Name, len(a.Violations), a.Makespan, a.Bounds.Best)
		}
		gapSum += a.Gap
	}
	t.Logf("%d jobs, mean gap of Graphene to the best bound %.2f%%", len(tr.Jobs), 100*gapSum/float64(len(tr.Jobs)))
}
