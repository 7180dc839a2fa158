package sim

// series accumulates piecewise-constant quantities into equal-width time
// buckets aligned at time 0: per bucket, ∫ value dt for each of k values
// (the allocation per dimension, the running tasks, each user's dominant
// share). When a segment reaches past the last bucket, adjacent buckets
// are merged pairwise and the width doubles, so at most max buckets are
// kept whatever the horizon, and sums stay exact in each bucket.
type series struct {
	max     int
	k       int
	userOff int // values: dims allocation, then running, then users
	w       Tick
	vals    []float64 // max buckets × k
	// gi and ui[u] are buckets at or before the start of the next global
	// and user u's segment, from which bucket walks forward: segments
	// follow one another, so finding a segment's bucket takes no division.
	gi Tick
	ui []Tick
}

func newSeries(points, dims, users int) *series {
	k := dims + 1 + users
	return &series{max: max(points, 2), k: k, userOff: dims + 1, w: 1, vals: make([]float64, max(points, 2)*k), ui: make([]Tick, users)}
}

// bucket returns the bucket holding time a, given a bucket at or before
// it.
func (s *series) bucket(hint, a Tick) Tick {
	if (hint+4)*s.w <= a {
		return a / s.w
	}
	for (hint+1)*s.w <= a {
		hint++
	}
	return hint
}

// fit doubles the bucket width until time b falls within the buckets.
func (s *series) fit(b Tick) {
	for b > Tick(s.max)*s.w {
		half := s.max / 2
		for i := 0; i < half; i++ {
			dst := s.vals[i*s.k : (i+1)*s.k]
			a := s.vals[2*i*s.k : (2*i+1)*s.k]
			c := s.vals[(2*i+1)*s.k : (2*i+2)*s.k]
			for x := range dst {
				dst[x] = a[x] + c[x]
			}
		}
		clear(s.vals[half*s.k:])
		if s.max%2 == 1 { // an odd last bucket folds into the last half
			last := s.vals[(s.max-1)*s.k : s.max*s.k]
			dst := s.vals[(half-1)*s.k : half*s.k]
			for x := range dst {
				dst[x] += last[x]
			}
		}
		s.w *= 2
		s.gi /= 2 // bucket i at width w lies in bucket i/2 at width 2w
		for u := range s.ui {
			s.ui[u] /= 2
		}
	}
}

// addGlobal adds the allocation and the running count over [a, b); a is
// at or after the previous call's b.
func (s *series) addGlobal(a, b Tick, alloc Vec, running int64) {
	if b > Tick(s.max)*s.w {
		s.fit(b)
	}
	D := len(alloc)
	i := s.bucket(s.gi, a)
	for ; i*s.w < b; i++ { // the buckets [a, b) covers; usually one
		lo, hi := max(a, i*s.w), min(b, (i+1)*s.w)
		dt := float64(hi - lo)
		v := s.vals[int(i)*s.k : int(i)*s.k+D+1]
		for d, x := range alloc[:D] {
			v[d] += float64(x) * dt
		}
		v[D] += float64(running) * dt
	}
	s.gi = i - 1 // holds b − 1
}

// addUser adds user u's dominant share x over [a, b); a is at or after
// the previous call's b for u.
func (s *series) addUser(a, b Tick, u int, x float64) {
	if b > Tick(s.max)*s.w {
		s.fit(b)
	}
	off := s.userOff + u
	i := s.bucket(s.ui[u], a)
	for ; i*s.w < b; i++ {
		lo, hi := max(a, i*s.w), min(b, (i+1)*s.w)
		s.vals[int(i)*s.k+off] += x * float64(hi-lo)
	}
	s.ui[u] = i - 1
}

// Series are time series of a run, one point per bucket of Step ticks
// from Start: averages over each bucket (the last may be partial).
type Series struct {
	Start, Step Tick
	// Utilization[d][i] is the allocation of dimension d over capacity.
	Utilization [][]float64
	// Running[i] is the mean number of running tasks.
	Running []float64
	// Shares[u][i] is user u's mean dominant share.
	Shares [][]float64
}

// export returns the averages over [from, to) per bucket.
func (s *series) export(from, to Tick, total Vec, users int) Series {
	out := Series{Step: s.w}
	if to <= from {
		return out
	}
	s.fit(to)
	i0 := int(from / s.w)
	out.Start = Tick(i0) * s.w
	D := s.userOff - 1
	out.Utilization = make([][]float64, D)
	out.Shares = make([][]float64, users)
	for i := i0; Tick(i)*s.w < to; i++ {
		lo, hi := max(from, Tick(i)*s.w), min(to, Tick(i+1)*s.w)
		span := float64(hi - lo)
		v := s.vals[i*s.k : (i+1)*s.k]
		for d := 0; d < D; d++ {
			u := 0.0
			if total[d] > 0 {
				u = v[d] / span / float64(total[d])
			}
			out.Utilization[d] = append(out.Utilization[d], u)
		}
		out.Running = append(out.Running, v[D]/span)
		for u := 0; u < users; u++ {
			out.Shares[u] = append(out.Shares[u], v[s.userOff+u]/span)
		}
	}
	return out
}
