package lp

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/capplan/capplan/flow"
)

// oracleCMMF computes the weighted CMMF levels and freezing rounds of a
// small p exactly, in rational arithmetic, without LPs or flows. The
// achievable amount vectors form the polymatroid {x ≥ 0 : x(S) ≤ ρ(S)}
// with rank ρ(S) = min_{B ⊆ S} [d(B) + c(N(S∖B))] (users in B take their
// demand, the rest share their types; B ranges over capped users). The
// CMMF is progressive filling on it: with F frozen at levels v and A
// active at a common level λ, the round level is
//
//	λ_r = min over S with S∩A ≠ ∅ of (ρ(S) − Σ_{u∈S∩F} w_u v_u) / w(S∩A),
//
// and the users of A blocked at λ_r are exactly those in a tight set,
// i.e. in S∩A for a minimising S. Cost O(3^n + rounds·2^n) for n users
// with types and a non-zero demand; n ≤ 12 and at most 63 types.
func oracleCMMF(p *flow.Problem) (level []*big.Rat, round []int) {
	level = make([]*big.Rat, len(p.Users))
	round = make([]int, len(p.Users))
	var idx []int // modelled users
	for u, usr := range p.Users {
		level[u], round[u] = new(big.Rat), 1
		if len(usr.Types) > 0 && usr.Demand != 0 {
			idx = append(idx, u)
		}
	}
	n := len(idx)
	if n > 12 || len(p.Types) > 63 {
		panic("oracleCMMF: instance too large")
	}
	nbr := make([]uint64, n) // types of each user as a bit set
	var capped uint
	for k, u := range idx {
		for _, t := range p.Users[u].Types {
			nbr[k] |= 1 << t
		}
		if p.Users[u].Demand != flow.Unbounded {
			capped |= 1 << k
		}
	}
	capOf := func(S uint) int64 { // c(N(S))
		var types uint64
		for k := range n {
			if S&(1<<k) != 0 {
				types |= nbr[k]
			}
		}
		var c int64
		for types != 0 {
			t := bits.TrailingZeros64(types)
			c += p.Types[t]
			types &= types - 1
		}
		return c
	}
	rho := make([]int64, 1<<n)
	for S := uint(1); S < 1<<n; S++ {
		best := int64(math.MaxInt64)
		for B := S & capped; ; B = (B - 1) & S & capped {
			var d int64
			for k := range n {
				if B&(1<<k) != 0 {
					d += p.Users[idx[k]].Demand
				}
			}
			best = min(best, d+capOf(S&^B))
			if B == 0 {
				break
			}
		}
		rho[S] = best
	}

	all := uint(1)<<n - 1
	active, r := all, 1
	for active != 0 {
		var lam *big.Rat
		var tight uint
		for S := uint(1); S <= all; S++ {
			if S&active == 0 {
				continue
			}
			num := new(big.Rat).SetInt64(rho[S])
			var den int64
			for k := range n {
				w := p.Users[idx[k]].Weight
				switch {
				case S&active&(1<<k) != 0:
					den += w
				case S&(1<<k) != 0:
					num.Sub(num, new(big.Rat).Mul(level[idx[k]], big.NewRat(w, 1)))
				}
			}
			val := num.Quo(num, big.NewRat(den, 1))
			switch {
			case lam == nil || val.Cmp(lam) < 0:
				lam, tight = val, S&active
			case val.Cmp(lam) == 0:
				tight |= S & active
			}
		}
		for k := range n {
			if tight&(1<<k) != 0 {
				level[idx[k]].Set(lam)
				round[idx[k]] = r
			}
		}
		active &^= tight
		r++
	}
	return level, round
}

// TestOracleExamples checks the oracle itself on the hand-solved cases.
func TestOracleExamples(t *testing.T) {
	for _, tc := range cmmfCases {
		t.Run(tc.name, func(t *testing.T) {
			level, round := oracleCMMF(&tc.p)
			got := make([]float64, len(level))
			for u, l := range level {
				f, _ := l.Float64()
				got[u] = f * float64(tc.p.Users[u].Weight)
			}
			if diff := diffFloats(tc.amount, got, 1e-15); diff != "" {
				t.Errorf("amounts (-want +got):\n%s", diff)
			}
			if fmt.Sprint(round) != fmt.Sprint(tc.round) {
				t.Errorf("rounds = %v, want %v", round, tc.round)
			}
		})
	}
}

// TestCMMFRandom compares CMMF and CMMFPaper, with every backend, with
// the exact oracle on random small weighted instances with demand caps,
// and checks each allocation's feasibility and leximin optimality.
func TestCMMFRandom(t *testing.T) {
	const instances = 200
	eachBackend(t, func(t *testing.T, s Solver) {
		rng := rand.New(rand.NewPCG(7, 11)) // fixed seed: reproducible instances
		for i := range instances {
			// Up to 7 users on up to 5 types of up to 6 machines: small
			// enough for the oracle, with frequent ties and shared types.
			p := randomProblem(rng, 1+rng.IntN(7), 1+rng.IntN(5), 6)
			if rng.IntN(4) == 0 {
				// A user without types or with demand 0 now and then.
				p.Users = append(p.Users, flow.User{Weight: 2, Demand: flow.Unbounded})
				p.Users = append(p.Users, flow.User{Weight: 1, Demand: 0, Types: []int{0}})
			}
			level, round := oracleCMMF(p)
			want := make([]float64, len(level))
			for u, l := range level {
				want[u], _ = l.Float64()
			}
			for _, alg := range cmmfAlgorithms {
				res, err := alg.f(p, s)
				if err != nil {
					t.Fatalf("instance %d %s: %v (%+v)", i, alg.name, err, *p)
				}
				if diff := diffFloats(want, res.Level, cmmfTol); diff != "" {
					t.Errorf("instance %d %s: levels (-want +got):\n%s%+v", i, alg.name, diff, *p)
				}
				if fmt.Sprint(round) != fmt.Sprint(res.Round) {
					t.Errorf("instance %d %s: rounds = %v, want %v (%+v)", i, alg.name, res.Round, round, *p)
				}
				checkAlloc(t, p, res)
				checkLeximin(t, s, p, res)
			}
		}
	})
}

// leximinRelax relaxes the floors of the leximin check LP, relative, so
// that rounding in the amounts cannot make it infeasible.
const leximinRelax = 1e-11

// checkLeximin checks, with one LP per user built here independently of
// cmmfLP, that no user u can get more than Amount[u] while every other
// user whose level is ≤ u's keeps its amount: the characterisation of the
// leximin (max-min fair) allocation by bottlenecks.
func checkLeximin(t *testing.T, s Solver, p *flow.Problem, res *CMMFResult) {
	t.Helper()
	var m Model
	x := make([]Var, len(p.Users))
	perType := make([][]Term, len(p.Types))
	var total float64
	for u, usr := range p.Users {
		hi := math.Inf(1)
		if usr.Demand != flow.Unbounded {
			hi = float64(usr.Demand)
		}
		x[u] = m.AddVar(0, hi)
		link := []Term{{x[u], -1}}
		for _, ty := range usr.Types {
			f := m.AddVar(0, math.Inf(1))
			link = append(link, Term{f, 1})
			perType[ty] = append(perType[ty], Term{f, 1})
		}
		m.AddConstraint(link, EQ, 0)
		total += res.Amount[u]
	}
	for ty, terms := range perType {
		m.AddConstraint(terms, LE, float64(p.Types[ty]))
	}
	for u, usr := range p.Users {
		for v := range p.Users {
			lo := 0.0
			// Levels equal up to rounding count as equal.
			if v != u && res.Level[v] <= res.Level[u]*(1+cmmfTol) {
				lo = res.Amount[v] * (1 - leximinRelax)
			}
			_, hi := m.Bounds(x[v])
			m.SetBounds(x[v], lo, hi)
		}
		m.SetObjective([]Term{{x[u], 1}}, true)
		sol, err := s.Solve(&m)
		if err != nil {
			t.Errorf("leximin LP for user %d: %v", u, err)
			continue
		}
		// Relaxing the floors by leximinRelax can free that much of
		// every other amount for u.
		if sol.Objective > res.Amount[u]+cmmfTol*math.Max(1, total) {
			t.Errorf("user %d (weight %d) can reach %v > %v without lowering anyone at level ≤ %v (%+v)",
				u, usr.Weight, sol.Objective, res.Amount[u], res.Level[u], *p)
		}
	}
}
