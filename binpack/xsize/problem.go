package xsize

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/capplan/capplan/binpack"
)

// Cost selects the cost of one container shape c in normalised units
// ĉ_d = c_d / Scale_d: binpack.Cost, the one definition shared with the
// documents and the packer.
type Cost = binpack.Cost

const (
	// SumCost charges ‖ĉ‖₁ = Σ_d ĉ_d, X-Flex's charging unit (§2.2).
	SumCost = binpack.SumCost
	// MaxCost charges ‖ĉ‖∞ = max_d ĉ_d, the DRF-like notion of fit.
	MaxCost = binpack.MaxCost
)

// ParseCost parses "sum" or "max" (the inverse of String).
func ParseCost(s string) (Cost, error) {
	switch strings.ToLower(s) {
	case "sum":
		return SumCost, nil
	case "max":
		return MaxCost, nil
	}
	return 0, fmt.Errorf("%w: cost %q is not one of sum, max", ErrInvalid, s)
}

// Request is one request class of the forecast.
type Request struct {
	// Size in real units, one entry per dimension, each ≥ 0 and not all 0.
	// Fit and dominance decisions compare these exact values.
	Size []float64
	// Weight is the frequency (optionally × duration), > 0.
	Weight float64
	// Label is opaque (e.g. the application name).
	Label string
	// Nodes, when not nil, are the indices into Problem.Nodes of the node
	// types the request may run on (its application's placement
	// constraints): a shape serves the request only if it dominates it and
	// fits one of them. nil means every node type.
	Nodes []int
}

// Problem is one shape-selection instance. Identical request sizes may
// repeat; they are merged internally.
type Problem struct {
	Dims     []string    // dimension names
	Scale    []float64   // aggregate cluster capacity per dimension, > 0
	Requests []Request   // the forecast
	Nodes    [][]float64 // capacity of each node type, real units
	K        int         // number of shapes allowed, ≥ 1
	Cost     Cost
}

// Sentinel errors. Errors returned by this package wrap one of them.
var (
	// ErrInvalid marks a Problem (or shape list) that violates its contract.
	ErrInvalid = errors.New("xsize: invalid problem")
	// ErrInfeasible: no set of K shapes, each fitting a node type, covers
	// every request (or, in Evaluate, some request fits no given shape).
	ErrInfeasible = errors.New("xsize: infeasible")
	// ErrTooLarge: the instance exceeds a method's size guard.
	ErrTooLarge = errors.New("xsize: instance too large for this method")
	// ErrCost: the method does not support the Problem's Cost.
	ErrCost = errors.New("xsize: method does not support this cost")
)

// InputError locates a contract violation in a Problem. It wraps ErrInvalid.
type InputError struct {
	Field  string // "Dims", "Scale", "Requests", "Nodes", "K", "Cost"
	Index  int    // index into Field, or -1
	Dim    int    // dimension index, or -1
	Reason string
}

func (e *InputError) Error() string {
	var b strings.Builder
	b.WriteString("xsize: invalid problem: ")
	b.WriteString(e.Field)
	if e.Index >= 0 {
		fmt.Fprintf(&b, "[%d]", e.Index)
	}
	if e.Dim >= 0 {
		fmt.Fprintf(&b, " dimension %d", e.Dim)
	}
	b.WriteString(": ")
	b.WriteString(e.Reason)
	return b.String()
}

// Unwrap returns ErrInvalid.
func (e *InputError) Unwrap() error { return ErrInvalid }

// Shortfall is one reason why a request does not fit a node type.
type Shortfall struct {
	Node     int     // node type index
	Dim      int     // dimension index
	Size     float64 // request size in that dimension
	Capacity float64 // node capacity in that dimension
}

// NoFitError reports a request that fits no node type, with every shortfall
// against every node type. It wraps ErrInvalid.
type NoFitError struct {
	Request    int    // index into Problem.Requests
	Dim        int    // the first dimension short on the closest node type
	DimName    string // Problem.Dims[Dim], if named
	Shortfalls []Shortfall
}

func (e *NoFitError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "xsize: request %d fits no node type (dimension %d", e.Request, e.Dim)
	if e.DimName != "" {
		fmt.Fprintf(&b, " %q", e.DimName)
	}
	b.WriteString(")")
	const show = 4 // longer lists are shortened
	for i, s := range e.Shortfalls {
		if i == show {
			fmt.Fprintf(&b, "; … %d more", len(e.Shortfalls)-show)
			break
		}
		fmt.Fprintf(&b, "; node type %d dim %d: %g > %g", s.Node, s.Dim, s.Size, s.Capacity)
	}
	return b.String()
}

// Unwrap returns ErrInvalid.
func (e *NoFitError) Unwrap() error { return ErrInvalid }

// maxDims bounds the dimensions: supports are 64-bit masks (lines.go).
const maxDims = 64

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Validate checks the contract: 1 to 64 dimensions; Dims, Scale, every
// Size and every node of the same length; Scale > 0; sizes and capacities
// finite and ≥ 0, not all zero; weights finite and > 0; K ≥ 1; at least one
// request and one node type; Request.Nodes index Problem.Nodes and are not
// empty; every request fits some node type it may use (otherwise a
// *NoFitError naming the request and dimension). Errors wrap ErrInvalid.
func (p *Problem) Validate() error {
	D := len(p.Scale)
	if D == 0 || D > maxDims {
		return &InputError{"Scale", -1, -1, fmt.Sprintf("%d dimensions, want 1..%d", D, maxDims)}
	}
	if p.Dims != nil && len(p.Dims) != D {
		return &InputError{"Dims", -1, -1, fmt.Sprintf("%d names for %d dimensions", len(p.Dims), D)}
	}
	for d, s := range p.Scale {
		if !finite(s) || s <= 0 {
			return &InputError{"Scale", -1, d, fmt.Sprintf("scale %g, want finite > 0", s)}
		}
	}
	if p.K < 1 {
		return &InputError{"K", -1, -1, fmt.Sprintf("K = %d, want ≥ 1", p.K)}
	}
	if p.Cost != SumCost && p.Cost != MaxCost {
		return &InputError{"Cost", -1, -1, fmt.Sprintf("unknown cost %d", int(p.Cost))}
	}
	if len(p.Requests) == 0 {
		return &InputError{"Requests", -1, -1, "no requests"}
	}
	if len(p.Nodes) == 0 {
		return &InputError{"Nodes", -1, -1, "no node types"}
	}
	for j, n := range p.Nodes {
		if err := checkVector("Nodes", j, n, D); err != nil {
			return err
		}
	}
	for i, r := range p.Requests {
		if err := checkVector("Requests", i, r.Size, D); err != nil {
			return err
		}
		if !finite(r.Weight) || r.Weight <= 0 {
			return &InputError{"Requests", i, -1, fmt.Sprintf("weight %g, want finite > 0", r.Weight)}
		}
		if r.Nodes != nil && len(r.Nodes) == 0 {
			return &InputError{"Requests", i, -1, "no node type it may use (Nodes is empty)"}
		}
		for _, j := range r.Nodes {
			if j < 0 || j >= len(p.Nodes) {
				return &InputError{"Requests", i, -1, fmt.Sprintf("node type %d of %d", j, len(p.Nodes))}
			}
		}
		if err := p.checkFit(i); err != nil {
			return err
		}
	}
	return nil
}

func checkVector(field string, i int, v []float64, D int) error {
	if len(v) != D {
		return &InputError{field, i, -1, fmt.Sprintf("%d values for %d dimensions", len(v), D)}
	}
	pos := false
	for d, x := range v {
		if !finite(x) || x < 0 {
			return &InputError{field, i, d, fmt.Sprintf("value %g, want finite ≥ 0", x)}
		}
		pos = pos || x > 0
	}
	if !pos {
		return &InputError{field, i, -1, "all values are zero"}
	}
	return nil
}

// checkFit returns a *NoFitError if request i fits no node type it may
// use.
func (p *Problem) checkFit(i int) error {
	size := p.Requests[i].Size
	var short []Shortfall
	best, bestCount := -1, 0
	for j, n := range p.Nodes {
		if p.Requests[i].Nodes != nil && !slices.Contains(p.Requests[i].Nodes, j) {
			continue
		}
		sf := binpack.Shortfalls(n, size)
		if len(sf) == 0 {
			return nil
		}
		for _, f := range sf {
			short = append(short, Shortfall{Node: j, Dim: f.Dim, Size: f.Need, Capacity: f.Have})
		}
		if best < 0 || len(sf) < bestCount {
			best, bestCount = j, len(sf)
		}
	}
	e := &NoFitError{Request: i, Shortfalls: short}
	for _, s := range short {
		if s.Node == best {
			e.Dim = s.Dim
			break
		}
	}
	if e.Dim < len(p.Dims) {
		e.DimName = p.Dims[e.Dim]
	}
	return e
}
