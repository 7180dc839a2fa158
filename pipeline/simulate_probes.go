package pipeline

import (
	"slices"

	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/sim"
)

// probes are the observers of one cell whose records become sections of
// its run in the document: Choosy's allocation samples (when the set has a
// CMMF comparator) and the jobs' eligibility.
type probes struct {
	shares *shareSampler
	elig   *eligibilityProbe
	xsight *xsightRecorder
	xview  *plan.SimXSight
	owned  *ownershipRecorder
	oview  *plan.SimOwnership
}

func newProbes(o *SimulateOptions, w *workload, names []string) *probes {
	p := &probes{elig: &eligibilityProbe{}}
	if slices.ContainsFunc(names, isComparator) {
		p.shares = newShareSampler(len(w.users), o.TickSeconds)
	}
	if o.XSight {
		p.xsight = newXSightRecorder(o, w, xsightDefaultBound(o))
	}
	if o.Ownership {
		p.owned = newOwnershipRecorder(o, w)
	}
	return p
}

// attach lets the probes ask the cell's policy what they cannot observe
// (which containers AMs hold).
func (p *probes) attach(pol sim.Policy) {
	if h, ok := pol.(amHolder); ok && p.xsight != nil {
		p.xsight.ams = h
	}
}

// observers returns the probes to add to the cell's configuration.
func (p *probes) observers() []sim.Observer {
	obs := []sim.Observer{p.elig}
	if p.shares != nil {
		obs = append(obs, p.shares)
	}
	if p.xsight != nil {
		obs = append(obs, p.xsight)
	}
	if p.owned != nil {
		obs = append(obs, p.owned)
	}
	return obs
}

// finish closes the records at the end of the run.
func (p *probes) finish(res *sim.Result) {
	if p.shares != nil {
		p.shares.flush(res.End + 1)
	}
	if p.xsight != nil {
		p.xview = p.xsight.view(res.FirstArrival, res.End)
	}
	if p.owned != nil {
		p.oview = p.owned.view(res.End)
	}
}

// fill adds the probes' sections to the runs of a set.
func fillProbes(set *plan.SimulationSet, names []string, prb []*probes) {
	for i := range set.Runs {
		set.Runs[i].Constraints = prb[i].elig.constraints(&set.Runs[i])
		set.Runs[i].XSight = prb[i].xview
		set.Runs[i].Ownership = prb[i].oview
	}
	for i := range set.Runs {
		if isComparator(names[i]) || prb[i].shares == nil {
			continue
		}
		for k := range set.Runs {
			if k != i && isComparator(names[k]) {
				set.Runs[i].RMSE = append(set.Runs[i].RMSE, shareFit(names[k], &set.Runs[i], &set.Runs[k], prb[i].shares.samples, prb[k].shares.samples))
			}
		}
	}
}
