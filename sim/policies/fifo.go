package policies

import "github.com/capplan/capplan/sim"

// FIFOParams are the parameters of fifo and fifo-strict.
type FIFOParams struct {
	Intra sim.Intra
	Place Placement
}

func (p *FIFOParams) bind(b *binder) {
	b.intra(&p.Intra)
	b.placement(&p.Place)
}

// fifo runs jobs in arrival order (SIMULATE.md §3.1): each places its
// group heads in intra order while they fit, and later jobs backfill what
// is left, like YARN's FifoScheduler. fifo-strict stops at the first job
// that still has runnable tasks, so it is not work-conserving.
type fifo struct {
	name   string
	strict bool
	intra  sim.Intra
	fill   filler
	jobs   []sim.JobID
}

func init() {
	def := FIFOParams{Place: Placement{Rule: PlaceFirst, K: DefaultK}}
	register(typed("fifo", "jobs in arrival order, each placing its tasks while they fit; later jobs backfill",
		def, (*FIFOParams).bind, func(p FIFOParams) sim.Policy { return newFIFO("fifo", false, p) }))
	register(typed("fifo-strict", "jobs in arrival order; stops at the first job with tasks left (no backfilling)",
		def, (*FIFOParams).bind, func(p FIFOParams) sim.Policy { return newFIFO("fifo-strict", true, p) }))
}

func newFIFO(name string, strict bool, p FIFOParams) *fifo {
	return &fifo{name: name, strict: strict, intra: p.Intra, fill: filler{place: p.Place}}
}

func (f *fifo) Name() string { return f.name }

func (f *fifo) Traits() sim.Traits { return sim.Traits{Intra: f.intra, WorkConserving: !f.strict} }

func (f *fifo) Round(s *sim.State, p *sim.Planner) {
	f.jobs = append(f.jobs[:0], s.RunnableJobs()...)
	for _, j := range f.jobs {
		f.fill.fillJob(s, p, j)
		if f.strict && s.IsActive(j) && s.Job(j).Runnable() > 0 {
			return
		}
	}
}
