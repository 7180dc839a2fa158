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
// application (25 small, 5 medium, 1 large, in one order shuffled from the
// seed), the k-th job of every application arriving at the k-th time of
// one Poisson process of mean gap MeanGap, the first at 0 [DERIVED]. Every
// task demands demand (one container's worth) for Duration seconds. Jobs
// are named APP-NN-SIZE and belong to the application's user.
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
	rng := rand.New(rand.NewPCG(p.Seed, 0x78666c6578)) // "xflex"
	rng.Shuffle(len(sizes), func(i, j int) { sizes[i], sizes[j] = sizes[j], sizes[i] })
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
