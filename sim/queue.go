package sim

import "math/bits"

// eventQueue is the simulator's event queue: a radix heap over event
// times (Ahuja, Mehlhorn, Orlin & Tarjan, "Faster algorithms for the
// shortest path problem", J. ACM 37(2), 1990) with digits of qBits bits
// (as in a hierarchical timing wheel), whose bucket of the current time
// is a 4-ary heap ordered by (key, ver).
//
// A radix heap serves a monotone queue: no event is pushed before the
// time of the last drain, which holds here (the engine only schedules
// events at or after now, and now never goes back). Events at the current
// time last sit in cur, ordered by their tie key. Any other event sits in
// bucket (L, d): L is the highest digit in which u(at) differs from
// u(last) (u flips the sign bit so that unsigned order is time order) and
// d is that digit of at, which exceeds last's. Every event of a lower
// level, or of the same level and a lower digit, is earlier. When cur
// runs dry, the lowest non-empty bucket (bitmaps find it) holds the next
// time: advance makes its least time m the new last and moves the
// bucket's events to cur or to lower levels (they agree with m from digit
// L up); no other bucket moves. An event therefore moves at most once
// per digit (64/qBits times); on BenchmarkSim's W-FB (1 ms ticks,
// durations over about 17 bits) 2.3 times on average: a push is an append, a move a
// sequential copy, and a pop a sift in cur, which holds only the events
// of one tick. On BenchmarkEventHeap's pattern (10,000 events, pop the
// least and push one up to 100,000 ticks later) the queue takes 45 CPU-ns
// per pop and push where the 4-ary heap over all events takes 106
// (`go test -run '^$' -bench 'EventHeap|EventQueue' -cpu 1 ./sim/`).
//
// Events leave in exactly the heap's order, (at, key, ver): times by the
// buckets, ties by cur. TestEventQueueOrder checks it against the heap.
type eventQueue struct {
	last Tick                     // the time of the events in cur
	cur  eventHeap                // the events at last
	b    [qLevels * qWidth]bucket // bucket (L, d) is b[L·qWidth + d]
	// full[L] has bit d set when bucket (L, d) is not empty, and levels
	// bit L when some bucket of level L is.
	full   [qLevels][qWidth / 64]uint64
	levels uint64
	n      int
	// arrays keeps the arrays of emptied buckets for the buckets that
	// outgrow theirs: the large arrays follow the bursts of events down
	// the levels.
	arrays pool[event]
}

// bucket is one bucket of eventQueue (2,048 of them: 80 KiB), in one
// 40-byte record: ev[:n] are its events. The array keeps its full length
// and only n changes, so that adding an event writes no slice header (a
// pointer: while the collector runs, each such write would pass its write
// barrier).
type bucket struct {
	ev []event
	n  int32
	lo Tick // the least time of its events, when n > 0
}

const (
	qBits   = 8
	qWidth  = 1 << qBits
	qLevels = 64 / qBits
	qKeep   = 64
)

// u maps a tick to an unsigned integer of the same order.
func u(t Tick) uint64 { return uint64(t) ^ 1<<63 }

func (q *eventQueue) len() int { return q.n }

// push adds e; e.at must be at or after the time of the last advance.
func (q *eventQueue) push(e event) {
	q.n++
	if e.at == q.last {
		q.cur.push(e)
		return
	}
	q.add(e, q.last)
}

// add puts e (e.at ≠ last) in its bucket relative to last.
func (q *eventQueue) add(e event, last Tick) {
	x := u(e.at)
	L := uint(bits.Len64(x^u(last))-1) / qBits
	d := uint(x>>(L*qBits)) & (qWidth - 1)
	b := &q.b[L*qWidth+d]
	k := b.n
	if k == 0 || e.at < b.lo {
		b.lo = e.at
	}
	if int(k) == len(b.ev) {
		q.grow(b)
	}
	b.ev[k] = e
	b.n = k + 1
	q.full[L%qLevels][d/64] |= 1 << (d % 64)
	q.levels |= 1 << L
}

// grow gives bucket b an array of twice the room.
func (q *eventQueue) grow(b *bucket) {
	old := b.ev
	a := q.arrays.get(max(8, 2*len(old)))
	copy(a, old)
	b.ev = a[:cap(a)]
	q.arrays.put(old)
}

// lowest returns the lowest non-empty bucket; the buckets must not all
// be empty.
func (q *eventQueue) lowest() (uint, *bucket) {
	L := uint(bits.TrailingZeros64(q.levels)) % qLevels
	for w, f := range q.full[L] {
		if f != 0 {
			return L, &q.b[L*qWidth+uint(w*64+bits.TrailingZeros64(f))]
		}
	}
	panic("sim: internal: event queue level marked but empty")
}

// next returns the time of the least event, advancing to it when no
// event is left at the current time. Once it has advanced, no event
// earlier than the returned time may be pushed: call it only when the
// clock is about to move there. The queue must not be empty.
func (q *eventQueue) next() Tick {
	if q.cur.len() == 0 {
		q.advance()
	}
	return q.last
}

// pending reports whether an event is left at the current time.
func (q *eventQueue) pending() bool { return q.cur.len() > 0 }

// pop removes and returns the least event at the current time; pending
// must be true.
func (q *eventQueue) pop() event {
	q.n--
	return q.cur.pop()
}

// advance makes the least time of the lowest non-empty bucket current and
// empties that bucket into cur and lower levels.
func (q *eventQueue) advance() {
	L, b := q.lowest()
	m := b.lo
	q.last = m
	d := uint(u(m)>>(L*qBits)) & (qWidth - 1)
	q.full[L][d/64] &^= 1 << (d % 64)
	if q.full[L] == [qWidth / 64]uint64{} {
		q.levels &^= 1 << L
	}
	for _, e := range b.ev[:b.n] {
		if e.at == m {
			q.cur.push(e)
		} else {
			q.add(e, m) // to a level below L, never this bucket
		}
	}
	b.n = 0
	// A bucket keeps at most qKeep events' room while empty, so that what
	// the queue holds beyond its events is bounded: 2,048 × qKeep events
	// and the pool, which holds no more than the largest bursts held.
	if len(b.ev) > qKeep {
		q.arrays.put(b.ev)
		b.ev = nil
	}
}
