package vbp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/capplan/capplan/binpack/internal/work"
)

// DefaultMixedMaxWork is SolveMixed's work cap when Options.MaxWork is 0.
// It gives every single-type Solve Solve's own default (DefaultMaxWork)
// and every polish call 4,000,000 units, and caps the whole run at about
// ten such Solves.
const DefaultMixedMaxWork = 220_000_000

// mixedSolveShare: a Solve run inside SolveMixed works with MaxWork =
// MaxWork/mixedSolveShare (DefaultMaxWork at DefaultMixedMaxWork).
const mixedSolveShare = 10

// mixedPolishShare: one polish call may spend MaxWork/mixedPolishShare
// units (4,000,000 at DefaultMixedMaxWork).
const mixedPolishShare = 55

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

// mixedConfig is how one SolveMixed run splits its work: single is the
// Solve of all items on one type (with its search), repack the Solve of
// some items on one type (improvement only: partition, resolve), polish
// the cap of one polish call.
type mixedConfig struct {
	seed           uint64
	single, repack solveConfig
	polish         int64
}

func mixedConfigFor(seed uint64, maxWork int64) mixedConfig {
	return mixedConfig{
		seed:   seed,
		single: configFor(seed, maxWork/mixedSolveShare, true),
		repack: configFor(seed, maxWork/mixedSolveShare, false),
		polish: maxWork / mixedPolishShare,
	}
}

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
// Work: the units of the Solve runs (see Solve) plus one per node or
// node pair tested by the polish moves; the lower bound and the
// constructions are not counted (they are polynomial, and the bound's
// enumeration has its own node cap). Of Options.MaxWork
// (DefaultMixedMaxWork when 0), every Solve run gets MaxWork/10 as its
// own MaxWork (the re-packings of steps 3 and 6 without Solve's search)
// and every polish call MaxWork/55, none beyond what is left of MaxWork
// (a phase stops at its first check past its cap, so WorkUsed may pass
// MaxWork by a step's work). Seed drives the random weightings and Solve; without a
// TimeLimit equal options give equal results on any machine, with one the
// run also stops at the deadline (MixedResult.TimeLimitHit).
//
// Errors: malformed instances (including a malformed Allowed), and a
// negative MaxWork or TimeLimit, wrap ErrInvalid, as does a
// *TooManyItemsError for more than Options.MaxMixedItems items; an item larger than
// every type it is allowed on gives an *ItemFitsNoTypeError; Max limits
// that are too small give a *NodeLimitError, with Proven unset when only
// the heuristics failed.
//
// Cost: the lower bound (see MixedLowerBound); the greedy, O(B·T·n·d) for
// B nodes and T types, (2 + greedyRandom)·(1 + quotaMixes) times per item
// order; and the work.
func SolveMixed(inst *MixedInstance, opt Options) (*MixedResult, error) {
	maxWork, err := opt.maxWork(DefaultMixedMaxWork)
	if err != nil {
		return nil, err
	}
	if inst != nil {
		if err := opt.checkMixedItems(inst); err != nil {
			return nil, err
		}
	}
	mp, err := newMixedProblem(inst)
	if err != nil {
		return nil, err
	}
	bound, err := mp.lowerBound()
	if err != nil {
		return nil, err
	}
	cfg := mixedConfigFor(opt.Seed, maxWork)
	w := work.New(maxWork, opt.TimeLimit)
	res := &MixedResult{Count: make([]int, len(mp.cap)), LowerBound: bound.lb, Bounds: bound.values, Bins: []MixedBin{}}
	if mp.n == 0 {
		res.Method, res.Optimal = "empty", true
		return res, nil
	}
	var best *msol
	if len(mp.active) == 1 {
		t := mp.active[0]
		pk, method, err := mp.solveType(t, allItems(mp.n), cfg.single, w)
		if err != nil {
			return nil, err
		}
		if len(pk) > mp.lim[t] {
			return nil, &NodeLimitError{Reason: fmt.Sprintf("the packing found needs %d nodes of type %s, Max is %d", len(pk), mp.typeName(t), mp.lim[t])}
		}
		best = mp.fromPacking(t, pk)
		best.method = fmt.Sprintf("single-type(%s)/%s", mp.typeName(t), method)
	} else {
		best = mp.solveMulti(bound, cfg, w)
		if best == nil {
			return nil, &NodeLimitError{Reason: "every construction ran out of nodes"}
		}
	}
	mp.result(best, res)
	res.WorkUsed, res.TimeLimitHit = w.Used(), w.TimeLimitHit()
	if err := CheckMixed(inst, res); err != nil {
		return nil, fmt.Errorf("vbp: internal error: method %s: %w", res.Method, err)
	}
	return res, nil
}

// solveMulti runs steps 3 to 6 of SolveMixed and returns the cheapest
// packing, or nil when no construction respected the Max limits.
func (mp *mixedProblem) solveMulti(bound mixedBound, cfg mixedConfig, w *work.Counter) *msol {
	lb := bound.lb
	done := func(s *msol) bool { return s != nil && s.cost(mp) <= lb*(1+1e-9) }
	var cands []*msol
	for _, t := range mp.singleTypes() {
		pk, _, err := mp.solveType(t, allItems(mp.n), cfg.single, w)
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
	// lp ranks items and rooms by the LP prices (normWeights without
	// them) in the best-fit constructions and every improvement move.
	lp := mp.newWeights("lp", bound.duals)
	ws := mp.greedyWeights(bound.duals, cfg.seed)
	// Every construction runs in packOrder, and again with the items that
	// may use the fewest types first when Allowed restricts some item.
	orders := []bool{false}
	if mp.restricted() {
		orders = append(orders, true)
	}
	for _, c := range orders {
		for _, wt := range ws {
			b := build{wt: wt, constrained: c}
			if s := mp.greedy(b); s != nil {
				s.method = "greedy-" + wt.name + b.suffix()
				cands = append(cands, s)
			}
		}
	}
	limited := false
	for _, t := range mp.active {
		limited = limited || mp.lim[t] != math.MaxInt
	}
	if limited {
		for _, c := range orders {
			b := build{wt: lp, constrained: c}
			if s := mp.bestFitAll(b); s != nil {
				s.method = "best-fit-limited" + b.suffix()
				cands = append(cands, s)
			}
		}
	}
	if len(orders) > 1 {
		if s := mp.partition(build{wt: lp, constrained: true}, cfg.repack, w); s != nil {
			s.method = "partition"
			cands = append(cands, s)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	byCost := func() {
		sort.SliceStable(cands, func(a, b int) bool { return cheaper(cands[a].cost(mp), cands[b].cost(mp)) })
	}
	for _, s := range cands {
		if !done(s) {
			mp.polish(s, lp, w, cfg.polish)
		}
	}
	byCost()
	// Quota greedy: aim at the cheapest node counts of the integer
	// relaxation, nearest the best packing so far among equal costs.
	if !done(cands[0]) {
		mixes, _ := mp.cheapMixes(bound.rows, quotaMixes, irNodeLimit, cands[0].count)
		for _, c := range orders {
			for _, wt := range ws {
				for _, mix := range mixes {
					b := build{wt: wt, constrained: c}
					s := &msol{count: make([]int, len(mp.cap)), method: "quota-" + wt.name + b.suffix()}
					if !mp.greedyQuota(s, allItems(mp.n), mix, b) {
						continue
					}
					mp.polish(s, lp, w, cfg.polish)
					cands = append(cands, s)
				}
			}
		}
		byCost()
	}
	for i := 0; i < len(cands) && i < polishTop && !done(cands[0]) && !w.Done(); i++ {
		mp.improve(cands[i], lb, lp, cfg, w)
	}
	byCost()
	return cands[0]
}

// singleTypes returns the active types that every item may use and
// whose volume estimate (the largest per-dimension volume bound, in
// nodes) is within Max, cheapest estimate first, at most singleTypeTop.
func (mp *mixedProblem) singleTypes() []int {
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
	return whole
}

// greedyWeights returns the weightings of the greedy: the LP dual prices
// ("lp", when the LP gave them), 1/(largest capacity) per dimension
// ("norm"), and greedyRandom seeded perturbations of these ("randomN": the
// prices or the norm weights, each dimension scaled by U[0.5, 1.5)).
func (mp *mixedProblem) greedyWeights(duals []float64, seed uint64) []*weights {
	var ws []*weights
	if duals != nil {
		ws = append(ws, mp.newWeights("lp", duals))
	}
	base := mp.normWeights()
	ws = append(ws, mp.newWeights("norm", base))
	rng := rand.New(rand.NewPCG(seed, 0x7662702d6d697864)) // "vbp-mixd"
	for r := 0; r < greedyRandom; r++ {
		src := base
		if duals != nil && r%2 == 0 {
			src = duals
		}
		w := make([]float64, mp.d)
		for k := range w {
			w[k] = src[k] * (0.5 + rng.Float64())
		}
		ws = append(ws, mp.newWeights(fmt.Sprintf("random%d", r), w))
	}
	return ws
}
