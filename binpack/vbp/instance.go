package vbp

import "errors"

// Item is one item type of an instance: its size per dimension and how many
// identical copies must be packed.
type Item struct {
	Size  []int64
	Count int
}

// Instance is a vector bin packing instance: identical bins of capacity
// Capacity (one entry per dimension) and item types Items.
//
// Items are numbered by expanding the types in order: type 0's copies
// first, then type 1's, and so on (see Sizes). Packings refer to these
// expanded indices.
type Instance struct {
	Name     string
	Capacity []int64
	Items    []Item
}

// NumItems returns Σ Count, the number of individual items.
func (inst *Instance) NumItems() int {
	n := 0
	for _, it := range inst.Items {
		n += it.Count
	}
	return n
}

// Sizes returns the size vector of every individual item, types expanded by
// their counts. The slices alias the Item.Size slices.
func (inst *Instance) Sizes() [][]int64 {
	out := make([][]int64, 0, inst.NumItems())
	for _, it := range inst.Items {
		for c := 0; c < it.Count; c++ {
			out = append(out, it.Size)
		}
	}
	return out
}

// ErrInvalid is wrapped by errors about an instance that cannot be packed
// or is inconsistent (dimension mismatch, item larger than a bin).
var ErrInvalid = errors.New("vbp: invalid instance")
