package dag

import (
	"fmt"
	"testing"
)

// BenchmarkGenerated schedules seeded data-analytics DAGs (genStageDAG) of
// n tasks in 40 stages on m machines; sub-benchmarks are named by method
// and size.
func BenchmarkGenerated(b *testing.B) {
	for _, size := range []struct{ n, m int }{{1_000, 10}, {10_000, 100}} {
		d, ms := genStageDAG(b, 1, size.n, 40, size.m)
		for _, method := range []string{"cp", "graphene", "best"} {
			b.Run(fmt.Sprintf("%s/n=%d-m=%d", method, size.n, size.m), func(b *testing.B) {
				var ms64 int64
				for i := 0; i < b.N; i++ {
					var s *Schedule
					if method == "best" {
						r, err := Best(d, ms, Options{Seed: 1})
						if err != nil {
							b.Fatal(err)
						}
						s = r.Schedule
					} else {
						var err error
						if s, err = Run(method, d, ms, Options{}); err != nil {
							b.Fatal(err)
						}
					}
					ms64 = s.Makespan()
				}
				b.ReportMetric(float64(ms64), "makespan")
			})
		}
	}
}
