package pipeline

import (
	"math"
	"strconv"

	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/sim"
)

// xsightBuckets is the number of time buckets of view 1.
const xsightBuckets = 250

// xsightRecorder is an Observer that records X-Sight's views in container
// mode (any policy): the charges (Σ_d size_d/R_d) of every application's
// containers used by itself, lent and borrowed as step functions; every
// pair's imbalance S_ab, re-based at each change of its slope, which makes
// it the exact integral of the charges; and the nodes' containers at the
// snapshot times. Floats suffice: these are views, not decisions.
type xsightRecorder struct {
	sim.NopObserver
	tick    float64
	users   []sim.User
	bound   []float64 // per user: δ (normalised size × s)
	owner   []sim.UserID
	nodeIdx []int32
	charge  []float64
	running []sim.UserID // per container: the application on it, or NoUser
	job     []string
	appCh   []float64 // per user: owned charge

	// view 1: change points of (ownUsed, lent, borrowed) per user
	cur   [][3]float64
	steps [][]xsStep
	// view 2: per pair a<b
	slope  []float64
	share  []float64
	last   []sim.Tick
	points [][]xsPoint
	// view 3
	at    []sim.Tick
	taken int
	snaps []plan.SimXSnapshot
	nodes []sim.Node
	sizes []map[string]float64
	shape []string
	// ams, when the policy tells, says which application's AM holds each
	// container (drf-am, xschedule); updated at every event.
	ams    amHolder
	holder []sim.UserID
	quant  []float64
	res    []string
}

type xsStep struct {
	t sim.Tick
	v [3]float64
}

// xsPoint is S_ab at t and its slope from t on (per second).
type xsPoint struct {
	t        sim.Tick
	s, slope float64
}

// amHolder is implemented by policies whose application masters hold
// containers.
type amHolder interface {
	AMHolders(s *sim.State) []sim.UserID
}

// newXSightRecorder prepares the recorder; defaultBound is δ for users
// whose demand gives none (xschedule's bound parameter).
func newXSightRecorder(o *SimulateOptions, w *workload, defaultBound float64) *xsightRecorder {
	c := w.cluster
	U, M := len(w.users), len(c.Machines)
	r := &xsightRecorder{tick: o.TickSeconds, users: w.users, bound: make([]float64, U), owner: make([]sim.UserID, M),
		nodeIdx: make([]int32, M), charge: make([]float64, M), running: make([]sim.UserID, M), job: make([]string, M), appCh: make([]float64, U),
		cur: make([][3]float64, U), steps: make([][]xsStep, U), slope: make([]float64, U*U), share: make([]float64, U*U),
		last: make([]sim.Tick, U*U), points: make([][]xsPoint, U*U), nodes: c.Nodes, quant: c.Quanta, res: c.Resources}
	for u := range w.users {
		r.bound[u] = defaultBound
		if sh := w.users[u].Sharing; sh.Set {
			r.bound[u] = sh.Bound
		}
	}
	total := make([]float64, len(c.Resources))
	for _, n := range c.Nodes {
		for d, v := range n.Cap {
			total[d] += float64(v)
		}
	}
	r.sizes, r.shape = make([]map[string]float64, M), make([]string, M)
	for m, mc := range c.Machines {
		r.owner[m], r.running[m], r.nodeIdx[m], r.shape[m] = mc.Owner, sim.NoUser, mc.Node, mc.Labels["shape"]
		r.sizes[m] = map[string]float64{}
		for d, v := range mc.Cap {
			if total[d] > 0 {
				r.charge[m] += float64(v) / total[d]
			}
			q := 1.0
			if c.Quanta != nil {
				q = c.Quanta[d]
			}
			r.sizes[m][c.Resources[d]] = float64(v) * q
		}
		if mc.Owner >= 0 {
			r.appCh[mc.Owner] += r.charge[m]
		}
	}
	snaps := o.Snapshots
	if snaps == nil {
		snaps = []float64{100, 200, 300}
	}
	for _, s := range snaps {
		r.at = append(r.at, sim.Tick(math.Round(s/o.TickSeconds)))
	}
	return r
}

// snapshotsDue takes the snapshots due strictly before now, from the state
// before the change at now.
func (r *xsightRecorder) snapshotsDue(now sim.Tick) {
	for r.taken < len(r.at) && r.at[r.taken] < now {
		snap := plan.SimXSnapshot{T: float64(r.at[r.taken]) * r.tick}
		for n, node := range r.nodes {
			sn := plan.SimXNode{Name: node.Name, Containers: []plan.SimXContainer{}}
			for m := range r.owner {
				if r.nodeOf(m) != n {
					continue
				}
				ct := plan.SimXContainer{Owner: r.users[r.owner[m]].Name, Shape: r.shape[m], Size: r.sizes[m]}
				if u := r.running[m]; u != sim.NoUser {
					ct.User, ct.Job = r.users[u].Name, r.job[m]
				} else if r.holder != nil && r.holder[m] != sim.NoUser {
					ct.User, ct.Job = r.users[r.holder[m]].Name, "AM"
				}
				sn.Containers = append(sn.Containers, ct)
			}
			snap.Nodes = append(snap.Nodes, sn)
		}
		r.snaps = append(r.snaps, snap)
		r.taken++
	}
}

func (r *xsightRecorder) nodeOf(m int) int { return int(r.nodeIdx[m]) }

// change applies u starting (+1) or stopping (−1) on container m at now.
func (r *xsightRecorder) change(now sim.Tick, u sim.UserID, m sim.MachineID, sign float64) {
	r.snapshotsDue(now)
	o := r.owner[m]
	ch := sign * r.charge[m]
	if o == u {
		r.add(now, u, 0, ch)
		return
	}
	r.add(now, o, 1, ch)
	r.add(now, u, 2, ch)
	lo, hi := u, o
	if lo > hi {
		lo, hi = hi, lo
	}
	k := int(lo)*len(r.users) + int(hi)
	r.share[k] += r.slope[k] * float64(now-r.last[k]) * r.tick
	r.last[k] = now
	if u == lo {
		r.slope[k] += ch
	} else {
		r.slope[k] -= ch
	}
	pts := r.points[k]
	if n := len(pts); n > 0 && pts[n-1].t == now {
		pts[n-1].s, pts[n-1].slope = r.share[k], r.slope[k]
	} else {
		r.points[k] = append(pts, xsPoint{now, r.share[k], r.slope[k]})
	}
}

func (r *xsightRecorder) add(now sim.Tick, u sim.UserID, k int, ch float64) {
	r.cur[u][k] += ch
	st := r.steps[u]
	if n := len(st); n > 0 && st[n-1].t == now {
		st[n-1].v = r.cur[u]
		return
	}
	r.steps[u] = append(st, xsStep{now, r.cur[u]})
}

// holders refreshes which AM holds which container, after the snapshots
// due before now were taken.
func (r *xsightRecorder) holders(s *sim.State) {
	if r.ams != nil {
		r.snapshotsDue(s.Now())
		r.holder = r.ams.AMHolders(s)
	}
}

// JobArrived implements sim.Observer.
func (r *xsightRecorder) JobArrived(s *sim.State, _ sim.JobID) { r.holders(s) }

// JobFinished implements sim.Observer.
func (r *xsightRecorder) JobFinished(s *sim.State, _ sim.JobID) { r.holders(s) }

// TaskStarted implements sim.Observer.
func (r *xsightRecorder) TaskStarted(s *sim.State, t sim.TaskRef, m sim.MachineID) {
	defer r.holders(s)
	u := s.Job(t.Job).User()
	r.change(s.Now(), u, m, 1)
	r.running[m], r.job[m] = u, s.Job(t.Job).Name()
}

// TaskEnded implements sim.Observer.
func (r *xsightRecorder) TaskEnded(s *sim.State, t sim.TaskRef, m sim.MachineID, _ sim.EndKind) {
	defer r.holders(s)
	r.change(s.Now(), s.Job(t.Job).User(), m, -1)
	r.running[m], r.job[m] = sim.NoUser, ""
}

// view builds the document section over [start, end].
func (r *xsightRecorder) view(start, end sim.Tick) *plan.SimXSight {
	r.snapshotsDue(end + 1)
	out := &plan.SimXSight{Snapshots: r.snaps}
	if out.Snapshots == nil {
		out.Snapshots = []plan.SimXSnapshot{}
	}
	span := max(end-start, 1)
	w := max(1, (span+xsightBuckets-1)/xsightBuckets)
	for u, us := range r.users {
		a := plan.SimXApp{App: us.Name, Charge: r.appCh[u], Step: float64(w) * r.tick}
		for _, o := range r.owner {
			if int(o) == u {
				a.Containers++
			}
		}
		var vals [][3]float64
		for b := start; b < end; b += w {
			vals = append(vals, r.mean(u, b, min(b+w, end)))
			a.T = append(a.T, float64(b)*r.tick)
		}
		for _, v := range vals {
			d := r.appCh[u]
			if d <= 0 {
				d = 1
			}
			a.OwnUsed, a.Lent, a.Borrowed = append(a.OwnUsed, v[0]/d), append(a.Lent, v[1]/d), append(a.Borrowed, v[2]/d)
		}
		out.Apps = append(out.Apps, a)
	}
	U := len(r.users)
	for a := 0; a < U; a++ {
		for b := a + 1; b < U; b++ {
			k := a*U + b
			p := plan.SimXPair{A: r.users[a].Name, B: r.users[b].Name, Bound: min(r.bound[a], r.bound[b]), T: []float64{float64(start) * r.tick},
				Share: []float64{0}}
			prevT, prevS := start, 0.0
			slope := 0.0
			for _, pt := range r.points[k] {
				p.Beyond += beyond(prevS, slope, float64(pt.t-prevT)*r.tick, p.Bound)
				p.T, p.Share = append(p.T, float64(pt.t)*r.tick), append(p.Share, pt.s)
				slope = pt.slope
				prevT, prevS = pt.t, pt.s
			}
			if end > prevT {
				endS := prevS + slope*float64(end-prevT)*r.tick
				p.Beyond += beyond(prevS, slope, float64(end-prevT)*r.tick, p.Bound)
				p.T, p.Share = append(p.T, float64(end)*r.tick), append(p.Share, endS)
			}
			out.Pairs = append(out.Pairs, p)
		}
	}
	return out
}

// beyond returns how long s0 + slope·t, t ∈ [0, dt], stays beyond ±bound.
func beyond(s0, slope, dt, bound float64) float64 {
	if dt <= 0 {
		return 0
	}
	f := func(thr float64, above bool) float64 { // time where s > thr (above) or s < thr
		s1 := s0 + slope*dt
		in0, in1 := s0 > thr, s1 > thr
		if !above {
			in0, in1 = s0 < thr, s1 < thr
		}
		switch {
		case in0 && in1:
			return dt
		case !in0 && !in1:
			return 0
		}
		tc := (thr - s0) / slope
		if in0 {
			return tc
		}
		return dt - tc
	}
	return f(bound, true) + f(-bound, false)
}

// mean returns the time-averaged (ownUsed, lent, borrowed) of user u over
// [a, b).
func (r *xsightRecorder) mean(u int, a, b sim.Tick) [3]float64 {
	var acc [3]float64
	st := r.steps[u]
	lo, hi := 0, len(st)
	for lo < hi { // first step after a
		m := (lo + hi) / 2
		if st[m].t <= a {
			lo = m + 1
		} else {
			hi = m
		}
	}
	var v [3]float64
	if lo > 0 {
		v = st[lo-1].v
	}
	t := a
	for i := lo; i < len(st) && st[i].t < b; i++ {
		for k := range acc {
			acc[k] += v[k] * float64(st[i].t-t)
		}
		t, v = st[i].t, st[i].v
	}
	for k := range acc {
		acc[k] += v[k] * float64(b-t)
		acc[k] /= float64(b - a)
	}
	return acc
}

// xsightDefaultBound returns xschedule's bound parameter (0 when unset).
func xsightDefaultBound(o *SimulateOptions) float64 {
	if v, ok := o.PolicyParams["xschedule"]["bound"]; ok {
		if x, err := strconv.ParseFloat(v, 64); err == nil {
			return x
		}
	}
	return 0
}
