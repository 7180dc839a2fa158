package sim

import "slices"

// recorder integrates what a run allocates over time (SIMULATE.md §4):
// exact integrals of the allocation per dimension, bucketed series of the
// allocation, the running tasks and each user's dominant share, and Jain's
// index over users' time-averaged weighted dominant shares per window.
// Everything is piecewise constant between events, so integrals are
// exact sums of value × duration.
type recorder struct {
	s       *engine
	alloc   Vec   // charge of the running tasks, per dimension
	running int64 // running tasks
	last    Tick  // global integrals are done up to here
	first   Tick  // first arrival (−1 before)
	lastEnd Tick  // last job finish
	allocI  []u128

	ser *series

	uLast []Tick // per user: integrated up to here
	wins  []jainWindow

	jobs []JobRecord
}

// jainWindow accumulates one window length of Jain's index.
type jainWindow struct {
	length Tick
	start  Tick      // start of the current window (−1 before the first arrival)
	acc    []float64 // per user: ∫ Dom dt in the current window
	stat   JainStat
}

func newRecorder(s *engine) *recorder {
	U := len(s.users)
	r := &recorder{s: s, alloc: make(Vec, s.D), first: -1, allocI: make([]u128, s.D), uLast: make([]Tick, U)}
	points := s.cfg.SeriesPoints
	if points <= 0 {
		points = defaultSeriesPoints
	}
	r.ser = newSeries(points, s.D, U)
	for _, L := range s.cfg.JainWindows {
		if L > 0 {
			r.wins = append(r.wins, jainWindow{length: L, start: -1, acc: make([]float64, U), stat: JainStat{Window: L, Min: 1}})
		}
	}
	return r
}

// advance integrates the global quantities over [last, now) and closes the
// Jain windows ending by now. Called before the events at now apply.
func (r *recorder) advance(now Tick) {
	if now > r.last {
		dt := uint64(now - r.last)
		for d, a := range r.alloc {
			r.allocI[d] = r.allocI[d].add(mul64(uint64(a), dt))
		}
		r.ser.addGlobal(r.last, now, r.alloc, r.running)
	}
	for w := range r.wins {
		jw := &r.wins[w]
		for jw.start >= 0 && jw.start+jw.length <= now {
			r.closeWindow(jw)
		}
	}
	r.last = now
}

// dom returns user u's current dominant share (float, for metrics).
func (r *recorder) dom(u int) float64 {
	var x float64
	use := r.s.users[u].usage
	invC := r.s.invC[:len(use)]
	for d, v := range use {
		if y := float64(v) * invC[d]; y > x { // = max(x, y): y is never NaN, and x starts at +0
			x = y
		}
	}
	return x
}

// flushUser integrates user u's dominant share over [uLast, t).
func (r *recorder) flushUser(u int, t Tick) {
	a := r.uLast[u]
	if t <= a {
		return
	}
	x := r.dom(u)
	if x != 0 {
		r.ser.addUser(a, t, u, x)
		for w := range r.wins {
			jw := &r.wins[w]
			if jw.start >= 0 {
				lo := max(a, jw.start)
				if t > lo {
					jw.acc[u] += x * float64(t-lo)
				}
			}
		}
	}
	r.uLast[u] = t
}

// userChanging is called before user u's usage changes at now.
func (r *recorder) userChanging(u UserID) {
	if r.uLast[u] < r.s.now {
		r.flushUser(int(u), r.s.now)
	}
}

// closeWindow computes Jain's index (Σx)²/(n·Σx²) over the users active
// during the whole window, x_u = time-averaged Dom/w_u, and starts the
// next window. Windows without such a user are not counted.
func (r *recorder) closeWindow(jw *jainWindow) {
	end := jw.start + jw.length
	var sum, sq float64
	n := 0
	for u := range r.s.users {
		r.flushUser(u, end)
		since := r.s.userActiveSince(u)
		if since >= 0 && since <= jw.start {
			x := jw.acc[u] / float64(jw.length) / float64(r.s.users[u].weight)
			sum += x
			sq += x * x
			n++
		}
		jw.acc[u] = 0
	}
	if n > 0 {
		j := 1.0 // all shares zero: perfectly equal
		if sq > 0 {
			j = sum * sum / (float64(n) * sq)
		}
		st := &jw.stat
		st.Windows++
		st.Mean += j
		st.Min = min(st.Min, j)
		st.Max = max(st.Max, j)
	}
	jw.start = end
}

// jobArrived starts the windows at the first arrival.
func (r *recorder) jobArrived(j *jobRT) {
	if r.first < 0 {
		r.first = j.spec.Arrival
		for w := range r.wins {
			r.wins[w].start = r.first
		}
		for u := range r.uLast {
			r.uLast[u] = max(r.uLast[u], r.first)
		}
	}
	r.s.userActivity(j.spec.User, +1)
}

// jobFinished records the job's row.
func (r *recorder) jobFinished(j *jobRT) {
	r.s.userActivity(j.spec.User, -1)
	r.lastEnd = max(r.lastEnd, r.s.now)
	r.jobs = append(r.jobs, r.row(j, r.s.now))
}

func (r *recorder) row(j *jobRT, finish Tick) JobRecord {
	return JobRecord{ID: j.id, Name: j.spec.Name, User: j.spec.User, Arrival: j.spec.Arrival, Start: j.start, Finish: finish,
		Tasks: int32(len(j.tasks)), LB: j.lb, CPL: j.cpl, Attempts: int32(len(j.tasks)) + j.kills, Kills: j.kills,
		Suspends: j.suspends, Migrations: j.migrations, Wasted: j.wasted, WastedWork: j.wastedWork}
}

// result assembles the Result at the end of the run.
func (r *recorder) result() *Result {
	s := r.s
	for _, id := range s.active { // unfinished at Until
		r.jobs = append(r.jobs, r.row(s.jobs[id], -1))
	}
	slices.SortFunc(r.jobs, func(a, b JobRecord) int { return int(a.ID) - int(b.ID) })
	for u := range s.users {
		r.flushUser(u, s.now)
	}
	res := &Result{
		Policy: s.policy.Name(), Resources: s.cl.Resources, Total: slices.Clone(s.total),
		Machines: len(s.cl.Machines), Classes: len(s.classes), ContainerMode: s.cl.Nodes != nil,
		Jobs: r.jobs, Rejected: s.rejected, FirstArrival: max(r.first, 0), End: s.now, Stats: s.stats,
	}
	if s.cl.Quanta != nil {
		res.Quanta = slices.Clone(s.cl.Quanta)
	}
	if r.first >= 0 {
		res.Makespan = r.lastEnd - r.first
		if len(s.active) > 0 {
			res.Makespan = s.now - r.first
		}
	}
	res.Utilization = make([]float64, s.D)
	span := float64(res.Makespan)
	for d := range res.Utilization {
		if s.total[d] > 0 && span > 0 {
			res.Utilization[d] = r.allocI[d].float() / float64(s.total[d]) / span
		}
	}
	res.Series = r.ser.export(max(r.first, 0), s.now, s.total, len(s.users))
	if sp, ok := s.policy.(StatsPolicy); ok {
		res.PolicyStats = sp.PolicyStats()
	}
	for _, jw := range r.wins {
		st := jw.stat
		if st.Windows > 0 {
			st.Mean /= float64(st.Windows)
		} else {
			st.Min = 0
		}
		res.Jain = append(res.Jain, st)
	}
	return res
}

// userActivity counts a user's active jobs and when it last became active.
func (s *engine) userActivity(u UserID, delta int32) {
	ur := &s.users[u]
	if delta > 0 && ur.activeJobs == 1 { // activeJobs already incremented by arrive
		ur.activeSince = s.now
	}
	if delta < 0 && ur.activeJobs == 1 { // about to become inactive
		ur.activeSince = -1
	}
}

// userActiveSince returns when user u last became active, or −1.
func (s *engine) userActiveSince(u int) Tick {
	if s.users[u].activeJobs == 0 {
		return -1
	}
	return s.users[u].activeSince
}
