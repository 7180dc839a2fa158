package vbp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
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

// mixedProblem is the solver's view of a MixedInstance: expanded items and
// the usable (non-dominated) node types.
type mixedProblem struct {
	inst  *MixedInstance
	d, n  int
	size  [][]int64 // expanded item sizes (aliasing Item.Size)
	kind  []int     // expanded item → index into inst.Items
	cost  []float64 // per type
	cap   [][]int64 // per type
	lim   []int     // per type: Max, or math.MaxInt when unlimited
	vol   []int64   // Σ_i size_i per dimension
	limit int       // work cap of one polish call, see SolveMixed
	work  int       // work of the current polish call
	// allow[j][t] reports that item type j may use type t (Allowed); nil
	// when every item may use every type.
	allow [][]bool
	// active lists the usable, non-dominated types by increasing cost
	// (ties by index). A type is unusable when no item may be placed on it
	// (allowed and fitting). Type t is dominated by an unlimited type u
	// that is at least as large in every dimension, at most as expensive
	// and allowed for every item allowed on t that fits t (identical
	// types, allowed for the same items: the lower index wins): every
	// packing can swap t for u at no extra cost, so the optimum never
	// needs t.
	active []int
	// fitKind[j] lists the active types that item type j may use and that
	// hold one copy of it, in the order of active.
	fitKind [][]int
	// canFit[i] is fitKind[kind[i]] as a set, indexed by type.
	canFit [][]bool
	// w weights the dimensions when items are ranked by value (greedy,
	// emptying); val[i] = Σ_k w_k·size_ik.
	w   []float64
	val []float64
	// constrained makes the constructions (see packOrder) take the items
	// that may use the fewest types first.
	constrained bool
	// rows are the lower bound's covering constraints (see boundRows).
	rows []lbRow
}

// newMixedProblem validates inst and builds the solver view. Errors:
// malformed instances wrap ErrInvalid, an item too large for every node
// type gives an *ItemFitsNoTypeError.
func newMixedProblem(inst *MixedInstance) (*mixedProblem, error) {
	if inst == nil {
		return nil, fmt.Errorf("%w: nil instance", ErrInvalid)
	}
	if len(inst.Types) == 0 {
		return nil, fmt.Errorf("%w: no node types", ErrInvalid)
	}
	d := len(inst.Types[0].Capacity)
	if d == 0 {
		return nil, fmt.Errorf("%w: no dimensions", ErrInvalid)
	}
	T := len(inst.Types)
	mp := &mixedProblem{inst: inst, d: d, cost: make([]float64, T), cap: make([][]int64, T), lim: make([]int, T)}
	for t, nt := range inst.Types {
		if len(nt.Capacity) != d {
			return nil, fmt.Errorf("%w: node type %d has %d dimensions, type 0 has %d", ErrInvalid, t, len(nt.Capacity), d)
		}
		for k, c := range nt.Capacity {
			if c < 0 {
				return nil, fmt.Errorf("%w: node type %d capacity[%d] = %d < 0", ErrInvalid, t, k, c)
			}
		}
		if !(nt.Cost > 0) || math.IsInf(nt.Cost, 0) {
			return nil, fmt.Errorf("%w: node type %d cost %v, want finite > 0", ErrInvalid, t, nt.Cost)
		}
		if nt.Max < 0 {
			return nil, fmt.Errorf("%w: node type %d Max %d < 0", ErrInvalid, t, nt.Max)
		}
		mp.cost[t], mp.cap[t], mp.lim[t] = nt.Cost, nt.Capacity, nt.Max
		if nt.Max == 0 {
			mp.lim[t] = math.MaxInt
		}
	}
	mp.vol = make([]int64, d)
	for j, it := range inst.Items {
		if len(it.Size) != d {
			return nil, fmt.Errorf("%w: item type %d has %d dimensions, node types %d", ErrInvalid, j, len(it.Size), d)
		}
		if it.Count < 0 {
			return nil, fmt.Errorf("%w: item type %d count %d < 0", ErrInvalid, j, it.Count)
		}
		for k, v := range it.Size {
			if v < 0 {
				return nil, fmt.Errorf("%w: item type %d size[%d] = %d < 0", ErrInvalid, j, k, v)
			}
			if v > 0 && int64(it.Count) > (math.MaxInt64-mp.vol[k])/v {
				return nil, fmt.Errorf("%w: total size in dimension %d overflows int64", ErrInvalid, k)
			}
			mp.vol[k] += int64(it.Count) * v
		}
	}
	if err := checkAllowed(inst); err != nil {
		return nil, err
	}
	mp.allow = allowSets(inst)
	for j, it := range inst.Items {
		if it.Count > 0 && !mp.fitsSomeType(j) {
			return nil, mp.noFitError(j)
		}
		for c := 0; c < it.Count; c++ {
			mp.size = append(mp.size, it.Size)
			mp.kind = append(mp.kind, j)
		}
	}
	mp.n = len(mp.size)
	mp.setActive()
	mp.fitKind = make([][]int, len(inst.Items))
	for j := range inst.Items {
		for _, t := range mp.active {
			if mp.usable(j, t) {
				mp.fitKind[j] = append(mp.fitKind[j], t)
			}
		}
	}
	kindFit := make([][]bool, len(inst.Items))
	for j := range kindFit {
		kindFit[j] = make([]bool, T)
		for _, t := range mp.fitKind[j] {
			kindFit[j][t] = true
		}
	}
	mp.canFit = make([][]bool, mp.n)
	for i, j := range mp.kind {
		mp.canFit[i] = kindFit[j]
	}
	return mp, nil
}

// fitsIn reports whether size fits on top of load (nil: empty) within cap.
func fitsIn(load, size, cap []int64) bool {
	for k, v := range size {
		l := int64(0)
		if load != nil {
			l = load[k]
		}
		if l+v > cap[k] {
			return false
		}
	}
	return true
}

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

// allowed reports that item type j may use type t.
func (mp *mixedProblem) allowed(j, t int) bool {
	return mp.allow == nil || mp.allow[j][t]
}

// usable reports that one copy of item type j may be placed on type t:
// it is allowed there and fits.
func (mp *mixedProblem) usable(j, t int) bool {
	return mp.allowed(j, t) && fitsIn(nil, mp.inst.Items[j].Size, mp.cap[t])
}

// fitsSomeType reports that item type j is usable on some type.
func (mp *mixedProblem) fitsSomeType(j int) bool {
	for t := range mp.cap {
		if mp.usable(j, t) {
			return true
		}
	}
	return false
}

// noFitError builds the *ItemFitsNoTypeError for item type j, which fits
// none of its allowed types.
func (mp *mixedProblem) noFitError(j int) error {
	capMax := make([]int64, mp.d)
	for _, c := range mp.cap {
		for k, v := range c {
			capMax[k] = max(capMax[k], v)
		}
	}
	big, bigScore := -1, -1.0
	restricted := false
	for t, c := range mp.cap {
		if !mp.allowed(j, t) {
			restricted = true
			continue
		}
		s := 0.0
		for k, v := range c {
			if capMax[k] > 0 {
				s += float64(v) / float64(capMax[k])
			}
		}
		if s > bigScore {
			big, bigScore = t, s
		}
	}
	size := mp.inst.Items[j].Size
	e := &ItemFitsNoTypeError{Item: j, Type: big, TypeName: mp.inst.Types[big].Name, Dim: -1, Restricted: restricted}
	worst := -1.0
	for k, v := range size {
		c := mp.cap[big][k]
		if v > c {
			r := float64(v-c) / float64(max(c, 1))
			if r > worst {
				worst, e.Dim, e.Size, e.Capacity = r, k, v, c
			}
		}
	}
	return e
}

// setActive computes mp.active (see mixedProblem). Cost O(T²·(d + m)) for
// m item types.
func (mp *mixedProblem) setActive() {
	T := len(mp.cap)
	geq := func(u, t int) bool {
		for k := range mp.cap[t] {
			if mp.cap[u][k] < mp.cap[t][k] {
				return false
			}
		}
		return true
	}
	// serves[t][j]: a copy of item type j (Count > 0) may go on type t.
	serves := make([][]bool, T)
	empty := make([]bool, T)
	for t := range serves {
		serves[t] = make([]bool, len(mp.inst.Items))
		empty[t] = true
		for j, it := range mp.inst.Items {
			if it.Count > 0 && mp.usable(j, t) {
				serves[t][j], empty[t] = true, false
			}
		}
	}
	// covers reports serves[t] ⊆ serves[u].
	covers := func(u, t int) bool {
		for j, v := range serves[t] {
			if v && !serves[u][j] {
				return false
			}
		}
		return true
	}
	mp.active = mp.active[:0]
	for t := 0; t < T; t++ {
		// With items, a type none of them may use is never bought.
		dominated := mp.n > 0 && empty[t]
		for u := 0; u < T && !dominated; u++ {
			if u == t || mp.lim[u] != math.MaxInt || mp.cost[u] > mp.cost[t] || !geq(u, t) || !covers(u, t) {
				continue
			}
			same := mp.cost[u] == mp.cost[t] && geq(t, u) && covers(t, u)
			// Identical types: the lower index dominates; a limited copy
			// never dominates, so t (unlimited or not) goes when u < t or
			// t is limited.
			dominated = !same || u < t || mp.lim[t] != math.MaxInt
		}
		if !dominated {
			mp.active = append(mp.active, t)
		}
	}
	sort.SliceStable(mp.active, func(a, b int) bool { return mp.cost[mp.active[a]] < mp.cost[mp.active[b]] })
}

// typeName is "name" or "#t" when the type is unnamed.
func (mp *mixedProblem) typeName(t int) string {
	if n := mp.inst.Types[t].Name; n != "" {
		return n
	}
	return fmt.Sprintf("#%d", t)
}

// cheaper reports a < b by more than rounding (relative 1e-12).
func cheaper(a, b float64) bool { return a < b-1e-12*math.Abs(b) }

// mbin is one node of a solution under construction.
type mbin struct {
	t     int
	items []int
	load  []int64
}

// bestFit returns the index of the bin of bins (nil entries and index skip
// left out) that may take item i, has room for it, and leaves the least
// weighted room Σ_k w_k·(cap_k − load_k − size_k) after it; -1 when none
// does (ties to the lower index). Cost O(len(bins)·d).
func (mp *mixedProblem) bestFit(i int, bins []*mbin, skip int) int {
	bc, broom := -1, math.Inf(1)
	for c, dst := range bins {
		if c == skip || dst == nil || !mp.canFit[i][dst.t] || !fitsIn(dst.load, mp.size[i], mp.cap[dst.t]) {
			continue
		}
		room := 0.0
		for k, l := range dst.load {
			room += mp.w[k] * float64(mp.cap[dst.t][k]-l-mp.size[i][k])
		}
		if room < broom {
			bc, broom = c, room
		}
	}
	return bc
}

// msol is a mixed packing under construction.
type msol struct {
	bins   []*mbin
	count  []int
	method string
	moves  []string // improvement moves that lowered the cost, in order
}

func (s *msol) cost(mp *mixedProblem) float64 {
	c := 0.0
	for t, k := range s.count {
		c += float64(k) * mp.cost[t]
	}
	return c
}

func (s *msol) clone() *msol {
	out := &msol{count: append([]int(nil), s.count...), method: s.method, moves: append([]string(nil), s.moves...)}
	for _, b := range s.bins {
		out.bins = append(out.bins, &mbin{b.t, append([]int(nil), b.items...), append([]int64(nil), b.load...)})
	}
	return out
}

func (s *msol) noteMove(m string) {
	for _, x := range s.moves {
		if x == m {
			return
		}
	}
	s.moves = append(s.moves, m)
}

func (s *msol) name() string {
	if len(s.moves) == 0 {
		return s.method
	}
	return s.method + "+" + strings.Join(s.moves, "+")
}

// compact drops removed (nil) bins.
func (s *msol) compact() {
	out := s.bins[:0]
	for _, b := range s.bins {
		if b != nil {
			out = append(out, b)
		}
	}
	for i := len(out); i < len(s.bins); i++ {
		s.bins[i] = nil
	}
	s.bins = out
}

func (mp *mixedProblem) newBin(t int, items []int) *mbin {
	b := &mbin{t: t, items: items, load: make([]int64, mp.d)}
	for _, i := range items {
		for k, v := range mp.size[i] {
			b.load[k] += v
		}
	}
	return b
}

// fill is the value of a bin's load per unit of its cost.
func (mp *mixedProblem) fill(b *mbin) float64 {
	v := 0.0
	for k, l := range b.load {
		v += mp.w[k] * float64(l)
	}
	return v / mp.cost[b.t]
}

// avail reports whether one more node of type t may be bought when the
// solution holds count[t] and frees `freed` of them.
func (mp *mixedProblem) avail(count []int, t, freed int) bool {
	return count[t]-freed < mp.lim[t]
}

// singleTypeTop is how many single-type packings SolveMixed computes with
// Solve (for the types with the lowest estimated cost).
const singleTypeTop = 3

// greedyRandom is how many seeded random weightings the greedy adds to the
// deterministic ones.
const greedyRandom = 4

// polishTop is how many of the cheapest candidate packings get the full
// improvement (with Solve re-solving the bins of each type).
const polishTop = 4

// quotaMixes is how many of the cheapest node counts of the integer
// relaxation the quota greedy aims at.
const quotaMixes = 3

// mixedWorkFactor scales Options.MaxIterations into SolveMixed's budget
// for the cheap improvement moves, in units of one bin (or bin pair)
// tested.
const mixedWorkFactor = 20

// SolveMixed finds a cheap multiset of nodes and a packing of every item
// of inst into them. It
//
//  1. computes the lower bound (see MixedLowerBound), which also proves
//     some Max limits infeasible;
//  2. with one usable node type (the others dominated or usable by no
//     item, see below) returns Solve's packing on that type;
//  3. otherwise builds candidates: the single-type packings by Solve for the
//     singleTypeTop types that every item may use (cheapest by volume
//     estimate, within Max); the cost-efficiency greedy (see greedy) with
//     item weights from the LP dual prices, from 1/(largest capacity) per
//     dimension, and greedyRandom seeded random perturbations of these;
//     with Max limits, best-fit into all the limited nodes (see
//     bestFitAll); when Allowed keeps some item off a type it fits, these
//     greedy and best-fit constructions again with the items that may use
//     the fewest types first (see packOrder), and the partition (see
//     partition: Solve on the items tied to one type, the others around
//     them);
//  4. improves every candidate by the cheap moves of polish (downsize a
//     node to a cheaper type, merge two nodes into one cheaper node, empty
//     a node into the others, split a node into two cheaper ones);
//  5. adds the quota greedy (see greedyQuota) aimed at each of the
//     quotaMixes cheapest node counts of the integer relaxation (among
//     equal costs, those nearest the best candidate), under every weighting
//     and item order of step 3, and polishes them;
//  6. improves the polishTop cheapest candidates further (see improve):
//     Solve re-packs the nodes of each type into fewer, then polish, while
//     the cost falls;
//
// and returns the cheapest, stopping early once a packing meets the lower
// bound. An item may use a type when it is allowed on it
// (MixedInstance.Allowed) and fits it; every construction and move keeps
// each item on a type it may use, and a Solve on type t only ever gets
// items that may use t. Type t is dominated (never used) when an
// unlimited type is at least as large in every dimension, at most as
// expensive and allowed for every item that may use t. Every result has
// passed CheckMixed.
//
// Options: Seed drives the random weightings and Solve (equal seeds give
// equal results); MaxIterations and SearchIterations are passed to Solve,
// except that the re-packing of step 6 runs without Solve's tabu search
// unless SearchIterations > 0; each polish call gets
// mixedWorkFactor·MaxIterations work units (one unit ≈ one node or node
// pair tested).
//
// Errors: malformed instances (including a malformed Allowed) wrap
// ErrInvalid; an item larger than every type it is allowed on gives an
// *ItemFitsNoTypeError; Max limits that are too small give a
// *NodeLimitError, with Proven unset when only the heuristics failed.
//
// Cost: the lower bound (see MixedLowerBound); up to singleTypeTop Solve
// runs on all items, T on the items tied to one type and polishTop·3·T on
// the items of one type; the greedy, O(B·T·n·d) for B nodes and T types,
// (2 + greedyRandom)·(1 + quotaMixes) times per item order; and the
// capped improvement moves.
func SolveMixed(inst *MixedInstance, opt Options) (*MixedResult, error) {
	mp, err := newMixedProblem(inst)
	if err != nil {
		return nil, err
	}
	lb, bounds, duals, err := mp.lowerBound()
	if err != nil {
		return nil, err
	}
	if opt.MaxIterations <= 0 {
		opt.MaxIterations = DefaultMaxIterations
	}
	mp.limit = mixedWorkFactor * opt.MaxIterations
	res := &MixedResult{Count: make([]int, len(mp.cap)), LowerBound: lb, Bounds: bounds, Bins: []MixedBin{}}
	if mp.n == 0 {
		res.Method, res.Optimal = "empty", true
		return res, nil
	}
	mp.setWeights(nil)
	var best *msol
	if len(mp.active) == 1 {
		t := mp.active[0]
		pk, method, err := mp.solveType(t, allItems(mp.n), opt)
		if err != nil {
			return nil, err
		}
		if len(pk) > mp.lim[t] {
			return nil, &NodeLimitError{Reason: fmt.Sprintf("the packing found needs %d nodes of type %s, Max is %d", len(pk), mp.typeName(t), mp.lim[t])}
		}
		best = mp.fromPacking(t, pk)
		best.method = fmt.Sprintf("single-type(%s)/%s", mp.typeName(t), method)
	} else {
		best = mp.solveMulti(lb, duals, opt)
		if best == nil {
			return nil, &NodeLimitError{Reason: "every construction ran out of nodes"}
		}
	}
	mp.result(best, res)
	if err := CheckMixed(inst, res); err != nil {
		return nil, fmt.Errorf("vbp: internal error: method %s: %w", res.Method, err)
	}
	return res, nil
}

func allItems(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// solveMulti runs steps 3 and 4 of SolveMixed and returns the cheapest
// packing, or nil when no construction respected the Max limits.
func (mp *mixedProblem) solveMulti(lb float64, duals []float64, opt Options) *msol {
	done := func(s *msol) bool { return s != nil && s.cost(mp) <= lb*(1+1e-9) }
	var cands []*msol
	// Single-type packings, for the types that hold every item, cheapest
	// volume estimate first.
	var whole []int
	est := map[int]float64{}
	for _, t := range mp.active {
		ok := true
		for i := 0; i < mp.n && ok; i++ {
			ok = mp.canFit[i][t]
		}
		if !ok {
			continue
		}
		k := int64(1)
		for d, v := range mp.vol {
			if mp.cap[t][d] > 0 {
				k = max(k, (v+mp.cap[t][d]-1)/mp.cap[t][d])
			}
		}
		if k > int64(mp.lim[t]) {
			continue
		}
		whole = append(whole, t)
		est[t] = float64(k) * mp.cost[t]
	}
	sort.SliceStable(whole, func(a, b int) bool { return est[whole[a]] < est[whole[b]] })
	if len(whole) > singleTypeTop {
		whole = whole[:singleTypeTop]
	}
	for _, t := range whole {
		pk, _, err := mp.solveType(t, allItems(mp.n), opt)
		if err != nil || len(pk) > mp.lim[t] {
			continue
		}
		s := mp.fromPacking(t, pk)
		s.method = fmt.Sprintf("single-type(%s)", mp.typeName(t))
		if done(s) {
			return s
		}
		cands = append(cands, s)
	}
	// Greedy packings under several item weightings.
	type weighting struct {
		name string
		w    []float64
	}
	var ws []weighting
	if duals != nil {
		ws = append(ws, weighting{"lp", duals})
	}
	base := mp.normWeights()
	ws = append(ws, weighting{"norm", base})
	rng := rand.New(rand.NewPCG(opt.Seed, 0x7662702d6d697864)) // "vbp-mixd"
	for r := 0; r < greedyRandom; r++ {
		src := base
		if duals != nil && r%2 == 0 {
			src = duals
		}
		w := make([]float64, mp.d)
		for k := range w {
			w[k] = src[k] * (0.5 + rng.Float64())
		}
		ws = append(ws, weighting{fmt.Sprintf("random%d", r), w})
	}
	// Every construction runs in packOrder, and again with the items that
	// may use the fewest types first when Allowed restricts some item.
	orders := []bool{false}
	if mp.restricted() {
		orders = append(orders, true)
	}
	suffix := func(c bool) string {
		if c {
			return "-constrained"
		}
		return ""
	}
	for _, c := range orders {
		mp.constrained = c
		for _, wt := range ws {
			mp.setWeights(wt.w)
			if s := mp.greedy(); s != nil {
				s.method = "greedy-" + wt.name + suffix(c)
				cands = append(cands, s)
			}
		}
	}
	limited := false
	for _, t := range mp.active {
		limited = limited || mp.lim[t] != math.MaxInt
	}
	if limited {
		mp.setWeights(duals)
		for _, c := range orders {
			mp.constrained = c
			if s := mp.bestFitAll(); s != nil {
				s.method = "best-fit-limited" + suffix(c)
				cands = append(cands, s)
			}
		}
	}
	if len(orders) > 1 {
		mp.setWeights(duals)
		mp.constrained = true
		if s := mp.partition(opt); s != nil {
			s.method = "partition"
			cands = append(cands, s)
		}
		mp.constrained = false
	}
	if len(cands) == 0 {
		return nil
	}
	byCost := func() {
		sort.SliceStable(cands, func(a, b int) bool { return cheaper(cands[a].cost(mp), cands[b].cost(mp)) })
	}
	// The improvement moves rank items and bins by the LP prices.
	mp.setWeights(duals)
	for _, s := range cands {
		if !done(s) {
			mp.polish(s)
		}
	}
	byCost()
	// Quota greedy: aim at the cheapest node counts of the integer
	// relaxation, nearest the best packing so far among equal costs.
	if !done(cands[0]) {
		mixes, _ := mp.cheapMixes(mp.rows, quotaMixes, irNodeLimit, cands[0].count)
		for _, c := range orders {
			for _, wt := range ws {
				for _, mix := range mixes {
					mp.constrained = c
					mp.setWeights(wt.w)
					s := &msol{count: make([]int, len(mp.cap)), method: "quota-" + wt.name + suffix(c)}
					if !mp.greedyQuota(s, allItems(mp.n), mix) {
						continue
					}
					mp.setWeights(duals)
					mp.polish(s)
					cands = append(cands, s)
				}
			}
		}
		mp.constrained = false
		mp.setWeights(duals)
		byCost()
	}
	for i := 0; i < len(cands) && i < polishTop && !done(cands[0]); i++ {
		mp.improve(cands[i], lb, opt)
	}
	byCost()
	return cands[0]
}

// normWeights weights dimension k by 1/(largest capacity of an active
// type), 0 when no active type has room in k.
func (mp *mixedProblem) normWeights() []float64 {
	w := make([]float64, mp.d)
	for k := range w {
		var cm int64
		for _, t := range mp.active {
			cm = max(cm, mp.cap[t][k])
		}
		if cm > 0 {
			w[k] = 1 / float64(cm)
		}
	}
	return w
}

// setWeights sets mp.w (nil or all zero: normWeights) and the item values.
func (mp *mixedProblem) setWeights(w []float64) {
	pos := false
	for _, v := range w {
		pos = pos || v > 0
	}
	if !pos {
		w = mp.normWeights()
	}
	mp.w = w
	mp.val = make([]float64, mp.n)
	for i, s := range mp.size {
		for k, v := range s {
			mp.val[i] += w[k] * float64(v)
		}
	}
}

// byValue returns items sorted by decreasing value (ties by index).
func (mp *mixedProblem) byValue(items []int) []int {
	out := append([]int(nil), items...)
	sort.SliceStable(out, func(a, b int) bool { return mp.val[out[a]] > mp.val[out[b]] })
	return out
}

// greedy is the cost-efficiency construction: items in packOrder (scarce
// first, those that may use only types with a Max, then by decreasing
// value); while some remain, for every active type with nodes left that
// the first remaining item may use, fill a tentative node of that type
// first-fit from the remaining items (in order) that may use it and rate
// it by packed value per cost; open the best rated node (ties: the cheaper
// type). It returns nil when the first remaining item may use no type with
// nodes left. Cost O(B·T·n·d) for B nodes and T active types.
func (mp *mixedProblem) greedy() *msol {
	s := &msol{count: make([]int, len(mp.cap))}
	if !mp.greedyInto(s, allItems(mp.n)) {
		return nil
	}
	return s
}

// greedyInto packs items into new nodes appended to s by the greedy rule,
// respecting Max given s.count; it reports false when it runs out of nodes
// (s then holds the nodes opened so far).
func (mp *mixedProblem) greedyInto(s *msol, items []int) bool {
	return mp.greedyQuota(s, items, nil)
}

// greedyQuota is greedyInto that, while some type with quota left (count
// below quota[t]) may take the first remaining item, only opens such
// types; quota nil means no quota.
func (mp *mixedProblem) greedyQuota(s *msol, items []int, quota []int) bool {
	rest := mp.packOrder(items)
	load := make([]int64, mp.d)
	var picked, bestPicked []int
	taken := make(map[int]bool, len(items))
	for len(rest) > 0 {
		first := rest[0]
		bt, beff := -1, -1.0
		useQuota := false
		if quota != nil {
			for _, t := range mp.active {
				if mp.canFit[first][t] && mp.avail(s.count, t, 0) && s.count[t] < quota[t] {
					useQuota = true
				}
			}
		}
		for _, t := range mp.active {
			if !mp.canFit[first][t] || !mp.avail(s.count, t, 0) || (useQuota && s.count[t] >= quota[t]) {
				continue
			}
			clear(load)
			picked = picked[:0]
			v := 0.0
			for _, i := range rest {
				if mp.canFit[i][t] && fitsIn(load, mp.size[i], mp.cap[t]) {
					for k, x := range mp.size[i] {
						load[k] += x
					}
					picked = append(picked, i)
					v += mp.val[i]
				}
			}
			if eff := v / mp.cost[t]; eff > beff*(1+1e-12) || bt < 0 {
				bt, beff = t, eff
				bestPicked = append(bestPicked[:0], picked...)
			}
		}
		if bt < 0 {
			return false
		}
		s.bins = append(s.bins, mp.newBin(bt, append([]int(nil), bestPicked...)))
		s.count[bt]++
		for _, i := range bestPicked {
			taken[i] = true
		}
		out := rest[:0]
		for _, i := range rest {
			if !taken[i] {
				out = append(out, i)
			}
		}
		rest = out
	}
	return true
}

// bestFitAll is the construction for limited types: it opens every
// available node of the limited active types, puts the items (in
// packOrder) each into the open node it may use where it leaves the least
// weighted room, opening a node of the cheapest unlimited type it may use
// when none has room, and drops the unused nodes. It returns nil when an
// item fits nowhere. Cost O(n·B·d) for B nodes.
func (mp *mixedProblem) bestFitAll() *msol {
	s := &msol{count: make([]int, len(mp.cap))}
	for _, t := range mp.active {
		if mp.lim[t] != math.MaxInt {
			for j := 0; j < mp.lim[t]; j++ {
				s.bins = append(s.bins, mp.newBin(t, nil))
			}
			s.count[t] = mp.lim[t]
		}
	}
	order := mp.packOrder(allItems(mp.n))
	for _, i := range order {
		bc := mp.bestFit(i, s.bins, -1)
		if bc < 0 {
			for _, t := range mp.active { // cheapest first
				if mp.lim[t] == math.MaxInt && mp.canFit[i][t] {
					s.bins = append(s.bins, mp.newBin(t, nil))
					s.count[t]++
					bc = len(s.bins) - 1
					break
				}
			}
		}
		if bc < 0 {
			return nil
		}
		dst := s.bins[bc]
		dst.items = append(dst.items, i)
		for k, v := range mp.size[i] {
			dst.load[k] += v
		}
	}
	for b, bin := range s.bins {
		if len(bin.items) == 0 {
			s.count[bin.t]--
			s.bins[b] = nil
		}
	}
	s.compact()
	return s
}

// packOrder returns items in the order the constructions place them:
// scarce items (see scarce) first, so that the limited nodes are not used
// up by items that fit elsewhere; with mp.constrained, then the items with
// the fewest usable types (fitKind) first, so that they get the room of
// those types; then by decreasing value (ties by index).
func (mp *mixedProblem) packOrder(items []int) []int {
	out := mp.byValue(items)
	sort.SliceStable(out, func(a, b int) bool {
		x, y := out[a], out[b]
		if sx, sy := mp.scarce(x), mp.scarce(y); sx != sy {
			return sx
		}
		return mp.constrained && len(mp.fitKind[mp.kind[x]]) < len(mp.fitKind[mp.kind[y]])
	})
	return out
}

// scarce reports that item i may use no unlimited active type.
func (mp *mixedProblem) scarce(i int) bool {
	for _, t := range mp.fitKind[mp.kind[i]] {
		if mp.lim[t] == math.MaxInt {
			return false
		}
	}
	return true
}

// restricted reports that Allowed keeps some item off an active type it
// fits.
func (mp *mixedProblem) restricted() bool {
	if mp.allow == nil {
		return false
	}
	for j, it := range mp.inst.Items {
		if it.Count == 0 {
			continue
		}
		for _, t := range mp.active {
			if !mp.allow[j][t] && fitsIn(nil, it.Size, mp.cap[t]) {
				return true
			}
		}
	}
	return false
}

// partition is the construction for items tied to one type: for every
// active type t, Solve packs the items whose only usable type is t (see
// solveType; without tabu search unless opt.SearchIterations > 0); the
// other items (in packOrder) then go best fit (least weighted room left)
// into those nodes where they may, and the rest into new nodes by the
// greedy. It returns nil when no item is tied to one type, a Solve fails,
// or the nodes exceed a Max.
func (mp *mixedProblem) partition(opt Options) *msol {
	if opt.SearchIterations == 0 {
		opt.SearchIterations = -1
	}
	tied := make(map[int][]int)
	var rest []int
	for i := 0; i < mp.n; i++ {
		if fk := mp.fitKind[mp.kind[i]]; len(fk) == 1 {
			tied[fk[0]] = append(tied[fk[0]], i)
		} else {
			rest = append(rest, i)
		}
	}
	if len(tied) == 0 {
		return nil
	}
	s := &msol{count: make([]int, len(mp.cap))}
	for _, t := range mp.active {
		if len(tied[t]) == 0 {
			continue
		}
		pk, _, err := mp.solveType(t, tied[t], opt)
		if err != nil || len(pk) > mp.lim[t] {
			return nil
		}
		for _, b := range pk {
			s.bins = append(s.bins, mp.newBin(t, append([]int(nil), b...)))
		}
		s.count[t] = len(pk)
	}
	var left []int
	for _, i := range mp.packOrder(rest) {
		bc := mp.bestFit(i, s.bins, -1)
		if bc < 0 {
			left = append(left, i)
			continue
		}
		dst := s.bins[bc]
		dst.items = append(dst.items, i)
		for k, v := range mp.size[i] {
			dst.load[k] += v
		}
	}
	if !mp.greedyInto(s, left) {
		return nil
	}
	return s
}

// fromPacking wraps a single-type packing.
func (mp *mixedProblem) fromPacking(t int, pk Packing) *msol {
	s := &msol{count: make([]int, len(mp.cap))}
	for _, b := range pk {
		s.bins = append(s.bins, mp.newBin(t, append([]int(nil), b...)))
	}
	s.count[t] = len(pk)
	return s
}

// solveType packs items (expanded indices, all of which may use type t)
// into nodes of type t with Solve, dropping the dimensions where t has no
// capacity (the items are 0 there). It returns the packing in expanded
// indices and Solve's method, or an internal error when an item may not
// use t.
func (mp *mixedProblem) solveType(t int, items []int, opt Options) (Packing, string, error) {
	for _, i := range items {
		if !mp.canFit[i][t] {
			return nil, "", fmt.Errorf("vbp: internal error: item %d may not use node type %d", i, t)
		}
	}
	var dims []int
	for k, c := range mp.cap[t] {
		if c > 0 {
			dims = append(dims, k)
		}
	}
	if len(items) == 0 {
		return Packing{}, "empty", nil
	}
	if len(dims) == 0 { // every item is all zero
		return Packing{append([]int(nil), items...)}, "zero", nil
	}
	sub := &Instance{Name: mp.inst.Name, Capacity: make([]int64, len(dims))}
	for a, k := range dims {
		sub.Capacity[a] = mp.cap[t][k]
	}
	// Consecutive copies of one item type stay one Item, so that with all
	// items the instance expands exactly like the mixed one.
	for a := 0; a < len(items); {
		b := a + 1
		for b < len(items) && mp.kind[items[b]] == mp.kind[items[a]] {
			b++
		}
		size := make([]int64, len(dims))
		for c, k := range dims {
			size[c] = mp.size[items[a]][k]
		}
		sub.Items = append(sub.Items, Item{Size: size, Count: b - a})
		a = b
	}
	r, err := Solve(sub, opt)
	if err != nil {
		return nil, "", err
	}
	out := make(Packing, len(r.Packing))
	for b, bin := range r.Packing {
		out[b] = make([]int, len(bin))
		for c, i := range bin {
			out[b][c] = items[i]
		}
	}
	return out, r.Method, nil
}

// improve runs polish and re-solves the bins of each type with Solve,
// repeatedly while the cost falls (at most 3 rounds) and s is above lb.
// Unless opt.SearchIterations is positive, these Solve calls skip Solve's
// tabu search: on the sub-problems it rarely pays for its time.
func (mp *mixedProblem) improve(s *msol, lb float64, opt Options) {
	if opt.SearchIterations == 0 {
		opt.SearchIterations = -1
	}
	for round := 0; round < 3 && s.cost(mp) > lb*(1+1e-9); round++ {
		before := s.cost(mp)
		for _, t := range mp.active {
			mp.resolve(s, t, opt)
		}
		mp.polish(s)
		if !cheaper(s.cost(mp), before) {
			return
		}
	}
}

// resolve re-packs the items of all bins of type t with Solve and keeps the
// result when it has fewer bins.
func (mp *mixedProblem) resolve(s *msol, t int, opt Options) {
	var items []int
	nb := 0
	for _, b := range s.bins {
		if b.t == t {
			items = append(items, b.items...)
			nb++
		}
	}
	if nb < 2 {
		return
	}
	sort.Ints(items)
	pk, _, err := mp.solveType(t, items, opt)
	if err != nil || len(pk) >= nb {
		return
	}
	out := s.bins[:0]
	for _, b := range s.bins {
		if b.t != t {
			out = append(out, b)
		}
	}
	s.bins = out
	for _, bin := range pk {
		s.bins = append(s.bins, mp.newBin(t, bin))
	}
	s.count[t] = len(pk)
	s.noteMove("resolve")
}

// polish applies the cheap moves (downsize, merge, empty, split) until none
// lowers the cost or the work budget mp.limit of this call is spent.
func (mp *mixedProblem) polish(s *msol) {
	mp.work = 0
	for mp.work < mp.limit {
		changed := mp.downsize(s)
		changed = mp.merge(s) || changed
		changed = mp.empty(s) || changed
		changed = mp.split(s) || changed
		if !changed {
			return
		}
	}
}

// cheapestFor returns the cheapest active type, strictly cheaper than
// budget, that holds load, that every item of the bins on may use, and
// that has a node left when the bins on are given back (-1 if none).
func (mp *mixedProblem) cheapestFor(s *msol, load []int64, budget float64, on ...*mbin) int {
	for _, u := range mp.active {
		if !cheaper(mp.cost[u], budget) {
			return -1
		}
		freed := 0
		for _, b := range on {
			if b.t == u {
				freed++
			}
		}
		if mp.avail(s.count, u, freed) && fitsIn(nil, load, mp.cap[u]) && mp.allowsAll(u, on...) {
			return u
		}
	}
	return -1
}

// allowsAll reports that every item of the bins may use the active type t
// (items that fit it may, without Allowed).
func (mp *mixedProblem) allowsAll(t int, bins ...*mbin) bool {
	if mp.allow == nil {
		return true
	}
	for _, b := range bins {
		for _, i := range b.items {
			if !mp.canFit[i][t] {
				return false
			}
		}
	}
	return true
}

// downsize moves every bin to the cheapest type that holds its load and
// its items may use, when strictly cheaper.
func (mp *mixedProblem) downsize(s *msol) bool {
	changed := false
	for _, b := range s.bins {
		mp.work++
		if u := mp.cheapestFor(s, b.load, mp.cost[b.t], b); u >= 0 {
			s.count[b.t]--
			s.count[u]++
			b.t = u
			changed = true
		}
	}
	if changed {
		s.noteMove("downsize")
	}
	return changed
}

// binsByFill returns the bin indices by increasing fill (value per cost).
func (mp *mixedProblem) binsByFill(s *msol) []int {
	order := allItems(len(s.bins))
	f := make([]float64, len(s.bins))
	for b := range f {
		f[b] = mp.fill(s.bins[b])
	}
	sort.SliceStable(order, func(a, b int) bool { return f[order[a]] < f[order[b]] })
	return order
}

// merge replaces two bins by one bin of a type cheaper than both together
// that holds their joint load and their items may use; pairs are tried
// least filled first. When
// the only such types have no node left, it frees one (see freeFor).
func (mp *mixedProblem) merge(s *msol) bool {
	order := mp.binsByFill(s)
	joint := make([]int64, mp.d)
	changed := false
	for x := 0; x < len(order) && mp.work < mp.limit; x++ {
		a := s.bins[order[x]]
		if a == nil {
			continue
		}
		for y := x + 1; y < len(order) && mp.work < mp.limit; y++ {
			b := s.bins[order[y]]
			if b == nil {
				continue
			}
			mp.work++
			for k := range joint {
				joint[k] = a.load[k] + b.load[k]
			}
			u := mp.cheapestFor(s, joint, mp.cost[a.t]+mp.cost[b.t], a, b)
			if u < 0 {
				u = mp.freeFor(s, joint, a, b)
			}
			if u < 0 {
				continue
			}
			s.count[a.t]--
			s.count[b.t]--
			s.count[u]++
			a.t = u
			a.items = append(a.items, b.items...)
			copy(a.load, joint)
			s.bins[order[y]] = nil
			changed = true
		}
	}
	if changed {
		s.compact()
		s.noteMove("merge")
	}
	return changed
}

// freeFor handles a merge of bins a and b (joint load) into a type u
// cheaper than both that holds the load (and their items may use) but has
// no node left: it moves another bin z of type u to a type v with a node
// left that holds z (and z's items may use) and costs less than a and b
// together (so the cost still falls by cost_a + cost_b − cost_v), and
// returns u, or -1 when no such z, v exist. Cost O(T·B·T·(d + n)).
func (mp *mixedProblem) freeFor(s *msol, joint []int64, a, b *mbin) int {
	budget := mp.cost[a.t] + mp.cost[b.t]
	for _, u := range mp.active {
		if !cheaper(mp.cost[u], budget) {
			return -1
		}
		if mp.lim[u] == math.MaxInt || !fitsIn(nil, joint, mp.cap[u]) || !mp.allowsAll(u, a, b) {
			continue
		}
		for _, z := range s.bins {
			if z == nil || z == a || z == b || z.t != u {
				continue
			}
			mp.work++
			for _, v := range mp.active {
				if !cheaper(mp.cost[v], budget) {
					break
				}
				freed := 0
				if v == a.t {
					freed++
				}
				if v == b.t {
					freed++
				}
				if v != u && mp.avail(s.count, v, freed) && fitsIn(nil, z.load, mp.cap[v]) && mp.allowsAll(v, z) {
					s.count[u]--
					s.count[v]++
					z.t = v
					return u
				}
			}
		}
	}
	return -1
}

// empty tries to move all items of a bin (least filled bins first) into
// the room left in the other bins, each item (by decreasing value) to the
// bin it may use where it leaves the least weighted room; when all fit,
// the bin goes.
func (mp *mixedProblem) empty(s *msol) bool {
	changed := false
	type mv struct{ item, to int }
	var moves []mv
	for _, b := range mp.binsByFill(s) {
		if mp.work >= mp.limit {
			break
		}
		src := s.bins[b]
		if src == nil {
			continue
		}
		moves = moves[:0]
		ok := true
		for _, i := range mp.byValue(src.items) {
			mp.work += len(s.bins)
			bc := mp.bestFit(i, s.bins, b)
			if bc < 0 {
				ok = false
				break
			}
			for k, v := range mp.size[i] {
				s.bins[bc].load[k] += v
			}
			moves = append(moves, mv{i, bc})
		}
		if !ok {
			for _, m := range moves {
				for k, v := range mp.size[m.item] {
					s.bins[m.to].load[k] -= v
				}
			}
			continue
		}
		for _, m := range moves {
			s.bins[m.to].items = append(s.bins[m.to].items, m.item)
		}
		s.count[src.t]--
		s.bins[b] = nil
		changed = true
	}
	if changed {
		s.compact()
		s.noteMove("empty")
	}
	return changed
}

// splitPairs caps the type pairs split tries per bin.
const splitPairs = 64

// split replaces a bin by two bins of types u, v with cost u + cost v below
// its own, when first-fit (items by decreasing value, into the u bin, then
// the v bin, each where it may go) places all its items. Pairs are tried
// cheapest first.
func (mp *mixedProblem) split(s *msol) bool {
	type pair struct {
		u, v int
		c    float64
	}
	var pairs []pair
	for a, u := range mp.active {
		for _, v := range mp.active[a:] {
			pairs = append(pairs, pair{u, v, mp.cost[u] + mp.cost[v]})
			if u != v {
				pairs = append(pairs, pair{v, u, mp.cost[u] + mp.cost[v]})
			}
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool { return pairs[a].c < pairs[b].c })
	changed := false
	loads := [2][]int64{make([]int64, mp.d), make([]int64, mp.d)}
	var parts [2][]int
	n := len(s.bins)
	for b := 0; b < n && mp.work < mp.limit; b++ {
		src := s.bins[b]
		if len(src.items) < 2 {
			continue
		}
		items := mp.byValue(src.items)
		for p, tried := 0, 0; p < len(pairs) && tried < splitPairs && cheaper(pairs[p].c, mp.cost[src.t]); p++ {
			u, v := pairs[p].u, pairs[p].v
			cu, cv := s.count[u], s.count[v]
			if src.t == u {
				cu--
			}
			if src.t == v {
				cv--
			}
			if u == v {
				if cu+2 > mp.lim[u] {
					continue
				}
			} else if cu+1 > mp.lim[u] || cv+1 > mp.lim[v] {
				continue
			}
			tried++
			mp.work++
			ts := [2]int{u, v}
			clear(loads[0])
			clear(loads[1])
			parts[0], parts[1] = parts[0][:0], parts[1][:0]
			ok := true
			for _, i := range items {
				placed := false
				for h := 0; h < 2 && !placed; h++ {
					if mp.canFit[i][ts[h]] && fitsIn(loads[h], mp.size[i], mp.cap[ts[h]]) {
						for k, x := range mp.size[i] {
							loads[h][k] += x
						}
						parts[h] = append(parts[h], i)
						placed = true
					}
				}
				if !placed {
					ok = false
					break
				}
			}
			if !ok || len(parts[0]) == 0 || len(parts[1]) == 0 {
				continue
			}
			s.count[src.t]--
			s.count[u]++
			s.count[v]++
			s.bins[b] = mp.newBin(u, append([]int(nil), parts[0]...))
			s.bins = append(s.bins, mp.newBin(v, append([]int(nil), parts[1]...)))
			changed = true
			break
		}
	}
	if changed {
		s.noteMove("split")
	}
	return changed
}

// result fills res from s in canonical order: items ascending within a
// bin, bins by type, then by first item.
func (mp *mixedProblem) result(s *msol, res *MixedResult) {
	res.Bins = make([]MixedBin, len(s.bins))
	for b, bin := range s.bins {
		items := append([]int(nil), bin.items...)
		sort.Ints(items)
		res.Bins[b] = MixedBin{Type: bin.t, Items: items}
	}
	sort.SliceStable(res.Bins, func(a, b int) bool {
		x, y := res.Bins[a], res.Bins[b]
		if x.Type != y.Type {
			return x.Type < y.Type
		}
		return x.Items[0] < y.Items[0]
	})
	res.Count = make([]int, len(mp.cap))
	for _, b := range res.Bins {
		res.Count[b.Type]++
	}
	res.Cost = mixedCost(mp.inst, res.Count)
	res.Optimal = res.Cost <= res.LowerBound*(1+1e-9)
	res.Method = s.name()
}

// mixedCost is Σ_t count[t]·Types[t].Cost, summed in type order.
func mixedCost(inst *MixedInstance, count []int) float64 {
	c := 0.0
	for t, k := range count {
		c += float64(k) * inst.Types[t].Cost
	}
	return c
}

// CheckMixed verifies r against inst from scratch: every bin has a valid
// type and at least one item, every item index is in range and packed
// exactly once, on a type it is allowed on (MixedInstance.Allowed), in
// every bin and dimension the summed sizes are at most
// the type's capacity, no type has more than Max nodes (Max > 0), r.Count
// equals the recount, r.Cost equals Σ_t Count[t]·Cost_t (relative 1e-9),
// r.LowerBound does not exceed r.Cost and Optimal implies Cost meets the
// bound. It returns a *CheckError (Bin, Item, Dim -1 when not
// applicable) for the first violation, or an error wrapping ErrInvalid for
// an instance of inconsistent dimensions or a malformed Allowed. Cost
// O(n·d + B + T + m·T) for m item types.
func CheckMixed(inst *MixedInstance, r *MixedResult) error {
	if inst == nil || r == nil {
		return &CheckError{-1, -1, -1, "nil instance or result"}
	}
	T := len(inst.Types)
	if T == 0 {
		return fmt.Errorf("%w: no node types", ErrInvalid)
	}
	d := len(inst.Types[0].Capacity)
	for t, nt := range inst.Types {
		if len(nt.Capacity) != d {
			return fmt.Errorf("%w: node type %d has %d dimensions, type 0 has %d", ErrInvalid, t, len(nt.Capacity), d)
		}
	}
	var sizes [][]int64
	var kinds []int
	for j, it := range inst.Items {
		if len(it.Size) != d {
			return fmt.Errorf("%w: item type %d has %d dimensions, node types %d", ErrInvalid, j, len(it.Size), d)
		}
		for c := 0; c < it.Count; c++ {
			sizes = append(sizes, it.Size)
			kinds = append(kinds, j)
		}
	}
	if err := checkAllowed(inst); err != nil {
		return err
	}
	allow := allowSets(inst)
	seen := make([]bool, len(sizes))
	count := make([]int, T)
	load := make([]int64, d)
	for b, bin := range r.Bins {
		if bin.Type < 0 || bin.Type >= T {
			return &CheckError{b, -1, -1, fmt.Sprintf("node type %d out of range", bin.Type)}
		}
		if len(bin.Items) == 0 {
			return &CheckError{b, -1, -1, "empty bin"}
		}
		count[bin.Type]++
		clear(load)
		for _, i := range bin.Items {
			if i < 0 || i >= len(sizes) {
				return &CheckError{b, i, -1, "item index out of range"}
			}
			if seen[i] {
				return &CheckError{b, i, -1, "item packed twice"}
			}
			seen[i] = true
			if allow != nil && !allow[kinds[i]][bin.Type] {
				return &CheckError{b, i, -1, fmt.Sprintf("item type %d not allowed on node type %d", kinds[i], bin.Type)}
			}
			for k, v := range sizes[i] {
				load[k] += v
			}
		}
		for k, l := range load {
			if c := inst.Types[bin.Type].Capacity[k]; l > c {
				return &CheckError{b, -1, k, fmt.Sprintf("load %d exceeds capacity %d of node type %d", l, c, bin.Type)}
			}
		}
	}
	for i, s := range seen {
		if !s {
			return &CheckError{-1, i, -1, "item not packed"}
		}
	}
	for t, k := range count {
		if m := inst.Types[t].Max; m > 0 && k > m {
			return &CheckError{-1, -1, -1, fmt.Sprintf("%d nodes of type %d exceed Max %d", k, t, m)}
		}
		if len(r.Count) != T || r.Count[t] != k {
			return &CheckError{-1, -1, -1, fmt.Sprintf("Count %v differs from the recount %v", r.Count, count)}
		}
	}
	cost := mixedCost(inst, count)
	if math.IsNaN(r.Cost) || math.Abs(r.Cost-cost) > 1e-9*max(1, math.Abs(cost)) {
		return &CheckError{-1, -1, -1, fmt.Sprintf("Cost %v differs from the recomputed %v", r.Cost, cost)}
	}
	if r.LowerBound > cost*(1+1e-9) {
		return &CheckError{-1, -1, -1, fmt.Sprintf("LowerBound %v exceeds the cost %v", r.LowerBound, cost)}
	}
	if r.Optimal && cost > r.LowerBound*(1+1e-9) {
		return &CheckError{-1, -1, -1, fmt.Sprintf("Optimal set but cost %v exceeds the lower bound %v", cost, r.LowerBound)}
	}
	return nil
}
