package pipeline

import (
	"math"
	"math/big"

	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/sim"
)

// ownershipTolNum/ownershipTolDen is the tolerance of the simulated check
// of an ownership plan (plan.SimOwnership): while it waits, an application
// must hold at least 9/10 of its planned share. X-Select packs whole
// containers and tasks take whole containers, so an application's holding
// moves in steps of one container; a tenth leaves room for that step (an
// application owning ten containers may wait with nine busy) while a
// shortfall of a few containers in ten still counts.
const (
	ownershipTolNum = 1
	ownershipTolDen = 10
)

// ownershipBuckets bounds the buckets of the share series (as X-Sight's
// view 1).
const ownershipBuckets = 256

// ownershipRecorder is a RoundObserver that checks an ownership plan
// while the simulation runs (plan.SimOwnership): after every Round it
// samples, per application, whether it has an arrived unfinished job
// (active), whether it has runnable tasks no container took (waiting),
// and the containers its running tasks hold (the user's usage: container
// sizes in container mode). The state holds until the next Round, so
// the integrals over time are exact sums of value × ticks.
//
// "Below its plan" is decided exactly: with R the cluster's capacity and
// charge(v) = Σ_d v_d/R_d, held < (1 − tol)·owned ⟺ Σ_d (den·h_d −
// (den−num)·o_d)·Π_{e≠d} R_e < 0, in big integers. Shares and their
// averages are floats: they are views, not decisions.
type ownershipRecorder struct {
	sim.NopObserver
	tick  float64
	users []sim.User
	// weight[d] = Π_{e≠d, R_e>0} R_e (nil where R_d = 0), invR[d] = 1/R_d.
	weight []*big.Int
	invR   []float64
	// per user: the containers owned, their size and its charge
	containers []int
	owned      []sim.Vec
	ownedNum   []*big.Int
	planned    []float64 // share of the containers' charge
	allCharge  float64   // Σ charge over every container

	started bool
	start   sim.Tick
	last    sim.Tick
	cur     []ownedState
	acc     []ownedAcc
	ser     *shareSeries

	// scratch
	held   sim.Vec
	num, t *big.Int
	want   []bool
}

// ownedState is one application's state since the last Round.
type ownedState struct {
	active, waiting, below bool
	// short says held < (1 − tol) × owned, decided when held changes.
	short            bool
	held             sim.Vec // copy of the usage sampled
	share, shortfall float64
}

// ownedAcc integrates one application's state over time (ticks).
type ownedAcc struct {
	active, waiting, below int64
	shareI, shortSq        float64 // ∫ share dt and ∫ δ² dt over the active time
}

// newOwnershipRecorder prepares the recorder for a cell of w, which must
// run in container mode.
func newOwnershipRecorder(o *SimulateOptions, w *workload) *ownershipRecorder {
	c := w.cluster
	U, D := len(w.users), len(c.Resources)
	r := &ownershipRecorder{tick: o.TickSeconds, users: w.users, weight: make([]*big.Int, D), invR: make([]float64, D),
		containers: make([]int, U), owned: make([]sim.Vec, U), ownedNum: make([]*big.Int, U), planned: make([]float64, U),
		cur: make([]ownedState, U), acc: make([]ownedAcc, U), ser: newShareSeries(ownershipBuckets, U),
		held: make(sim.Vec, D), num: new(big.Int), t: new(big.Int), want: make([]bool, U)}
	R := make(sim.Vec, D)
	for _, n := range c.Nodes {
		for d, v := range n.Cap {
			R[d] += v
		}
	}
	for d := range R {
		if R[d] <= 0 {
			continue
		}
		r.invR[d] = 1 / float64(R[d])
		r.weight[d] = big.NewInt(1)
		for e := range R {
			if e != d && R[e] > 0 {
				r.weight[d].Mul(r.weight[d], big.NewInt(R[e]))
			}
		}
	}
	for u := range r.owned {
		r.owned[u] = make(sim.Vec, D)
		r.cur[u].held = make(sim.Vec, D)
	}
	for _, m := range c.Machines {
		r.allCharge += r.charge(m.Cap)
		if m.Owner < 0 || int(m.Owner) >= U {
			continue
		}
		r.containers[m.Owner]++
		for d, v := range m.Cap {
			r.owned[m.Owner][d] += v
		}
	}
	for u := range r.owned {
		r.ownedNum[u] = r.numerator(new(big.Int), r.owned[u])
		if r.allCharge > 0 {
			r.planned[u] = r.charge(r.owned[u]) / r.allCharge
		}
		r.cur[u].short = r.below(u, r.cur[u].held) // holding nothing yet
	}
	return r
}

// charge returns Σ_d v_d/R_d (float: a view).
func (r *ownershipRecorder) charge(v sim.Vec) float64 {
	var x float64
	for d, a := range v {
		x += float64(a) * r.invR[d]
	}
	return x
}

// numerator sets z to charge(v)·Π_d R_d = Σ_d v_d·weight[d], exactly.
func (r *ownershipRecorder) numerator(z *big.Int, v sim.Vec) *big.Int {
	z.SetInt64(0)
	for d, a := range v {
		if r.weight[d] != nil && a != 0 {
			z.Add(z, r.t.Mul(big.NewInt(a), r.weight[d]))
		}
	}
	return z
}

// below reports whether holding held is less than (1 − tol) of what u
// owns: den·charge(held) < (den − num)·charge(owned), exactly.
func (r *ownershipRecorder) below(u int, held sim.Vec) bool {
	if r.ownedNum[u].Sign() == 0 {
		return false // nothing planned: never below the plan
	}
	lhs := r.numerator(r.num, held)
	lhs.Mul(lhs, big.NewInt(ownershipTolDen))
	rhs := new(big.Int).Mul(r.ownedNum[u], big.NewInt(ownershipTolDen-ownershipTolNum))
	return lhs.Cmp(rhs) < 0
}

// RoundDone implements sim.RoundObserver: it closes the interval since
// the last Round and samples the state that holds from now on.
func (r *ownershipRecorder) RoundDone(s *sim.State) {
	now := s.Now()
	if !r.started {
		r.started, r.start, r.last = true, now, now
	}
	r.advance(now)
	clear(r.want)
	for _, j := range s.RunnableJobs() {
		r.want[s.Job(j).User()] = true
	}
	for u := range r.cur {
		st := &r.cur[u]
		uv := s.User(sim.UserID(u))
		st.active = uv.ActiveJobs() > 0
		st.waiting = r.want[u]
		if usage := uv.Usage(); !vecEqual(usage, st.held) {
			copy(st.held, usage)
			st.short = r.below(u, st.held)
			if r.allCharge > 0 {
				st.share = r.charge(st.held) / r.allCharge
			}
		}
		st.below = st.waiting && st.short
		st.shortfall = 0
		if st.waiting {
			st.shortfall = max(0, r.planned[u]-st.share)
		}
	}
}

// advance integrates every application's state over [last, now).
func (r *ownershipRecorder) advance(now sim.Tick) {
	if now <= r.last {
		return
	}
	dt := now - r.last
	for u := range r.cur {
		st, a := &r.cur[u], &r.acc[u]
		if st.active {
			a.active += int64(dt)
			a.shareI += st.share * float64(dt)
			a.shortSq += st.shortfall * st.shortfall * float64(dt)
		}
		if st.waiting {
			a.waiting += int64(dt)
		}
		if st.below {
			a.below += int64(dt)
		}
		if st.share != 0 {
			r.ser.add(r.last, now, u, st.share)
		}
	}
	r.last = now
}

// view closes the records at end and returns the document section.
func (r *ownershipRecorder) view(end sim.Tick) *plan.SimOwnership {
	r.advance(end)
	out := &plan.SimOwnership{Tolerance: float64(ownershipTolNum) / float64(ownershipTolDen), Apps: []plan.SimOwnedApp{}}
	start, step, series := r.ser.export(r.start, max(end, r.start+1))
	out.Start, out.Step = float64(start)*r.tick, float64(step)*r.tick
	for u, us := range r.users {
		a := r.acc[u]
		app := plan.SimOwnedApp{Application: us.Name, Containers: r.containers[u], PlannedShare: r.planned[u],
			Active: float64(a.active) * r.tick, Waiting: float64(a.waiting) * r.tick, Below: float64(a.below) * r.tick,
			BelowMostly: 2*a.below > a.active, Share: series[u]}
		if a.active > 0 {
			app.BelowFraction = float64(a.below) / float64(a.active)
			app.MeanShare = a.shareI / float64(a.active)
			app.ShortfallRMSE = math.Sqrt(a.shortSq / float64(a.active))
		}
		out.Apps = append(out.Apps, app)
	}
	return out
}

func vecEqual(a, b sim.Vec) bool {
	for d := range a {
		if a[d] != b[d] {
			return false
		}
	}
	return true
}

// shareSeries accumulates per-user values over equal-width time buckets
// aligned at 0 (∫ value dt per bucket). When a value reaches past the last
// bucket, adjacent buckets merge pairwise and the width doubles, so at
// most max buckets are kept whatever the horizon (as the simulator's own
// series).
type shareSeries struct {
	max, users int
	w          sim.Tick
	vals       []float64 // bucket-major: max × users
}

func newShareSeries(buckets, users int) *shareSeries {
	return &shareSeries{max: buckets, users: users, w: 1, vals: make([]float64, buckets*users)}
}

// add adds value x of user u over [a, b).
func (s *shareSeries) add(a, b sim.Tick, u int, x float64) {
	for b > sim.Tick(s.max)*s.w {
		s.double()
	}
	for i := int(a / s.w); sim.Tick(i)*s.w < b; i++ {
		lo, hi := max(a, sim.Tick(i)*s.w), min(b, sim.Tick(i+1)*s.w)
		s.vals[i*s.users+u] += x * float64(hi-lo)
	}
}

// double merges adjacent buckets pairwise (max is even).
func (s *shareSeries) double() {
	half := s.max / 2
	for i := 0; i < half; i++ {
		for u := 0; u < s.users; u++ {
			s.vals[i*s.users+u] = s.vals[2*i*s.users+u] + s.vals[(2*i+1)*s.users+u]
		}
	}
	clear(s.vals[half*s.users:])
	s.w *= 2
}

// export returns the first bucket's start, the width and each user's mean
// value per bucket over [from, to).
func (s *shareSeries) export(from, to sim.Tick) (sim.Tick, sim.Tick, [][]float64) {
	for to > sim.Tick(s.max)*s.w {
		s.double()
	}
	out := make([][]float64, s.users)
	i0 := int(from / s.w)
	for i := i0; sim.Tick(i)*s.w < to; i++ {
		lo, hi := max(from, sim.Tick(i)*s.w), min(to, sim.Tick(i+1)*s.w)
		span := float64(hi - lo)
		for u := range out {
			out[u] = append(out[u], s.vals[i*s.users+u]/span)
		}
	}
	return sim.Tick(i0) * s.w, s.w, out
}
