package vbp

import (
	"errors"
	"fmt"
)

// NodeType is one kind of node a mixed sizing may buy.
type NodeType struct {
	Name     string
	Capacity []int64 // one entry per dimension, same order as the items
	Cost     float64 // > 0, per node
	Max      int     // most nodes of this type available; 0 = unlimited
}

// MixedInstance is a variable-sized vector bin packing instance: every item
// (Items expanded by their counts, numbered as in Instance.Sizes) must go
// into exactly one node, the nodes may be of any of the Types, and the
// total node cost is to be minimised.
//
// A capacity entry may be 0 (for example a node type without GPUs); such a
// node only holds items of size 0 in that dimension. Sizes must be
// non-negative.
//
// Allowed restricts items to some node types (placement constraints): an
// item may be placed only on a type it is allowed on that also has the
// capacity. Everything here (validation, SolveMixed, CheckMixed,
// MixedLowerBound) applies that rule.
type MixedInstance struct {
	Name  string
	Types []NodeType
	Items []Item
	// Allowed, when not nil, has one entry per Items entry: the indices of
	// the types that item may use (increasing, no repeats). nil means every
	// type for every item; an item's entry must be non-empty.
	Allowed [][]int
}

// MixedBin is one node of a mixed packing: its type index and items
// (expanded indices as in Instance.Sizes).
type MixedBin struct {
	Type  int
	Items []int
}

// MixedResult is SolveMixed's answer.
type MixedResult struct {
	Bins []MixedBin
	// Cost is Σ_t Count[t]·Types[t].Cost, summed in type order.
	Cost float64
	// Count is the number of nodes per type, indexed like Types.
	Count []int
	// LowerBound is a valid lower bound on the optimal cost: the largest
	// value of Bounds.
	LowerBound float64
	// Bounds gives each bound's value by name (see MixedLowerBound).
	Bounds map[string]float64
	// Optimal reports Cost ≤ LowerBound·(1+1e-9): the mix is proven
	// cheapest.
	Optimal bool
	// Method names how the packing was built: "single-type(T)" (Solve on
	// node type T), "greedy-W" or "quota-W" (the cost-efficiency greedy,
	// free or aimed at a node count, with item weights W: lp, norm,
	// randomN), "best-fit-limited" or "partition" (items tied to one type
	// first); the greedy, quota and best-fit names end in "-constrained"
	// when the items that may use the fewest types went first. The improvement
	// moves that lowered the cost follow (+downsize, +merge, +empty,
	// +split, +resolve). With one usable node type it is
	// "single-type(T)/" followed by Solve's Method.
	Method string
	// WorkUsed counts the work units spent (see SolveMixed).
	WorkUsed int64
	// TimeLimitHit reports that Options.TimeLimit stopped the run.
	TimeLimitHit bool
}

// ItemFitsNoTypeError reports an item type that exceeds, in some
// dimension, every node type it is allowed on (see MixedInstance.Allowed;
// without Allowed, every node type), so no mixed packing exists. It names
// the largest of those types (the one with the largest capacity summed over
// the dimensions, each dimension normalised by its largest capacity over
// all types; ties to the lower index) and the dimension where the item
// overshoots that type's capacity by the most (relative to the capacity).
// It wraps ErrInvalid.
type ItemFitsNoTypeError struct {
	Item     int    // index into MixedInstance.Items
	Type     int    // index of the largest (allowed) node type
	TypeName string // its name
	Dim      int    // a dimension where the item exceeds that type
	Size     int64  // the item's size in Dim
	Capacity int64  // the type's capacity in Dim
	// Restricted is set when the item is not allowed on every type, so
	// that Type is the largest of its allowed types only.
	Restricted bool
}

func (e *ItemFitsNoTypeError) Error() string {
	what, which := "fits no node type", "the largest type"
	if e.Restricted {
		what, which = "fits none of the node types it is allowed on", "the largest allowed type"
	}
	return fmt.Sprintf("vbp: item type %d %s: %s %d (%q) is short by %d in dimension %d (size %d > capacity %d)",
		e.Item, what, which, e.Type, e.TypeName, e.Size-e.Capacity, e.Dim, e.Size, e.Capacity)
}

func (e *ItemFitsNoTypeError) Unwrap() error { return ErrInvalid }

// ErrNodeLimit is wrapped by *NodeLimitError.
var ErrNodeLimit = errors.New("vbp: node type limits (Max) too small")

// NodeLimitError reports that no mixed packing within the node types' Max
// limits was found. Proven is set when a relaxation proves that none
// exists (Reason says which constraint fails); otherwise the heuristics
// found none, although one may exist. It wraps ErrNodeLimit.
type NodeLimitError struct {
	Proven bool
	Reason string
}

func (e *NodeLimitError) Error() string {
	if e.Proven {
		return "vbp: node type limits (Max) too small: " + e.Reason
	}
	return "vbp: no packing found within the node type limits (Max): " + e.Reason
}

func (e *NodeLimitError) Unwrap() error { return ErrNodeLimit }

// checkAllowed validates inst.Allowed (see MixedInstance) against the
// numbers of items and types; errors wrap ErrInvalid.
func checkAllowed(inst *MixedInstance) error {
	if inst.Allowed == nil {
		return nil
	}
	if len(inst.Allowed) != len(inst.Items) {
		return fmt.Errorf("%w: Allowed has %d entries, want one per item type (%d)", ErrInvalid, len(inst.Allowed), len(inst.Items))
	}
	for j, al := range inst.Allowed {
		if len(al) == 0 {
			return fmt.Errorf("%w: item type %d is allowed on no node type", ErrInvalid, j)
		}
		for a, t := range al {
			if t < 0 || t >= len(inst.Types) {
				return fmt.Errorf("%w: item type %d allowed on node type %d, out of range [0, %d)", ErrInvalid, j, t, len(inst.Types))
			}
			if a > 0 && t <= al[a-1] {
				return fmt.Errorf("%w: item type %d allowed types %v not increasing without repeats", ErrInvalid, j, al)
			}
		}
	}
	return nil
}

// allowSets turns a valid inst.Allowed into per item type sets indexed by
// type (nil when Allowed is nil).
func allowSets(inst *MixedInstance) [][]bool {
	if inst.Allowed == nil {
		return nil
	}
	out := make([][]bool, len(inst.Allowed))
	for j, al := range inst.Allowed {
		out[j] = make([]bool, len(inst.Types))
		for _, t := range al {
			out[j][t] = true
		}
	}
	return out
}

// mixedCost is Σ_t count[t]·Types[t].Cost, summed in type order.
func mixedCost(inst *MixedInstance, count []int) float64 {
	c := 0.0
	for t, k := range count {
		c += float64(k) * inst.Types[t].Cost
	}
	return c
}
