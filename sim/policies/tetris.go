package policies

import (
	"math"
	"slices"

	"github.com/capplan/capplan/sim"
)

// TetrisParams are the parameters of tetris and tetrisfair.
type TetrisParams struct {
	// F is the fairness knob f ∈ [0, 1]: only the ⌈(1−f)|J|⌉ jobs furthest
	// below their fair share are considered first (0: efficiency first;
	// tetrisfair uses 1).
	F float64
	// M is the SRTF blend multiplier m: ε = m·mean(align)/mean(work)
	// (Graphene's tuned 0.2, §7.4).
	M     float64
	Intra sim.Intra
	K     int
}

func (p *TetrisParams) bind(b *binder) {
	b.number("f", &p.F, 0, 1, "fairness knob: consider the ⌈(1−f)·jobs⌉ jobs furthest below their share first")
	b.number("m", &p.M, 0, math.MaxFloat64, "SRTF blend: ε = m·mean(alignment)/mean(work)")
	b.intra(&p.Intra)
	b.countOrAll("k", &p.K, "FirstFit hits per new group taken as candidate machines")
}

// tetris is multi-resource packing with an SRTF blend and a fairness knob
// [RECALLED: Grandl et al., SIGCOMM'14, via ALGORITHMS.md §4.3; endpoints
// SEED carbyne §5.1, §5.6] (SIMULATE.md §3.2). For each candidate machine
// m (the machines freed since the last Round, plus FirstFit hits of the
// groups that became runnable), repeatedly place the fitting group head t
// that maximises align(t, m) − ε·work(job t), among the jobs furthest below
// their fair share (deficit_j = w_j/Σw − Dom(U_j)) first and among all jobs
// when none of theirs fits. Finally every group that still fits somewhere
// gets its FirstFit machine as a further candidate, so the policy is
// work-conserving.
type tetris struct {
	name  string
	p     TetrisParams
	cands []sim.MachineID
	seen  map[sim.MachineID]bool
	jobs  []tJob
	heads []tHead
	sumW  float64 // Σ weights of the runnable jobs
}

type tJob struct {
	id      sim.JobID
	work    float64
	deficit float64
	front   bool // in Jf
}

type tHead struct {
	g     sim.GroupRef
	job   int // index in jobs
	t     sim.TaskRef
	fits  bool // t fits the machine being filled
	align float64
}

func init() {
	def := TetrisParams{F: 0, M: 0.2, K: DefaultK}
	register(typed("tetris", "packing by alignment minus ε·remaining work (Tetris), fairness knob f (default 0)",
		def, (*TetrisParams).bind, func(p TetrisParams) sim.Policy { return newTetris("tetris", p) }))
	fair := def
	fair.F = 1
	register(typed("tetrisfair", "tetris with fairness knob f = 1: the job furthest below its share first",
		fair, (*TetrisParams).bind, func(p TetrisParams) sim.Policy { return newTetris("tetrisfair", p) }))
}

func newTetris(name string, p TetrisParams) *tetris {
	return &tetris{name: name, p: p, seen: map[sim.MachineID]bool{}}
}

func (t *tetris) Name() string { return t.name }

func (t *tetris) Traits() sim.Traits { return sim.Traits{Intra: t.p.Intra, WorkConserving: true} }

func (t *tetris) Round(s *sim.State, p *sim.Planner) {
	if len(s.RunnableJobs()) == 0 {
		return
	}
	t.collect(s)
	t.cands = append(t.cands[:0], s.Dirty()...)
	clear(t.seen)
	for _, m := range t.cands {
		t.seen[m] = true
	}
	for _, g := range s.NewRunnable() {
		if !s.IsActive(g.Job) || s.Group(g).Len() == 0 {
			continue
		}
		n := 0
		s.ForEachFit(s.Group(g).Head(), func(m sim.MachineID) bool {
			if !t.seen[m] {
				t.seen[m] = true
				t.cands = append(t.cands, m)
			}
			n++
			return t.p.K == 0 || n < t.p.K
		})
	}
	slices.Sort(t.cands)
	for _, m := range t.cands {
		t.fillMachine(s, p, m)
	}
	// Work conservation: a head that still fits somewhere brings its
	// FirstFit machine as a candidate; a head that fits nowhere is blocked.
	for {
		progress := false
		for _, h := range t.heads {
			if !t.live(s, h) {
				continue
			}
			m := s.FirstFit(s.Group(h.g).Head())
			if m == sim.NoMachine {
				p.Block(h.g)
				continue
			}
			t.fillMachine(s, p, m)
			progress = true
		}
		if !progress {
			return
		}
	}
}

// collect lists the runnable jobs with their work and deficit, marks the
// fairness front Jf, and lists the group heads.
func (t *tetris) collect(s *sim.State) {
	t.jobs, t.heads = t.jobs[:0], t.heads[:0]
	t.sumW = 0
	for _, j := range s.RunnableJobs() {
		t.sumW += float64(s.Job(j).Weight())
	}
	for _, j := range s.RunnableJobs() {
		jv := s.Job(j)
		t.jobs = append(t.jobs, tJob{id: j, work: jv.Work(), deficit: float64(jv.Weight())/t.sumW - s.Dom(jv.Usage())})
		for _, si := range jv.Groups() {
			g := sim.GroupRef{Job: j, Stage: si}
			t.heads = append(t.heads, tHead{g: g, job: len(t.jobs) - 1})
		}
	}
	t.front()
}

// front marks the top max(1, ⌈(1−f)|J|⌉) jobs by (deficit desc, ordinal).
func (t *tetris) front() {
	n := len(t.jobs)
	k := max(1, int(math.Ceil((1-t.p.F)*float64(n)-1e-9)))
	if k >= n {
		for i := range t.jobs {
			t.jobs[i].front = true
		}
		return
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
		t.jobs[i].front = false
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		da, db := t.jobs[a].deficit, t.jobs[b].deficit
		switch {
		case da > db:
			return -1
		case da < db:
			return 1
		}
		return int(t.jobs[a].id) - int(t.jobs[b].id)
	})
	for _, i := range idx[:k] {
		t.jobs[i].front = true
	}
}

// live reports whether a head's group still has unblocked runnable tasks.
func (t *tetris) live(s *sim.State, h tHead) bool {
	return s.IsActive(h.g.Job) && !s.Blocked(h.g) && s.Group(h.g).Len() > 0
}

// fillMachine places best-scoring fitting heads on m until none fits.
func (t *tetris) fillMachine(s *sim.State, p *sim.Planner, m sim.MachineID) {
	mv := s.Machine(m)
	for {
		var meanWork float64
		for i := range t.jobs {
			meanWork += t.jobs[i].work
		}
		meanWork /= float64(len(t.jobs))
		best, found := -1, false
		var bestScore float64
		for pass := 0; pass < 2 && !found; pass++ {
			// pass 0: heads of Jf; pass 1: heads of all jobs
			var sumAlign float64
			n := 0
			for i := range t.heads {
				h := &t.heads[i]
				h.fits = false
				if !t.live(s, *h) || (pass == 0 && !t.jobs[h.job].front) {
					continue
				}
				head := s.Group(h.g).Head()
				if !s.Fits(head, m) {
					continue
				}
				h.t, h.fits = head, true
				h.align = Align(s.Task(head).Demand(), mv.Free(), mv.Cap())
				sumAlign += h.align
				n++
			}
			if n == 0 {
				continue
			}
			eps := 0.0
			if meanWork > 0 {
				eps = t.p.M * (sumAlign / float64(n)) / meanWork
			}
			for i := range t.heads {
				h := &t.heads[i]
				if !h.fits {
					continue
				}
				score := h.align - float64(eps*t.jobs[h.job].work)
				if !found || score > bestScore || score == bestScore && t.better(*h, t.heads[best]) {
					best, bestScore, found = i, score, true
				}
			}
		}
		if !found {
			return
		}
		h := t.heads[best]
		if p.Place(h.t, m) != nil {
			p.Block(h.g)
			continue
		}
		jv := s.Job(h.g.Job) // placing never finishes a job
		t.jobs[h.job].work = jv.Work()
		t.jobs[h.job].deficit = float64(jv.Weight())/t.sumW - s.Dom(jv.Usage())
		if t.p.F > 0 {
			t.front()
		}
	}
}

// better breaks score ties: lower ordinal, stage, task.
func (t *tetris) better(a, b tHead) bool {
	if a.g.Job != b.g.Job {
		return a.g.Job < b.g.Job
	}
	if a.g.Stage != b.g.Stage {
		return a.g.Stage < b.g.Stage
	}
	return a.t.Task < b.t.Task
}
