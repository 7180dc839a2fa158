package policies

import (
	"cmp"
	"slices"

	"github.com/capplan/capplan/sim"
)

// OrderParams are the parameters of sjf and srtf.
type OrderParams struct {
	Intra sim.Intra
	Place Placement
}

func (p *OrderParams) bind(b *binder) {
	b.intra(&p.Intra)
	b.placement(&p.Place)
}

// shortestFirst fills jobs in ascending order of a size key, backfilling
// (SIMULATE.md §3.1). sjf's key is cpl(j), fixed at arrival: Carbyne's SJF
// "uses Critical Path Method (CPM) to determine job duration" (§5.1).
// srtf's key is the current work(j), "shortest amount of work first, as in
// Tetris" (Carbyne fn. 5). Ties go to the job ordinal.
type shortestFirst struct {
	name  string
	work  bool
	intra sim.Intra
	fill  filler
	order []keyed
}

type keyed struct {
	key float64
	id  sim.JobID
}

func init() {
	def := OrderParams{Place: Placement{Rule: PlaceFirst, K: DefaultK}}
	register(typed("sjf", "shortest job first by critical-path length (CPM) at arrival; backfills",
		def, (*OrderParams).bind, func(p OrderParams) sim.Policy { return newShortest("sjf", false, p) }))
	register(typed("srtf", "shortest remaining work first: Σ remaining duration × NormSum(demand); backfills",
		def, (*OrderParams).bind, func(p OrderParams) sim.Policy { return newShortest("srtf", true, p) }))
}

func newShortest(name string, work bool, p OrderParams) *shortestFirst {
	return &shortestFirst{name: name, work: work, intra: p.Intra, fill: filler{place: p.Place}}
}

func (f *shortestFirst) Name() string { return f.name }

func (f *shortestFirst) Traits() sim.Traits { return sim.Traits{Intra: f.intra, WorkConserving: true} }

func (f *shortestFirst) Round(s *sim.State, p *sim.Planner) {
	f.order = f.order[:0]
	for _, j := range s.RunnableJobs() {
		jv := s.Job(j)
		k := float64(jv.CPL())
		if f.work {
			k = jv.Work()
		}
		f.order = append(f.order, keyed{k, j})
	}
	slices.SortFunc(f.order, func(a, b keyed) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	for _, k := range f.order {
		f.fill.fillJob(s, p, k.id)
	}
}
