package xselect

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/capplan/capplan/binpack/internal/work"
)

// Default budgets used when the Options fields are 0.
const (
	// DefaultKnapsackNodes caps the branch-and-bound search nodes per
	// node knapsack.
	DefaultKnapsackNodes = 512
	// DefaultImproveVisits caps the improvement work per probe, in node
	// or container visits and search nodes.
	DefaultImproveVisits = 2_000_000
	// DefaultMaxProbes caps the number of multipliers tried.
	DefaultMaxProbes = 100
	// DefaultMaxWork caps the work of a whole Solve (see Options.MaxWork):
	// about 60 s of one core of a 2020s server (the former default time
	// budget of `capplan pack`). The 10,000-node case of the benchmark
	// tables (150,000 containers) uses 0.34e9.
	DefaultMaxWork = 3_000_000_000
)

// Options tunes Solve. The zero value is usable.
type Options struct {
	// KnapsackNodes caps the search nodes of one node knapsack
	// (DefaultKnapsackNodes if 0).
	KnapsackNodes int
	// ImproveVisits caps the work units of the improvement phase of one
	// probe (DefaultImproveVisits if 0). Budgets are counted in work
	// units, never time, so results do not depend on the machine.
	ImproveVisits int
	// MaxWork caps the work of the whole λ search (DefaultMaxWork if 0):
	// one unit is one knapsack search node of the greedy fill, or one
	// node or container visited or search node of the improvement moves.
	// No probe starts once it is spent, and a probe's improvement stops
	// there. Without a TimeLimit the plan is the same on any machine.
	MaxWork int64
	// TimeLimit, when positive, is an opt-in wall-clock bound: no probe
	// starts after it (Plan.TimeLimitHit), and the plan then depends on
	// the machine's speed. 0 means none.
	TimeLimit time.Duration
	// MaxProbes caps the multipliers tried (DefaultMaxProbes if 0).
	MaxProbes int
	// NoTopUp skips the top-up phase.
	NoTopUp bool
	// Seed drives the randomised moves (perturbation); equal seeds give equal plans.
	Seed uint64
	// From is a previous plan's containers per node (len(From) == len(p.Nodes));
	// nil means an initial run. With From set, Solve runs incremental mode
	// (ALGORITHMS §2.6): at most MutableNodes(len(p.Nodes), Mutable) nodes may end
	// up with a container list different (as a multiset of (shape, owner)) from From;
	// all other nodes keep exactly their From containers.
	From [][]Container
	// Mutable is the fraction φ ∈ [0,1] of nodes that may change in incremental mode.
	Mutable float64
}

// Solve runs X-Select (X-Flex §2.2, ALGORITHMS.md §2.2–2.6).
//
// For a multiplier λ application a needs ⌊λ·m_{a,k}⌋ containers of shape k
// (see Count). Solve finds a large λ whose whole required set packs into a
// valid plan: every container on an eligible node of its owner, every node
// within capacity in every dimension, at most MaxPerNode containers of an
// application per node, Colocate and Exlocate respected on every node (see
// Check):
//
//  1. λ_hi = LambdaUpper(p); λ_lo = 0 is feasible.
//  2. Bisection on the discrete sets: the midpoint is moved up to the next
//     breakpoint j/m_{a,k} above λ_lo if it gives λ_lo's set, and the
//     search stops when no breakpoint lies strictly between λ_lo and the
//     smallest λ giving λ_hi's set, after MaxProbes probes, or when a
//     probe would start after MaxWork is spent or TimeLimit has passed.
//     λ_hi itself is probed first.
//     Breakpoints whose sets cannot pack for counting reasons (a needer
//     without enough partner containers; see plausible) are skipped.
//     2b. With Colocate rules, a short sweep then probes the breakpoints
//     above λ_lo where a partner's count steps up (see sweep).
//  3. Each probe packs exactly the required set: greedily node by node
//     (greedy), then by iterative improvement (improve: insert, eject
//     chain, pull, swap, pair repack, perturbation); it is feasible iff nothing
//     is left. Heuristic probes, and colocation (which makes even exact
//     feasibility non-monotone in λ), make feasibility only roughly
//     monotone, so the best feasible plan seen is kept.
//  4. Top-up (unless opt.NoTopUp): repeatedly take the application with the
//     lowest Volume/Share among those not yet exhausted, and its shape
//     furthest behind its mix (lowest packed_{a,k}/m_{a,k}); put one
//     container (with any colocation partner it needs) on the first node
//     that takes it (node order), until no application can take another.
//
// Incremental mode (opt.From set, ALGORITHMS §2.6) runs in two phases.
// First Solve picks one mutable set M of at most MutableNodes(N, Mutable)
// nodes (nodes whose From containers now break a rule first, then the
// most useful by mutableScore), freezes the others with their From
// containers, and runs the same λ search with each probe packing the
// required set minus the frozen containers into M, first starting from
// M's From containers and, if that fails, from empty M nodes. Then the
// targeted phase bisects between that λ and λ_hi (and sweeps for
// colocation) with a mutable set chosen for each probe's own λ (see
// targeter): the nodes the applications short of ⌊λ·m_{a,k}⌋ on From may
// use, ranked by the free capacity and surplus containers (beyond the
// required set of their owner) they offer, displacing the containers of
// applications exlocated with the short one; a probe that fails is
// retried once with the volume left unpacked added to the owners'
// deficits. Its probes also keep on each mutable node one From container
// of a colocation partner that pooled needers could join (seedPartners).
// Every set respects the limit, so the λ found is never below the first
// phase's. The plan comes from the set of the best complete probe
// (Plan.Mutable). Before top-up the From containers M lost are put back
// where they still fit, so unneeded changes are undone; a node of M that
// ends up with its From containers is not changed. Plan.Changed compares
// the result with From.
//
// Normalised volume is Σ_d c_d/T_d with T_d the cluster's total capacity in
// dimension d. It returns an error wrapping ErrInvalid if p.Validate
// fails or the options are inconsistent (From of the wrong length or with
// indices out of range, Mutable outside [0,1]), and a *TooManyInvalidError
// if more From nodes break the problem than may change. Deterministic for
// a given Seed (and MaxWork) unless TimeLimit cuts the search; Plan.WorkUsed
// counts the work units. Cost per probe
// O(N·(A·K + KnapsackNodes·K·d) + C·A + ImproveVisits·d) for C
// containers; O(log C) probes (in incremental mode up to about three
// times as many: the targeted phase's probes may run twice, each time
// after an O(N log N·(containers and apps per node)) choice of M).
func Solve(p *Problem, opt Options) (*Plan, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := validateOptions(p, &opt); err != nil {
		return nil, err
	}
	if opt.KnapsackNodes <= 0 {
		opt.KnapsackNodes = DefaultKnapsackNodes
	}
	if opt.ImproveVisits <= 0 {
		opt.ImproveVisits = DefaultImproveVisits
	}
	if opt.MaxProbes <= 0 {
		opt.MaxProbes = DefaultMaxProbes
	}
	maxWork, err := work.Resolve(opt.MaxWork, opt.TimeLimit, DefaultMaxWork)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	full := newInstance(p)
	s := &searcher{full: full, in: full, opt: opt, w: work.New(maxWork, opt.TimeLimit)}
	ub := lambdaUpper(full)
	plan := &Plan{LambdaUpper: ub}
	if opt.From != nil {
		if err := s.incremental(plan); err != nil {
			return nil, err
		}
	} else {
		s.base = newPacking(full)
	}
	best, _ := s.probe(0, nil) // λ = 0: nothing required, always complete
	if !math.IsInf(ub, 1) {
		plan.Lambda, best = s.search(ub, best)
		if opt.From != nil {
			plan.Lambda, best = s.targeted(ub, plan.Lambda, best)
		}
	}
	plan.Probes = s.probes
	if opt.From != nil {
		// The final set is the one best was packed on.
		s.setMutable(best.in.active, nil)
		plan.Mutable = mutableList(best.in.active)
		s.restoreFrom(best)
	}
	if !opt.NoTopUp {
		topUp(best)
	}
	s.report(plan, best)
	plan.WorkUsed, plan.TimeLimitHit = s.w.Used(), s.w.TimeLimitHit()
	return plan, nil
}

// searcher holds the λ search state.
type searcher struct {
	// full is the whole instance; in is the one the packer works on
	// (restricted to the mutable nodes in incremental mode).
	full, in *instance
	opt      Options
	// w counts the work of every probe against MaxWork and TimeLimit.
	w *work.Counter
	// base is the packing every probe starts from: empty, or the frozen
	// nodes with their From containers.
	base *packing
	// frozen[a][k] counts the (a,k) containers on frozen nodes (nil
	// outside incremental mode).
	frozen [][]int
	// keep is the order in which keepFrom visits the mutable nodes (nil:
	// the packer's node order).
	keep []int
	// limit is MutableNodes(N, Mutable) and forced the nodes whose From
	// containers break the problem (incremental mode).
	limit  int
	forced []int
	probes int
}

// start returns a copy of the base packing whose pool is the required set
// of λ minus the frozen containers.
func (s *searcher) start(lambda float64) *packing {
	pk := s.base.clone(s.in)
	for a, row := range s.counts(lambda) {
		for k, c := range row {
			if s.frozen != nil {
				c -= s.frozen[a][k]
			}
			if c > 0 {
				pk.addPool(a, k, c)
			}
		}
	}
	return pk
}

// probe packs the set of λ and reports whether the packing is complete.
// The random moves draw from a generator seeded by (Seed, λ), so a probe's
// result depends on λ alone. In incremental mode it first tries to keep
// the mutable nodes' From containers (keepFrom), then starts afresh. In
// the targeted phase (target not nil) it first makes the targeter's set
// for λ the mutable set (the packing's instance records it:
// pk.in.active).
func (s *searcher) probe(lambda float64, target *targeter) (*packing, bool) {
	if target == nil {
		return s.probeSet(lambda, nil)
	}
	clear(target.boost)
	var pk *packing
	for range targetTries {
		s.setMutable(target.set(lambda))
		var ok bool
		if pk, ok = s.probeSet(lambda, target); ok || pk.poolN == 0 {
			return pk, ok
		}
		for a, v := range pk.poolVolA {
			target.boost[a] += v
		}
	}
	return pk, false
}

// targetTries bounds the mutable sets a targeted probe tries: after a
// failure the volume each application left unpacked is added to its
// deficit and the set is chosen again.
const targetTries = 2

// probeSet is probe on the current mutable set (target: see probe).
func (s *searcher) probeSet(lambda float64, target *targeter) (*packing, bool) {
	var pk *packing
	for try := range 2 {
		if try == 0 && s.frozen == nil {
			continue // initial run: only the fresh start
		}
		pk = s.start(lambda)
		if try == 0 {
			s.keepFrom(pk)
		}
		if target != nil {
			s.seedPartners(pk)
		}
		rng := rand.New(rand.NewPCG(s.opt.Seed, math.Float64bits(lambda)+uint64(try)))
		s.w.Add(greedy(pk, s.opt.KnapsackNodes))
		ok, used := improve(pk, s.opt.ImproveVisits, int(min(s.w.Left(), math.MaxInt32)), s.opt.KnapsackNodes, rng)
		s.w.Add(used)
		if ok {
			return pk, true
		}
	}
	return pk, false
}

// late reports whether MaxWork is spent or TimeLimit has passed: no new
// probe starts.
func (s *searcher) late() bool { return s.w.Done() }
