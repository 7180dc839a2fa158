package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// engine is one simulation run (a cell). It is not safe for concurrent use;
// independent runs may go in parallel.
type engine struct {
	cfg     Config
	cl      *Cluster
	D       int
	classes []Class
	classOf []ClassID
	elig    *eligibility
	index   *FreeIndex

	free     []int64 // M×D: fit limit minus demand of the running tasks
	mach     []machRT
	runs     []runRT // records of the running tasks
	freeRuns []int32 // free records, the last freed reused first
	total    Vec     // C: the cluster's total capacity
	invC     []float64

	users    []userRT
	jobs     []*jobRT // by JobID; nil before arrival, after finish or when rejected
	active   []JobID  // arrived, unfinished, in id order
	runnable []JobID  // jobs with runnable tasks, in id order
	finished int

	heap      eventQueue
	now       Tick
	round     uint32 // stamp of the coming Round (starts at 1)
	inRound   bool
	dirty     []MachineID
	newGroups []GroupRef
	ready     []TaskRef // tasks whose last predecessor just finished
	timers    map[Tick]bool

	src         JobSource
	pend        *pendingJob
	nextID      JobID
	lastArrival Tick
	rejected    []Rejection

	policy  Policy
	traits  Traits
	obs     []Observer
	state   *State
	planner *Planner
	noise   *noise
	mis     *misestimator // nil unless Config.Misestimate is on
	rng     *rand.Rand
	rec     *recorder
	chk     *checker
	overdue *overdueHeap
	dev     *devices           // per-device fit (Cluster.Devices), or nil
	claims  map[TaskRef]UserID // claimants of pending grace-period kills

	// roundObs are the observers told after every Round (RoundObserver).
	roundObs []RoundObserver

	stats Stats
	err   error
}

// machRT is the run-time state of one machine besides its free vector,
// in one place so that a task's start or end touches one line for it.
type machRT struct {
	slots    int64     // free task slots
	on       []TaskRef // running tasks: in start order, but a removal moves the last into the hole
	reserved UserID    // claimant a killed task's machine is held for
	stamp    uint32    // round in which it was listed dirty
}

type userRT struct {
	usage       Vec
	weight      int64
	elig        *ClassSet
	activeJobs  int32
	running     int32 // running tasks
	activeSince Tick  // when activeJobs last became positive
}

// pendingJob is the next job to arrive, checked and analysed.
type pendingJob struct {
	id  JobID
	job Job
	g   *structure
}

// Rejection is a job dropped at load, and why.
type Rejection struct {
	Job    string
	Reason string
}

// Stats counts the work of a run. Events are non-stale queue pops.
type Stats struct {
	Events, Rounds, Placements, Preemptions int64
	Kills, Suspends, Migrations             int64
	PeakLiveTasks                           int64
	liveTasks                               int64
}

// Run simulates the jobs of src under cfg and returns the result. A job
// whose tasks no eligible machine can ever hold, or whose shape is
// malformed, is rejected (listed in Result.Rejected) and the rest run.
func Run(cfg Config, src JobSource) (*Result, error) {
	s, err := newSim(cfg)
	if err != nil {
		return nil, err
	}
	return s.run(src)
}

func newSim(cfg Config) (*engine, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cl := cfg.Cluster
	s := &engine{cfg: cfg, cl: cl, D: len(cl.Resources), policy: cfg.Policy, round: 1, timers: map[Tick]bool{}}
	if tp, ok := cfg.Policy.(TraitsPolicy); ok {
		s.traits = tp.Traits()
	}
	if o, ok := cfg.Policy.(Observer); ok {
		s.obs = append(s.obs, o)
	}
	s.obs = append(s.obs, cfg.Observers...)
	for _, o := range cfg.Observers {
		if ro, ok := o.(RoundObserver); ok {
			s.roundObs = append(s.roundObs, ro)
		}
	}
	if cl.Devices != nil {
		var err error
		if s.dev, err = newDevices(cl.Devices, cl.Machines); err != nil {
			return nil, err
		}
	}
	s.classes, s.classOf = buildClasses(cl.Machines, cl.Nodes)
	s.elig = newEligibility(s.classes)
	M, D := len(cl.Machines), s.D
	slotted := false
	for i := range cl.Machines {
		slotted = slotted || cl.Machines[i].Slots > 0
	}
	caps := make([]Vec, len(s.classes))
	for c := range s.classes {
		caps[c] = s.classes[c].Cap
	}
	s.index = newFreeIndex(D, slotted, s.classOf, caps)
	s.free = make([]int64, M*D)
	s.mach = make([]machRT, M)
	s.total = make(Vec, D)
	// Each machine's running list starts with room for onStart tasks (or
	// its slots), carved from one block: one allocation, not several per
	// machine as the lists grow.
	const onStart = 8
	onBlock := make([]TaskRef, M*onStart)
	for i := range cl.Machines {
		n := onStart
		if sl := int(cl.Machines[i].Slots); sl > 0 && sl < n {
			n = sl
		}
		s.mach[i].on = onBlock[i*onStart : i*onStart : i*onStart+n]
	}
	for i := range cl.Machines {
		m := &cl.Machines[i]
		for d, c := range m.Cap {
			s.free[i*D+d] = s.limit(c, d)
			if cl.Nodes == nil {
				s.total[d] += c
			}
		}
		s.mach[i].slots = math.MaxInt32
		if m.Slots > 0 {
			s.mach[i].slots = int64(m.Slots)
		}
		s.mach[i].reserved = NoUser
		s.index.set(MachineID(i), s.free[i*D:i*D+D], s.mach[i].slots, false)
	}
	for _, n := range cl.Nodes {
		for d, c := range n.Cap {
			s.total[d] += c
		}
	}
	s.invC = make([]float64, D)
	for d, c := range s.total {
		if c > 0 {
			s.invC[d] = 1 / float64(c)
		}
	}
	s.users = make([]userRT, len(cfg.Users))
	for u := range cfg.Users {
		s.users[u] = userRT{usage: make(Vec, D), weight: cfg.Users[u].Weight, elig: s.elig.of(cfg.Users[u].Constraint), activeSince: -1}
	}
	s.noise = newNoise(cfg.Seed, cfg.Noise, cfg.NoiseMedian)
	if cfg.Misestimate.On() {
		s.mis = newMisestimator(cfg.Seed, cfg.Misestimate)
	}
	s.rng = rand.New(rand.NewPCG(cfg.Seed, streamPolicy))
	if cfg.Noise > 0 {
		s.overdue = &overdueHeap{}
	}
	s.state = &State{s: s}
	s.planner = &Planner{s: s}
	s.rec = newRecorder(s)
	if cfg.Check {
		s.chk = newChecker(s)
	}
	return s, nil
}

// limit returns the fit limit of a capacity: ⌊c·overbook_d⌋.
func (s *engine) limit(c int64, d int) int64 {
	if s.cl.Overbook == nil || s.cl.Overbook[d] == 1 {
		return c
	}
	return int64(math.Floor(float64(c) * s.cl.Overbook[d]))
}

// machineFree returns machine m's free vector (a view; do not modify).
func (s *engine) machineFree(m MachineID) Vec { return s.free[int(m)*s.D : int(m)*s.D+s.D] }

func (s *engine) run(src JobSource) (*Result, error) {
	s.src = src
	if err := s.pull(); err != nil {
		return nil, err
	}
	every := int64(s.cfg.ProgressEvery)
	if every <= 0 {
		every = 1 << 16
	}
	nextProgress := every
	for s.heap.len() > 0 && s.err == nil {
		t := s.heap.next()
		if s.cfg.Until > 0 && t > s.cfg.Until {
			break
		}
		s.setNow(t)
		changed, timer := false, false
		for s.heap.pending() && s.err == nil {
			ev := s.heap.pop()
			switch ev.kind() {
			case evFinish:
				if j, v, k, ok := s.live(ev); ok {
					s.stats.Events++
					s.finishTask(j, v, k)
					changed = true
				}
			case evKill:
				if j, v, _, ok := s.live(ev); ok {
					s.stats.Events++
					claim, has := s.claims[TaskRef{j.id, v}]
					if !has {
						claim = NoUser
					}
					delete(s.claims, TaskRef{j.id, v})
					s.kill(j, v, claim)
					changed = true
				} else {
					delete(s.claims, TaskRef{JobID(ev.a()), ev.b()})
				}
			case evArrival:
				s.stats.Events++
				s.arrive(JobID(ev.a()))
				changed = true
			case evTimer:
				s.stats.Events++
				delete(s.timers, ev.at)
				timer = true
			}
		}
		if s.err != nil {
			break
		}
		if changed || timer {
			s.doRound()
		}
		if s.cfg.Progress != nil && s.stats.Events >= nextProgress {
			nextProgress = s.stats.Events + every
			s.cfg.Progress(s.now, s.finished)
		}
	}
	if s.err != nil {
		return nil, s.err
	}
	if s.heap.len() == 0 && len(s.runnable) > 0 {
		j := s.jobs[s.runnable[0]]
		return nil, fmt.Errorf("%w: %s left job %s with %d runnable tasks at tick %d and no event pending (set a timer with WakeAt)",
			ErrStalled, s.policy.Name(), j.spec.Name, j.pending, s.now)
	}
	if s.chk != nil {
		if err := s.chk.atEnd(); err != nil {
			return nil, err
		}
	}
	return s.rec.result(), nil
}

// live returns the job, task and run record of a finish or kill event
// that is not stale: its record still holds the same run (job, task and
// version).
func (s *engine) live(ev event) (*jobRT, int32, int32, bool) {
	if int(ev.slot) >= len(s.runs) {
		return nil, 0, 0, false
	}
	r := &s.runs[ev.slot]
	if r.job != JobID(ev.a()) || r.task != ev.b() || r.ver != ev.ver {
		return nil, 0, 0, false
	}
	return s.jobs[r.job], r.task, int32(ev.slot), true
}

// newRun returns a free run record.
func (s *engine) newRun() int32 {
	if n := len(s.freeRuns); n > 0 {
		k := s.freeRuns[n-1]
		s.freeRuns = s.freeRuns[:n-1]
		return k
	}
	if len(s.runs) == cap(s.runs) {
		// Twice the room: append grows a large slice by a quarter,
		// copying the table about five times its final size over a run.
		s.runs = slices.Grow(s.runs, max(64, len(s.runs)))
	}
	s.runs = append(s.runs, runRT{})
	return int32(len(s.runs) - 1)
}

// running reports whether task v of j is running: its state says so and
// its record still holds its run.
func (s *engine) running(j *jobRT, v int32) bool {
	t := &j.tasks[v]
	if t.state != TaskRunning {
		return false
	}
	r := &s.runs[t.run]
	return r.job == j.id && r.task == v && r.ver == t.ver
}

// stateOf returns task v's state, TaskFinished for a run that ended (a
// finish leaves the task as it was).
func (s *engine) stateOf(j *jobRT, v int32) TaskState {
	if st := j.tasks[v].state; st != TaskRunning || s.running(j, v) {
		return st
	}
	return TaskFinished
}

func (s *engine) setNow(t Tick) {
	if t < s.now {
		panic(fmt.Sprintf("sim: internal: clock goes back from %d to %d", s.now, t))
	}
	s.rec.advance(t)
	s.now = t
}

// doRound runs the policy once for the current timestamp.
func (s *engine) doRound() {
	slices.Sort(s.dirty)
	if s.overdue != nil {
		s.markOverdue()
	}
	s.inRound = true
	s.policy.Round(s.state, s.planner)
	s.inRound = false
	for _, o := range s.roundObs {
		o.RoundDone(s.state)
	}
	s.stats.Rounds++
	if s.chk != nil && s.err == nil {
		if err := s.chk.afterRound(); err != nil {
			s.err = err
		}
	}
	s.dirty = s.dirty[:0]
	s.newGroups = s.newGroups[:0]
	s.round++
}

// push schedules an event; one in the past is a bug.
func (s *engine) push(e event) {
	if e.at < s.now {
		panic(fmt.Sprintf("sim: internal: event at %d scheduled at %d", e.at, s.now))
	}
	s.heap.push(e)
}

// pull reads the next acceptable job from the source and schedules its
// arrival; rejected jobs are recorded and skipped.
func (s *engine) pull() error {
	for {
		job, ok := s.src.Next()
		if !ok {
			s.pend = nil
			return nil
		}
		id := s.nextID
		s.nextID++
		s.jobs = append(s.jobs, nil)
		if job.Arrival < s.lastArrival || job.Arrival < 0 {
			return fmt.Errorf("%w: job %s arrives at %d, after a job arriving at %d", ErrOrder, job.Name, job.Arrival, s.lastArrival)
		}
		s.lastArrival = job.Arrival
		p, reason := s.admit(id, job)
		if reason != "" {
			s.rejected = append(s.rejected, Rejection{Job: job.Name, Reason: reason})
			continue
		}
		s.pend = p
		s.push(mkEvent(job.Arrival, evArrival, int32(id), 0, 0))
		return nil
	}
}

// markDirty records that machine m's free capacity grew.
func (s *engine) markDirty(m MachineID) {
	if s.mach[m].stamp != s.round {
		s.mach[m].stamp = s.round
		s.dirty = append(s.dirty, m)
	}
}

// nopPolicy places nothing; Admit uses it.
type nopPolicy struct{}

func (nopPolicy) Name() string           { return "none" }
func (nopPolicy) Round(*State, *Planner) {}

// Admit checks jobs against the cluster and users of cfg before any run,
// as Run does at each arrival, and returns the rejected ones with their
// reasons (SIMULATE.md §1.4: a task no eligible machine can ever hold is
// reported with its job and demand). cfg.Policy may be nil.
func Admit(cfg Config, jobs []Job) ([]Rejection, error) {
	if cfg.Policy == nil {
		cfg.Policy = nopPolicy{}
	}
	cfg.Check = false
	s, err := newSim(cfg)
	if err != nil {
		return nil, err
	}
	var out []Rejection
	for i := range jobs {
		if _, reason := s.admit(JobID(i), jobs[i]); reason != "" {
			out = append(out, Rejection{Job: jobs[i].Name, Reason: reason})
		}
	}
	return out, nil
}
