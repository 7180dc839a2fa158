package dag

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// gridSpace is the brute-force twin of Space: usage per integer tick on
// [lo, hi).
type gridSpace struct {
	lo   int64
	caps [][]float64
	u    [][][]float64 // machine, tick, resource
}

func newGrid(machines [][]float64, lo, hi int64) *gridSpace {
	g := &gridSpace{lo: lo, caps: machines}
	for range machines {
		ticks := make([][]float64, hi-lo)
		for i := range ticks {
			ticks[i] = make([]float64, len(machines[0]))
		}
		g.u = append(g.u, ticks)
	}
	return g
}

func (g *gridSpace) fitsAt(m int, r []float64, start, dur int64) bool {
	for k, x := range r {
		if !fitsCap(x, g.caps[m][k]) {
			return false
		}
	}
	for t := start; t < start+dur; t++ {
		for k, x := range r {
			if !fitsCap(g.u[m][t-g.lo][k]+x, g.caps[m][k]) {
				return false
			}
		}
	}
	return true
}

func (g *gridSpace) place(m int, r []float64, start, dur int64) {
	for t := start; t < start+dur; t++ {
		for k, x := range r {
			g.u[m][t-g.lo][k] += x
		}
	}
}

// TestSpaceAgainstGrid places random tasks forwards and backwards in a
// Space and checks each fit against exhaustive search over ticks.
func TestSpaceAgainstGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// One space per machine count, reset between trials as the genetic
	// algorithm's workers reuse theirs.
	spaces := map[int]*Space{}
	for trial := 0; trial < 200; trial++ {
		machines := [][]float64{{4, 3}, {3, 4}}[:1+rng.IntN(2)]
		s := spaces[len(machines)]
		if s == nil {
			s = NewSpace(machines)
			spaces[len(machines)] = s
		}
		s.reset()
		g := newGrid(machines, -400, 400)
		for step := 0; step < 25; step++ {
			r := []float64{float64(rng.IntN(5)), float64(rng.IntN(5))} // 4 fits machine 0 in cpu only
			dur := int64(rng.IntN(6))
			if rng.IntN(2) == 0 {
				tmin := int64(rng.IntN(40) - 20)
				m, st := s.Forward(r, dur, tmin)
				// Brute force: the earliest (start, machine) pair.
				wantM, wantSt := -1, int64(Never)
				for x := tmin; x < 200 && wantM < 0; x++ {
					for mm := range machines {
						if g.fitsAt(mm, r, x, dur) {
							wantM, wantSt = mm, x
							break
						}
					}
				}
				if m != wantM || st != wantSt {
					t.Fatalf("trial %d step %d: forward %v dur %d from %d: got (%d,%d), want (%d,%d)", trial, step, r, dur, tmin, m, st, wantM, wantSt)
				}
				if m >= 0 {
					g.place(m, r, st, dur)
				}
			} else {
				tmax := int64(rng.IntN(40) - 20)
				m, st := s.Backward(r, dur, tmax)
				wantM, wantSt := -1, int64(Never)
				for x := tmax - dur; x > -200 && wantM < 0; x-- {
					for mm := range machines {
						if g.fitsAt(mm, r, x, dur) {
							wantM, wantSt = mm, x
							break
						}
					}
				}
				if m != wantM || st != wantSt {
					t.Fatalf("trial %d step %d: backward %v dur %d by %d: got (%d,%d), want (%d,%d)", trial, step, r, dur, tmax, m, st, wantM, wantSt)
				}
				if m >= 0 {
					g.place(m, r, st, dur)
				}
			}
		}
	}
}

// TestPlaceHints checks the segment hints of placement: a fit that walks
// to a start returns the segment holding it, forwards and backwards, and
// placeAt gives the same timeline as Place whatever the hint (right,
// stale or out of range).
func TestPlaceHints(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	machines := [][]float64{{4, 3}}
	hits := 0
	for trial := 0; trial < 300; trial++ {
		a, b := NewSpace(machines), NewSpace(machines)
		for step := 0; step < 30; step++ {
			r := []float64{float64(rng.IntN(5)), float64(rng.IntN(4))}
			dur := int64(1 + rng.IntN(6))
			edge := int64(rng.IntN(40) - 20)
			dir := forward
			if rng.IntN(2) == 0 {
				dir = backward
			}
			walked := a.busyAhead(0, dur, edge, dir)
			st, seg := a.fit(0, r, dur, edge, dir.beyond(), dir)
			if st == Never {
				continue
			}
			if walked {
				if !a.tl[0].holds(seg, st) {
					t.Fatalf("trial %d step %d: %v walk to %d returned segment %d, which does not hold it (breakpoints %v)",
						trial, step, dir, st, seg, a.tl[0].t)
				}
				hits++
			}
			a.Place(0, r, st, dur)
			b.placeAt(0, r, st, dur, rng.IntN(len(b.tl[0].t)+4)-3)
			if !slices.Equal(a.tl[0].t, b.tl[0].t) || !slices.Equal(a.tl[0].u, b.tl[0].u) {
				t.Fatalf("trial %d step %d: placeAt with a random hint gave %v %v, Place %v %v",
					trial, step, b.tl[0].t, b.tl[0].u, a.tl[0].t, a.tl[0].u)
			}
		}
	}
	if hits < 1000 {
		t.Fatalf("only %d walks checked", hits)
	}
}
