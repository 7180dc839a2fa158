package dag

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// randomWindows returns windows of p under horizon T in which every task
// starts in [est, lct − p] for random est and slack.
func randomWindows(p *problem, rng *rand.Rand) *windows {
	s := newWindows(p.n, (p.n+63)/64, 0)
	for i := range p.n {
		s.est[i] = int64(rng.IntN(6))
		s.lct[i] = s.est[i] + p.dur[i] + int64(rng.IntN(5))
	}
	return s
}

// TestEnergySweeps checks the energy rule's two sweeps against each
// other: for every resource and every t1 of random windows, the
// time-indexed sweep must give the sorted sweep's verdict, windows and
// work. A sweep that skipped a tick, added a ramp to the wrong one or
// tested an interval the other does not fails it.
func TestEnergySweeps(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	tested, adjusted, refuted := 0, 0, 0
	for range 400 {
		p := randomProblem(rng, 10)
		s := randomWindows(p, rng)
		// One dense propagator serves every sweep, as in energy: its
		// scratch must come back clean.
		dense := newPropagator(p, true)
		for r := range p.k {
			for t1 := int64(0); t1 < 8; t1++ {
				dense.work = 0
				sorted := newPropagator(p, true)
				sd, ss := s.clone(), s.clone()
				ramps, last := dense.rampsAt(sd, r, t1)
				if len(ramps) == 0 {
					continue
				}
				cd, okd := dense.sweepDense(sd, r, t1, last, ramps)
				cs, oks := sorted.sweepSorted(ss, r, t1, slices.Clone(ramps))
				tested++
				if cd != cs || okd != oks || !slices.Equal(sd.est, ss.est) || !slices.Equal(sd.lct, ss.lct) ||
					dense.work != sorted.work {
					t.Fatalf("resource %d, t1 %d, windows %v %v: dense (changed %v, ok %v, est %v, lct %v, work %d), sorted (%v, %v, %v, %v, %d)",
						r, t1, s.est, s.lct, cd, okd, sd.est, sd.lct, dense.work, cs, oks, ss.est, ss.lct, sorted.work)
				}
				if !oks {
					refuted++
				} else if cs {
					adjusted++
				}
			}
		}
	}
	t.Logf("%d sweeps compared, %d adjusted, %d refuted", tested, adjusted, refuted)
	// The cases must include both outcomes, or the test proves little.
	if adjusted < 50 || refuted < 50 {
		t.Fatalf("%d sweeps compared, %d adjusted and %d refuted: want at least 50 of each", tested, adjusted, refuted)
	}
}

// TestTimetableProfiles checks the learning search's two profile
// builders against each other on random compulsory parts: the same
// segments and heights, and search agreeing with a binary search over
// the segment starts at every time around them.
func TestTimetableProfiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var tt lcgTimetable // reused, as in run: its scratch must come back clean
	for range 500 {
		tt.events, tt.segT, tt.segH = tt.events[:0], tt.segT[:0], tt.segH[:0]
		for range 1 + rng.IntN(12) {
			a := int64(rng.IntN(30) - 5)
			b := a + 1 + int64(rng.IntN(6))
			c := int64(1 + rng.IntN(4))
			tt.events = append(tt.events, ttEvent{a, c}, ttEvent{b, -c})
		}
		lo, hi := tt.events[0].t, tt.events[0].t
		for _, e := range tt.events {
			lo, hi = min(lo, e.t), max(hi, e.t)
		}
		sorted := lcgTimetable{events: slices.Clone(tt.events)}
		sorted.profileSorted()
		tt.profileDense(lo, hi)
		if !slices.Equal(tt.segT, sorted.segT) || !slices.Equal(tt.segH, sorted.segH) {
			t.Fatalf("events %v: dense segments %v heights %v, sorted %v %v", sorted.events, tt.segT, tt.segH, sorted.segT, sorted.segH)
		}
		for x := lo - 3; x <= hi+3; x++ {
			want, _ := slices.BinarySearch(tt.segT, x)
			if got := tt.search(x); got != want || sorted.search(x) != want {
				t.Fatalf("events %v, segments %v: search(%d) = %d dense, %d sorted, want %d", sorted.events, tt.segT, x, got, sorted.search(x), want)
			}
		}
	}
}

// TestBuildProfile checks the propagator's time-table profile, built
// dense or sorted, against the compulsory parts counted tick by tick:
// the segments start at the distinct ends of the parts, each holds the
// usage at its start, the build fails exactly when some usage exceeds a
// capacity, and segsBefore agrees with a binary search.
func TestBuildProfile(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	paths := map[bool]int{}
	for trial := range 3000 {
		p := randomProblem(rng, 12)
		if trial%2 == 1 {
			continue
		}
		// One propagator builds two profiles, as in a search: its
		// scratch must come back clean.
		pr := newPropagator(p, false)
		for build := range 2 {
			s := randomWindows(p, rng)
			if (trial/2+build)%3 == 0 { // spread out: the sorted path
				for i := range p.n {
					sh := int64(rng.IntN(4)) * 40
					s.est[i] += sh
					s.lct[i] += sh
				}
			}
			var want []int64
			for i := range p.n {
				if lst, ect := s.lct[i]-p.dur[i], s.est[i]+p.dur[i]; p.dur[i] > 0 && lst < ect {
					want = append(want, lst, ect)
				}
			}
			slices.Sort(want)
			want = slices.Compact(want)
			usage := func(at int64, r int) int64 {
				var u int64
				for i := range p.n {
					if lst, ect := s.lct[i]-p.dur[i], s.est[i]+p.dur[i]; p.dur[i] > 0 && lst <= at && at < ect {
						u += p.dem[i*p.k+r]
					}
				}
				return u
			}
			over := false
			for _, at := range want {
				for r := range p.k {
					over = over || usage(at, r) > p.cap[r]
				}
			}
			ok := pr.buildProfile(s)
			if ok == over {
				t.Fatalf("trial %d: buildProfile = %v with an overload %v", trial, ok, over)
			}
			if !ok {
				continue
			}
			paths[pr.idx.dense]++
			if !slices.Equal(pr.segT, want) {
				t.Fatalf("trial %d: segments %v, want %v", trial, pr.segT, want)
			}
			for x, at := range pr.segT {
				for r := range p.k {
					if got := pr.segU[x*p.k+r]; got != usage(at, r) {
						t.Fatalf("trial %d: segment %d (at %d) resource %d: usage %d, want %d", trial, x, at, r, got, usage(at, r))
					}
				}
			}
			for x := int64(-3); x < 200; x++ {
				if w, _ := slices.BinarySearch(pr.segT, x); pr.idx.segsBefore(pr.segT, x) != w {
					t.Fatalf("trial %d: segsBefore(%d) = %d, want %d (segments %v)", trial, x, pr.idx.segsBefore(pr.segT, x), w, pr.segT)
				}
			}
		}
	}
	if paths[true] < 100 || paths[false] < 100 {
		t.Fatalf("profiles built dense %d, sorted %d: want at least 100 of each", paths[true], paths[false])
	}
}

// TestSortByEnd checks the energy rule's bucket sort of tasks by latest
// end against a comparison sort by end, then index, for ends close
// together (buckets) and far apart (comparisons), reusing the scratch.
func TestSortByEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	en := &lcgEnergy{end: make([]int64, 80)}
	for trial := range 400 {
		spread := []int{3, 30, 5000}[trial%3]
		en.byEnd = en.byEnd[:0]
		for j := range len(en.end) {
			if rng.IntN(3) > 0 {
				en.end[j] = int64(rng.IntN(spread))
				en.byEnd = append(en.byEnd, int32(j))
			}
		}
		want := slices.Clone(en.byEnd)
		slices.SortStableFunc(want, func(x, y int32) int { return int(en.end[x] - en.end[y]) })
		en.sortByEnd()
		if !slices.Equal(en.byEnd, want) {
			t.Fatalf("trial %d: ends %v: %v, want %v", trial, en.end, en.byEnd, want)
		}
	}
}
