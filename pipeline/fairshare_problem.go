package pipeline

import (
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/flow"
)

// CMMFProblem turns a coalesced instance into a flow.Problem: one type per
// machine type, one user per application (in the same orders).
func CMMFProblem(inst *datasets.Instance) *flow.Problem {
	p := &flow.Problem{
		Types: make([]int64, len(inst.Types)),
		Users: make([]flow.User, len(inst.Applications)),
	}
	for t, mt := range inst.Types {
		p.Types[t] = mt.Count
	}
	for u, app := range inst.Applications {
		d := flow.Unbounded
		if app.MaxMachines > 0 {
			d = app.MaxMachines
		}
		p.Users[u] = flow.User{Weight: app.Weight, Demand: d, Types: app.Types}
	}
	return p
}
