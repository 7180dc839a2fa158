package vbp

import (
	"testing"
	"time"
)

// benchSet solves every instance with a known optimum and reports the mean
// ratio bins/OPT, the number solved to optimality and the time per
// instance (mean and slowest) as custom metrics. Run with -benchtime=1x:
// one iteration solves the whole set.
func benchSet(b *testing.B, set, summary string) {
	data := loadSet(b, set, summary, 1)
	b.ResetTimer()
	for b.Loop() {
		ratio, optimal := 0.0, 0
		var slowest time.Duration
		start := time.Now()
		for _, ki := range data {
			t0 := time.Now()
			res, err := Solve(ki.inst, Options{Seed: 1})
			slowest = max(slowest, time.Since(t0))
			if err != nil {
				b.Fatal(err)
			}
			if res.Bins < ki.known.OPT {
				b.Fatalf("%s: %d bins < OPT %d", ki.known.Name, res.Bins, ki.known.OPT)
			}
			ratio += float64(res.Bins) / float64(ki.known.OPT)
			if res.Bins == ki.known.OPT {
				optimal++
			}
		}
		b.ReportMetric(ratio/float64(len(data)), "bins/OPT")
		b.ReportMetric(float64(optimal), "optimal")
		b.ReportMetric(float64(len(data)), "instances")
		b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(len(data)), "ms/instance")
		b.ReportMetric(float64(slowest.Milliseconds()), "max-ms/instance")
	}
}

func BenchmarkPanigrahy(b *testing.B) {
	benchSet(b, "panigrahy", "Panigrahy_summary_known.csv")
}

func BenchmarkTriplet(b *testing.B) {
	benchSet(b, "triplet", "Triplet_summary_known.csv")
}
