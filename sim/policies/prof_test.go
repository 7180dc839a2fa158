package policies_test

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/capplan/capplan/sim"
)

func BenchmarkProfCarbyneALI(b *testing.B) {
	n, _ := strconv.Atoi(os.Getenv("NJOBS"))
	c, us, jobs := wali(b, 0.8, n)
	pols := strings.Split(os.Getenv("POLS"), ",")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var base []sim.JobRecord
		for _, pol := range pols {
			t0 := time.Now()
			name, args, _ := strings.Cut(pol, ":")
			am := map[string]string{}
			if args != "" {
				for _, kv := range strings.Split(args, "+") {
					k, v, _ := strings.Cut(kv, "=")
					am[k] = v
				}
			}
			res, err := sim.Run(sim.Config{Cluster: c, Users: us, Policy: mustPolicy(b, name, am), Seed: 1, TickSeconds: 1, JainWindows: []sim.Tick{60}}, sim.NewSliceSource(jobs))
			if err != nil {
				b.Fatal(err)
			}
			var avg, bavg float64
			slowed, below := 0, 0
			for k, j := range res.Jobs {
				avg += float64(j.JCT())
				if base != nil {
					bavg += float64(base[k].JCT())
					fi := float64(base[k].JCT()) / float64(j.JCT())
					if fi < 1 {
						slowed++
					}
					if fi < 0.8 {
						below++
					}
				}
			}
			if base == nil {
				base = res.Jobs
				bavg = avg
			}
			nj := float64(len(res.Jobs))
			b.Logf("%-30s ratio %.3f makespan %d jain %.3f slowed %.1f%% below0.8 %.1f%% ev/s %.0f %v", pol, bavg/avg, res.Makespan, res.Jain[0].Mean,
				100*float64(slowed)/nj, 100*float64(below)/nj, float64(res.Stats.Events)/time.Since(t0).Seconds(), res.PolicyStats)
		}
	}
}
