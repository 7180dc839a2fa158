package dag

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// Justify applies forward–backward improvement, also called double
// justification (Valls, Ballestín & Quintanilla, EJOR 2005; Tormos & Lova
// 2001; ALGORITHMS §6.4), to a feasible schedule s and returns the
// improved, normalised schedule (s is not modified):
//
//  1. Right justification: take tasks by decreasing end (ties: decreasing
//     start, then reverse topological order) and place each as late as
//     possible, ending by the earliest start of its (already moved)
//     successors and by the makespan T: a backward serial SGS.
//  2. Left justification: take tasks by increasing start in that schedule
//     and place each as early as possible after its predecessors: a
//     forward serial SGS.
//  3. Repeat while the makespan strictly decreases.
//
// Every task keeps its machine, which makes each pass monotone: a task
// always fits where it was, since the tasks placed before it on its
// machine only moved away from it in time. So the makespan never
// increases. A final pass letting tasks change machine is kept only if
// it shortens the schedule. Each round costs two serial SGS passes.
func Justify(d *DAG, machines [][]float64, s *Schedule) *Schedule {
	j, _ := justify(d, machines, s, true)
	return j
}

// justify runs the fixed-machine rounds, then optionally one free round;
// it returns the schedule and the work spent (see DefaultMaxWork).
func justify(d *DAG, machines [][]float64, s *Schedule, free bool) (*Schedule, int64) {
	j, w := newJustifier(d, machines).run(s, free)
	return j.Clone(), w
}

// justifier holds the buffers of forward–backward improvement: two
// spaces, the stage times, the task list and three schedules. A worker
// that justifies many schedules (a genetic-algorithm island) keeps one,
// so that a round allocates nothing.
type justifier struct {
	d         *DAG
	machines  [][]float64
	back, fwd *Space
	st        *stageTimes
	list      []int
	keys      []uint64 // sortTasks' scratch
	// r is a round's right-justified schedule; cur and next hold the
	// schedule before and after a round; sgs is the genetic algorithm's
	// decoded schedule (decode), the input of run.
	r, cur, next, sgs *Schedule
}

func newJustifier(d *DAG, machines [][]float64) *justifier {
	n := d.N()
	return &justifier{d: d, machines: machines, back: NewSpace(machines), fwd: NewSpace(machines),
		st: newStageTimes(len(d.Stages)), list: make([]int, n),
		r: NewSchedule(n), cur: NewSchedule(n), next: NewSchedule(n), sgs: NewSchedule(n)}
}

// run justifies s (not modified): rounds keeping machines while the
// makespan strictly decreases, then, when free and there are several
// machines, one round letting tasks change machine, kept (and followed by
// fixed-machine rounds) only if it shortens the schedule. The schedule
// returned is the justifier's own, valid until its next use; run also
// returns the work spent.
func (j *justifier) run(s *Schedule, free bool) (*Schedule, int64) {
	cur, next := j.cur, j.next
	copy(cur.Start, s.Start)
	copy(cur.End, s.End)
	copy(cur.Machine, s.Machine)
	cur.Normalize()
	ms := cur.Makespan()
	var work int64
	for {
		for {
			w, nms := j.round(cur, ms, cur.Machine, next)
			work += w
			better := nms < ms
			cur, next, ms = next, cur, nms
			if !better {
				break
			}
		}
		if !free || len(j.machines) <= 1 {
			break
		}
		free = false
		w, nms := j.round(cur, ms, nil, next)
		work += w
		if nms >= ms {
			break
		}
		cur, next, ms = next, cur, nms
	}
	j.cur, j.next = cur, next
	return cur, work
}

// round is one right-then-left pass from s, of makespan ms, into out
// (distinct from s and from j.r); fixed (or nil) pins machines. It returns
// the work of its two passes and out's makespan.
func (j *justifier) round(s *Schedule, ms int64, fixed []int, out *Schedule) (int64, int64) {
	d := j.d
	list := j.list
	for i := range list {
		list[i] = i
	}
	j.keys = sortTasks(d, list, s.End, s.Start, true, j.keys)
	r := j.r
	j.back.reset()
	serialListWith(d, j.back, list, fixed, backward, ms, r, j.st)
	j.keys = sortTasks(d, list, r.Start, r.End, false, j.keys)
	if fixed != nil {
		fixed = r.Machine
	}
	j.fwd.reset()
	serialListWith(d, j.fwd, list, fixed, forward, 0, out, j.st)
	out.Normalize()
	return j.back.work + j.fwd.work + 2*d.passWork(), out.Makespan()
}

// sortByStart sorts list by start, end, then topological order in s.
func sortByStart(d *DAG, list []int, s *Schedule) {
	sortTasks(d, list, s.Start, s.End, false, nil)
}

// sortTasks sorts list by a, then b, then topological rank, all ascending,
// or all descending when desc, and returns its scratch buffer for reuse.
// The three keys are packed into one integer when they fit (times within
// 2^21 of each other on a DAG of up to 2^20 tasks: every normalised
// schedule of a PSPLIB-sized project), which sorts several times faster
// than comparing; otherwise it compares. The order is the same, as no two
// tasks share a rank.
func sortTasks(d *DAG, list []int, a, b []int64, desc bool, buf []uint64) []uint64 {
	if len(list) < 2 {
		return buf
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, v := range list {
		lo, hi = min(lo, a[v], b[v]), max(hi, a[v], b[v])
	}
	rb, tb := bits.Len(uint(len(d.rank))), bits.Len64(uint64(hi)-uint64(lo))
	if 2*tb+rb > 63 { // also when hi − lo overflows: tb is 64 then
		sg := 1
		if desc {
			sg = -1
		}
		slices.SortFunc(list, func(x, y int) int {
			if c := cmp.Compare(a[x], a[y]); c != 0 {
				return sg * c
			}
			if c := cmp.Compare(b[x], b[y]); c != 0 {
				return sg * c
			}
			return sg * (d.rank[x] - d.rank[y])
		})
		return buf
	}
	keys := buf[:0]
	for _, v := range list {
		k := uint64(a[v]-lo)<<(tb+rb) | uint64(b[v]-lo)<<rb | uint64(d.rank[v])
		if desc {
			k = ^k
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	mask := uint64(1)<<rb - 1
	for i, k := range keys {
		if desc {
			k = ^k
		}
		list[i] = d.topo[k&mask]
	}
	return keys
}
