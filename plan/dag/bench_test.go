package dag

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkPSPLIB runs Best with the default budget on every instance of
// J30 and J60 (skipped without the shared datasets) and reports, per
// instance, the mean deviation from the reference makespan (the proven
// optimum for J30, the best known for J60) and from the critical path,
// and the share of instances at the reference. One iteration covers all
// 480 instances of a set.
//
//	go test -run '^$' -bench PSPLIB -benchtime 1x ./plan/dag/
func BenchmarkPSPLIB(b *testing.B) {
	for _, set := range []struct{ name, ref string }{{"j30", "j30opt.sm"}, {"j60", "j60hrs.sm"}} {
		b.Run(set.name, func(b *testing.B) {
			insts := loadPSPLIB(b, set.name, set.ref)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var devRef, devCP float64
				atRef := 0
				var worst time.Duration
				for _, in := range insts {
					t0 := time.Now()
					r, err := Best(in.Inst.DAG, in.Inst.Machines(), Options{Seed: 1})
					worst = max(worst, time.Since(t0))
					if err != nil {
						b.Fatal(err)
					}
					devRef += float64(r.Makespan-in.Ref) / float64(in.Ref)
					devCP += float64(r.Makespan-in.Inst.MPM) / float64(in.Inst.MPM)
					if r.Makespan <= in.Ref {
						atRef++
					}
				}
				n := float64(len(insts))
				b.ReportMetric(100*devRef/n, "%dev-ref")
				b.ReportMetric(100*devCP/n, "%dev-cp")
				b.ReportMetric(100*float64(atRef)/n, "%at-ref")
				b.ReportMetric(float64(worst.Milliseconds()), "worst-ms")
			}
		})
	}
}

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
