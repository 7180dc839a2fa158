package sim

// Event kinds, in their order at equal time (SIMULATE.md §1.2): finishes
// first (a task ending at t frees its capacity before anything else
// happens at t), then grace-period kills (a no-op for a task that just
// finished), then arrivals, then timers.
const (
	evFinish uint8 = iota
	evKill
	evArrival
	evTimer
)

// event is one entry of the queue: 24 bytes, keyed (at, kind, a, b, ver).
// Finish and kill: a = job, b = task, ver = the task's version when
// scheduled (stale when it changed). Arrival: a = job ordinal. Timer:
// a = b = 0. kind, a and b (both in [0, 2³¹)) are packed into key so that
// an event compares in two integer comparisons. slot fills what would be
// padding, so an event stays 24 bytes.
type event struct {
	at   Tick
	key  uint64 // kind<<62 | a<<31 | b
	ver  uint32
	slot uint32 // finish and kill: the run's record (engine.runs); not part of the key
}

func mkEvent(at Tick, kind uint8, a, b int32, ver uint32) event {
	return event{at: at, key: uint64(kind)<<62 | uint64(a)<<31 | uint64(b), ver: ver}
}

func (x *event) kind() uint8 { return uint8(x.key >> 62) }
func (x *event) a() int32    { return int32(x.key >> 31 & (1<<31 - 1)) }
func (x *event) b() int32    { return int32(x.key & (1<<31 - 1)) }

// less orders events by (at, key, ver). Almost every comparison is
// decided by at, a well-predicted branch.
func (x *event) less(y *event) bool {
	if x.at != y.at {
		return x.at < y.at
	}
	if x.key != y.key {
		return x.key < y.key
	}
	return x.ver < y.ver
}

// eventHeap is a 4-ary min-heap (the queue's events at the current time,
// eventQueue.cur): shallower than a binary heap, and the four
// children of a node share a cache line or two, so a pop touches fewer
// lines (LaMarca & Ladner, J. Algorithms 1999). a[:n] are the events; a
// keeps its full length, so that a push or pop writes no slice header
// (see eventQueue.b).
type eventHeap struct {
	a []event
	n int
}

func (h *eventHeap) len() int { return h.n }

// min returns the least event; the heap must not be empty.
func (h *eventHeap) min() *event { return &h.a[0] }

func (h *eventHeap) push(e event) {
	if h.n == len(h.a) {
		a := make([]event, max(16, 2*h.n))
		copy(a, h.a)
		h.a = a
	}
	a := h.a[:h.n+1]
	h.n++
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) >> 2
		if !e.less(&a[p]) {
			break
		}
		a[i] = a[p]
		i = p
	}
	a[i] = e
}

// pop removes the least event. It moves the hole at the root down to a
// leaf along the least children, then sifts the last event up from there
// (Floyd's variant): the last event usually belongs near the leaves, so
// this saves a comparison per level. A node with four children picks the
// least by a tournament of two pairs.
func (h *eventHeap) pop() event {
	n := h.n - 1
	a := h.a[:n+1]
	top := a[0]
	last := a[n]
	a = a[:n]
	h.n = n
	if n == 0 {
		return top
	}
	i := 0
	for 4*i+5 <= n {
		q := (*[4]event)(a[4*i+1:])
		b0, b1 := 0, 2
		if q[1].less(&q[0]) {
			b0 = 1
		}
		if q[3].less(&q[2]) {
			b1 = 3
		}
		if q[b1].less(&q[b0]) {
			b0 = b1
		}
		a[i] = q[b0]
		i = 4*i + 1 + b0
	}
	if c := 4*i + 1; c < n { // fewer than four children, all leaves
		best := c
		for k := c + 1; k < n; k++ {
			if a[k].less(&a[best]) {
				best = k
			}
		}
		a[i] = a[best]
		i = best
	}
	for i > 0 {
		p := (i - 1) >> 2
		if !last.less(&a[p]) {
			break
		}
		a[i] = a[p]
		i = p
	}
	a[i] = last
	return top
}
