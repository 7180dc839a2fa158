package xselect

import (
	"container/heap"
	"slices"
	"sort"
)

// targeter chooses, for a multiplier λ, a mutable set M aimed at λ's
// required set (the targeted phase of incremental mode, see Solve). It
// works in normalised volume on a fluid model of the previous plan:
//
//   - the deficit def_a = Σ_k max(0, ⌊λ·m_{a,k}⌋ − f_{a,k})·vol_k of every
//     application is the volume it needs on nodes that change, f_{a,k}
//     counting its (a,k) containers in From (plus boost_a, what a failed
//     probe at λ left of a unpacked, on a retry);
//   - the surplus sur_{a,k} = max(0, f_{a,k} − ⌊λ·m_{a,k}⌋) is the number
//     of (a,k) containers that may leave their nodes at no cost to λ;
//   - the base room of a node is its free capacity under From plus the
//     volume of its containers that are still surplus (each surplus
//     container is counted on one chosen node only); the others are kept;
//   - a short application a may use a node it is eligible for whose
//     colocation partners have a From container there or a deficit; the
//     kept containers of applications exlocated with a are displaced
//     (they add to a's room there, and to their owners' moved volume);
//   - the value of a node is the volume it gives to short applications
//     (alloc: the one gaining most first, then the compatible others in
//     the base room left; each at most its remaining deficit, and for one
//     with a MaxPerNode at most that many of its largest containers),
//     less half the volume it displaces.
//
// The forced nodes come first. Then a lazy greedy takes the node of
// highest value (ties to the lower index) and charges it. Values only
// fall as deficits and surpluses are used up (moved volume is not wanted
// until the next pass), so the lazy evaluation is exact. When no node has
// value left and places remain (the fluid model is optimistic about
// fragmentation and the rules), a second pass restarts from the full
// deficits and surpluses plus the moved volume, over the nodes not yet
// chosen; the places still left go to the nodes of highest mutableScore
// (more room for the packer; a node of M that keeps its From containers
// costs nothing).
type targeter struct {
	s *searcher
	// f[a][k] counts From's (a,k) containers; free[n] is node n's free
	// normalised capacity under From.
	f    [][]int
	free []float64
	// score is mutableScore, the fill order of the last places.
	score []int
	// bigVol[a] is the volume of a's largest mix shape.
	bigVol []float64
	// per-call state
	def []float64
	sur [][]int
	// moved[a] is a's volume displaced from chosen nodes (to be re-homed
	// by the second pass).
	moved []float64
	// boost[a] is extra deficit volume for a: what a failed probe at
	// this λ left of a unpacked.
	boost []float64
	// scratch of room: surplus containers of (a,k) counted on one node,
	// and the containers (count, volume) of a the node keeps
	seen    [][]int
	kept    []int
	keptVol []float64
	has     []int
}

func newTargeter(s *searcher) *targeter {
	full, from := s.full, s.opt.From
	t := &targeter{s: s, f: make([][]int, full.na), free: make([]float64, full.nn), bigVol: make([]float64, full.na),
		def: make([]float64, full.na), sur: make([][]int, full.na), moved: make([]float64, full.na), boost: make([]float64, full.na),
		seen: make([][]int, full.na), kept: make([]int, full.na), keptVol: make([]float64, full.na), has: make([]int, full.na)}
	for a := range t.f {
		t.f[a] = make([]int, full.nk)
		t.sur[a] = make([]int, full.nk)
		t.seen[a] = make([]int, full.nk)
		for k, m := range full.p.Apps[a].Mix {
			if m > 0 {
				t.bigVol[a] = max(t.bigVol[a], full.vol[k])
			}
		}
	}
	used := make([]float64, full.nd)
	for n, cs := range from {
		clear(used)
		for _, c := range cs {
			t.f[c.Owner][c.Shape]++
			for d, v := range full.p.Shapes[c.Shape] {
				used[d] += v
			}
		}
		for d, v := range full.p.Nodes[n].Capacity {
			if full.total[d] > 0 {
				t.free[n] += max(0, v-used[d]) / full.total[d]
			}
		}
	}
	sc := mutableScore(full, from)
	t.score = make([]int, full.nn)
	for n := range t.score {
		t.score[n] = n
	}
	sort.SliceStable(t.score, func(i, j int) bool { return sc[t.score[i]] > sc[t.score[j]] })
	return t
}

// reset loads the full deficits (plus the volume moved so far) and
// surpluses of the required set req.
func (t *targeter) reset(req [][]int) {
	vol := t.s.full.vol
	for a := range t.def {
		t.def[a] = t.moved[a] + t.boost[a]
		for k, r := range req[a] {
			t.def[a] += float64(max(0, r-t.f[a][k])) * vol[k]
			t.sur[a][k] = max(0, t.f[a][k]-r)
		}
		t.moved[a] = 0
	}
}

// room returns node n's base room (free capacity and surplus
// containers) and records in t.kept and t.keptVol the containers of each
// application the node keeps (not surplus).
func (t *targeter) room(n int) float64 {
	full := t.s.full
	r := t.free[n]
	for _, c := range t.s.opt.From[n] {
		t.has[c.Owner]++
		if t.seen[c.Owner][c.Shape] < t.sur[c.Owner][c.Shape] {
			t.seen[c.Owner][c.Shape]++
			r += full.vol[c.Shape]
		} else {
			t.kept[c.Owner]++
			t.keptVol[c.Owner] += full.vol[c.Shape]
		}
	}
	return r
}

// clearScratch undoes room's marks for node n.
func (t *targeter) clearScratch(n int) {
	for _, c := range t.s.opt.From[n] {
		t.seen[c.Owner][c.Shape] = 0
		t.kept[c.Owner] = 0
		t.keptVol[c.Owner] = 0
		t.has[c.Owner] = 0
	}
}

// exlRoom returns the volume application a would displace on the node
// room last looked at: the kept containers of the applications exlocated
// with a.
func (t *targeter) exlRoom(a int) float64 {
	v := 0.0
	for _, b := range t.s.full.exl[a] {
		v += t.keptVol[b]
	}
	return v
}

// partners reports whether application a could find its colocation
// partners on the node room last looked at: each has a From container
// there (seedPartners keeps one) or a deficit (so some are pooled).
func (t *targeter) partners(a int) bool {
	for _, b := range t.s.full.colo[a] {
		if t.has[b] == 0 && t.def[b] <= 0 {
			return false
		}
	}
	return true
}

// want is the volume application a may still take on one node.
func (t *targeter) want(a int) float64 {
	w := t.def[a]
	if c := t.s.full.cap[a]; c > 0 {
		w = min(w, float64(c)*t.bigVol[a])
	}
	return w
}

// alloc shares node n among the applications with a deficit that may use
// it and returns the node's value: the volume allocated less half the
// volume displaced. The application that gains most (ties to the lower
// index) goes first, displacing the kept containers of the applications
// exlocated with it; the others share the base room left, skipping those
// exlocated with it or with a container still kept. With commit set it
// also charges the node: deficits fall, the displaced volume is added to
// its owners' moved volume, and the surplus containers are used up. Cost
// O(containers on n + apps of n·exlocations).
func (t *targeter) alloc(n int, commit bool) float64 {
	full := t.s.full
	base := t.room(n)
	first, firstG, firstX := -1, 0.0, 0.0
	for _, a := range full.appsOf[n] {
		if t.def[a] <= 0 || !t.partners(a) {
			continue
		}
		x := t.exlRoom(a)
		if g := min(t.want(a), base+x); g > firstG {
			first, firstG, firstX = a, g, x
		}
	}
	if first < 0 {
		t.clearScratch(n)
		return 0
	}
	got := firstG
	left := base + firstX - firstG
	if commit {
		t.def[first] -= firstG
		for _, b := range full.exl[first] {
			t.moved[b] += t.keptVol[b]
		}
	}
	for _, a := range full.appsOf[n] {
		if left <= 0 {
			break
		}
		if a == first || t.def[a] <= 0 || full.excludes(a, first) || !t.partners(a) {
			continue
		}
		if t.exlRoom(a) > 0 && !onlyExl(full, a, first, t) {
			continue
		}
		g := min(left, t.want(a))
		got += g
		left -= g
		if commit {
			t.def[a] -= g
		}
	}
	if commit {
		for _, c := range t.s.opt.From[n] {
			if t.seen[c.Owner][c.Shape] > 0 {
				t.sur[c.Owner][c.Shape]--
				t.seen[c.Owner][c.Shape]--
			}
		}
	}
	t.clearScratch(n)
	return got - firstX/2
}

// onlyExl reports whether every kept application exlocated with a is one
// that first displaces (so a may join once first has made room).
func onlyExl(full *instance, a, first int, t *targeter) bool {
	for _, b := range full.exl[a] {
		if t.kept[b] > 0 && !full.excludes(first, b) {
			return false
		}
	}
	return true
}

// value is node n's value (alloc without charging).
func (t *targeter) value(n int) float64 { return t.alloc(n, false) }

// charge takes node n into M (alloc, charging).
func (t *targeter) charge(n int) { t.alloc(n, true) }

// nodeHeap is a max-heap of node values, ties to the lower node index.
type nodeHeap struct {
	n []int
	v []float64
}

func (h *nodeHeap) Len() int { return len(h.n) }
func (h *nodeHeap) Less(i, j int) bool {
	if h.v[i] != h.v[j] {
		return h.v[i] > h.v[j]
	}
	return h.n[i] < h.n[j]
}
func (h *nodeHeap) Swap(i, j int) {
	h.n[i], h.n[j] = h.n[j], h.n[i]
	h.v[i], h.v[j] = h.v[j], h.v[i]
}
func (h *nodeHeap) Push(x any) { panic("unused") }
func (h *nodeHeap) Pop() any {
	last := len(h.n) - 1
	h.n, h.v = h.n[:last], h.v[:last]
	return nil
}

// set returns the mutable set for λ (at most s.limit nodes, the forced
// ones included) and the order in which keepFrom should visit it: the
// nodes chosen last first and the forced nodes and the best room last,
// so that the nodes picked for their room give up their surplus first.
// Cost O(passes·N·log N·(containers per node + apps per node)).
func (t *targeter) set(lambda float64) (inM []bool, keep []int) {
	s, full := t.s, t.s.full
	req := s.counts(lambda)
	inM = make([]bool, full.nn)
	var picked []int // in order of choice
	take := func(n int) {
		inM[n] = true
		picked = append(picked, n)
		t.charge(n)
	}
	clear(t.moved)
	t.reset(req)
	for _, n := range s.forced {
		take(n)
	}
	for pass := 0; pass < 2 && len(picked) < s.limit; pass++ {
		if pass > 0 {
			t.reset(req)
		}
		h := &nodeHeap{}
		for n := range full.nn {
			if !inM[n] {
				if v := t.value(n); v > 0 {
					h.n, h.v = append(h.n, n), append(h.v, v)
				}
			}
		}
		heap.Init(h)
		for h.Len() > 0 && len(picked) < s.limit {
			n := h.n[0]
			v := t.value(n)
			if v <= 0 {
				heap.Pop(h)
				continue
			}
			if v < h.v[0] { // stale: re-rank
				h.v[0] = v
				heap.Fix(h, 0)
				if h.n[0] != n {
					continue
				}
			}
			heap.Pop(h)
			take(n)
		}
	}
	for _, n := range t.score {
		if len(picked) >= s.limit {
			break
		}
		if !inM[n] {
			inM[n] = true
			picked = append(picked, n)
		}
	}
	keep = slices.Clone(picked)
	slices.Reverse(keep)
	return inM, keep
}
