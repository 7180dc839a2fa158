package workloads

import (
	"fmt"
	"math/rand/v2"

	"github.com/capplan/capplan/sim"
)

// XFlexParams are W-XFLEX's knobs (SIMULATE.md §2.3). The seed gives only
// the counts of X-Flex §3; the rest is [DERIVED] and never tuned to the
// paper's results.
type XFlexParams struct {
	Seed uint64
	// MeanGap is the mean gap of the Poisson arrivals in seconds (10).
	MeanGap float64
	// Duration is every map task's estimated duration in seconds (30); the
	// actual durations vary with the run's noise (σ = 0.2 by default).
	Duration float64
	// Shuffled shuffles the large job with the others; by default it
	// arrives first and only the small and medium jobs are shuffled.
	Shuffled bool
}

// W-XFLEX's jobs per application: 25 small jobs of 5 map tasks, 5 medium
// of 25 and one large of 125, "an approximately Zipf-like distribution in
// job size and frequency" [SEED xflex §3].
var xflexSizes = []struct {
	bin   string
	jobs  int
	tasks int32
}{{"small", 25, 5}, {"medium", 5, 25}, {"large", 1, 125}}

// XFlexSizeBin returns X-Flex's size class of a job of n tasks: small,
// medium or large (the closest of 5, 25 and 125 tasks).
func XFlexSizeBin(tasks int) string {
	switch {
	case tasks <= 11: // √(5·25)
		return "small"
	case tasks <= 55: // √(25·125)
		return "medium"
	}
	return "large"
}

// XFlex returns W-XFLEX's jobs: the same 31 map-only jobs for every
// application (the large job first, then 25 small and 5 medium in one
// order shuffled from the seed; all 31 shuffled when p.Shuffled), the k-th
// job of every application arriving at the k-th time of one Poisson
// process of mean gap MeanGap, the first at 0 [DERIVED]. Every task
// demands demand (one container's worth) for Duration seconds. Jobs are
// named APP-NN-SIZE and belong to the application's user.
//
// Why the large job first: X-Flex §3 does not give the order, but its
// Table 1 does. A large job needs 125·30 s / 25 containers = 150 s at
// full width; its average response time is 188.6 s under FIFO and
// 154.3 s under DRF (over 15 jobs: 3 applications, 5 runs), which only a
// job at the head of the queue can reach. The small and medium jobs' FIFO
// times (268.3 s, 275.8 s) are alike, as a shuffled order gives them.
func XFlex(p XFlexParams, apps []sim.User, demand sim.Vec, tickSeconds float64) ([]sim.Job, error) {
	if p.MeanGap == 0 {
		p.MeanGap = 10
	}
	if p.Duration == 0 {
		p.Duration = 30
	}
	if !(p.MeanGap > 0) || !(p.Duration > 0) || len(apps) == 0 {
		return nil, fmt.Errorf("workloads: xflex: invalid parameters %+v for %d applications", p, len(apps))
	}
	var sizes []int
	for k, s := range xflexSizes {
		for i := 0; i < s.jobs; i++ {
			sizes = append(sizes, k)
		}
	}
	rest := sizes
	if !p.Shuffled { // the large job (last) first
		n := len(sizes) - 1
		copy(sizes[1:], sizes[:n])
		sizes[0] = len(xflexSizes) - 1
		rest = sizes[1:]
	}
	rng := rand.New(rand.NewPCG(p.Seed, 0x78666c6578)) // "xflex"
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	arr := NewPoisson(p.Seed, 1/p.MeanGap, tickSeconds)
	conv := sim.DAGConversion{TickSeconds: tickSeconds}
	var jobs []sim.Job
	for k, sz := range sizes {
		at := arr.Next()
		s := xflexSizes[sz]
		for u, a := range apps {
			jobs = append(jobs, sim.Job{Name: fmt.Sprintf("%s-%02d-%s", a.Name, k, s.bin), User: sim.UserID(u), Arrival: at,
				Stages: []sim.Stage{{Name: "map", Tasks: s.tasks, Duration: conv.Ticks(p.Duration), Demand: demand}}})
		}
	}
	return jobs, nil
}
