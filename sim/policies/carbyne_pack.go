package policies

import (
	"math"

	"github.com/capplan/capplan/sim"
)

// stagePack is Carbyne's intra-job step on one job's remaining DAG
// (Pseudocode 1 lines 16–24; ALGORITHMS.md §4.2; SIMULATE.md §3.3 step
// 2), in stage waves: the tasks of a stage are interchangeable, so a pack
// starts as many of a ready stage's tasks as fit in one block that ends
// after the stage's duration, and costs O(blocks·S·D) instead of
// O(tasks·log tasks).
//
//   - Forward pack: list-schedule the remaining DAG alone on a pool of
//     capacity A from time 0 (= now). Running tasks hold their demand
//     until their mean estimated end; pending tasks start greedily, the
//     ready stage of best alignment Σ_r (r_r/A_r)(free_r/A_r) first
//     (Tetris). A stage whose task exceeds A runs one task at a time on an
//     otherwise idle pool (its pool is max(A, r̂)). H is the span.
//   - Reverse pack: reverse the edges and list-schedule the pending tasks
//     from ρ = 0 on A, minus the running tasks' demand for
//     ρ ∈ [H − rem̂, H). R is the span.
//   - Latest start: LS = now + min(H, R) − ρ − d̂; a block whose reverse end
//     ρ + d̂ reaches the anchor min(H, R) must start now. The anchor makes
//     at least one task start now, so the deadline cannot drift
//     [DERIVED, SIMULATE.md §3.3].
//
// Stage waves are [DERIVED]: a stage's pending tasks take the mean of
// their estimates and its running tasks end together at their mean
// estimated end. Both make H and R optimistic (a stage with unequal tasks
// ends later than its mean), so the deadline is, if anything, early and
// the job less altruistic than the exact pack would make it: the error
// never delays the job's own completion. One-to-one edges are counted
// (child task i after parent task i, in order); jobs with explicit task
// edges are not packed (they are never altruistic).
type stagePack struct {
	st []packStage
	A  sim.Vec

	free  []int64
	left  []int64 // pending tasks not yet placed in this pack
	run   []int64 // tasks running in this pack
	fin   []int64 // tasks finished (before now, or in this pack)
	bLeft []int32 // barrier parents (children, reversed) not yet done
	done  []bool
	ev    packHeap
	work  []int32 // stages to re-examine in settle
	ready []int32 // stages whose (reverse) barrier dependencies are done and that have pending tasks
	// reverse-pack blocks: stage, reverse start, count
	blocks []packBlock
	resv   []packResv

	H, R, Anchor sim.Tick
}

// packStage is one stage's state at now, the input of a pack.
type packStage struct {
	r              sim.Vec  // demand of one task
	dur            sim.Tick // estimate of a pending task (mean, ≥ 1)
	pend           int64    // tasks not started (runnable or waiting)
	runN           int64    // running tasks
	runEnd         sim.Tick // their mean estimated remaining time (≥ 1)
	fin            int64    // finished tasks
	total          int64
	bPar, bChild   []int32
	oPar, oChild   []int32
	started, rplac int64 // scratch
}

// packBlock is n tasks of stage s started in reverse at rho, repeated in
// waves back to back (wave i at rho + i·dur).
type packBlock struct {
	s     int32
	rho   sim.Tick
	n     int64
	waves int64
}

type packResv struct {
	from sim.Tick
	r    sim.Vec
	n    int64
	on   bool
}

type packEv struct {
	at sim.Tick
	s  int32
	n  int64
}

// packHeap is a binary min-heap of block ends, by (at, s).
type packHeap []packEv

func (h *packHeap) push(e packEv) {
	*h = append(*h, e)
	a := *h
	for i := len(a) - 1; i > 0; {
		q := (i - 1) / 2
		if !evLess(a[i], a[q]) {
			break
		}
		a[i], a[q] = a[q], a[i]
		i = q
	}
}

func (h *packHeap) pop() packEv {
	a := *h
	top := a[0]
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	for i := 0; ; {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && evLess(a[c+1], a[c]) {
			c++
		}
		if !evLess(a[c], a[i]) {
			break
		}
		a[i], a[c] = a[c], a[i]
		i = c
	}
	*h = a
	return top
}

func evLess(a, b packEv) bool { return a.at < b.at || a.at == b.at && a.s < b.s }

// reset sizes the scratch space for S stages.
func (pk *stagePack) reset(S int) {
	grow := func(a []int64) []int64 {
		if cap(a) < S {
			return make([]int64, S)
		}
		return a[:S]
	}
	pk.left, pk.run, pk.fin, pk.free = grow(pk.left), grow(pk.run), grow(pk.fin), pk.free[:0]
	if cap(pk.bLeft) < S {
		pk.bLeft, pk.done = make([]int32, S), make([]bool, S)
	}
	pk.bLeft, pk.done = pk.bLeft[:S], pk.done[:S]
	if cap(pk.st) < S {
		pk.st = append(pk.st[:cap(pk.st)], make([]packStage, S-cap(pk.st))...)
	}
	pk.st = pk.st[:S]
}

// pack packs forward and in reverse on pool A, setting H, R, Anchor and the
// reverse blocks.
func (pk *stagePack) pack(A sim.Vec) {
	pk.A = A
	pk.H = pk.forward()
	pk.R = pk.reverse()
	pk.Anchor = min(pk.H, pk.R)
}

// fitCount returns how many tasks of demand r fit in free (math.MaxInt64
// when r is zero).
func fitCount(r sim.Vec, free []int64) int64 {
	k := int64(math.MaxInt64)
	for d, x := range r {
		if x <= 0 {
			continue
		}
		if free[d] < x {
			return 0
		}
		k = min(k, free[d]/x)
	}
	return k
}

// poolAlign is the alignment of demand r with the pool's free capacity,
// Σ_d (r_d/A_d)(free_d/A_d), skipping dimensions the pool lacks.
func poolAlign(r sim.Vec, free []int64, A sim.Vec) float64 {
	var a float64
	for d, x := range r {
		if A[d] <= 0 {
			continue
		}
		c := float64(A[d])
		a += float64(float64(x)/c) * float64(free[d]) / c
	}
	return a
}

func (pk *stagePack) take(r sim.Vec, n int64) {
	for d, x := range r {
		pk.free[d] -= n * x
	}
}

func (pk *stagePack) give(r sim.Vec, n int64) {
	for d, x := range r {
		pk.free[d] += n * x
	}
}

// forward returns the span H of the forward pack.
func (pk *stagePack) forward() sim.Tick {
	pk.free = append(pk.free[:0], pk.A...)
	pk.ev = pk.ev[:0]
	for s := range pk.st {
		st := &pk.st[s]
		pk.left[s], pk.run[s], pk.fin[s], pk.done[s] = st.pend, st.runN, st.fin, false
		st.started = st.total - st.pend
		pk.bLeft[s] = int32(len(st.bPar))
		if st.runN > 0 {
			pk.take(st.r, st.runN)
			pk.ev.push(packEv{st.runEnd, int32(s), st.runN})
		}
	}
	var t, H sim.Tick
	pk.work, pk.ready = pk.work[:0], pk.ready[:0]
	for s := len(pk.st) - 1; s >= 0; s-- {
		pk.work = append(pk.work, int32(s))
		if pk.bLeft[s] == 0 && pk.left[s] > 0 {
			pk.ready = append(pk.ready, int32(s))
		}
	}
	pk.settle(false)
	for {
		pk.startForward(t)
		pk.jumpForward()
		if len(pk.ev) == 0 {
			break
		}
		t = pk.ev[0].at
		for len(pk.ev) > 0 && pk.ev[0].at == t {
			e := pk.ev.pop()
			pk.give(pk.st[e.s].r, e.n)
			pk.run[e.s] -= e.n
			pk.fin[e.s] += e.n
			pk.work = append(pk.work, e.s)
			pk.work = append(pk.work, pk.st[e.s].oChild...) // one-to-one children may start
		}
		H = t
		pk.settle(false)
	}
	return H
}

// settle marks done the stages of the work list (and, transitively,
// their dependents) that have nothing left and whose parents (in the
// reverse pack: children) are done, releasing their dependents.
func (pk *stagePack) settle(reverse bool) {
	for len(pk.work) > 0 {
		s := pk.work[len(pk.work)-1]
		pk.work = pk.work[:len(pk.work)-1]
		if pk.done[s] || pk.left[s] > 0 || pk.run[s] > 0 || pk.bLeft[s] > 0 || !pk.oReady(int(s), reverse) {
			continue
		}
		pk.done[s] = true
		st := &pk.st[s]
		next, onext := st.bChild, st.oChild
		if reverse {
			next, onext = st.bPar, st.oPar
		}
		for _, c := range next {
			if pk.bLeft[c]--; pk.bLeft[c] == 0 && pk.left[c] > 0 {
				pk.ready = append(pk.ready, c)
			}
			pk.work = append(pk.work, c)
		}
		pk.work = append(pk.work, onext...)
	}
}

// oReady reports whether s's one-to-one parents (children, reversed) are
// done.
func (pk *stagePack) oReady(s int, reverse bool) bool {
	deps := pk.st[s].oPar
	if reverse {
		deps = pk.st[s].oChild
	}
	for _, p := range deps {
		if !pk.done[p] {
			return false
		}
	}
	return true
}

// startable returns how many of stage s's pending tasks may start: none
// before its barrier parents are done; with one-to-one parents, task i
// after parent task i (counting tasks in order).
func (pk *stagePack) startable(s int) int64 {
	st := &pk.st[s]
	if pk.bLeft[s] > 0 || pk.left[s] == 0 {
		return 0
	}
	k := pk.left[s]
	for _, p := range st.oPar {
		k = min(k, pk.fin[p]-st.started)
	}
	return max(0, k)
}

// startForward starts blocks at time t while some ready stage fits, the
// best-aligned first (ties: lower stage); a stage too big for the pool
// runs alone.
func (pk *stagePack) startForward(t sim.Tick) {
	for {
		s, k := pk.pick(t, false)
		if s < 0 {
			break
		}
		pk.startBlock(s, k, t)
	}
	if len(pk.ev) > 0 {
		return
	}
	if s := pk.pickIdle(false); s >= 0 {
		pk.startBlock(s, 1, t)
	}
}

// pick returns the ready stage to start next at time t of the forward
// pack, or at ρ = t of the reverse one, and how many of its tasks: of the
// stages with tasks that may start and fit (in reverse, beside the
// reservations that begin before the block would end), the best aligned
// with the free pool (ties: the lower stage); −1 when none.
func (pk *stagePack) pick(t sim.Tick, reverse bool) (int, int64) {
	best, bestK := -1, int64(0)
	var bestA float64
	pk.pruneReady()
	for _, s32 := range pk.ready {
		s := int(s32)
		k := pk.startableIn(s, reverse)
		if k == 0 {
			continue
		}
		if reverse {
			k = min(k, pk.fitBeside(s, t))
		} else {
			k = min(k, fitCount(pk.st[s].r, pk.free))
		}
		if k == 0 {
			continue
		}
		if a := poolAlign(pk.st[s].r, pk.free, pk.A); best < 0 || a > bestA || a == bestA && s < best {
			best, bestK, bestA = s, k, a
		}
	}
	return best, bestK
}

// pickIdle returns the lowest ready stage with a task that may start, or
// −1: on an otherwise idle pool a task too big for it runs alone.
func (pk *stagePack) pickIdle(reverse bool) int {
	best := -1
	for _, s := range pk.ready {
		if pk.startableIn(int(s), reverse) > 0 && (best < 0 || int(s) < best) {
			best = int(s)
		}
	}
	return best
}

// startableIn is startable in the forward pack and rStartable in the
// reverse one.
func (pk *stagePack) startableIn(s int, reverse bool) int64 {
	if reverse {
		return pk.rStartable(s)
	}
	return pk.startable(s)
}

// startBlock starts k tasks of stage s at t in the forward pack.
func (pk *stagePack) startBlock(s int, k int64, t sim.Tick) {
	pk.launch(s, k, t).started += k
}

// launch takes the room of k tasks of stage s, moves them from pending to
// running and schedules their end at t + the stage's duration; it
// returns the stage for the caller's own count (forward or reverse).
func (pk *stagePack) launch(s int, k int64, t sim.Tick) *packStage {
	st := &pk.st[s]
	pk.take(st.r, k)
	pk.left[s] -= k
	pk.run[s] += k
	pk.ev.push(packEv{t + st.dur, int32(s), k})
	return st
}

func ceilDiv(a, b sim.Tick) sim.Tick {
	if a <= 0 {
		return a / b
	}
	return (a + b - 1) / b
}

// lone returns the stage of the only running block of the forward or
// reverse pack when it can repeat in identical waves: no other ready
// stage may start, and the stage has no one-to-one links (whose counts
// change wave by wave); −1 otherwise. Each wave end then frees exactly
// what the next wave of the same size takes.
func (pk *stagePack) lone(reverse bool) int32 {
	if len(pk.ev) != 1 {
		return -1
	}
	e := pk.ev[0]
	st := &pk.st[e.s]
	if len(st.oPar) > 0 || len(st.oChild) > 0 || pk.left[e.s] < e.n {
		return -1
	}
	for _, q := range pk.ready {
		if q != e.s && pk.left[q] > 0 && pk.startableIn(int(q), reverse) > 0 {
			return -1
		}
	}
	return e.s
}

// jumpForward skips the identical waves of a lone block in O(1): the
// pack's stage waves make long single-stage stretches cost one step.
func (pk *stagePack) jumpForward() {
	s := pk.lone(false)
	if s < 0 {
		return
	}
	e := &pk.ev[0]
	st := &pk.st[s]
	m := pk.left[s] / e.n
	e.at += sim.Tick(m) * st.dur
	pk.left[s] -= m * e.n
	st.started += m * e.n
	pk.fin[s] += m * e.n
}
