package policies

import "github.com/capplan/capplan/sim"

// SourcePreparer is implemented by policies that compute per-job data
// ahead of a run, outside simulated time, such as graphene's preferred
// orders: PrepareSource wraps the job source so that its jobs arrive with
// that data. A run whose source is not wrapped gives the same result,
// computing the data at each arrival instead.
type SourcePreparer interface {
	PrepareSource(src sim.JobSource, c *sim.Cluster, users []sim.User, tickSeconds float64, workers int) sim.JobSource
}

// Prepare wraps src for policy p when p is a SourcePreparer, else returns
// src; workers bounds the parallel work (0: GOMAXPROCS).
func Prepare(p sim.Policy, src sim.JobSource, c *sim.Cluster, users []sim.User, tickSeconds float64, workers int) sim.JobSource {
	if sp, ok := p.(SourcePreparer); ok {
		return sp.PrepareSource(src, c, users, tickSeconds, workers)
	}
	return src
}
