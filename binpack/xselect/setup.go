package xselect

import (
	"slices"
	"sort"

	"github.com/capplan/capplan/binpack"
)

// instance holds the derived, read-only data every probe shares.
type instance struct {
	p          *Problem
	nn, na, nk int
	nd         int
	// vol[k] is the normalised volume Σ_d c_{k,d}/T_d of shape k, where
	// T_d is the total capacity in dimension d (dimensions with T_d = 0
	// are skipped).
	vol []float64
	// byVol lists the shapes by increasing volume (ties by index).
	byVol []int
	// capVol[n] is the normalised volume of node n's capacity.
	capVol []float64
	// elig[a][n] says whether the problem lets app a use node n.
	elig [][]bool
	// can[a][n] says whether a container of a may ever sit on n: n is
	// eligible for a and for every app a needs there transitively
	// (Colocate closure), and no two apps of that closure are exlocated.
	can [][]bool
	// colo[a] lists, sorted and without repeats, the apps a needs on its
	// nodes; needers[b] the apps that need b.
	colo, needers [][]int
	// exl[a] lists, sorted and without repeats, the apps exlocated with a.
	exl [][]int
	// cap[a] is a's MaxPerNode (0: none).
	cap []int
	// plain[a]: a has no MaxPerNode, colocation or exlocation rule of its
	// own, so admitting it only takes eligibility and room.
	plain []bool
	// eligNodes[a] lists the nodes the packer may use for a (can[a],
	// restricted to the active nodes) in packing order.
	eligNodes [][]int
	// appsOf[n] lists the apps the packer may put on node n (nil for an
	// inactive node).
	appsOf [][]int
	// order is the greedy node order over the active nodes.
	order []int
	// active[n]: the packer may change node n (all nodes outside
	// incremental mode).
	active []bool
	// tol[n][d] = −packTol·cap_{n,d} is the packer's fit tolerance as a
	// (negative) load: binpack.Fits(tol[n], shape, free) lets a shape
	// overshoot node n's free space by packTol·cap.
	tol [][]float64
	// total[d] is the cluster capacity in dimension d.
	total []float64
}

func newInstance(p *Problem) *instance {
	in := &instance{p: p, nn: len(p.Nodes), na: len(p.Apps), nk: len(p.Shapes), nd: len(p.Dims)}
	in.total = make([]float64, in.nd)
	for _, n := range p.Nodes {
		for d, v := range n.Capacity {
			in.total[d] += v
		}
	}
	in.vol = make([]float64, in.nk)
	for k, s := range p.Shapes {
		in.vol[k] = in.norm(s)
	}
	in.byVol = make([]int, in.nk)
	for k := range in.byVol {
		in.byVol[k] = k
	}
	sort.SliceStable(in.byVol, func(i, j int) bool { return in.vol[in.byVol[i]] < in.vol[in.byVol[j]] })
	in.capVol = make([]float64, in.nn)
	in.tol = make([][]float64, in.nn)
	for n, node := range p.Nodes {
		in.capVol[n] = in.norm(node.Capacity)
		in.tol[n] = make([]float64, in.nd)
		for d, c := range node.Capacity {
			in.tol[n][d] = -packTol * c
		}
	}
	in.elig = make([][]bool, in.na)
	for a, app := range p.Apps {
		in.elig[a] = make([]bool, in.nn)
		if app.Eligible == nil {
			for n := range in.elig[a] {
				in.elig[a][n] = true
			}
		} else {
			for _, n := range app.Eligible {
				in.elig[a][n] = true
			}
		}
	}
	in.rules()
	in.active = make([]bool, in.nn)
	for n := range in.active {
		in.active[n] = true
	}
	in.lists()
	return in
}

// norm returns the normalised volume Σ_d v_d/T_d.
func (in *instance) norm(v []float64) float64 {
	s := 0.0
	for d, x := range v {
		if in.total[d] > 0 { // a dimension no node offers adds no volume
			s += x / in.total[d]
		}
	}
	return s
}

// rules derives colo, needers, exl, cap, plain and can from the problem.
func (in *instance) rules() {
	p := in.p
	in.colo = make([][]int, in.na)
	in.needers = make([][]int, in.na)
	in.exl = make([][]int, in.na)
	in.cap = make([]int, in.na)
	in.plain = make([]bool, in.na)
	for _, pr := range p.Colocate {
		in.colo[pr[0]] = append(in.colo[pr[0]], pr[1])
		in.needers[pr[1]] = append(in.needers[pr[1]], pr[0])
	}
	for _, pr := range p.Exlocate {
		in.exl[pr[0]] = append(in.exl[pr[0]], pr[1])
		in.exl[pr[1]] = append(in.exl[pr[1]], pr[0])
	}
	for a := range in.na {
		in.colo[a] = sortedSet(in.colo[a])
		in.needers[a] = sortedSet(in.needers[a])
		in.exl[a] = sortedSet(in.exl[a])
		in.cap[a] = p.Apps[a].MaxPerNode
		in.plain[a] = in.cap[a] == 0 && len(in.colo[a]) == 0 && len(in.exl[a]) == 0
	}
	// can[a] = ∩ over the Colocate closure C(a) of elig, or nothing if
	// two apps of C(a) are exlocated (all of C(a) shares a's node).
	in.can = make([][]bool, in.na)
	for a := range in.na {
		if len(in.colo[a]) == 0 {
			in.can[a] = in.elig[a]
			continue
		}
		closure := []int{a}
		seen := map[int]bool{a: true}
		for i := 0; i < len(closure); i++ {
			for _, b := range in.colo[closure[i]] {
				if !seen[b] {
					seen[b] = true
					closure = append(closure, b)
				}
			}
		}
		in.can[a] = make([]bool, in.nn)
		for _, b := range closure {
			for _, c := range in.exl[b] {
				if seen[c] {
					closure = nil // a can never be placed
				}
			}
		}
		if closure == nil {
			continue
		}
		for n := range in.can[a] {
			ok := true
			for _, b := range closure {
				ok = ok && in.elig[b][n]
			}
			in.can[a][n] = ok
		}
	}
}

func sortedSet(s []int) []int {
	slices.Sort(s)
	return slices.Compact(s)
}

// lists rebuilds order, appsOf and eligNodes over the active nodes.
func (in *instance) lists() {
	in.appsOf = make([][]int, in.nn)
	for a := range in.na {
		for n, ok := range in.can[a] {
			if ok && in.active[n] {
				in.appsOf[n] = append(in.appsOf[n], a)
			}
		}
	}
	// Node order (ALGORITHMS §2.4): nodes open to the fewest applications
	// first, so that scarce nodes serve the applications that need them;
	// then the largest normalised capacity; then the index.
	in.order = in.order[:0]
	for n := range in.nn {
		if in.active[n] {
			in.order = append(in.order, n)
		}
	}
	sort.SliceStable(in.order, func(i, j int) bool {
		x, y := in.order[i], in.order[j]
		if len(in.appsOf[x]) != len(in.appsOf[y]) {
			return len(in.appsOf[x]) < len(in.appsOf[y])
		}
		return in.capVol[x] > in.capVol[y]
	})
	in.eligNodes = make([][]int, in.na)
	for _, n := range in.order {
		for _, a := range in.appsOf[n] {
			in.eligNodes[a] = append(in.eligNodes[a], n)
		}
	}
}

// restrict returns a copy of in whose packer may only change the nodes
// with active[n] true; the rule tables are shared.
func (in *instance) restrict(active []bool) *instance {
	c := *in
	c.active = active
	c.order = nil
	c.lists()
	return &c
}

// fits reports whether shape k fits into free space free of node n, up
// to the packer's tolerance (binpack.Fits with load tol[n]).
func (in *instance) fits(k, n int, free []float64) bool {
	return binpack.Fits(in.tol[n], in.p.Shapes[k], free)
}

// needs reports whether app a needs app b on its nodes.
func (in *instance) needs(a, b int) bool {
	_, ok := slices.BinarySearch(in.colo[a], b)
	return ok
}

// excludes reports whether apps a and b are exlocated.
func (in *instance) excludes(a, b int) bool {
	_, ok := slices.BinarySearch(in.exl[a], b)
	return ok
}
