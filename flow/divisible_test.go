package flow

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDivisiblePaperExamples(t *testing.T) {
	for _, tc := range paperCases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Divisible(&tc.p)
			if err != nil {
				t.Fatal(err)
			}
			for u, want := range tc.want {
				if r.Amount[u] != want {
					t.Errorf("user %d: amount %s, want %s", u+1, r.Amount[u], want)
				}
				if tc.rounds != nil && r.Round[u] != tc.rounds[u] {
					t.Errorf("user %d: round %d, want %d", u+1, r.Round[u], tc.rounds[u])
				}
			}
			if err := Verify(&tc.p, r); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestDivisibleAgainstBruteForce compares with Fujishige's decomposition
// computed by brute force over all user subsets, and checks the certificate.
func TestDivisibleAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 1500; i++ {
		p := randomProblem(rng, 1+rng.IntN(6), 1+rng.IntN(5), 6, 4)
		r, err := Divisible(p)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteDivisible(p)
		for u := range p.Users {
			if r.Amount[u].Big().Cmp(want[u]) != 0 {
				t.Fatalf("instance %d %+v: user %d amount %s, brute force %s", i, *p, u, r.Amount[u], want[u].RatString())
			}
		}
		if err := Verify(p, r); err != nil {
			t.Fatalf("instance %d %+v: %v", i, *p, err)
		}
	}
}

// TestVerifyRejects checks that the certificate catches wrong answers:
// a feasible but unfair allocation, and an over-allocation.
func TestVerifyRejects(t *testing.T) {
	p := paperCases[1].p // figure 3
	r, err := Divisible(&p)
	if err != nil {
		t.Fatal(err)
	}
	// Give m3 to u2 instead: u1 = 2, u2 = 8. Feasible, not max-min fair.
	bad := *r
	bad.Amount = []Rat{Int(2), Int(8)}
	bad.Level = []Rat{Int(2), Int(8)}
	bad.Alloc = [][]Rat{{Int(1), Int(1), Int(0)}, {Int(0), Int(0), Int(1), Int(1), Int(1), Int(1), Int(1), Int(1), Int(1), Int(1)}}
	if err := Verify(&p, &bad); err == nil {
		t.Error("unfair allocation verified")
	}
	over := *r
	over.Alloc = [][]Rat{{Int(1), Int(1), Int(1)}, {Int(0), Int(0), Int(1), Int(1), Int(1), Int(1), Int(1), Int(1), Int(1), Int(1)}}
	over.Amount = []Rat{Int(3), Int(8)}
	over.Level = over.Amount
	if err := Verify(&p, &over); err == nil {
		t.Error("over-allocation verified")
	}
	idle := *r
	idle.Alloc = [][]Rat{{Int(1), Int(1), Int(1)}, {Int(0), Int(0), Int(0), Int(1), Int(1), Int(1), Int(1), Int(1), Int(1), Int(0)}}
	idle.Amount = []Rat{Int(3), Int(6)}
	idle.Level = idle.Amount
	if err := Verify(&p, &idle); err == nil {
		t.Error("allocation leaving an idle machine verified")
	}
}

// TestConstrainedSharingIncentive checks Theorem 2 of the paper: when each
// user contributes k_i machines it may use and its weight is k_i, every
// user with unbounded demand receives at least k_i.
func TestConstrainedSharingIncentive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 300; i++ {
		nu := 2 + rng.IntN(8)
		nt := nu + rng.IntN(5)
		p := &Problem{Types: make([]int64, nt), Users: make([]User, nu)}
		for t := range p.Types {
			p.Types[t] = 1 + rng.Int64N(5)
		}
		for u := range p.Users {
			// user u contributed type u; it may also use random others.
			ts := []int{}
			for t := 0; t < nt; t++ {
				if t == u || rng.IntN(3) == 0 {
					ts = append(ts, t)
				}
			}
			p.Users[u] = User{Weight: p.Types[u], Demand: Unbounded, Types: ts}
		}
		for _, integral := range []bool{false, true} {
			r, err := Solve(p, integral)
			if err != nil {
				t.Fatal(err)
			}
			for u := range p.Users {
				if r.Amount[u].Cmp(Int(p.Types[u])) < 0 {
					t.Fatalf("integral=%v instance %d: user %d got %s < contributed %d", integral, i, u, r.Amount[u], p.Types[u])
				}
			}
		}
	}
}

// TestStrategyProof checks Theorem 3 on generated instances: a user that
// reports a superset of its machine types never ends up able to use more
// machines of the types it can really run on. "Able to use" is measured
// generously: the most the liar could route on its true types while every
// other user keeps its (lying-case) amount.
func TestStrategyProof(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 400; i++ {
		p := randomProblem(rng, 2+rng.IntN(5), 2+rng.IntN(5), 5, 3)
		liar := rng.IntN(len(p.Users))
		truth := p.Users[liar].Types
		lie := append([]int(nil), truth...)
		for tt := range p.Types {
			if rng.IntN(2) == 0 && !slices.Contains(lie, tt) {
				lie = append(lie, tt)
			}
		}
		slices.Sort(lie)
		q := *p
		q.Users = slices.Clone(p.Users)
		q.Users[liar].Types = lie
		honest, err := Divisible(p)
		if err != nil {
			t.Fatal(err)
		}
		lying, err := Divisible(&q)
		if err != nil {
			t.Fatal(err)
		}
		useful := usefulAmount(p, lying, liar)
		if useful.Cmp(honest.Amount[liar].Big()) > 0 {
			t.Fatalf("instance %d: liar %d could use %s > honest %s", i, liar, useful.RatString(), honest.Amount[liar])
		}
	}
}

// usefulAmount is the most user liar can route on its true types (p's) while
// every other user receives its amount in r: others are routed first, then
// the liar augments (augmentation never lowers a source arc's flow).
func usefulAmount(p *Problem, r *Result, liar int) *big.Rat {
	var den int64 = 1
	for u := range p.Users {
		d := r.Amount[u].Den
		den = den / gcd(den, d) * d
	}
	lists := make([][]int, len(p.Users))
	for u := range p.Users {
		lists[u] = p.Users[u].Types
	}
	n := newNetwork(lists, nil, p.Types)
	for t, c := range p.Types {
		n.g.SetCap(n.typeArc[t], c*den)
	}
	for u := range p.Users {
		if u != liar {
			n.g.SetCap(n.classArc[u], r.Amount[u].Num*(den/r.Amount[u].Den))
		}
	}
	n.g.MaxFlow(n.src, n.sink)
	liarCap := Inf
	if d := p.Users[liar].Demand; d != Unbounded {
		liarCap = d * den
	}
	n.g.SetCap(n.classArc[liar], liarCap)
	n.g.MaxFlow(n.src, n.sink)
	return big.NewRat(n.g.Flow(n.classArc[liar]), den)
}
