package flow_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/flow"
	"github.com/capplan/capplan/pipeline"
)

// googleProblem builds a Google-like CMMF instance (datasets.GoogleLike)
// outside any timed loop.
func googleProblem(tb testing.TB, users, types, machines int, seed int64) *flow.Problem {
	tb.Helper()
	c, d := datasets.GoogleLike(datasets.GoogleParams{Users: users, Types: types, Machines: machines}, seed)
	inst, err := datasets.Coalesce(c, d)
	if err != nil {
		tb.Fatal(err)
	}
	return pipeline.CMMFProblem(inst, d)
}

// unweightedCopy sets every weight to 1 (Algorithm B's fast path).
func unweightedCopy(p *flow.Problem) *flow.Problem {
	q := &flow.Problem{Types: p.Types, Users: make([]flow.User, len(p.Users))}
	copy(q.Users, p.Users)
	for i := range q.Users {
		q.Users[i].Weight = 1
	}
	return q
}

// nestedProblem is the hard case of ALGORITHMS.md §5.6: machine types
// ordered by size, and users that need at least one of `levels` size
// thresholds, so eligible sets are nested suffixes and the shares form many
// distinct levels. Weights 1–4 and counts are drawn from a fixed seed.
func nestedProblem(users, types, machines, levels int, seed uint64) *flow.Problem {
	rng := rand.New(rand.NewPCG(seed, 99))
	p := &flow.Problem{Types: make([]int64, types), Users: make([]flow.User, users)}
	left := int64(machines)
	for t := range p.Types {
		p.Types[t] = 1
		left--
	}
	for ; left > 0; left-- {
		p.Types[rng.IntN(types)]++
	}
	for u := range p.Users {
		lv := rng.IntN(levels)
		first := lv * types / levels
		ts := make([]int, 0, types-first)
		for t := first; t < types; t++ {
			ts = append(ts, t)
		}
		p.Users[u] = flow.User{Weight: 1 + rng.Int64N(4), Demand: flow.Unbounded, Types: ts}
	}
	return p
}

// randomProblem gives every user an independent random set of types
// (each type with probability 7–100%, per user), weights 1–100: almost no
// two users coincide, so class compression cannot help.
func randomProblem(users, types, machines int, seed uint64) *flow.Problem {
	rng := rand.New(rand.NewPCG(seed, 7))
	p := nestedProblem(0, types, machines, 1, seed)
	p.Users = make([]flow.User, users)
	for u := range p.Users {
		prob := 0.07 + 0.93*rng.Float64()
		var ts []int
		for t := 0; t < types; t++ {
			if rng.Float64() < prob {
				ts = append(ts, t)
			}
		}
		if len(ts) == 0 {
			ts = []int{rng.IntN(types)}
		}
		p.Users[u] = flow.User{Weight: 1 + rng.Int64N(100), Demand: flow.Unbounded, Types: ts}
	}
	return p
}

func BenchmarkCMMF(b *testing.B) {
	sizes := []struct {
		family                 string
		users, types, machines int
	}{
		{"google", 500, 50, 10_000},
		{"google", 5000, 100, 100_000},
		{"nested11", 5000, 100, 100_000},
		{"random", 5000, 100, 100_000},
	}
	for _, sz := range sizes {
		var p *flow.Problem
		if sz.family == "google" {
			p = googleProblem(b, sz.users, sz.types, sz.machines, 1)
		} else if sz.family == "nested11" {
			p = nestedProblem(sz.users, sz.types, sz.machines, 11, 1)
		} else {
			p = randomProblem(sz.users, sz.types, sz.machines, 1)
		}
		name := fmt.Sprintf("%s-users=%d-types=%d-machines=%d", sz.family, sz.users, sz.types, sz.machines)
		for _, m := range []struct {
			name  string
			p     *flow.Problem
			solve func(*flow.Problem) (*flow.Result, error)
		}{
			{"divisible-weighted", p, flow.Divisible},
			{"integral-weighted", p, flow.Integral},
			{"integral-unweighted", unweightedCopy(p), flow.Integral},
		} {
			b.Run(name+"/"+m.name, func(b *testing.B) {
				r, err := m.solve(m.p)
				if err != nil {
					b.Fatal(err)
				}
				if err := flow.Verify(m.p, r); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(r.MaxFlows), "maxflows")
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := m.solve(m.p); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
