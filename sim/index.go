package sim

// FreeIndex answers fit queries over the free capacity of machines
// (SIMULATE.md §1.3): one implicit binary max-tree per machine class, each
// node holding the per-dimension maximum of the free vectors below it (and
// of the free task slots, when some machine has a slot limit). A subtree
// whose maximum does not dominate a demand holds no fitting machine, so
// FirstFit prunes it: O(D log n) when the first candidate subtree fits,
// more only when per-dimension maxima come from different machines; and
// each class tree keeps its last first fit as a cursor (fitHint), so that
// task after task of one demand is placed in O(1) while the machine last
// found keeps room. Machines reserved for a claimant are hidden from the
// index.
//
// Layout, for speed: a node is w values, w the stored dimensions rounded
// up to a multiple of 4 (unused values are 0 in every machine's leaf, and
// a padded demand asks 0 there), so that the common w = 4 (up to four
// resources, or three and slots) compares and takes maxima as fixed-size
// arrays with no loop and no bounds checks, and a node's two children are
// 2w consecutive values. Queries walk the tree iteratively.
type FreeIndex struct {
	res   int  // resource dimensions
	dims  int  // stored dimensions: res, plus one for slots
	w     int  // values per node: dims rounded up to a multiple of 4
	slot  bool // some machine has a slot limit
	trees []classTree
	leaf  []int32 // leaf position of each machine in its class tree
	class []ClassID
}

type classTree struct {
	machines []MachineID
	size     int     // number of leaves, a power of two
	node     []int64 // 2·size nodes of w values; node 1 is the root
	cap      Vec     // the class's capacity (BestAligned)
	align    *alignIndex
	hint     fitHint
}

// fitHint remembers the last first fit of a class tree, as a cursor: no
// leaf left of leaf holds need (leaf −1: no leaf holds it). It stays
// true while leaves left of it only fall (FreeIndex.set drops the hint
// when one rises), and then holds for every demand that dominates need,
// so that a first fit of such a demand starts at leaf instead of the
// root. Placing task after task of one demand, as most rounds do, then
// costs one leaf comparison while the last machine still has room.
type fitHint struct {
	valid bool
	leaf  int
	need  padBuf // the padded demand, w ≤ len(padBuf) values
}

// unfit marks padding leaves and hidden machines: below every demand.
const unfit = -1

func newFreeIndex(res int, slot bool, class []ClassID, caps []Vec) *FreeIndex {
	x := &FreeIndex{res: res, dims: res, slot: slot, trees: make([]classTree, len(caps)), leaf: make([]int32, len(class)), class: class}
	if slot {
		x.dims++
	}
	x.w = (x.dims + 3) &^ 3
	for m, c := range class {
		t := &x.trees[c]
		x.leaf[m] = int32(len(t.machines))
		t.machines = append(t.machines, MachineID(m))
	}
	for c := range x.trees {
		t := &x.trees[c]
		t.cap = caps[c]
		t.size = 1
		for t.size < len(t.machines) {
			t.size <<= 1
		}
		t.node = make([]int64, 2*t.size*x.w)
		for i := range t.node {
			t.node[i] = unfit
		}
	}
	return x
}

// set writes machine m's leaf (free per dimension and free slots; hidden
// machines get unfit) and refreshes its ancestors, stopping at the first
// one whose maxima do not change. When no value fell, an ancestor's
// maximum is max(its old maximum, the leaf), so siblings are not read.
// O(D log n).
func (x *FreeIndex) set(m MachineID, free Vec, slots int64, hidden bool) {
	t := &x.trees[x.class[m]]
	w := x.w
	node := t.node
	k := t.size + int(x.leaf[m])
	if t.align != nil {
		t.align.changed(x.leaf[m])
	}
	var buf padBuf
	v := x.pad(free, &buf) // unused values 0
	if x.slot {
		v[x.res] = slots
	}
	if hidden {
		for d := range v {
			v[d] = unfit
		}
	}
	if h := &t.hint; h.valid && (h.leaf < 0 || int(x.leaf[m]) < h.leaf) && rises(node[k*w:k*w+w], v) {
		h.valid = false // a machine left of the cursor may hold its demand now
	}
	if w == 4 {
		set4(node, k, (*[4]int64)(v))
		return
	}
	leaf := node[k*w : k*w+w]
	fell := false
	for d, y := range leaf[:len(v)] {
		if v[d] < y {
			fell = true
		}
	}
	copy(leaf, v)
	if !fell {
		for k >>= 1; k >= 1; k >>= 1 {
			if !raise(node[k*w:k*w+w], leaf) { // the ancestors' maxima are unchanged too
				return
			}
		}
		return
	}
	for k >>= 1; k >= 1; k >>= 1 {
		if !maxOf(node[k*w:k*w+w], node[2*k*w:2*k*w+2*w]) {
			return
		}
	}
}

// set4 is set for nodes of 4 values: it writes v into leaf k and walks
// up.
func set4(node []int64, k int, v *[4]int64) {
	leaf := (*[4]int64)(node[4*k:])
	fell := v[0] < leaf[0] || v[1] < leaf[1] || v[2] < leaf[2] || v[3] < leaf[3]
	leaf[0], leaf[1], leaf[2], leaf[3] = v[0], v[1], v[2], v[3] // (*leaf = *v would call memmove)
	if !fell {
		for k >>= 1; k >= 1; k >>= 1 {
			p := (*[4]int64)(node[4*k:])
			if ge4(p, v) {
				return // the ancestors' maxima are unchanged too
			}
			p[0], p[1], p[2], p[3] = max(p[0], v[0]), max(p[1], v[1]), max(p[2], v[2]), max(p[3], v[3])
		}
		return
	}
	for k >>= 1; k >= 1; k >>= 1 {
		c := (*[8]int64)(node[8*k:])
		p := (*[4]int64)(node[4*k:])
		v0, v1, v2, v3 := max(c[0], c[4]), max(c[1], c[5]), max(c[2], c[6]), max(c[3], c[7])
		if v0 == p[0] && v1 == p[1] && v2 == p[2] && v3 == p[3] {
			return
		}
		p[0], p[1], p[2], p[3] = v0, v1, v2, v3
	}
}

// rises reports whether some value of v exceeds its value in p
// (len(p) = len(v)).
func rises(p, v []int64) bool {
	for d, y := range v[:len(p)] {
		if y > p[d] {
			return true
		}
	}
	return false
}

// raise sets p to max(p, v) value by value (len(p) = len(v), a multiple
// of 4) and reports whether p changed.
func raise(p, v []int64) bool {
	changed := false
	for d, y := range v[:len(p)] {
		if y > p[d] {
			p[d] = y
			changed = true
		}
	}
	return changed
}

// maxOf sets p to the value-by-value maximum of the two halves of lr (the
// two children of p's node; len(lr) = 2·len(p)) and reports whether p
// changed.
func maxOf(p, lr []int64) bool {
	l, r := lr[:len(p)], lr[len(p):2*len(p)]
	changed := false
	for d := range p {
		if v := max(l[d], r[d]); v != p[d] {
			p[d] = v
			changed = true
		}
	}
	return changed
}

// padBuf holds a padded demand on the stack for up to 8 values per node.
type padBuf [8]int64

// pad returns demand r padded to w values (a slot counts 1; unused values
// 0), in buf when it is large enough.
func (x *FreeIndex) pad(r Vec, buf *padBuf) []int64 {
	var need []int64
	if x.w <= len(buf) {
		need = buf[:x.w]
	} else {
		need = make([]int64, x.w)
	}
	for d, v := range r[:x.res] {
		need[d] = v
	}
	if x.slot {
		need[x.res] = 1
	}
	return need
}

// holds reports whether node k dominates the padded demand need (len(need)
// = w, a multiple of 4).
func holds(node []int64, k int, need []int64) bool {
	if len(need) == 4 {
		return ge4((*[4]int64)(node[4*k:]), (*[4]int64)(need))
	}
	w := len(need)
	n := node[k*w : k*w+w]
	for d, v := range need[:len(n)] {
		if v > n[d] {
			return false
		}
	}
	return true
}

// ge4 reports whether n ≥ r in all four values.
func ge4(n, r *[4]int64) bool {
	return r[0] <= n[0] && r[1] <= n[1] && r[2] <= n[2] && r[3] <= n[3]
}

// fits reports whether node k of t dominates demand r (and has a slot).
func (x *FreeIndex) fits(t *classTree, k int, r Vec) bool {
	var buf padBuf
	return holds(t.node, k, x.pad(r, &buf))
}

// FirstFit returns the machine of class c with the lowest id whose free
// capacity holds r (and a free slot), or NoMachine.
func (x *FreeIndex) FirstFit(c ClassID, r Vec) MachineID {
	t := &x.trees[c]
	var buf padBuf
	need := x.pad(r, &buf)
	h := &t.hint
	hinted := x.w <= len(h.need) // else no room for the hint's demand
	var k int
	if hinted && h.valid && dominates(need, h.need[:x.w]) {
		k = t.resume(h.leaf, need)
	} else {
		k = firstFrom(t.node, t.size, 1, need)
	}
	if hinted {
		h.valid, h.leaf = true, k
		copy(h.need[:], need)
	}
	if k >= 0 {
		return t.machines[k]
	}
	return NoMachine
}

// resume returns the first leaf at or right of leaf l that holds need, or
// −1 (l = −1: none). No leaf left of l may hold need.
func (t *classTree) resume(l int, need []int64) int {
	if l < 0 {
		return -1
	}
	k := t.size + l
	if holds(t.node, k, need) {
		return l
	}
	if k = nextRight(t.node, k, need); k < 0 {
		return -1
	}
	return firstFrom(t.node, t.size, k, need)
}

// dominates reports whether a ≥ b value by value (len(a) = len(b)).
func dominates(a, b []int64) bool {
	for d, y := range b[:len(a)] {
		if a[d] < y {
			return false
		}
	}
	return true
}

// firstFrom returns the leftmost leaf, at or right of node k's subtree in
// left-to-right order, whose path from the root holds need, or −1 (node k
// must hold need unless it is the root). From the root it is the first
// fit. It descends left first and, below a node neither of whose children
// holds need (its maxima came from different machines), resumes at
// nextRight.
func firstFrom(node []int64, size, k int, need []int64) int {
	if len(need) == 4 {
		return firstFrom4(node, size, k, (*[4]int64)(need))
	}
	if k == 1 && !holds(node, 1, need) {
		return -1
	}
	for k < size {
		k <<= 1
		if holds(node, k, need) {
			continue
		}
		k++
		if holds(node, k, need) {
			continue
		}
		if k = nextRight(node, k>>1, need); k < 0 {
			return -1
		}
	}
	return k - size
}

// firstFrom4 is firstFrom for nodes of 4 values, with the comparisons
// inlined.
func firstFrom4(node []int64, size, k int, need *[4]int64) int {
	if k == 1 && !ge4((*[4]int64)(node[4:]), need) {
		return -1
	}
	for k < size {
		k <<= 1
		c := (*[8]int64)(node[4*k:])
		if ge4((*[4]int64)(c[0:4]), need) {
			continue
		}
		k++
		if ge4((*[4]int64)(c[4:8]), need) {
			continue
		}
		for k >>= 1; ; k >>= 1 { // resume at nextRight(k)
			if k <= 1 {
				return -1
			}
			if k&1 == 0 && ge4((*[4]int64)(node[4*k+4:]), need) {
				k++
				break
			}
		}
	}
	return k - size
}

// nextRight returns the right sibling of the nearest left child at or
// above node k whose sibling holds need, or −1 when none does: where a
// left-to-right search resumes after node k's subtree.
func nextRight(node []int64, k int, need []int64) int {
	for ; k > 1; k >>= 1 {
		if k&1 == 0 && holds(node, k+1, need) {
			return k + 1
		}
	}
	return -1
}

// ForEachFit calls fn for every machine of class c that holds r, in id
// order, until fn returns false. It returns false when fn did.
func (x *FreeIndex) ForEachFit(c ClassID, r Vec, fn func(MachineID) bool) bool {
	t := &x.trees[c]
	var buf padBuf
	need := x.pad(r, &buf)
	for k := firstFrom(t.node, t.size, 1, need); k >= 0; {
		if !fn(t.machines[k]) {
			return false
		}
		next := nextRight(t.node, t.size+k, need)
		if next < 0 {
			break
		}
		k = firstFrom(t.node, t.size, next, need)
	}
	return true
}

// MaxFree returns the per-dimension maximum free capacity over the visible
// machines of class c (negative when none is visible). Do not modify.
func (x *FreeIndex) MaxFree(c ClassID) Vec {
	t := &x.trees[c]
	return t.node[x.w : x.w+x.res]
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
// machines have higher ids. (For the alignment itself, BestAligned keeps
// the answer up to date instead.)
func (x *FreeIndex) MaxScore(c ClassID, r Vec, score func(free Vec) float64) (MachineID, float64) {
	t := &x.trees[c]
	var buf padBuf
	need := x.pad(r, &buf)
	if !holds(t.node, 1, need) {
		return NoMachine, 0
	}
	b := bnb{x: x, t: t, need: need, score: score, best: -1}
	b.visit(1, score(t.node[x.w:x.w+x.res]))
	if b.best < 0 {
		return NoMachine, 0
	}
	return t.machines[b.best], b.val
}

type bnb struct {
	x     *FreeIndex
	t     *classTree
	need  []int64 // the demand padded to w values
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
	w, res := b.x.w, b.x.res
	l, r := 2*k, 2*k+1
	var ul, ur float64
	okL, okR := holds(t.node, l, b.need), holds(t.node, r, b.need)
	if okL {
		ul = b.score(t.node[l*w : l*w+res])
	}
	if okR {
		ur = b.score(t.node[r*w : r*w+res])
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
