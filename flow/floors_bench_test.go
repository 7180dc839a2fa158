package flow_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/capplan/capplan/flow"
)

// BenchmarkIntegralFloorsResolve times the re-solve a CMMF comparator of
// the simulator runs at every event (SIMULATE.md §3.5, §5.3): an exact
// integral CMMF over 100 users × 20 machine types (1,000 machines,
// Google-like constraints), with per-user floors (the tasks each user keeps)
// and demands (floor + runnable), redrawn before the timer so every solve
// starts from a different state. It reports re-solves per second.
func BenchmarkIntegralFloorsResolve(b *testing.B) {
	base := googleProblem(b, 100, 20, 1000, 1)
	for _, weighted := range []bool{false, true} {
		name := "weights=1"
		if weighted {
			name = "weights=1-100"
		}
		b.Run(fmt.Sprintf("users=100/types=20/machines=1000/%s", name), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(3, 4))
			const variants = 64
			probs := make([]*flow.Problem, variants)
			for i := range probs {
				probs[i] = floorsVariant(rng, base, weighted)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := flow.Integral(probs[i%variants]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "resolves/s")
		})
	}
}

// floorsVariant copies p with random demands and floors a greedy random
// assignment of the machines meets: each machine goes, with probability
// 0.9, to a random eligible user; a user's floor is what it got and its
// demand that plus up to 20 more.
func floorsVariant(rng *rand.Rand, p *flow.Problem, weighted bool) *flow.Problem {
	q := &flow.Problem{Types: p.Types, Users: make([]flow.User, len(p.Users)), Floors: make([]int64, len(p.Users))}
	copy(q.Users, p.Users)
	byType := make([][]int, len(p.Types))
	for u := range q.Users {
		q.Users[u].Weight = 1
		if weighted {
			q.Users[u].Weight = 1 + rng.Int64N(100)
		}
		for _, t := range q.Users[u].Types {
			byType[t] = append(byType[t], u)
		}
	}
	for t, c := range p.Types {
		for k := int64(0); k < c && len(byType[t]) > 0; k++ {
			if rng.Float64() < 0.9 {
				q.Floors[byType[t][rng.IntN(len(byType[t]))]]++
			}
		}
	}
	for u := range q.Users {
		q.Users[u].Demand = q.Floors[u] + rng.Int64N(21)
	}
	return q
}
