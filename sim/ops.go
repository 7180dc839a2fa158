package sim

// The state changes behind events and Planner calls. Each keeps the
// machine free vectors, the fit index, the usage of users and jobs, the
// work sums and the groups consistent.

// charge returns what a task of demand dem on machine m is charged: its
// demand, or in container mode the container's size (SIMULATE.md §1.4:
// X-Flex charges by container size).
func (s *engine) charge(dem Vec, m MachineID) Vec {
	if s.cl.Nodes != nil {
		return s.cl.Machines[m].Cap
	}
	return dem
}

// addUsage adds sign·ch (sign = ±1) to the usage of job j, of its user
// and of the cluster.
func (s *engine) addUsage(j *jobRT, ch Vec, sign int64) {
	u := j.user
	s.rec.userChanging(u)
	ur := &s.users[u]
	uu, ju, al := ur.usage[:len(ch)], j.usage[:len(ch)], s.rec.alloc[:len(ch)]
	if sign > 0 {
		for d, x := range ch {
			uu[d] += x
			ju[d] += x
			al[d] += x
		}
	} else {
		for d, x := range ch {
			uu[d] -= x
			ju[d] -= x
			al[d] -= x
		}
	}
	s.rec.running += sign
	ur.running += int32(sign)
	j.version++
}

// occupy puts task v on machine m.
func (s *engine) occupy(j *jobRT, v int32, m MachineID) {
	t := &j.tasks[v]
	dem := j.demand(v)
	f := s.machineFree(m)
	f = f[:len(dem)]
	for d, x := range dem {
		f[d] -= x
	}
	s.mach[m].slots--
	s.mach[m].reserved = NoUser // only the claimant may place on a reserved machine
	s.index.set(m, f, s.mach[m].slots, false)
	s.addUsage(j, s.charge(dem, m), 1)
	if s.dev != nil {
		s.dev.take(m, TaskRef{j.id, v}, dem)
	}
	s.mach[m].on = append(s.mach[m].on, TaskRef{j.id, v})
	t.machine = m
	j.running++
	j.st[t.stage].running++
}

// vacate takes task v, of stage si, off machine m. It does not touch the
// task.
func (s *engine) vacate(j *jobRT, v int32, m MachineID, si int32) {
	st := &j.st[si]
	dem := st.dem
	if st.dems != nil {
		dem = st.dems[v-st.first]
	}
	f := s.machineFree(m)
	f = f[:len(dem)]
	for d, x := range dem {
		f[d] += x
	}
	mr := &s.mach[m]
	mr.slots++
	s.index.set(m, f, mr.slots, mr.reserved != NoUser)
	s.markDirty(m)
	s.addUsage(j, s.charge(dem, m), -1)
	if s.dev != nil {
		s.dev.release(m, TaskRef{j.id, v})
	}
	// Swap-remove from the machine's list, found by a scan: a machine runs
	// tens of tasks, and keeping each task's position would touch the
	// moved task's cache line on every removal.
	on := mr.on
	last := len(on) - 1
	ref := TaskRef{j.id, v}
	i := last
	for on[i] != ref {
		i--
	}
	on[i] = on[last]
	mr.on = on[:last]
	j.running--
	st.running--
}

// place starts runnable task v on machine m now; the caller checked
// eligibility and fit.
func (s *engine) place(j *jobRT, v int32, m MachineID) {
	t := &j.tasks[v]
	s.dequeue(j, v)
	s.occupy(j, v, m)
	ns := s.taskNS(j, v)
	j.pendingWork -= float64(max(1, t.est-t.ran)) * ns
	if j.unstarted--; j.unstarted == 0 {
		j.pendingWork = 0 // no rounding residue
	}
	t.state = TaskRunning
	t.start = s.now
	k := s.newRun()
	t.run = k
	s.runs[k] = runRT{job: j.id, task: v, machine: m, ver: t.ver, stage: t.stage, estEnd: t.estEnd()}
	j.runEnd += ns * float64(t.estEnd()-j.base)
	j.runNS += ns
	if j.start < 0 {
		j.start = s.now
	}
	ev := mkEvent(s.now+t.act-t.ran, evFinish, int32(j.id), v, t.ver) // the actual end
	ev.slot = uint32(k)
	s.push(ev)
	if s.overdue != nil {
		s.overdue.push(overdueEntry{at: t.estEnd(), job: j.id, task: v, ver: t.ver})
	}
	s.stats.Placements++
	if s.chk != nil {
		s.chk.started(j, v, m)
	}
	for _, o := range s.obs {
		o.TaskStarted(s.state, TaskRef{j.id, v}, m)
	}
}

// stopRun ends the run of task v held by record k: off its machine, out
// of the running work sums, and the record freed. It reads the record,
// not the task.
func (s *engine) stopRun(j *jobRT, v, k int32) {
	r := &s.runs[k]
	st := &j.st[r.stage]
	ns := st.ns
	if st.dems != nil {
		ns = s.normSum(st.dems[v-st.first])
	}
	if r.flags&flagOverdue != 0 {
		j.overdueNS -= ns
	} else {
		j.runEnd -= ns * float64(r.estEnd-j.base)
		j.runNS -= ns
	}
	s.vacate(j, v, r.machine, r.stage)
	if j.running == 0 {
		j.runEnd, j.runNS, j.overdueNS = 0, 0, 0
	}
	*r = runRT{job: -1}
	s.freeRuns = append(s.freeRuns, k)
}

// finishTask applies the completion of running task v, run record k. The
// task is left as it was: with its record freed, it reads as finished.
func (s *engine) finishTask(j *jobRT, v, k int32) {
	m, si := s.runs[k].machine, s.runs[k].stage
	s.stopRun(j, v, k)
	if s.chk != nil {
		s.chk.ended(j, v, m, EndFinished)
	}
	for _, o := range s.obs {
		o.TaskEnded(s.state, TaskRef{j.id, v}, m, EndFinished)
	}
	s.complete(j, v, si)
	s.drainReady()
}

// kill ends running task v and requeues it with its progress lost; its
// machine is then reserved for claimant (unless NoUser).
func (s *engine) kill(j *jobRT, v int32, claimant UserID) {
	t := &j.tasks[v]
	m := t.machine
	lost := s.now - t.start + t.ran
	ns := s.taskNS(j, v)
	s.stopRun(j, v, t.run)
	t.machine = NoMachine
	if s.chk != nil {
		s.chk.ended(j, v, m, EndKilled)
	}
	j.wasted += lost
	j.wastedWork += float64(lost) * ns
	t.ran = 0
	t.ver++
	j.kills++
	s.stats.Kills++
	j.pendingWork += float64(t.est) * ns
	j.unstarted++
	s.enqueue(j, v)
	if claimant != NoUser {
		s.reserve(m, claimant)
	}
	for _, o := range s.obs {
		o.TaskEnded(s.state, TaskRef{j.id, v}, m, EndKilled)
	}
}

// suspend ends running task v and requeues it keeping its progress.
func (s *engine) suspend(j *jobRT, v int32) {
	t := &j.tasks[v]
	m := t.machine
	s.stopRun(j, v, t.run)
	t.machine = NoMachine
	if s.chk != nil {
		s.chk.ended(j, v, m, EndSuspended)
	}
	t.ran += s.now - t.start
	t.ver++
	j.suspends++
	s.stats.Suspends++
	j.pendingWork += float64(max(1, t.est-t.ran)) * s.taskNS(j, v)
	j.unstarted++
	s.enqueue(j, v)
	for _, o := range s.obs {
		o.TaskEnded(s.state, TaskRef{j.id, v}, m, EndSuspended)
	}
}

// migrate moves running task v to machine m; its end stays the same.
func (s *engine) migrate(j *jobRT, v int32, m MachineID) {
	t := &j.tasks[v]
	from := t.machine
	s.vacate(j, v, from, t.stage)
	s.occupy(j, v, m)
	s.runs[t.run].machine = m
	j.migrations++
	s.stats.Migrations++
	if s.chk != nil {
		s.chk.ended(j, v, from, EndMigrated)
		s.chk.started(j, v, m)
	}
	for _, o := range s.obs {
		o.TaskEnded(s.state, TaskRef{j.id, v}, from, EndMigrated)
	}
	for _, o := range s.obs {
		o.TaskStarted(s.state, TaskRef{j.id, v}, m)
	}
}

// reserve hides machine m from the fit index and holds it for user u.
func (s *engine) reserve(m MachineID, u UserID) {
	s.mach[m].reserved = u
	s.index.set(m, s.machineFree(m), s.mach[m].slots, true)
}

// unreserve makes a reserved machine available to everyone again.
func (s *engine) unreserve(m MachineID) {
	if s.mach[m].reserved == NoUser {
		return
	}
	s.mach[m].reserved = NoUser
	s.index.set(m, s.machineFree(m), s.mach[m].slots, false)
	s.markDirty(m)
}

// overdueEntry is a running task's estimated end.
type overdueEntry struct {
	at   Tick
	job  JobID
	task int32
	ver  uint32
}

// overdueHeap orders running tasks by estimated end, so that tasks that
// outlive their estimate count a remaining time of 1 tick in work(j)
// (needed only when actual durations differ from estimates).
type overdueHeap struct{ a []overdueEntry }

func (h *overdueHeap) less(i, k int) bool {
	x, y := &h.a[i], &h.a[k]
	if x.at != y.at {
		return x.at < y.at
	}
	if x.job != y.job {
		return x.job < y.job
	}
	return x.task < y.task
}

func (h *overdueHeap) push(e overdueEntry) {
	h.a = append(h.a, e)
	for i := len(h.a) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h.a[i], h.a[p] = h.a[p], h.a[i]
		i = p
	}
}

func (h *overdueHeap) pop() overdueEntry {
	top := h.a[0]
	n := len(h.a) - 1
	h.a[0] = h.a[n]
	h.a = h.a[:n]
	for i := 0; ; {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h.less(c+1, c) {
			c++
		}
		if !h.less(c, i) {
			break
		}
		h.a[i], h.a[c] = h.a[c], h.a[i]
		i = c
	}
	return top
}

// markOverdue moves running tasks whose estimated end has passed from the
// running work sums to the overdue sums.
func (s *engine) markOverdue() {
	for len(s.overdue.a) > 0 && s.overdue.a[0].at <= s.now {
		e := s.overdue.pop()
		j := s.jobs[e.job]
		if j == nil {
			continue
		}
		t := &j.tasks[e.task]
		if !s.running(j, e.task) || t.ver != e.ver || s.runs[t.run].flags&flagOverdue != 0 {
			continue
		}
		ns := s.taskNS(j, e.task)
		j.runEnd -= ns * float64(t.estEnd()-j.base)
		j.runNS -= ns
		j.overdueNS += ns
		s.runs[t.run].flags |= flagOverdue
	}
}
