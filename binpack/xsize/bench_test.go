package xsize

import (
	"fmt"
	"testing"
)

// BenchmarkPTAS times the PTAS outer loop from ε = 1 down to ε = 0.1
// (harmonic sequence: 1, 1/2, …, 1/10) on realistic mixes, with the
// default work budget (DefaultPTASMaxWork). Metrics: eps (last completed ε), ratio (cost / lower
// bound), states (DP states of the last step). The d=2-n=50-K=8 case is the
// "time to reach ε = 0.1" figure; the larger ones bracket the largest
// instance that reaches ε = 0.1 within the budget (an instance past it
// reports the ε it reached instead). Metric work: the work units used.
func BenchmarkPTAS(b *testing.B) {
	for _, c := range []struct{ D, n, K int }{
		{2, 50, 8}, {2, 100, 8}, {2, 200, 8}, {2, 400, 8}, {2, 700, 8}, {2, 800, 8},
		{3, 50, 8}, {3, 100, 8}, {3, 200, 8}, {3, 400, 8}, {3, 600, 8},
	} {
		b.Run(fmt.Sprintf("d=%d-n=%d-K=%d", c.D, c.n, c.K), func(b *testing.B) {
			p := realisticMix(1, c.D, c.n, c.K) // fixed seed
			var s *Solution
			for b.Loop() {
				var err error
				s, err = PTAS(p, PTASOptions{Eps: 1, MinEps: 0.1})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(s.Epsilon, "eps")
			b.ReportMetric(s.Ratio(), "ratio")
			b.ReportMetric(float64(s.Steps[len(s.Steps)-1].States), "states")
			b.ReportMetric(float64(s.WorkUsed), "work")
		})
	}
}

// BenchmarkLocalSearch times LocalSearch with its default (deterministic)
// limits on 5,000 distinct request classes in 3 dimensions with K = 16.
// Metrics: ratio (cost / lower bound), work (work units used).
func BenchmarkLocalSearch(b *testing.B) {
	for _, c := range []struct{ D, n, K int }{{3, 5000, 16}} {
		b.Run(fmt.Sprintf("d=%d-n=%d-K=%d", c.D, c.n, c.K), func(b *testing.B) {
			p := realisticMix(1, c.D, c.n, c.K)
			var s *Solution
			for b.Loop() {
				var err error
				s, err = LocalSearch(p, LocalOptions{Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(s.Ratio(), "ratio")
			b.ReportMetric(float64(s.WorkUsed), "work")
		})
	}
}
