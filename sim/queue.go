package sim

import "math/bits"

// eventQueue is the simulator's event queue: a radix heap over event
// times (Ahuja, Mehlhorn, Orlin & Tarjan, "Faster algorithms for the
// shortest path problem", J. ACM 37(2), 1990) whose bucket of the current
// time is a 4-ary heap ordered by (key, ver).
//
// A radix heap serves a monotone queue: no event is pushed before the
// time of the last drain, which holds here (the engine only schedules
// events at or after now, and now never goes back). Events at the current
// time last sit in cur, ordered by their tie key. Any other event sits in
// bucket i = bits.Len64(u(at) ^ u(last)) (u flips the sign bit so that
// unsigned order is time order): it agrees with last above bit i−1 and
// has that bit set where last has it clear, so every event of bucket i
// is earlier than every event of a higher bucket. When cur runs dry, the
// lowest non-empty bucket holds the next time: advance makes its least
// time the new last and redistributes the bucket's events, each into
// cur or a strictly lower bucket. An event therefore moves at most once
// per bit its time differs from the clock in (at most 64 times, about 17
// for W-FB's 1 ms ticks): a push is an append, a move a sequential copy,
// and a pop a sift in cur, which holds only the events of one tick. On BenchmarkEventHeap's pattern (10,000 events, pop the least
// and push one up to 100,000 ticks later) the queue takes 63 CPU-ns per
// pop and push where the 4-ary heap over all events takes 106
// (`go test -run '^$' -bench 'EventHeap|EventQueue' -cpu 1 ./sim/`).
//
// Events leave in exactly the heap's order, (at, key, ver): times by the
// buckets, ties by cur. TestEventQueueOrder checks it.
type eventQueue struct {
	last Tick        // the time of the events in cur
	cur  eventHeap   // the events at last
	b    [65][]event // b[i]: the events at a later time, by highest differing bit
	lo   [65]Tick    // lo[i]: the least time in b[i], when not empty
	at   [65]int32   // at[i]: the index in b[i] of an event at lo[i]
	// spare is an empty array the next bucket to outgrow its own takes.
	spare []event
	full  uint64 // bit i−1 set when b[i] is not empty (b[0] is never used)
	n     int
}

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
	q.add(bits.Len64(u(e.at)^u(q.last)), e)
}

// add puts e in bucket i.
func (q *eventQueue) add(i int, e event) {
	b := q.b[i]
	if len(b) == 0 || e.at < q.lo[i] {
		q.lo[i], q.at[i] = e.at, int32(len(b))
	}
	if len(b) == cap(b) && cap(q.spare) > cap(b) {
		b, q.spare = append(q.spare, b...), b[:0]
	}
	q.b[i] = append(b, e)
	q.full |= 1 << (i - 1)
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

// peek returns the least event at the current time, or else one at the
// next time (the least or a tie of it), or nil when the queue is empty.
func (q *eventQueue) peek() *event {
	if q.cur.len() > 0 {
		return q.cur.min()
	}
	if q.full == 0 {
		return nil
	}
	i := bits.TrailingZeros64(q.full) + 1
	return &q.b[i][q.at[i]]
}

// pop removes and returns the least event at the current time; pending
// must be true.
func (q *eventQueue) pop() event {
	q.n--
	return q.cur.pop()
}

// advance makes the least time in the lowest non-empty bucket current and
// redistributes that bucket.
func (q *eventQueue) advance() {
	i := bits.TrailingZeros64(q.full) + 1
	bk, m := q.b[i], q.lo[i]
	q.b[i] = nil
	q.full &^= 1 << (i - 1)
	q.last = m
	for _, e := range bk {
		if e.at == m {
			q.cur.push(e)
		} else {
			q.add(bits.Len64(u(e.at)^u(m)), e)
		}
	}
	// The emptied array goes to the spare, or back to bucket i when the
	// spare is larger: the large arrays follow the bursts of events.
	if cap(bk) > cap(q.spare) {
		bk, q.spare = q.spare, bk[:0]
	}
	q.b[i] = bk[:0]
}
