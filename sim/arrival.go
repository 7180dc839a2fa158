package sim

import (
	"fmt"
	"math"
	"strings"
)

// admit checks job j before its arrival: its shape, its user, that it has
// no cycle, and that every task fits, when the cluster is empty, some
// machine its constraints admit (SIMULATE.md §1.4). It returns the
// analysed job, or the reason for rejecting it.
func (s *engine) admit(id JobID, j Job) (*pendingJob, string) {
	if j.User < 0 || int(j.User) >= len(s.users) {
		return nil, fmt.Sprintf("user %d is not among the %d users", j.User, len(s.users))
	}
	g, reason := newStructure(&j, s.D)
	if reason != "" {
		return nil, reason
	}
	if j.Rank != nil && len(j.Rank) != g.n() {
		return nil, fmt.Sprintf("%d ranks for %d tasks", len(j.Rank), g.n())
	}
	if !g.analyse() {
		return nil, "the job's dependencies have a cycle"
	}
	user := &s.cfg.Users[j.User]
	for si := range j.Stages {
		st := &j.Stages[si]
		set := s.elig.of(user.Constraint, j.Constraint, st.Constraint)
		for i := 0; i < int(st.Tasks); i++ {
			if st.TaskDuration(i) > 0 {
				if why := s.unfit(set, st.TaskDemand(i)); why != "" {
					return nil, fmt.Sprintf("stage %s task %d demand %s %s", st.Name, i, s.formatVec(st.TaskDemand(i)), why)
				}
				if st.Demands == nil {
					break // one shared demand: its first non-dummy task answers for all
				}
			}
			if st.Demands == nil && st.Durations == nil {
				break
			}
		}
	}
	return &pendingJob{id: id, job: j, g: g}, ""
}

// unfit returns why no machine of the set can hold r when empty, or "".
func (s *engine) unfit(set *ClassSet, r Vec) string {
	if set.Len() == 0 {
		return "has no eligible machine (its constraints admit none)"
	}
	for _, c := range set.List() {
		cl := &s.classes[c]
		ok := true
		for d, v := range r {
			if v > s.limit(cl.Cap[d], d) {
				ok = false
				break
			}
		}
		if ok {
			return ""
		}
	}
	best := s.classes[set.List()[0]].Cap
	return "fits no eligible machine (for example " + s.formatVec(best) + ")"
}

// formatVec renders a vector in base units: "{cpu: 2, memory: 4.295e+09}".
func (s *engine) formatVec(v Vec) string {
	var b strings.Builder
	b.WriteByte('{')
	for d, x := range v {
		if d > 0 {
			b.WriteString(", ")
		}
		q := 1.0
		if s.cl.Quanta != nil {
			q = s.cl.Quanta[d]
		}
		fmt.Fprintf(&b, "%s: %g", s.cl.Resources[d], float64(x)*q)
	}
	b.WriteByte('}')
	return b.String()
}

// normSum returns NormSum(r) = Σ_d r_d/C_d, summed in dimension order.
func (s *engine) normSum(r Vec) float64 {
	var x float64
	for d, v := range r {
		x += float64(v) * s.invC[d]
	}
	return x
}

// arrive expands the pending job id into its run-time state and makes its
// source tasks runnable.
func (s *engine) arrive(id JobID) {
	p := s.pend
	if p == nil || p.id != id {
		panic("sim: internal: arrival of a job that is not pending")
	}
	job := &p.job
	g := p.g
	n := g.n()
	j := &jobRT{id: id, user: job.User, edges: len(job.Edges) > 0, spec: *job, g: g, tasks: make([]taskRT, n), st: make([]stageRT, len(job.Stages)),
		left: int32(n), start: -1, base: job.Arrival}
	j.usage = j.usageBuf[:0]
	if s.D > len(j.usageBuf) {
		j.usage = make(Vec, s.D)
	}
	j.usage = j.usage[:s.D]
	if s.mis != nil { // policies see estimates; job keeps the truth
		s.mis.estimates(id+s.cfg.OrdinalOffset, &j.spec, g.first)
	}
	user := &s.cfg.Users[job.User]
	j.elig = s.elig.of(user.Constraint, job.Constraint)
	j.taskLeft = g.inDegree()
	var tbuf [8]float64 // TWork per dimension
	twork := tbuf[:0]
	if s.D > len(tbuf) {
		twork = make([]float64, s.D)
	}
	twork = twork[:s.D]
	invC := s.invC[:s.D]
	for si := range job.Stages {
		st := &job.Stages[si]
		rt := &j.st[si]
		rt.elig = s.elig.of(user.Constraint, job.Constraint, st.Constraint)
		rt.dem, rt.dems = st.Demand, st.Demands
		if st.Demands == nil {
			rt.ns = s.normSum(st.Demand)
		}
		rt.left, rt.first = st.Tasks, g.first[si]
		rt.oChild, rt.bChild = g.oChild[si], g.bChild[si]
		dem, ns := st.Demand, rt.ns
		tasks := j.tasks[rt.first : rt.first+st.Tasks]
		for i := range tasks {
			t := &tasks[i]
			t.stage, t.machine = int32(si), NoMachine
			t.est = j.spec.Stages[si].TaskDuration(i) // the truth unless misestimated
			if t.est <= 0 {
				continue
			}
			v := rt.first + int32(i)
			t.act = s.noise.actual(id+s.cfg.OrdinalOffset, v, st.TaskDuration(i))
			if st.Demands != nil {
				dem = st.Demands[i]
				ns = s.normSum(dem)
			}
			j.pendingWork += float64(t.est) * ns
			j.unstarted++
			for d, x := range dem[:len(twork)] {
				twork[d] += float64(t.act) * float64(x) * invC[d]
			}
		}
	}
	if rp, ok := s.policy.(RankPolicy); ok && j.spec.Rank == nil {
		if r := rp.JobRank(s.state, &j.spec); r != nil {
			if len(r) != n {
				panic(fmt.Sprintf("sim: policy %s ranked %d of the %d tasks of job %s", s.policy.Name(), len(r), n, job.Name))
			}
			j.spec.Rank = r
		}
	}
	j.cpl = s.keys(j)
	cplAct := j.cpl
	if s.cfg.Noise > 0 || s.mis != nil {
		cplAct = g.cpl(func(v int32) Tick { return j.tasks[v].act })
	}
	tw := 0.0
	for _, x := range twork {
		tw = max(tw, x)
	}
	j.lb = max(cplAct, Tick(math.Ceil(tw-lbTol*math.Max(1, tw))))
	s.pend = nil
	s.jobs[id] = j
	s.active = append(s.active, id)
	s.users[job.User].activeJobs++
	s.stats.liveTasks += int64(n)
	s.stats.PeakLiveTasks = max(s.stats.PeakLiveTasks, s.stats.liveTasks)
	s.rec.jobArrived(j)
	for _, o := range s.obs {
		o.JobArrived(s.state, id)
	}
	for v := int32(0); v < int32(n); v++ {
		if j.taskLeft[v] == 0 {
			s.ready = append(s.ready, TaskRef{id, v})
		}
	}
	s.drainReady()
	if err := s.pull(); err != nil && s.err == nil {
		s.err = err
	}
}

// lbTol absorbs float rounding in TWork before it is rounded up to ticks.
const lbTol = 1e-9

// keys sets every task's intra key (SIMULATE.md §3.0) and returns the
// critical path of the estimates, cpl(j).
func (s *engine) keys(j *jobRT) Tick {
	g := j.g
	est := func(v int32) Tick { return j.tasks[v].est }
	cpl := g.cpl(est)
	switch s.traits.Intra {
	case IntraBFS:
		var buf [16]int32
		depth := g.stageDepth(buf[:])
		S := int64(len(j.st))
		for v := range j.tasks {
			st := j.tasks[v].stage
			j.tasks[v].key = int64(depth[st])*S + int64(st)
		}
	case IntraCP:
		g.bottomLevels(est, func(v int32, bl Tick) { j.tasks[v].key = -int64(bl) })
	case IntraID:
		for v := range j.tasks {
			j.tasks[v].key = int64(v)
		}
	case IntraRank:
		for v := range j.tasks {
			j.tasks[v].key = int64(v)
			if j.spec.Rank != nil {
				j.tasks[v].key = int64(j.spec.Rank[v])
			}
		}
	}
	return cpl
}

// taskNS returns NormSum of task v's demand.
func (s *engine) taskNS(j *jobRT, v int32) float64 {
	st := &j.st[j.tasks[v].stage]
	if st.dems != nil {
		return s.normSum(j.demand(v))
	}
	return st.ns
}

// drainReady makes the tasks of the ready list runnable; a dummy
// (estimate 0) completes at once, which may cascade.
//
// Consecutive ready tasks of one stage are queued as one run (enqueueRun):
// the same queues, groups and lists as queuing them one by one.
func (s *engine) drainReady() {
	for k := 0; k < len(s.ready); {
		r := s.ready[k]
		j := s.jobs[r.Job]
		if j.tasks[r.Task].est == 0 {
			j.tasks[r.Task].state = TaskFinished
			s.complete(j, r.Task, j.tasks[r.Task].stage) // may append to s.ready
			k++
			continue
		}
		si := j.tasks[r.Task].stage
		e := k + 1
		for e < len(s.ready) && s.ready[e].Job == r.Job {
			if t := &j.tasks[s.ready[e].Task]; t.stage != si || t.est == 0 {
				break
			}
			e++
		}
		if e == k+1 {
			s.enqueue(j, r.Task)
		} else {
			s.enqueueRun(j, si, s.ready[k:e])
		}
		k = e
	}
	s.ready = s.ready[:0]
}

// enqueueRun makes tasks vs, all of stage si of job j, runnable: what
// enqueue does for each in turn, with one sort of the stage's queue.
func (s *engine) enqueueRun(j *jobRT, si int32, vs []TaskRef) {
	for _, r := range vs {
		j.tasks[r.Task].state = TaskRunnable
	}
	j.version += uint64(len(vs))
	st := &j.st[si]
	empty := len(j.runnable(si)) == 0
	var oldKey int64
	if !empty {
		oldKey = j.tasks[j.head(si)].key
	}
	j.qPushRun(si, vs)
	j.pending += int32(len(vs))
	switch {
	case empty:
		if len(j.groups) == 0 {
			s.runnable = insertSorted(s.runnable, j.id)
		}
		j.groupInsert(si)
	case j.tasks[j.head(si)].key != oldKey: // the group's place may change
		j.groupFix(si)
	}
	if st.newStamp != s.round {
		st.newStamp = s.round
		s.newGroups = append(s.newGroups, GroupRef{j.id, si})
	}
}

// enqueue makes task v runnable in its group.
func (s *engine) enqueue(j *jobRT, v int32) {
	t := &j.tasks[v]
	t.state = TaskRunnable
	j.version++
	si := t.stage
	st := &j.st[si]
	empty := len(j.runnable(si)) == 0
	var oldKey int64
	if !empty {
		oldKey = j.tasks[j.head(si)].key
	}
	j.qPush(v)
	j.pending++
	switch {
	case empty:
		if len(j.groups) == 0 {
			s.runnable = insertSorted(s.runnable, j.id)
		}
		j.groupInsert(si)
	case j.head(si) == v && t.key != oldKey: // the group's place may change
		j.groupFix(si)
	}
	if st.newStamp != s.round {
		st.newStamp = s.round
		s.newGroups = append(s.newGroups, GroupRef{j.id, si})
	}
}

// dequeue removes runnable task v from its group.
func (s *engine) dequeue(j *jobRT, v int32) {
	si := j.tasks[v].stage
	head := j.head(si) == v
	j.qRemove(v)
	j.pending--
	switch {
	case len(j.runnable(si)) == 0:
		j.groupRemove(si)
		if len(j.groups) == 0 {
			s.runnable = removeSorted(s.runnable, j.id)
		}
	case head && j.tasks[j.head(si)].key != j.tasks[v].key: // the group's place may change
		j.groupFix(si)
	}
}

// complete records that task v finished and releases its successors
// (structure.release, with the task's stage known and no callback).
func (s *engine) complete(j *jobRT, v, si int32) {
	j.left--
	j.version++
	g := j.g
	left := j.taskLeft
	if j.edges {
		for _, w := range g.succs(v) {
			if left[w]--; left[w] == 0 {
				s.ready = append(s.ready, TaskRef{j.id, w})
			}
		}
	}
	st := &j.st[si]
	if len(st.oChild) > 0 {
		off := v - st.first
		for _, c := range st.oChild {
			w := j.st[c].first + off
			if left[w]--; left[w] == 0 {
				s.ready = append(s.ready, TaskRef{j.id, w})
			}
		}
	}
	if st.left--; st.left == 0 {
		for _, c := range st.bChild {
			for w := g.first[c]; w < g.first[c+1]; w++ { // the child's tasks
				if left[w]--; left[w] == 0 {
					s.ready = append(s.ready, TaskRef{j.id, w})
				}
			}
		}
	}
	if j.left == 0 {
		s.finishJob(j)
	}
}

// finishJob records a completed job and drops its run-time state.
func (s *engine) finishJob(j *jobRT) {
	s.rec.jobFinished(j)
	for _, o := range s.obs {
		o.JobFinished(s.state, j.id)
	}
	if s.chk != nil {
		s.chk.jobFinished(j)
	}
	s.active = removeSorted(s.active, j.id)
	s.users[j.user].activeJobs--
	s.stats.liveTasks -= int64(len(j.tasks))
	s.jobs[j.id] = nil
	s.finished++
}

func insertSorted(a []JobID, x JobID) []JobID {
	i := len(a)
	for i > 0 && a[i-1] > x {
		i--
	}
	if i == len(a) {
		return append(a, x)
	}
	a = append(a, 0)
	copy(a[i+1:], a[i:])
	a[i] = x
	return a
}

func removeSorted(a []JobID, x JobID) []JobID {
	lo, hi := 0, len(a)
	for lo < hi {
		m := (lo + hi) / 2
		if a[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(a) && a[lo] == x {
		return append(a[:lo], a[lo+1:]...)
	}
	return a
}
