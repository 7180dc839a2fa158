package dag

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// instance is one entry of the shared test corpus: a DAG, its machines and,
// when known, its optimal makespan.
type instance struct {
	name     string
	d        *DAG
	machines [][]float64
	opt      int64 // 0: unknown
}

// spec builds a DAG of single-task stages from parallel slices.
type spec struct {
	ids    []string
	dur    []int64
	demand [][]float64
	edges  [][2]string
}

func (s spec) build(tb testing.TB, name string, resources []string) *DAG {
	tb.Helper()
	b := NewBuilder(name, resources, 1)
	idx := map[string]int{}
	for i, id := range s.ids {
		idx[id] = b.AddTask(id, -1, s.dur[i], s.demand[i])
	}
	for _, e := range s.edges {
		b.AddEdge(idx[e[0]], idx[e[1]])
	}
	d, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// randomTiny returns a random instance of at most maxN tasks on one or two
// machines, every task fitting some machine, from a seeded generator.
func randomTiny(tb testing.TB, rng *rand.Rand, maxN int) instance {
	n := 2 + rng.IntN(maxN-1)
	machines := [][]float64{{4, 3}, {3, 5}}[:1+rng.IntN(2)]
	b := NewBuilder("tiny", []string{"a", "b"}, 1)
	for i := 0; i < n; i++ {
		m := machines[rng.IntN(len(machines))]
		dem := []float64{float64(rng.IntN(int(m[0]) + 1)), float64(rng.IntN(int(m[1]) + 1))}
		b.AddTask(fmt.Sprint("t", i), -1, int64(rng.IntN(6)), dem) // durations 0..5
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if rng.Float64() < 0.25 {
				b.AddEdge(i, j)
			}
		}
	}
	d, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return instance{name: "tiny", d: d, machines: machines}
}

// bruteOpt returns the optimal makespan by exhaustive search: every
// precedence-feasible task list and every machine choice, each task at its
// earliest feasible integer start on its machine (a tick-by-tick grid,
// independent of Space). Left-shifting any optimal schedule in start order
// on fixed machines gives one of these, so the minimum is the optimum.
// Exponential: use for at most 7 tasks.
func bruteOpt(d *DAG, machines [][]float64) int64 {
	n, k := d.N(), d.K()
	horizon := d.TotalDuration() + 1
	use := make([][]float64, len(machines)) // use[m][t*k+r]
	for m := range use {
		use[m] = make([]float64, int(horizon)*k)
	}
	end := make([]int64, n)
	done := make([]bool, n)
	best := int64(math.MaxInt64)
	var rec func(placed int, span int64)
	rec = func(placed int, span int64) {
		if span >= best {
			return
		}
		if placed == n {
			best = span
			return
		}
		for v := 0; v < n; v++ {
			if done[v] {
				continue
			}
			var est int64
			ready := true
			for _, p := range d.Preds(v) {
				if !done[p] {
					ready = false
					break
				}
				est = max(est, end[p])
			}
			if !ready {
				continue
			}
			t := &d.Tasks[v]
			for m, c := range machines {
				st := int64(-1)
				for x := est; x+t.Duration <= horizon && st < 0; x++ {
					ok := true
					for y := x; y < x+t.Duration && ok; y++ {
						for r := 0; r < k; r++ {
							if !fitsCap(use[m][int(y)*k+r]+t.Demand[r], c[r]) {
								ok = false
								break
							}
						}
					}
					if ok && fitsAll(t.Demand, nil, c) {
						st = x
					}
				}
				if st < 0 {
					continue
				}
				for y := st; y < st+t.Duration; y++ {
					for r := 0; r < k; r++ {
						use[m][int(y)*k+r] += t.Demand[r]
					}
				}
				done[v], end[v] = true, st+t.Duration
				rec(placed+1, max(span, end[v]))
				done[v] = false
				for y := st; y < st+t.Duration; y++ {
					for r := 0; r < k; r++ {
						use[m][int(y)*k+r] -= t.Demand[r]
					}
				}
			}
		}
	}
	rec(0, 0)
	return best
}

// figure2 is the DAG of Graphene §2.2 (Figure 2), rebuilt from the text:
// the figure itself is not in our copy, so durations and demands were
// chosen to satisfy every stated fact. Time unit ε = 1 tick, T = 100; two
// resources of capacity 100 (so the paper's capacity 1 is 100 here). Long
// tasks t0, t2, t5 fit together exactly (30+45+25, 60+35+5) = (100, 100).
// The critical paths are T(1+5ε), T(1+ε), T(1+4ε) for t0, t1, t3
// (footnote 1) and the Tetris scores t0 .90 > t1 .85 > t3 .84 > t2 .80 >
// t4 .70 > t5 .30 (footnote 2). t1 and t3 each conflict with t0 and with
// each other; t4 fits beside t0 but not beside t2.
//
// OPT: t1 [0,1), t3 [1,2), t4 [2,3), t0 [2,107), t2 [3,103), t5 [3,105)
// = 107. It is optimal: t0, t1, t3 pairwise conflict, so no schedule is
// shorter than 105+1+1 = 107. CPSched runs t0, t3, t4, t5, t1, t2 one
// after the other (t1 fits beside none of them): 105+1+1+102+1+100 = 310.
// Tetris runs t0, t1, t3, t2, t4, t5: also 310, 2.9 × OPT.
func figure2(tb testing.TB) instance {
	d := spec{
		ids:    []string{"t0", "t1", "t2", "t3", "t4", "t5"},
		dur:    []int64{105, 1, 100, 1, 1, 102},
		demand: [][]float64{{30, 60}, {80, 5}, {45, 35}, {74, 10}, {60, 10}, {25, 5}},
		edges:  [][2]string{{"t1", "t2"}, {"t3", "t4"}, {"t4", "t5"}},
	}.build(tb, "figure2", []string{"r1", "r2"})
	return instance{name: "figure2", d: d, machines: [][]float64{{100, 100}}, opt: 107}
}

// lemma2 is an adversarial family for critical-path scheduling (Graphene
// §2.4, Lemma 2: CP can be Ω(n) × OPT; the tech report's construction was
// not available, this one is ours). k chains s_i → L_i on one machine of
// capacity k: s_i lasts 1 and needs the whole machine, L_i lasts
// T − 2(i−1) and needs 1. Bottom levels interleave, s_1 > L_1 > s_2 > …,
// so CP starts L_i right after s_i and s_{i+1} waits for L_i to end:
// Σ_i (1 + T − 2(i−1)) = k + kT − k(k−1). OPT runs every s first, then all
// L together: k + T; it is optimal because the s tasks and L_1 pairwise
// conflict. With k = 5 and T = 100: CP 485, OPT 105.
func lemma2(tb testing.TB, k int, T int64) instance {
	var sp spec
	for i := 1; i <= k; i++ {
		s, l := fmt.Sprint("s", i), fmt.Sprint("L", i)
		sp.ids = append(sp.ids, s, l)
		sp.dur = append(sp.dur, 1, T-2*int64(i-1))
		sp.demand = append(sp.demand, []float64{float64(k)}, []float64{1})
		sp.edges = append(sp.edges, [2]string{s, l})
	}
	return instance{name: fmt.Sprintf("lemma2-k%d", k), d: sp.build(tb, "lemma2", []string{"cpu"}),
		machines: [][]float64{{float64(k)}}, opt: int64(k) + T}
}

// lemma1 is an adversarial family for dependency-unaware packers (Graphene
// §2.4, Lemma 1: Ω(d) × OPT for d resources; our construction). Resources
// key, r1..rd, capacity 100 each, one machine. For j = 1..d: a key task
// K_j (1 tick; key 60, every r 1) precedes a long task L_j (T ticks; r_j
// 100, key 8). Keys conflict with each other (key) and with every L (r_j);
// the L tasks fit together (8d ≤ 40 for d ≤ 5). Tetris always prefers a
// runnable L (score 1.08) to a key (0.6 + d/100), so it starts L_1 after
// K_1 and blocks every other key for T: d(T+1). OPT runs the keys first,
// then every L at once: d + T, optimal since the keys and L_1 pairwise
// conflict. With d = 5 and T = 100: Tetris 505, OPT 105.
func lemma1(tb testing.TB, dims int, T int64) instance {
	res := []string{"key"}
	for j := 1; j <= dims; j++ {
		res = append(res, fmt.Sprint("r", j))
	}
	var sp spec
	for j := 1; j <= dims; j++ {
		key := make([]float64, dims+1)
		key[0] = 60
		for r := 1; r <= dims; r++ {
			key[r] = 1
		}
		long := make([]float64, dims+1)
		long[0], long[j] = 8, 100
		k, l := fmt.Sprint("K", j), fmt.Sprint("L", j)
		sp.ids = append(sp.ids, k, l)
		sp.dur = append(sp.dur, 1, T)
		sp.demand = append(sp.demand, key, long)
		sp.edges = append(sp.edges, [2]string{k, l})
	}
	caps := make([]float64, dims+1)
	for r := range caps {
		caps[r] = 100
	}
	return instance{name: fmt.Sprintf("lemma1-d%d", dims), d: sp.build(tb, "lemma1", res),
		machines: [][]float64{caps}, opt: int64(dims) + T}
}

// handBuilt returns the hand-built corpus with stated optima.
func handBuilt(tb testing.TB) []instance {
	return []instance{figure2(tb), lemma2(tb, 5, 100), lemma1(tb, 5, 100)}
}

// mustCheck fails the test if s violates any constraint.
func mustCheck(tb testing.TB, what string, in instance, s *Schedule) {
	tb.Helper()
	if v := Check(in.d, in.machines, s); len(v) > 0 {
		tb.Fatalf("%s on %s: %d violations, first %v", what, in.name, len(v), v[0])
	}
}

func newTestRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed+1)) }
