package policies

import (
	"math"

	"github.com/capplan/capplan/sim"
)

// The reverse pack of stagePack: the remaining DAG with its edges reversed,
// list-scheduled from ρ = 0 on the pool minus the running tasks' demand for
// ρ ∈ [H − rem̂, H); its blocks give the latest starts.

// reverse returns the span R of the reverse pack of the pending tasks and
// records its blocks.
func (pk *stagePack) reverse() sim.Tick {
	pk.free = append(pk.free[:0], pk.A...)
	pk.ev = pk.ev[:0]
	pk.blocks = pk.blocks[:0]
	pk.resv = pk.resv[:0]
	for s := range pk.st {
		st := &pk.st[s]
		pk.left[s], pk.run[s], pk.fin[s], pk.done[s] = st.pend, 0, 0, false
		st.rplac = 0
		// in reverse a stage waits for its children that still have
		// pending tasks; the others impose nothing from now on
		pk.bLeft[s] = 0
		for _, c := range st.bChild {
			if pk.st[c].pend > 0 {
				pk.bLeft[s]++
			}
		}
		if st.runN > 0 {
			pk.resv = append(pk.resv, packResv{from: max(0, pk.H-st.runEnd), r: st.r, n: st.runN})
		}
	}
	// stages without pending tasks are done at once in reverse (their
	// parents do not count them in bLeft)
	pk.work, pk.ready = pk.work[:0], pk.ready[:0]
	for s := range pk.st {
		if pk.left[s] == 0 {
			pk.done[s] = true
		} else if pk.bLeft[s] == 0 {
			pk.ready = append(pk.ready, int32(s))
		}
	}
	var rho, R sim.Tick
	for {
		pk.activate(rho)
		pk.startReverse(rho)
		pk.jumpReverse(rho)
		next, ok := pk.nextReverse(rho)
		if !ok {
			break
		}
		rho = next
		for len(pk.ev) > 0 && pk.ev[0].at == rho {
			e := pk.ev.pop()
			pk.give(pk.st[e.s].r, e.n)
			pk.run[e.s] -= e.n
			pk.fin[e.s] += e.n
			pk.work = append(pk.work, e.s)
			R = max(R, rho)
		}
		if rho == pk.H { // the running tasks' reservations end
			for i := range pk.resv {
				if pk.resv[i].on {
					pk.give(pk.resv[i].r, pk.resv[i].n)
					pk.resv[i].on = false
					pk.resv[i].from = math.MaxInt64
				}
			}
		}
		pk.settle(true)
	}
	return R
}

// activate takes the reservations starting at or before rho from the pool.
func (pk *stagePack) activate(rho sim.Tick) {
	for i := range pk.resv {
		v := &pk.resv[i]
		if !v.on && v.from <= rho && rho < pk.H {
			pk.take(v.r, v.n)
			v.on = true
		}
	}
}

// nextReverse returns the next time something changes in the reverse
// pack: a block ends, a reservation starts or the reservations end.
func (pk *stagePack) nextReverse(rho sim.Tick) (sim.Tick, bool) {
	next, ok := sim.Tick(math.MaxInt64), false
	if len(pk.ev) > 0 {
		next, ok = pk.ev[0].at, true
	}
	pending := false
	for s := range pk.st {
		if pk.left[s] > 0 {
			pending = true
			break
		}
	}
	if !pending {
		return next, ok
	}
	for _, v := range pk.resv {
		if !v.on && v.from > rho && v.from < next {
			next, ok = v.from, true
		}
		if v.on && pk.H > rho && pk.H < next {
			next, ok = pk.H, true
		}
	}
	return next, ok
}

// rStartable is startable for the reverse pack: barrier children done;
// with one-to-one children, counted in order over the pending tasks.
func (pk *stagePack) rStartable(s int) int64 {
	st := &pk.st[s]
	if pk.bLeft[s] > 0 || pk.left[s] == 0 {
		return 0
	}
	k := pk.left[s]
	for _, c := range st.oChild {
		cs := &pk.st[c]
		if cs.pend == 0 {
			continue
		}
		// the first pend_c − pend_s pending child tasks have parents
		// that already started
		k = min(k, pk.fin[c]-(cs.pend-st.pend)-st.rplac)
	}
	return max(0, k)
}

// startReverse starts reverse blocks at rho while some ready stage fits
// beside the reservations that begin before the block would end.
func (pk *stagePack) startReverse(rho sim.Tick) {
	for {
		s, k := pk.pick(rho, true)
		if s < 0 {
			break
		}
		pk.startReverseBlock(s, k, rho)
	}
	if len(pk.ev) > 0 {
		return
	}
	if _, later := pk.nextReverse(rho); later {
		return // a reservation change comes first
	}
	if s := pk.pickIdle(true); s >= 0 { // idle pool: an oversized task runs alone
		pk.startReverseBlock(s, 1, rho)
	}
}

// startReverseBlock starts k tasks of stage s at rho in the reverse pack
// and records the block.
func (pk *stagePack) startReverseBlock(s int, k int64, rho sim.Tick) {
	pk.launch(s, k, rho).rplac += k
	pk.blocks = append(pk.blocks, packBlock{int32(s), rho, k, 1})
}

// pruneReady drops the stages with no pending task left from the ready
// list.
func (pk *stagePack) pruneReady() {
	k := 0
	for _, s := range pk.ready {
		if pk.left[s] > 0 {
			pk.ready[k] = s
			k++
		}
	}
	pk.ready = pk.ready[:k]
}

// fitBeside returns how many tasks of stage s fit at rho for its whole
// duration, beside the reservations starting before it would end.
func (pk *stagePack) fitBeside(s int, rho sim.Tick) int64 {
	st := &pk.st[s]
	end := rho + st.dur
	need := false
	for _, v := range pk.resv {
		if !v.on && v.from < end && v.from < pk.H {
			need = true
			break
		}
	}
	if !need {
		return fitCount(st.r, pk.free)
	}
	D := len(pk.free)
	var buf [8]int64
	f := buf[:0]
	if D > len(buf) {
		f = make([]int64, 0, D)
	}
	f = append(f, pk.free...)
	for _, v := range pk.resv {
		if !v.on && v.from < end && v.from < pk.H {
			for d, x := range v.r {
				f[d] -= v.n * x
			}
		}
	}
	return fitCount(st.r, f)
}

// jumpReverse is jumpForward for the reverse pack, for the block just
// started at rho, up to the next change of the reservations.
func (pk *stagePack) jumpReverse(rho sim.Tick) {
	s := pk.lone(true)
	if s < 0 || len(pk.blocks) == 0 {
		return
	}
	b := &pk.blocks[len(pk.blocks)-1]
	st := &pk.st[s]
	e := &pk.ev[0]
	if b.s != s || b.rho != rho || b.waves != 1 || e.at != rho+st.dur {
		return
	}
	m := pk.left[s] / e.n
	limit := sim.Tick(math.MaxInt64)
	for _, v := range pk.resv {
		if !v.on && v.from > rho && v.from < pk.H {
			limit = min(limit, v.from)
		}
		if v.on {
			limit = min(limit, pk.H)
		}
	}
	if limit < math.MaxInt64 { // every further wave must end by the change
		m = min(m, int64((limit-rho)/st.dur)-1)
	}
	if m <= 0 {
		return
	}
	b.waves += m
	e.at += sim.Tick(m) * st.dur
	pk.left[s] -= m * e.n
	st.rplac += m * e.n
}
