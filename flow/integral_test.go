package flow

import (
	"math/rand/v2"
	"testing"
)

func TestIntegralPaperExamples(t *testing.T) {
	for _, tc := range paperCases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Integral(&tc.p)
			if err != nil {
				t.Fatal(err)
			}
			got := sortedLevels(&tc.p, amounts(r))
			want := sortedLevels(&tc.p, tc.integral)
			if lexLess(got, want) || lexLess(want, got) {
				t.Errorf("amounts %v, want a permutation-equivalent of %v", amounts(r), tc.integral)
			}
			if err := Verify(&tc.p, r); err != nil {
				t.Error(err)
			}
		})
	}
}

func amounts(r *Result) []int64 {
	out := make([]int64, len(r.Amount))
	for u, a := range r.Amount {
		if a.Den != 1 {
			panic("fractional amount in an integral result")
		}
		out[u] = a.Num
	}
	return out
}

// TestIntegralAgainstBruteForce checks leximin optimality by enumerating
// every integral allocation of small instances, weighted and unweighted.
func TestIntegralAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 2000; i++ {
		maxW := int64(4)
		if i%2 == 0 {
			maxW = 1 // exercise Algorithm B
		}
		p := randomProblem(rng, 1+rng.IntN(5), 1+rng.IntN(4), 4, maxW)
		r, err := Integral(p)
		if err != nil {
			t.Fatal(err)
		}
		got := sortedLevels(p, amounts(r))
		want := bruteIntegral(p)
		if lexLess(got, want) || lexLess(want, got) {
			t.Fatalf("instance %d %+v: amounts %v (sorted levels %v), brute force %v", i, *p, amounts(r), got, want)
		}
		if err := Verify(p, r); err != nil {
			t.Fatalf("instance %d %+v: %v", i, *p, err)
		}
	}
}

// TestIntegralWeightedMatchesUnitGreedy compares the round-based greedy
// with the plain one-machine-at-a-time greedy it replays, on instances too
// large for brute force.
func TestIntegralWeightedMatchesUnitGreedy(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 200; i++ {
		p := randomProblem(rng, 5+rng.IntN(20), 2+rng.IntN(8), 12, 5)
		r, err := integralWeighted(p)
		if err != nil {
			t.Fatal(err)
		}
		want := unitGreedy(p)
		got := amounts(r)
		for u := range want {
			if got[u] != want[u] {
				t.Fatalf("instance %d: user %d got %d, unit greedy %d", i, u, got[u], want[u])
			}
		}
		if err := Verify(p, r); err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
	}
}

// TestVerifyRejectsIntegral: a feasible integral allocation that is not
// leximin must fail the exchange certificate.
func TestVerifyRejectsIntegral(t *testing.T) {
	p := paperCases[3].p // figure 5: optimum 2,3,4
	bad := &Result{Integral: true,
		Amount: []Rat{Int(2), Int(2), Int(5)},
		Level:  []Rat{Int(2), Int(2), Int(5)},
		Round:  []int{1, 1, 1},
		Capped: []bool{false, false, false},
		Alloc: [][]Rat{
			{Int(1), Int(1)},
			{Int(0), Int(1), Int(1), Int(0)},
			{Int(1), Int(1), Int(1), Int(1), Int(1)},
		},
	}
	if err := Verify(&p, bad); err == nil {
		t.Error("non-leximin integral allocation verified")
	}
}

// unitGreedy is the literal greedy: one machine at a time to the active user
// of lowest (level, weight, index), freezing a user when no augmenting path
// exists. Each increment is one augmentation on a fresh network.
func unitGreedy(p *Problem) []int64 {
	lists := make([][]int, len(p.Users))
	for u := range p.Users {
		lists[u] = p.Users[u].Types
	}
	n := newNetwork(lists, nil, p.Types)
	for tt, c := range p.Types {
		n.g.SetCap(n.typeArc[tt], c)
	}
	x := make([]int64, len(p.Users))
	active := make([]bool, len(p.Users))
	for u := range active {
		active[u] = len(p.Users[u].Types) > 0 && p.Users[u].Demand != 0
	}
	for {
		best := -1
		for u := range p.Users {
			if !active[u] {
				continue
			}
			if best < 0 {
				best = u
				continue
			}
			c := NewRat(x[u], p.Users[u].Weight).Cmp(NewRat(x[best], p.Users[best].Weight))
			if c < 0 || (c == 0 && p.Users[u].Weight < p.Users[best].Weight) {
				best = u
			}
		}
		if best < 0 {
			return x
		}
		n.g.SetCap(n.classArc[best], x[best]+1)
		if n.g.MaxFlow(n.src, n.sink) == 1 {
			x[best]++
			if d := p.Users[best].Demand; d != Unbounded && x[best] == d {
				active[best] = false
			}
		} else {
			n.g.SetCap(n.classArc[best], x[best])
			active[best] = false
		}
	}
}
