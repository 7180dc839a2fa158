package policies_test

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/capplan/capplan/sim"
	"github.com/capplan/capplan/sim/policies"
)

func BenchmarkProfALI(b *testing.B) {
	n, _ := strconv.Atoi(os.Getenv("NJOBS"))
	c, us, jobs := wali(b, 0.8, n)
	if os.Getenv("DEEP") != "" {
		var deep []sim.Job
		for _, j := range jobs {
			if stageDepth(j) >= 3 {
				deep = append(deep, j)
			}
		}
		jobs = deep
	}
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
			p := mustPolicy(b, name, am)
			src := policies.Prepare(p, sim.NewSliceSource(jobs), c, us, 1, 0)
			res, err := sim.Run(sim.Config{Cluster: c, Users: us, Policy: p, Seed: 1, TickSeconds: 1, JainWindows: []sim.Tick{60}}, src)
			if err != nil {
				b.Fatal(err)
			}
			var avg, bavg float64
			slowed, below := 0, 0
			var gaps []float64
			for k, j := range res.Jobs {
				avg += float64(j.JCT())
				if base != nil {
					bj := float64(base[k].JCT())
					bavg += bj
					fi := bj / float64(j.JCT())
					gaps = append(gaps, (bj-float64(j.JCT()))/bj)
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
			slices.Sort(gaps)
			q := func(p float64) float64 {
				if len(gaps) == 0 {
					return 0
				}
				return gaps[int(p*float64(len(gaps)-1))]
			}
			nj := float64(len(res.Jobs))
			b.Logf("%-30s ratio %.3f makespan %d jain %.3f slowed %.1f%% below0.8 %.1f%% gap p25 %.3f p50 %.3f p75 %.3f p90 %.3f  %.1fs %v", pol, bavg/avg, res.Makespan, res.Jain[0].Mean,
				100*float64(slowed)/nj, 100*float64(below)/nj, q(.25), q(.5), q(.75), q(.9), time.Since(t0).Seconds(), res.PolicyStats)
		}
	}
}

func stageDepth(j sim.Job) int {
	depth := make([]int, len(j.Stages))
	best := 1
	for changed := true; changed; {
		changed = false
		for _, l := range j.Links {
			if depth[l.To] < depth[l.From]+1 {
				depth[l.To] = depth[l.From] + 1
				changed = true
			}
		}
	}
	for _, d := range depth {
		best = max(best, d+1)
	}
	return best
}
