package sim

import "math/bits"

// pool keeps arrays that a run no longer uses for the next ones of about
// their size, so that a run allocates arrays for its peak instead of for
// its total (the event queue's bucket arrays: a BenchmarkSim run then
// allocates 16.6 MB instead of 21.2). An array's capacity is that of its
// size class: 1 to 4, then 5, 6, 7 or 8 times a power of two (four
// classes per doubling, so at most a quarter above the length asked
// for), and an array returned serves any later request of its class.
//
// What the pool holds is never more than the arrays live at once at an
// earlier time of the run: memory stays O(peak), as without it.
type pool[T any] struct {
	free [64 * 4][][]T
}

// class returns the size class of an array of n > 0 elements and the
// capacity of that class.
func class(n int) (int, int) {
	if n <= 4 {
		return n - 1, n // classes 0..3: capacities 1..4
	}
	// n−1 = (4+q)·2^e + r with q in 0..3 and r < 2^e: the class's
	// capacity is (5+q)·2^e ≥ n.
	e := bits.Len(uint(n-1)) - 3
	q := int(uint(n-1)>>e) & 3
	return 4 + 4*e + q, (5 + q) << e
}

// get returns an array of n zero elements.
func (p *pool[T]) get(n int) []T {
	if n == 0 {
		return nil
	}
	c, size := class(n)
	if k := len(p.free[c]); k > 0 {
		a := p.free[c][k-1]
		p.free[c] = p.free[c][:k-1]
		a = a[:n]
		clear(a)
		return a
	}
	return make([]T, n, size)
}

// put returns array a to the pool; a must come from get (or have a
// class's capacity) and be no longer used.
func (p *pool[T]) put(a []T) {
	if cap(a) == 0 {
		return
	}
	c, size := class(cap(a))
	if size != cap(a) {
		return // not a class capacity: left to the collector
	}
	p.free[c] = append(p.free[c], a[:0])
}
