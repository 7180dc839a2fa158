package vbp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/capplan/capplan/binpack/internal/work"
)

// DefaultMaxWork is Solve's work cap when Options.MaxWork is 0: on the
// public benchmark instances at most about 0.5 s of one core of a 2020s
// server.
const DefaultMaxWork = 22_000_000

// improveShare: each of the improveTop packings improved may spend up to
// MaxWork/improveShare work units (200,000 at DefaultMaxWork).
const improveShare = 110

// searchShare: the neighbourhood search may spend up to MaxWork −
// MaxWork/searchShare units (20,000,000 at DefaultMaxWork).
const searchShare = 11

// randomOrders is how many seeded random-weight FFD orders Solve adds to the
// deterministic heuristics.
const randomOrders = 4

// improveTop is how many of the best constructive packings get improved.
const improveTop = 10

// nodeLimit bounds the branch-and-bound nodes of one bin's knapsack in the
// node-at-a-time greedy.
const nodeLimit = 2000

// solveNodeItems is the item count above which Solve's node-at-a-time
// greedy gets nodeLimit·solveNodeItems/n nodes per bin instead of
// nodeLimit, which keeps its O(B·nodeLimit·n) cost near that at
// solveNodeItems items (Construct keeps the full limit).
const solveNodeItems = 100

// exactMaxItems and exactNodes bound the exact attempt of Solve: on
// instances with at most exactMaxItems items, a branch and bound of at
// most exactNodes nodes tries to pack the items into one bin fewer than
// the best packing (see packInto). On the public instances it proves
// about a third of the open small ones optimal within a few milliseconds,
// which saves their search budget.
const (
	exactMaxItems = 60
	exactNodes    = 100000
)

// Result is the best packing Solve found.
type Result struct {
	Packing    Packing
	Bins       int
	LowerBound Bounds
	// Optimal reports that Bins is proven optimal: it equals
	// LowerBound.Best, or the exact attempt showed that Bins−1 bins
	// cannot hold the items.
	Optimal bool
	// Method names the constructive heuristic, with "+improve" when the
	// improvement step removed bins, "+exact" when the exact attempt did
	// and "+search" when the neighbourhood search did.
	Method string
	Seed   uint64
	// WorkUsed counts the work units spent (see Solve).
	WorkUsed int64
	// TimeLimitHit reports that Options.TimeLimit stopped the run.
	TimeLimitHit bool
}

type method struct {
	name string
	run  func(p *problem) Packing
	// quadratic: the heuristic scans every remaining item for every item
	// placed, O(n²·d), with no budget; Solve skips it above
	// quadraticItems items.
	quadratic bool
}

// quadraticItems is the item count above which Solve leaves out the
// heuristics whose cost is quadratic in the items (bin-centric and
// node-at-a-time greedies) and the lower bounds scan a bounded sample
// (see cliqueBound and l2), so that a large instance (one class of 10^6
// containers) costs O(n log n + budgets) instead of hours. The public
// benchmark instances have at most a few thousand items.
const quadraticItems = 20_000

// methods are the deterministic constructive heuristics, by name.
var methods = []method{
	{"ffd-sum", func(p *problem) Packing { return p.ffd(keySum) }, false},
	{"ffd-max", func(p *problem) Packing { return p.ffd(keyMax) }, false},
	{"ffd-l2", func(p *problem) Packing { return p.ffd(keyL2) }, false},
	{"dot-product", func(p *problem) Packing { return p.binCentric(scoreDot) }, true},
	{"l2-norm", func(p *problem) Packing { return p.binCentric(scoreL2) }, true},
	{"node-knapsack", func(p *problem) Packing { return p.nodeGreedy(nodeLimit) }, true},
}

// Methods lists the names accepted by Construct.
func Methods() []string {
	out := make([]string, len(methods))
	for i, m := range methods {
		out[i] = m.name
	}
	return out
}

// Construct runs one named constructive heuristic (see Methods) without
// improvement. Unknown names give an error listing the valid ones.
func Construct(inst *Instance, name string) (Packing, error) {
	p, err := newProblem(inst)
	if err != nil {
		return nil, err
	}
	for _, m := range methods {
		if m.name == name {
			return m.run(p), nil
		}
	}
	return nil, fmt.Errorf("vbp: unknown method %q (valid: %s)", name, strings.Join(Methods(), ", "))
}

// solveConfig is how one Solve run splits its work: improve is the cap of
// each packing improved, search that of the neighbourhood search (0: it
// does not run, nor does the exact attempt).
type solveConfig struct {
	seed            uint64
	improve, search int64
}

// configFor splits maxWork as Solve does; without search, only the
// improvement runs (SolveMixed's re-packings).
func configFor(seed uint64, maxWork int64, search bool) solveConfig {
	c := solveConfig{seed: seed, improve: maxWork / improveShare}
	if search {
		c.search = maxWork - maxWork/searchShare
	}
	return c
}

// Solve packs inst into few bins: it runs every constructive heuristic
// plus randomOrders first-fit orders by a seeded random positive weighting
// of the dimensions, improves the improveTop best packings (see improve),
// then, while the best packing is above the lower bound, tries on small
// instances to pack into one bin fewer exactly (see packInto) and runs
// the consistent neighbourhood search (see search) on it. It returns the
// best packing with the lower bound, and stops early once a packing meets
// the lower bound or is proven optimal. Every returned packing has passed
// Check.
//
// Work: one unit is about one bin or one fit test scanned by the
// improvement and the search, or one node of the exact attempt (the
// constructive heuristics are not counted: they are polynomial, O(n²·d)
// each, and above quadraticItems items only the first-fit ones run, each
// within its own fit-test budget, see firstFit). Options.MaxWork (DefaultMaxWork when 0) is split among the
// phases: each of the improveTop improvements may spend MaxWork/
// improveShare units and the search MaxWork − MaxWork/searchShare (their
// shares sum to MaxWork), each try of the exact attempt (at most
// exactMaxItems items) exactNodes. A phase stops at its first check past
// its share, so WorkUsed may pass MaxWork by one move's work per phase
// (at most 4.2% at the default on the public benchmark samples of the
// tests). So, without a TimeLimit, equal options give equal results on
// any machine; with one, the run also stops at the deadline
// (Result.TimeLimitHit).
//
// Errors: an instance with an item larger than a bin gives an
// *ItemTooLargeError; other malformed instances, and a negative MaxWork or
// TimeLimit, wrap ErrInvalid. Cost O(n²·d) per heuristic plus the work.
func Solve(inst *Instance, opt Options) (*Result, error) {
	maxWork, err := opt.maxWork(DefaultMaxWork)
	if err != nil {
		return nil, err
	}
	// The phases' shares are the caps (see above); the counter only
	// carries the time limit and the count.
	w := work.New(math.MaxInt64, opt.TimeLimit)
	res, err := solve(inst, configFor(opt.Seed, maxWork, true), w)
	if err != nil {
		return nil, err
	}
	res.WorkUsed, res.TimeLimitHit = w.Used(), w.TimeLimitHit()
	return res, nil
}

// solve is Solve with an explicit work split, charging w.
func solve(inst *Instance, cfg solveConfig, w *work.Counter) (*Result, error) {
	p, err := newProblem(inst)
	if err != nil {
		return nil, err
	}
	res := &Result{LowerBound: p.bounds(), Seed: cfg.seed}
	if p.n == 0 {
		res.Packing, res.Method, res.Optimal = Packing{}, "empty", true
		return res, nil
	}
	lb := res.LowerBound.Best
	type cand struct {
		name string
		pk   Packing
	}
	var cands []cand
	for _, m := range methods {
		if p.n > quadraticItems && m.quadratic {
			continue
		}
		if m.name == "node-knapsack" && p.n > solveNodeItems {
			cands = append(cands, cand{m.name, p.nodeGreedy(nodeLimit * solveNodeItems / p.n)})
			continue
		}
		cands = append(cands, cand{m.name, m.run(p)})
	}
	rng := rand.New(rand.NewPCG(cfg.seed, 0x7662702d736f6c76)) // "vbp-solv"
	for r := 0; r < randomOrders; r++ {
		alpha := make([]float64, p.d)
		for k := range alpha {
			alpha[k] = 0.5 + rng.Float64()
		}
		key := func(w []float64) float64 {
			s := 0.0
			for k, v := range w {
				s += alpha[k] * v
			}
			return s
		}
		cands = append(cands, cand{fmt.Sprintf("ffd-random%d", r), p.ffd(key)})
	}
	sort.SliceStable(cands, func(a, b int) bool { return len(cands[a].pk) < len(cands[b].pk) })
	best := cands[0]
	for i := 0; i < len(cands) && i < improveTop && len(best.pk) > lb; i++ {
		pk := p.improve(cands[i].pk, lb, w, w.UpTo(cfg.improve))
		if len(pk) < len(best.pk) {
			best = cand{cands[i].name + "+improve", pk}
		}
	}
	optimal := len(best.pk) <= lb
	if !optimal && cfg.search > 0 && p.n <= exactMaxItems {
		for !optimal && !w.Done() {
			pk, r, nodes := p.packInto(len(best.pk)-1, int(min(exactNodes, w.Left())))
			w.Add(nodes)
			if r == exactFound {
				if !strings.HasSuffix(best.name, "+exact") {
					best.name += "+exact"
				}
				best.pk = pk
				optimal = len(pk) <= lb
				continue
			}
			optimal = r == exactInfeasible
			break
		}
	}
	if !optimal && cfg.search > 0 {
		srng := rand.New(rand.NewPCG(cfg.seed, 0x7662702d73726368)) // "vbp-srch"
		if pk := p.search(best.pk, lb, srng, w, w.UpTo(cfg.search)); len(pk) < len(best.pk) {
			best = cand{best.name + "+search", pk}
			optimal = len(pk) <= lb
		}
	}
	if err := Check(inst, best.pk); err != nil {
		return nil, fmt.Errorf("vbp: internal error: method %s: %w", best.name, err)
	}
	res.Packing, res.Bins, res.Method, res.Optimal = best.pk, len(best.pk), best.name, optimal
	return res, nil
}
