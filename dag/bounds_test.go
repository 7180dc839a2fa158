package dag

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// destructiveBounds computes each destructive bound on its own, from the
// cheap bounds up and with the sum of durations as the ceiling (so a bound
// above the optimum is not hidden by a cap): StageLB, EnergeticLB, LPLB
// and, through AllBounds, the search.
func destructiveBounds(t *testing.T, in instance) map[string]int64 {
	t.Helper()
	all, err := AllBounds(in.d, in.machines, in.d.TotalDuration(), Options{MaxWork: 200_000})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{"stage": StageLB(in.d, in.machines), "energetic": EnergeticLB(in.d, in.machines),
		"lp": LPLB(in.d, in.machines)}
	for _, name := range BoundNames {
		out["all:"+name] = all.Value(name)
	}
	return out
}

// TestBoundsBelowBruteForce checks every bound, the destructive ones
// included, against the exact optimum of random instances with at most 7
// tasks.
func TestBoundsBelowBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	tight := map[string]int{}
	for trial := 0; trial < 300; trial++ {
		in := randomTiny(t, rng, 7)
		opt := bruteOpt(in.d, in.machines)
		b := LowerBounds(in.d, in.machines)
		for name, v := range destructiveBounds(t, in) {
			if v > opt {
				t.Fatalf("trial %d: %s bound %d > optimum %d (%v)", trial, name, v, opt, in.d)
			}
		}
		for name, v := range map[string]int64{"cp": b.CP, "energy": b.Energy, "newlb": b.NewLB, "packing": b.NodePacking, "bin": b.Bin} {
			if v > opt {
				t.Fatalf("trial %d: %s bound %d > optimum %d (%v)", trial, name, v, opt, in.d)
			}
			if v == opt {
				tight[name]++
			}
		}
		if b.Best == opt {
			tight["best"]++
		}
	}
	t.Logf("bounds equal to the optimum, of 300: %v", tight)
}

func TestBoundsHand(t *testing.T) {
	d := diamond(t) // a(2) -> {b(3), c(1)} -> d(2); cpu 2, 2, 2, 1
	tests := []struct {
		name     string
		machines [][]float64
		want     Bounds
	}{
		// One machine of capacity 2: every pair conflicts, so the tasks run
		// one at a time: 2+3+1+2 = 8 = node packing. Energy: (4+6+2+2)/2 =
		// 7. CP: 2+3+2 = 7. Bin (q=2): demand 2 > 2/2 for a, b, c: 6/1 = 6.
		// NewLB: cuts after a and after {a,b,c} give parts a | b,c | d and
		// CutLB = 2 + max(CP 3, energy (6+2)/2 = 4) + 2 = 8.
		{"one small machine", [][]float64{{2}}, Bounds{CP: 7, Energy: 7, NewLB: 8, NodePacking: 8, Bin: 6, Best: 8, BestBy: "newLB"}},
		// Two machines of capacity 2: energy 14/4 → 4; bin 6/2 = 3; the
		// middle part now takes max(3, 8/4 = 2), so CutLB = 2+3+2 = 7.
		{"two small machines", [][]float64{{2}, {2}}, Bounds{CP: 7, Energy: 4, NewLB: 7, NodePacking: 7, Bin: 3, Best: 7, BestBy: "cpLength"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := LowerBounds(d, tc.machines)
			got.TWork = nil
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestNewLBStages: two barrier-separated stages of 4 tasks of duration 1
// needing a whole machine each, on 2 machines. CP = 2 and TWork = 8/2 = 4,
// but each stage alone needs 4/2 = 2 and the second starts after the first
// ends: NewLB = 2 + 2 = 4; a third stage makes it 6 while TWork is 6 too;
// with cut parts the bound is the same.
func TestNewLBStages(t *testing.T) {
	b := NewBuilder("stages", []string{"cpu"}, 1)
	var st []int
	for s := 0; s < 3; s++ {
		st = append(st, b.Stage(string(rune('a'+s))))
		for i := 0; i < 4; i++ {
			b.AddTask(string(rune('a'+s))+string(rune('0'+i)), st[s], 1, []float64{1})
		}
	}
	b.Connect(st[0], st[1], Barrier)
	b.Connect(st[1], st[2], OneToOne)
	d, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	machines := [][]float64{{1}, {1}}
	// Stage c is one-to-one after b: E(c) = E(b) + 1 = 3, F(c) ≥ F(b) + 1
	// = 5 and ≥ E(c) + LB(c) = 3 + 2 = 5. So NewLB = 6 only through the
	// cut at 4 tasks: parts a and b+c give 2 + max(2, 4) = 6.
	if got := NewLB(d, machines); got != 6 {
		t.Fatalf("NewLB %d, want 6", got)
	}
	if got := Cuts(d); len(got) != 1 || got[0] != 4 {
		t.Fatalf("cuts %v, want [4]", got)
	}
}

// randomStaged returns a random instance of at most 7 tasks in stages of
// one to three tasks, joined by barrier, one-to-one or partial edges, on
// one to three machines.
func randomStaged(t *testing.T, rng *rand.Rand) instance {
	machines := [][]float64{{4, 3}, {3, 5}}[:1+rng.IntN(2)]
	b := NewBuilder("staged", []string{"a", "b"}, 1)
	var stages [][]int
	n := 0
	for s := 0; n < 7; s++ {
		size := min(1+rng.IntN(3), 7-n)
		st := b.Stage(string(rune('A' + s)))
		dur := int64(rng.IntN(5))
		dem := []float64{float64(rng.IntN(4)), float64(rng.IntN(4))}
		var tasks []int
		for i := 0; i < size; i++ {
			d := dur
			if rng.IntN(3) == 0 {
				d = int64(rng.IntN(5)) // stages need not be uniform
			}
			tasks = append(tasks, b.AddTask(string(rune('A'+s))+string(rune('0'+i)), st, d, dem))
		}
		for p := range stages {
			switch rng.IntN(5) {
			case 0:
				b.Connect(p, st, Barrier)
			case 1:
				if len(stages[p]) == size {
					b.Connect(p, st, OneToOne)
				}
			case 2:
				b.AddEdge(stages[p][rng.IntN(len(stages[p]))], tasks[rng.IntN(size)])
			}
		}
		stages = append(stages, tasks)
		n += size
	}
	d, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return instance{name: "staged", d: d, machines: machines}
}

// TestBoundsStagedBruteForce checks the stage-level bounds (NewLB's E/F
// recursion, slot and bin bounds, StageLB) and the other destructive
// bounds on multi-task stages against the exact optimum.
func TestBoundsStagedBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	tight := 0
	for trial := 0; trial < 300; trial++ {
		in := randomStaged(t, rng)
		opt := bruteOpt(in.d, in.machines)
		b := LowerBounds(in.d, in.machines)
		for name, v := range map[string]int64{"cp": b.CP, "energy": b.Energy, "newlb": b.NewLB, "packing": b.NodePacking, "bin": b.Bin} {
			if v > opt {
				t.Fatalf("trial %d: %s bound %d > optimum %d\n%v %+v", trial, name, v, opt, in.d, in.d.StageEdges)
			}
		}
		for name, v := range destructiveBounds(t, in) {
			if v > opt {
				t.Fatalf("trial %d: %s bound %d > optimum %d\n%v %+v", trial, name, v, opt, in.d, in.d.StageEdges)
			}
		}
		if b.Best == opt {
			tight++
		}
		for _, name := range []string{"graphene", "cp", "tetris", "strippart", "bssgs-lft"} {
			s, _ := Run(name, in.d, in.machines, Options{})
			mustCheck(t, name, in, s)
			if s.Makespan() < opt {
				t.Fatalf("trial %d: %s makespan %d below the optimum %d", trial, name, s.Makespan(), opt)
			}
		}
	}
	t.Logf("best bound equals the optimum on %d/300", tight)
}
