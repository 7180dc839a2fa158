package sim

// FreeIndex answers fit queries over the free capacity of machines
// (SIMULATE.md §1.3): one implicit binary max-tree per machine class, each
// node holding the per-dimension maximum of the free vectors below it (and
// of the free task slots, when some machine has a slot limit). A subtree
// whose maximum does not dominate a demand holds no fitting machine, so
// FirstFit prunes it: O(D log n) when the first candidate subtree fits,
// more only when per-dimension maxima come from different machines.
// Machines reserved for a claimant are hidden from the index.
type FreeIndex struct {
	res   int  // resource dimensions
	dims  int  // stored dimensions: res, plus one for slots
	slot  bool // some machine has a slot limit
	trees []classTree
	leaf  []int32 // leaf position of each machine in its class tree
	class []ClassID
}

type classTree struct {
	machines []MachineID
	size     int     // number of leaves, a power of two
	node     []int64 // 2·size nodes of dims values; node 1 is the root
}

// unfit marks padding leaves and hidden machines: below every demand.
const unfit = -1

func newFreeIndex(res int, slot bool, class []ClassID, nclass int) *FreeIndex {
	x := &FreeIndex{res: res, dims: res, slot: slot, trees: make([]classTree, nclass), leaf: make([]int32, len(class)), class: class}
	if slot {
		x.dims++
	}
	for m, c := range class {
		t := &x.trees[c]
		x.leaf[m] = int32(len(t.machines))
		t.machines = append(t.machines, MachineID(m))
	}
	for c := range x.trees {
		t := &x.trees[c]
		t.size = 1
		for t.size < len(t.machines) {
			t.size <<= 1
		}
		t.node = make([]int64, 2*t.size*x.dims)
		for i := range t.node {
			t.node[i] = unfit
		}
	}
	return x
}

// set writes machine m's leaf (free per dimension and free slots; hidden
// machines get unfit) and refreshes its ancestors. O(D log n).
func (x *FreeIndex) set(m MachineID, free Vec, slots int64, hidden bool) {
	t := &x.trees[x.class[m]]
	D := x.dims
	k := t.size + int(x.leaf[m])
	leaf := t.node[k*D : k*D+D]
	if hidden {
		for d := range leaf {
			leaf[d] = unfit
		}
	} else {
		copy(leaf, free)
		if x.slot {
			leaf[x.res] = slots
		}
	}
	for k >>= 1; k >= 1; k >>= 1 {
		p := t.node[k*D : k*D+D]
		l := t.node[2*k*D : 2*k*D+D]
		r := t.node[(2*k+1)*D : (2*k+1)*D+D]
		changed := false
		for d := range p {
			if v := max(l[d], r[d]); v != p[d] {
				p[d] = v
				changed = true
			}
		}
		if !changed { // the ancestors' maxima are unchanged too
			return
		}
	}
}

// fits reports whether node k of t dominates demand r (and has a slot).
func (x *FreeIndex) fits(t *classTree, k int, r Vec) bool {
	n := t.node[k*x.dims : k*x.dims+x.dims]
	for d, v := range r {
		if v > n[d] {
			return false
		}
	}
	return !x.slot || n[x.res] >= 1
}

// FirstFit returns the machine of class c with the lowest id whose free
// capacity holds r (and a free slot), or NoMachine.
func (x *FreeIndex) FirstFit(c ClassID, r Vec) MachineID {
	t := &x.trees[c]
	if k := x.first(t, 1, r); k >= 0 {
		return t.machines[k]
	}
	return NoMachine
}

func (x *FreeIndex) first(t *classTree, k int, r Vec) int {
	if !x.fits(t, k, r) {
		return -1
	}
	if k >= t.size {
		return k - t.size
	}
	if i := x.first(t, 2*k, r); i >= 0 {
		return i
	}
	return x.first(t, 2*k+1, r)
}

// ForEachFit calls fn for every machine of class c that holds r, in id
// order, until fn returns false. It returns false when fn did.
func (x *FreeIndex) ForEachFit(c ClassID, r Vec, fn func(MachineID) bool) bool {
	t := &x.trees[c]
	return x.each(t, 1, r, fn)
}

func (x *FreeIndex) each(t *classTree, k int, r Vec, fn func(MachineID) bool) bool {
	if !x.fits(t, k, r) {
		return true
	}
	if k >= t.size {
		return fn(t.machines[k-t.size])
	}
	return x.each(t, 2*k, r, fn) && x.each(t, 2*k+1, r, fn)
}

// MaxFree returns the per-dimension maximum free capacity over the visible
// machines of class c (negative when none is visible). Do not modify.
func (x *FreeIndex) MaxFree(c ClassID) Vec {
	t := &x.trees[c]
	return t.node[x.dims : x.dims+x.res]
}

// Holds reports whether some visible machine of class c may hold r by the
// per-dimension maxima (a quick reject: false means none fits).
func (x *FreeIndex) Holds(c ClassID, r Vec) bool {
	return x.fits(&x.trees[c], 1, r)
}

// Machines returns the machines of class c in id order. Do not modify.
func (x *FreeIndex) Machines(c ClassID) []MachineID { return x.trees[c].machines }

// MaxScore returns the machine of class c that holds r and maximises
// score(free), ties to the lowest id, with its score; NoMachine when none
// holds r. score must be non-decreasing in every dimension of free (such
// as the alignment Σ_d (r_d/cap_d)(free_d/cap_d)): then score of a node's
// per-dimension maxima bounds every machine below it. A depth-first
// branch and bound visits the child of higher bound first and prunes a
// subtree whose bound is below the best found, or equal to it when all its
// machines have higher ids.
func (x *FreeIndex) MaxScore(c ClassID, r Vec, score func(free Vec) float64) (MachineID, float64) {
	t := &x.trees[c]
	if !x.fits(t, 1, r) {
		return NoMachine, 0
	}
	b := bnb{x: x, t: t, r: r, score: score, best: -1}
	b.visit(1, score(t.node[x.dims:x.dims+x.res]))
	if b.best < 0 {
		return NoMachine, 0
	}
	return t.machines[b.best], b.val
}

type bnb struct {
	x     *FreeIndex
	t     *classTree
	r     Vec
	score func(Vec) float64
	best  int // leaf index, −1 before the first
	val   float64
}

// visit explores node k (which holds r) of bound ub.
func (b *bnb) visit(k int, ub float64) {
	t := b.t
	if b.best >= 0 && (ub < b.val || ub == b.val && b.firstLeaf(k) > b.best) {
		return
	}
	if k >= t.size {
		b.best, b.val = k-t.size, ub
		return
	}
	x := b.x
	l, r := 2*k, 2*k+1
	var ul, ur float64
	okL, okR := x.fits(t, l, b.r), x.fits(t, r, b.r)
	if okL {
		ul = b.score(t.node[l*x.dims : l*x.dims+x.res])
	}
	if okR {
		ur = b.score(t.node[r*x.dims : r*x.dims+x.res])
	}
	if okR && (!okL || ur > ul) {
		b.visit(r, ur)
		if okL {
			b.visit(l, ul)
		}
		return
	}
	if okL {
		b.visit(l, ul)
	}
	if okR {
		b.visit(r, ur)
	}
}

// firstLeaf returns the leaf index of the leftmost leaf below node k.
func (b *bnb) firstLeaf(k int) int {
	for k < b.t.size {
		k *= 2
	}
	return k - b.t.size
}
