package vbp

import (
	"errors"
	"fmt"
	"math/bits"
)

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

// MaxTotal bounds the magnitudes of an instance in every dimension: each
// capacity, and Σ Count·|size| over the item types (2^60). Within it every
// load, volume, bound and product the solvers compute in int64 keeps a
// factor of 8 of headroom, so none can overflow; a larger instance is
// refused with an error wrapping ErrInvalid. (1 EiB in bytes is 2^60.)
const MaxTotal = 1 << 60

// checkTotals returns an error wrapping ErrInvalid when a capacity or the
// total item size of a dimension exceeds MaxTotal.
func checkTotals(capacities [][]int64, items []Item) error {
	for _, caps := range capacities {
		for k, c := range caps {
			if c > MaxTotal || c < -MaxTotal {
				return fmt.Errorf("%w: capacity %d in dimension %d is outside ±%d", ErrInvalid, c, k, int64(MaxTotal))
			}
		}
	}
	if len(capacities) == 0 {
		return nil
	}
	for k := range capacities[0] {
		var total uint64 // Σ Count·|size|, saturating past MaxTotal
		for j, it := range items {
			if k >= len(it.Size) || it.Count <= 0 {
				continue
			}
			v := it.Size[k]
			mag := uint64(v)
			if v < 0 {
				mag = -mag
			}
			hi, lo := bits.Mul64(mag, uint64(it.Count))
			total += lo
			if hi != 0 || lo > MaxTotal || total > MaxTotal {
				return fmt.Errorf("%w: the items' total size in dimension %d is more than %d (from item type %d on)", ErrInvalid, k, int64(MaxTotal), j)
			}
		}
	}
	return nil
}
