package policies

import "github.com/capplan/capplan/sim"

// Test hooks into carbyne and graphene (compiled in tests only).

// CarbynePlan is what carbyne's last pack of a job found.
type CarbynePlan struct {
	Pool   sim.Vec  // A_k
	H, R   sim.Tick // forward and reverse spans
	Anchor sim.Tick
	At     sim.Tick
	// Due[s] is how many tasks of stage s must have started by At (before
	// those started since are deducted: the must-start count at At).
	Due []int64
}

// CarbynePlanOf returns carbyne's current plan for active job j.
func CarbynePlanOf(p sim.Policy, j sim.JobID) (CarbynePlan, bool) {
	c := p.(*carbyne)
	if int(j) >= len(c.jobs) || c.jobs[j] == nil || !c.jobs[j].plan.valid {
		return CarbynePlan{}, false
	}
	pl := &c.jobs[j].plan
	out := CarbynePlan{Pool: append(sim.Vec(nil), pl.pool...), H: pl.H, R: pl.R, Anchor: pl.anchor, At: pl.at}
	for s := range pl.dur {
		out.Due = append(out.Due, pl.due(int32(s), pl.at)+pl.started[s])
	}
	return out, true
}

// GrapheneDeficits returns graphene's deficit counter per user and the
// threshold unit C.
func GrapheneDeficits(p sim.Policy) ([]float64, float64) {
	g := p.(*graphene)
	return g.def, g.capUnit
}
