package dag

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// genStageDAG builds a seeded random data-analytics DAG: `stages` stages of
// about n/stages tasks each, every stage after one to three earlier
// stages, by barrier (60%) or one-to-one edges (when sizes match); per
// stage a duration in [10, 300) ticks varied ±20% per task and demands of
// (cpu, mem) between 1/16 and 1/2 of a machine of (32, 128). It returns
// the DAG and `machines` identical machines.
func genStageDAG(tb testing.TB, seed uint64, n, stages, machines int) (*DAG, [][]float64) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	b := NewBuilder(fmt.Sprintf("gen-%d-%d", n, stages), []string{"cpu", "mem"}, 1)
	size := make([]int, stages)
	for s := range size {
		size[s] = n / stages
	}
	size[0] += n - stages*(n/stages)
	for s := 0; s < stages; s++ {
		st := b.Stage(fmt.Sprint("s", s))
		base := 10 + rng.Int64N(290)
		cpu := 2 + float64(rng.IntN(15))  // 2..16 of 32 cores
		mem := 8 + float64(8*rng.IntN(8)) // 8..64 of 128
		if rng.IntN(4) == 0 {
			cpu, mem = mem/4, cpu*4 // some stages memory-heavy
		}
		for i := 0; i < size[s]; i++ {
			dur := base * int64(80+rng.IntN(41)) / 100
			b.AddTask(fmt.Sprintf("s%d[%d]", s, i), st, dur, []float64{cpu, mem})
		}
		if s == 0 {
			continue
		}
		parents := map[int]bool{}
		for k := 0; k < 1+rng.IntN(3); k++ {
			p := s - 1 - rng.IntN(min(s, 4))
			if parents[p] {
				continue
			}
			parents[p] = true
			if size[p] == size[s] && rng.IntN(10) < 4 {
				b.Connect(p, st, OneToOne)
			} else {
				b.Connect(p, st, Barrier)
			}
		}
	}
	d, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	ms := make([][]float64, machines)
	for m := range ms {
		ms[m] = []float64{32, 128}
	}
	return d, ms
}

func TestGeneratedLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large DAG") // about 2 s
	}
	d, ms := genStageDAG(t, 1, 10_000, 40, 100)
	in := instance{name: d.Name, d: d, machines: ms}
	b := LowerBounds(d, ms)
	for _, name := range []string{"cp", "tetris", "graphene"} {
		s, err := Run(name, d, ms, Options{})
		if err != nil {
			t.Fatal(err)
		}
		mustCheck(t, name, in, s)
		if s.Makespan() < b.Best {
			t.Fatalf("%s: makespan %d below the bound %d", name, s.Makespan(), b.Best)
		}
		t.Logf("%s: makespan %d, bound %d", name, s.Makespan(), b.Best)
	}
}
