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
// an event compares in two integer comparisons.
type event struct {
	at  Tick
	key uint64 // kind<<62 | a<<31 | b
	ver uint32
}

func mkEvent(at Tick, kind uint8, a, b int32, ver uint32) event {
	return event{at: at, key: uint64(kind)<<62 | uint64(a)<<31 | uint64(b), ver: ver}
}

func (x *event) kind() uint8 { return uint8(x.key >> 62) }
func (x *event) a() int32    { return int32(x.key >> 31 & (1<<31 - 1)) }
func (x *event) b() int32    { return int32(x.key & (1<<31 - 1)) }

func (x *event) less(y *event) bool {
	if x.at != y.at {
		return x.at < y.at
	}
	if x.key != y.key {
		return x.key < y.key
	}
	return x.ver < y.ver
}

// eventHeap is a 4-ary min-heap: shallower than a binary heap, and the four
// children of a node share a cache line or two, so a pop touches fewer
// lines (LaMarca & Ladner, J. Algorithms 1999).
type eventHeap struct{ a []event }

func (h *eventHeap) len() int { return len(h.a) }

// min returns the least event; the heap must not be empty.
func (h *eventHeap) min() *event { return &h.a[0] }

func (h *eventHeap) push(e event) {
	h.a = append(h.a, e)
	i := len(h.a) - 1
	for i > 0 {
		p := (i - 1) >> 2
		if !e.less(&h.a[p]) {
			break
		}
		h.a[i] = h.a[p]
		i = p
	}
	h.a[i] = e
}

// pop removes the least event. It moves the hole at the root down to a
// leaf along the least children, then sifts the last event up from there
// (Floyd's variant): the last event usually belongs near the leaves, so
// this saves a comparison per level.
func (h *eventHeap) pop() event {
	top := h.a[0]
	n := len(h.a) - 1
	last := h.a[n]
	h.a = h.a[:n]
	if n == 0 {
		return top
	}
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		best := c
		end := min(c+4, n)
		for k := c + 1; k < end; k++ {
			if h.a[k].less(&h.a[best]) {
				best = k
			}
		}
		h.a[i] = h.a[best]
		i = best
	}
	for i > 0 {
		p := (i - 1) >> 2
		if !last.less(&h.a[p]) {
			break
		}
		h.a[i] = h.a[p]
		i = p
	}
	h.a[i] = last
	return top
}
