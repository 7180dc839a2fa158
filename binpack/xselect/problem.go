package xselect

import (
	"errors"
	"fmt"
	"math"
)

// ErrInvalid is wrapped by every error Validate and Solve return for an
// inconsistent Problem or Options.
var ErrInvalid = errors.New("xselect: invalid problem")

// ErrViolation is wrapped by every error Check and CheckIncremental return
// for a plan that breaks a rule of its problem.
var ErrViolation = errors.New("xselect: plan violates the problem")

// ErrTooManyInvalid is matched (errors.Is) by the *TooManyInvalidError that
// Solve returns in incremental mode when more previous-plan nodes are
// invalid under the new problem than the mutable fraction lets change.
var ErrTooManyInvalid = errors.New("xselect: too many invalid nodes in the previous plan")

// TooManyInvalidError reports that Options.From holds more nodes that
// break the new problem (capacity, eligibility, MaxPerNode, Colocate or
// Exlocate) than MutableNodes allows to change. It matches both
// ErrTooManyInvalid and ErrInvalid under errors.Is.
type TooManyInvalidError struct {
	// Nodes lists the invalid nodes, ascending.
	Nodes []int
	// Limit is MutableNodes(len(p.Nodes), Mutable).
	Limit int
}

// Error implements error; it lists at most the first ten nodes.
func (e *TooManyInvalidError) Error() string {
	show := e.Nodes
	more := ""
	if len(show) > 10 {
		show, more = show[:10], fmt.Sprintf(" and %d more", len(e.Nodes)-10)
	}
	return fmt.Sprintf("xselect: %d nodes of the previous plan are invalid (%v%s) but at most %d may change", len(e.Nodes), show, more, e.Limit)
}

// Is makes errors.Is match ErrTooManyInvalid and ErrInvalid.
func (e *TooManyInvalidError) Is(target error) bool {
	return target == ErrTooManyInvalid || target == ErrInvalid
}

const (
	// shareTol lets the shares sum to 1 up to floating-point rounding.
	shareTol = 1e-9
	// packTol is the relative slack (times the node capacity) the packer
	// allows when testing a fit, so exact fits such as 2×0.5 on 1.0 are
	// not lost to rounding.
	packTol = 1e-10
	// checkTol is Check's relative slack; it is larger than packTol so
	// that summation-order rounding can never make Check reject a packing
	// the packer accepted.
	checkTol = 1e-9
	// countTol absorbs rounding in λ·m at a breakpoint λ = j/m, so that
	// ⌊λ·m⌋ is j there and not j−1.
	countTol = 1e-9
	// mutTol absorbs rounding in φ·n, so that MutableNodes(50, 0.1) is 5
	// even if 0.1·50 rounds to 4.999….
	mutTol = 1e-9
)

// Node is one processing node.
type Node struct {
	Name string
	// Capacity holds one amount per dimension, in real units.
	Capacity []float64
}

// App is one application (owner of containers).
type App struct {
	Name string
	// Share is the target fraction σ_a > 0 of the packed normalised
	// volume; the shares of all applications sum to at most 1.
	Share float64
	// Mix[k] = m_{a,k} ≥ 0 is the forecast number of containers of shape
	// k per unit of the multiplier λ (only the proportions matter to the
	// owner; the scale sets what λ = 1 means).
	Mix []float64
	// Eligible lists the indices of the nodes the application may use;
	// nil means every node.
	Eligible []int
	// MaxPerNode caps the application's containers on any one node; 0 means no cap.
	// (MaxPerNode 1 = spread: exlocation of the application with itself.)
	MaxPerNode int
}

// Problem is an X-Select instance. Every rule is local to a node: a plan
// is valid iff each node, on its own, respects capacity, eligibility,
// MaxPerNode, Colocate and Exlocate.
type Problem struct {
	Dims   []string
	Nodes  []Node
	Shapes [][]float64
	Apps   []App
	// Colocate lists ordered pairs {a, b} of application indices, a != b: every node
	// that hosts a container of a also hosts at least one container of b
	// (Kubernetes required pod affinity on the hostname topology).
	Colocate [][2]int
	// Exlocate lists pairs {a, b}, a != b: no node hosts containers of both
	// (required pod anti-affinity). Symmetric.
	Exlocate [][2]int
}

// Container is one placed container: its shape index and owner (app index).
type Container struct {
	Shape, Owner int
}

// Reasons recorded in Unplaced. For a container of application a and
// shape k, the candidate nodes are a's eligible nodes whose empty capacity
// holds k; the first reason that applies is recorded.
const (
	// ReasonNoEligibleNode: no eligible node of the owner has the capacity
	// for the shape even when empty.
	ReasonNoEligibleNode = "no eligible node large enough"
	// ReasonFrozen: every candidate node is frozen (incremental mode: it
	// lies outside the mutable set and keeps its previous containers).
	ReasonFrozen = "eligible nodes are frozen (incremental mode)"
	// ReasonConstraint: on every mutable candidate node the final plan
	// rules the owner out: MaxPerNode reached, an exlocated application
	// present, or a colocation partner absent that could not be admitted
	// there (or that the rules exclude from the node altogether).
	ReasonConstraint = "colocation/exlocation rules leave no eligible node"
	// ReasonNoRoom: some candidate node admits the owner, but the packing
	// found leaves no room for the shape.
	ReasonNoRoom = "no room left on eligible nodes"
)

// Unplaced is a container of the next multiplier step above Plan.Lambda that
// the final plan does not hold.
type Unplaced struct {
	Shape, Owner int
	Reason       string
}

// AppResult compares what an application received with its target.
type AppResult struct {
	// Required is Σ_k ⌊Lambda·m_{a,k}⌋, the containers of the required set.
	Required int
	// Packed counts the application's containers in the plan (required
	// plus top-up, plus any frozen surplus).
	Packed int
	// Volume is the packed normalised volume (see Solve).
	Volume float64
	// Achieved is Volume divided by the total packed normalised volume
	// (0 when nothing is packed); compare with Target.
	Achieved float64
	// Target is the application's Share.
	Target float64
	// Frozen counts the application's containers on nodes kept from From;
	// Surplus the frozen containers beyond its required set (over target on
	// frozen nodes alone: cannot be fixed within the mutable fraction).
	// Both are 0 outside incremental mode. Frozen nodes are the nodes
	// outside Plan.Mutable; Surplus is Σ_k max(0, frozen_{a,k} −
	// ⌊Lambda·m_{a,k}⌋).
	Frozen, Surplus int
}

// Plan is Solve's result.
type Plan struct {
	// Nodes[n] lists the containers placed on node n.
	Nodes [][]Container
	// Lambda is the largest multiplier found whose required set
	// {⌊Lambda·m_{a,k}⌋} is fully packed (in incremental mode: held by the
	// frozen and the mutable nodes together); it is a breakpoint
	// j/m_{a,k} (or 0), and every λ up to the next breakpoint needs the
	// same set.
	Lambda float64
	// LambdaUpper is the fluid upper bound on λ (see LambdaUpper).
	LambdaUpper float64
	// Unplaced lists the containers needed to reach the next breakpoint
	// above Lambda that the plan (after top-up) does not hold.
	Unplaced []Unplaced
	// Apps holds the per-application outcome.
	Apps []AppResult
	// Probes counts the multipliers the λ search tried.
	Probes int
	// WorkUsed counts the work units of the λ search (see
	// Options.MaxWork); TimeLimitHit reports that Options.TimeLimit
	// stopped it.
	WorkUsed     int64
	TimeLimitHit bool
	// Changed lists, in incremental mode, the indices of the nodes whose containers
	// differ from Options.From (ascending); MutableLimit is MutableNodes(N, Mutable).
	Changed      []int
	MutableLimit int
	// Mutable lists, in incremental mode, the nodes Solve allowed to
	// change for the returned plan: the mutable set of the λ probe the
	// plan comes from (ascending, at most MutableLimit, a superset of
	// Changed; its nodes that kept their From containers are not in
	// Changed); Forced lists those among them whose From containers break the
	// problem and so had to change (nil if none).
	Mutable, Forced []int
}

// Count returns the number of containers an application with mix count m
// needs at multiplier lambda: ⌊lambda·m⌋ (with countTol absorbing rounding
// at the breakpoints lambda = j/m).
func Count(lambda, m float64) int {
	if m <= 0 || lambda <= 0 {
		return 0
	}
	return int(math.Floor(lambda*m + countTol))
}

// MutableNodes returns ⌊φ·n⌋ (with a tiny tolerance so 0.1·50 = 5), the
// number of nodes incremental mode may change; φ is clamped to [0,1]
// (NaN counts as 0). Cost O(1).
func MutableNodes(n int, phi float64) int {
	if !(phi > 0) || n <= 0 {
		return 0
	}
	if phi >= 1 {
		return n
	}
	return min(n, int(math.Floor(phi*float64(n)+mutTol)))
}
