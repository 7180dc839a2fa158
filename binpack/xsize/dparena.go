package xsize

// dpArena stores the states; state 0 is the root (nothing chosen).
type dpArena struct {
	nw     int
	sets   []uint64
	k      []int8
	last   []int32
	g      []float64
	h      []float64 // lower bound on the cost still to pay
	parent []int32
	table  []int32 // open addressing on (S, k, last), -1 = empty
}

func (a *dpArena) set(id int32) bitset { return a.sets[int(id)*a.nw : int(id+1)*a.nw] }

func (a *dpArena) hash(s bitset, k int8, last int32) uint64 {
	h := uint64(k)*0x9E3779B97F4A7C15 ^ uint64(uint32(last))*0xC2B2AE3D27D4EB4F
	for _, x := range s {
		h ^= x
		h *= 0x100000001B3
		h ^= h >> 29
	}
	return h
}

// lookup returns the id of state (s, k, last) or the free slot for it.
func (a *dpArena) lookup(s bitset, k int8, last int32) (id int32, slot int) {
	mask := len(a.table) - 1
	for slot = int(a.hash(s, k, last)) & mask; ; slot = (slot + 1) & mask {
		id = a.table[slot]
		if id < 0 {
			return -1, slot
		}
		if a.k[id] == k && a.last[id] == last && equalSet(a.set(id), s) {
			return id, slot
		}
	}
}

func (a *dpArena) add(s bitset, k int8, last int32, g, h float64, parent int32) int32 {
	id := int32(len(a.k))
	a.sets = append(a.sets, s...)
	a.k = append(a.k, k)
	a.last = append(a.last, last)
	a.g = append(a.g, g)
	a.h = append(a.h, h)
	a.parent = append(a.parent, parent)
	if 2*len(a.k) > len(a.table) {
		a.table = make([]int32, 2*len(a.table))
		for i := range a.table {
			a.table[i] = -1
		}
		for j := range int32(len(a.k)) {
			_, slot := a.lookup(a.set(j), a.k[j], a.last[j])
			a.table[slot] = j
		}
	}
	return id
}

func equalSet(a, b bitset) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// addOnce returns the id of state (s, k, c), storing it if needed, so that
// a completion found from it can be reconstructed.
func (a *dpArena) addOnce(s bitset, k int8, c int32, g float64, parent int32) int32 {
	if id, _ := a.lookup(s, k, c); id >= 0 {
		if g < a.g[id] {
			a.g[id], a.parent[id] = g, parent
		}
		return id
	}
	return a.add(s, k, c, g, 0, parent)
}

// orInto sets dst = a ∪ b and returns dst.
func orInto(dst, a, b bitset) bitset {
	for i := range dst {
		dst[i] = a[i] | b[i]
	}
	return dst
}
