package vbp

import (
	"fmt"

	"github.com/capplan/capplan/binpack"
)

// Packing lists, per bin, the indices of the items packed in it (indices
// into Instance.Sizes()).
type Packing [][]int

// CheckError says why a packing is invalid. Bin, Item and Dim are -1 when
// not applicable.
type CheckError struct {
	Bin, Item, Dim int
	Reason         string
}

func (e *CheckError) Error() string {
	return fmt.Sprintf("vbp: invalid packing (bin %d, item %d, dim %d): %s", e.Bin, e.Item, e.Dim, e.Reason)
}

// Check verifies p against inst from scratch: every item index is in range
// and appears exactly once, no bin is empty, and in every bin and dimension
// the summed sizes are at most the capacity, summed exactly (binpack.Sum:
// no int64 overflow can hide a load above the capacity). It returns a
// *CheckError for the first violation found. Cost O(n·d).
func Check(inst *Instance, p Packing) error {
	sizes := inst.Sizes()
	d := len(inst.Capacity)
	seen := make([]bool, len(sizes))
	for b, bin := range p {
		if len(bin) == 0 {
			return &CheckError{b, -1, -1, "empty bin"}
		}
		load := make([]binpack.Sum, d)
		for _, i := range bin {
			if i < 0 || i >= len(sizes) {
				return &CheckError{b, i, -1, "item index out of range"}
			}
			if seen[i] {
				return &CheckError{b, i, -1, "item packed twice"}
			}
			seen[i] = true
			if len(sizes[i]) != d {
				return &CheckError{b, i, -1, "item dimension differs from capacity"}
			}
			for k := range load {
				load[k].Add(sizes[i][k])
			}
		}
		for k, l := range load {
			if l.Cmp(inst.Capacity[k]) > 0 {
				return &CheckError{b, -1, k, fmt.Sprintf("load %s exceeds capacity %d", l, inst.Capacity[k])}
			}
		}
	}
	for i, s := range seen {
		if !s {
			return &CheckError{-1, i, -1, "item not packed"}
		}
	}
	return nil
}

// ItemTooLargeError reports an item that exceeds the bin capacity in some
// dimension, so no packing exists. It wraps ErrInvalid.
type ItemTooLargeError struct {
	Item, Dim      int
	Size, Capacity int64
}

func (e *ItemTooLargeError) Error() string {
	return fmt.Sprintf("vbp: item %d has size %d > capacity %d in dimension %d", e.Item, e.Size, e.Capacity, e.Dim)
}

func (e *ItemTooLargeError) Unwrap() error { return ErrInvalid }

// problem is the solver's view of an instance: expanded items with integer
// sizes (used for every fit test) and normalised float sizes w = size/cap
// (used only for ordering and scoring).
type problem struct {
	n, d int
	cap  []int64
	size [][]int64
	w    [][]float64
	vol  []float64 // Σ_k w[i][k]
	// neg[k] is set when some item has a negative size in dimension k;
	// bounds that assume non-negative sizes skip such dimensions.
	neg []bool
}

func newProblem(inst *Instance) (*problem, error) {
	d := len(inst.Capacity)
	if d == 0 {
		return nil, fmt.Errorf("%w: no dimensions", ErrInvalid)
	}
	for k, c := range inst.Capacity {
		if c <= 0 {
			return nil, fmt.Errorf("%w: capacity[%d] = %d ≤ 0", ErrInvalid, k, c)
		}
	}
	if err := checkTotals([][]int64{inst.Capacity}, inst.Items); err != nil {
		return nil, err
	}
	p := &problem{d: d, cap: inst.Capacity, size: inst.Sizes(), neg: make([]bool, d)}
	p.n = len(p.size)
	p.w = make([][]float64, p.n)
	p.vol = make([]float64, p.n)
	for i, s := range p.size {
		if len(s) != d {
			return nil, fmt.Errorf("%w: item %d has %d dimensions, capacity %d", ErrInvalid, i, len(s), d)
		}
		p.w[i] = make([]float64, d)
		for k, v := range s {
			if v < 0 {
				p.neg[k] = true
			}
			if v > p.cap[k] {
				return nil, &ItemTooLargeError{i, k, v, p.cap[k]}
			}
			p.w[i][k] = float64(v) / float64(p.cap[k])
			p.vol[i] += p.w[i][k]
		}
	}
	return p, nil
}

// fits reports whether item i fits on top of load (binpack.Fits).
func (p *problem) fits(load []int64, i int) bool { return binpack.Fits(load, p.size[i], p.cap) }

// binVol returns the normalised volume Σ_k load_k/c_k of a bin.
func (p *problem) binVol(load []int64) float64 {
	v := 0.0
	for k, l := range load {
		v += float64(l) / float64(p.cap[k])
	}
	return v
}

func (p *problem) add(load []int64, i int, sign int64) {
	for k, v := range p.size[i] {
		load[k] += sign * v
	}
}

// loads recomputes the load vector of every bin of pk.
func (p *problem) loads(pk Packing) [][]int64 {
	out := make([][]int64, len(pk))
	for b, bin := range pk {
		out[b] = make([]int64, p.d)
		for _, i := range bin {
			p.add(out[b], i, 1)
		}
	}
	return out
}

// dropTaken removes the items marked in taken from items, in place,
// keeping the order.
func dropTaken(items []int, taken map[int]bool) []int {
	out := items[:0]
	for _, i := range items {
		if !taken[i] {
			out = append(out, i)
		}
	}
	return out
}
