package policies

import "github.com/capplan/capplan/sim"

// DRFParams are the parameters of drf.
type DRFParams struct {
	// Entity is "user" (weighted by the user's weight) or "job" (weight 1).
	Entity string
	Intra  sim.Intra
	Place  Placement
}

func (p *DRFParams) bind(b *binder) {
	b.choice("entity", &p.Entity, []string{"user", "job"}, "whose dominant shares are equalised: user or job")
	b.intra(&p.Intra)
	b.placement(&p.Place)
}

// drf is weighted Dominant Resource Fairness by progressive filling every
// Round (Ghodsi et al., NSDI'11; SIMULATE.md §3.1; Carbyne's DRF baseline,
// §5.1): the entity of least Dom(U_e)/w_e places its next task, until
// nothing more fits. Work-conserving.
type drf struct {
	intra sim.Intra
	fill  fairFill
}

func init() {
	register(typed("drf", "weighted dominant resource fairness: progressive filling of the least weighted dominant share",
		DRFParams{Entity: "user", Place: Placement{Rule: PlaceFirst, K: DefaultK}}, (*DRFParams).bind,
		func(p DRFParams) sim.Policy {
			return &drf{intra: p.Intra, fill: fairFill{byJob: p.Entity == "job", place: p.Place}}
		}))
}

func (d *drf) Name() string { return "drf" }

func (d *drf) Traits() sim.Traits { return sim.Traits{Intra: d.intra, WorkConserving: true} }

func (d *drf) Round(s *sim.State, p *sim.Planner) { d.fill.round(s, p) }
