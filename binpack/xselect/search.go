package xselect

import (
	"fmt"
	"math"
)

// Default budgets used when the Options fields are 0.
const (
	// DefaultKnapsackNodes caps the branch-and-bound search nodes per
	// node knapsack.
	DefaultKnapsackNodes = 512
	// DefaultImproveVisits caps the improvement work per probe, in node
	// or container visits.
	DefaultImproveVisits = 2_000_000
	// DefaultMaxProbes caps the number of multipliers tried.
	DefaultMaxProbes = 100
)

// Options tunes Solve. The zero value is usable.
type Options struct {
	KnapsackNodes int
	ImproveVisits int
	MaxProbes     int
	// NoTopUp skips the top-up phase.
	NoTopUp bool
}

// Solve runs X-Select's initial run (X-Flex §2, ALGORITHMS.md §2.2–2.5).
//
// For a multiplier λ application a needs ⌊λ·m_{a,k}⌋ containers of shape k
// (see Count). Solve finds a large λ whose whole required set packs, every
// container on an eligible node of its owner and every node within
// capacity in every dimension:
//
//  1. λ_hi = LambdaUpper(p), the fluid bound; λ_lo = 0 is feasible.
//  2. Bisection on the discrete sets: the midpoint is moved up to the next
//     breakpoint j/m_{a,k} above λ_lo if it gives λ_lo's set, and the
//     search stops when no breakpoint lies strictly between λ_lo and the
//     smallest λ giving λ_hi's set. λ_hi itself is probed first.
//  3. Each probe packs greedily node by node (greedy) and then tries to
//     place the leftovers by insertion and eject chains (improve); it is
//     feasible iff nothing is left. Heuristic probes make feasibility only
//     roughly monotone, so the best feasible plan seen is kept.
//  4. Top-up (unless opt.NoTopUp): repeatedly take the application with the
//     lowest Volume/Share among those not yet exhausted, and its shape
//     furthest behind its mix (lowest packed_{a,k}/m_{a,k}); put one
//     container on the first eligible node with room (node order), until
//     no application can take another container.
//
// Normalised volume is Σ_d c_d/T_d with T_d the cluster's total capacity in
// dimension d. It returns an error wrapping ErrInvalid if p.Validate fails.
// Deterministic. Cost per probe O(N·(A·K + KnapsackNodes·K·d) + C·A +
// ImproveVisits·d) for C containers; O(log C) probes.
func Solve(p *Problem, opt Options) (*Plan, error) {
	if err := p.Validate(); err != nil {
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
	in := newInstance(p)
	s := &searcher{in: in, opt: opt}
	ub := lambdaUpper(in)
	plan := &Plan{LambdaUpper: ub}
	best := newPacking(in)
	if !math.IsInf(ub, 1) {
		plan.Lambda, best = s.search(ub, best)
	}
	if !opt.NoTopUp {
		topUp(in, best)
	}
	plan.Nodes = best.nodes
	for n := range plan.Nodes {
		if plan.Nodes[n] == nil {
			plan.Nodes[n] = []Container{}
		}
	}
	s.report(plan, best)
	return plan, nil
}

type searcher struct {
	in  *instance
	opt Options
}

// counts returns the required set at λ.
func (s *searcher) counts(lambda float64) [][]int {
	req := make([][]int, s.in.na)
	for a, app := range s.in.p.Apps {
		req[a] = make([]int, s.in.nk)
		for k, m := range app.Mix {
			req[a][k] = Count(lambda, m)
		}
	}
	return req
}

// snap returns the smallest λ giving the same set as lambda:
// max_{a,k} ⌊λ m⌋/m (0 for the empty set).
func (s *searcher) snap(lambda float64) float64 {
	v := 0.0
	for _, app := range s.in.p.Apps {
		for _, m := range app.Mix {
			if c := Count(lambda, m); c > 0 {
				v = math.Max(v, float64(c)/m)
			}
		}
	}
	return v
}

// next returns the smallest breakpoint strictly above lambda's set.
func (s *searcher) next(lambda float64) float64 {
	v := math.Inf(1)
	for _, app := range s.in.p.Apps {
		for _, m := range app.Mix {
			if m > 0 {
				v = math.Min(v, float64(Count(lambda, m)+1)/m)
			}
		}
	}
	return v
}

// prev returns the largest breakpoint strictly below lambda (0 if none).
func (s *searcher) prev(lambda float64) float64 {
	v := 0.0
	for _, app := range s.in.p.Apps {
		for _, m := range app.Mix {
			if m > 0 {
				if j := math.Ceil(lambda*m-countTol) - 1; j > 0 {
					v = math.Max(v, j/m)
				}
			}
		}
	}
	return v
}

// probe packs the set of λ and reports the packing if it is complete.
func (s *searcher) probe(lambda float64) (*packing, bool) {
	rem := s.counts(lambda)
	pk := greedy(s.in, rem, s.opt.KnapsackNodes)
	return pk, improve(pk, rem, s.opt.ImproveVisits)
}

func (s *searcher) search(ub float64, empty *packing) (float64, *packing) {
	lo, best := 0.0, empty
	hi := s.snap(ub)
	if hi == 0 {
		return 0, best
	}
	probes := 1
	if pk, ok := s.probe(hi); ok {
		return hi, pk
	}
	for ; probes < s.opt.MaxProbes; probes++ {
		nb := s.next(lo)
		if nb >= hi {
			break
		}
		mid := s.snap((lo + hi) / 2)
		if mid < nb {
			mid = nb
		}
		if pk, ok := s.probe(mid); ok {
			lo, best = mid, pk
		} else {
			hi = mid
		}
	}
	return lo, best
}

// topUp adds containers beyond the required set (step 4 of Solve).
// First-fit cursors per (app, shape) only move forward because free space
// only shrinks, so the cost is O(A·K·N·d + added·(A+K)).
func topUp(in *instance, pk *packing) {
	p := in.p
	vol := make([]float64, in.na)
	cursor := make([][]int, in.na)
	done := make([]bool, in.na)
	for a := range p.Apps {
		for k, c := range pk.cnt[a] {
			vol[a] += float64(c) * in.vol[k]
		}
		cursor[a] = make([]int, in.nk)
		done[a] = true
		for _, m := range p.Apps[a].Mix {
			if m > 0 {
				done[a] = false
			}
		}
	}
	for {
		a := -1
		for b := range p.Apps {
			if !done[b] && (a < 0 || vol[b]/p.Apps[b].Share < vol[a]/p.Apps[a].Share) {
				a = b
			}
		}
		if a < 0 {
			return
		}
		k := -1
		for j, m := range p.Apps[a].Mix {
			if m <= 0 || cursor[a][j] >= len(in.eligNodes[a]) {
				continue
			}
			if k < 0 || float64(pk.cnt[a][j])/m < float64(pk.cnt[a][k])/p.Apps[a].Mix[k] {
				k = j
			}
		}
		if k < 0 {
			done[a] = true
			continue
		}
		nodes := in.eligNodes[a]
		for cursor[a][k] < len(nodes) && !in.fits(k, nodes[cursor[a][k]], pk.free[nodes[cursor[a][k]]]) {
			cursor[a][k]++
		}
		if cursor[a][k] < len(nodes) {
			pk.place(nodes[cursor[a][k]], k, a)
			vol[a] += in.vol[k]
		}
	}
}

// report fills plan.Apps and plan.Unplaced.
func (s *searcher) report(plan *Plan, pk *packing) {
	in := s.in
	req := s.counts(plan.Lambda)
	total := 0.0
	plan.Apps = make([]AppResult, in.na)
	for a, app := range in.p.Apps {
		r := &plan.Apps[a]
		r.Target = app.Share
		for k, c := range pk.cnt[a] {
			r.Required += req[a][k]
			r.Packed += c
			r.Volume += float64(c) * in.vol[k]
		}
		total += r.Volume
	}
	if total > 0 { // nothing packed: leave Achieved at 0
		for a := range plan.Apps {
			plan.Apps[a].Achieved = plan.Apps[a].Volume / total
		}
	}
	nb := s.next(plan.Lambda)
	if math.IsInf(nb, 1) {
		return
	}
	want := s.counts(nb)
	for a := range want {
		for k, w := range want[a] {
			for c := pk.cnt[a][k]; c < w; c++ {
				reason := ReasonNoEligibleNode
				for _, n := range in.eligNodes[a] {
					if in.fits(k, n, in.p.Nodes[n].Capacity) {
						reason = ReasonNoRoom
						break
					}
				}
				plan.Unplaced = append(plan.Unplaced, Unplaced{Shape: k, Owner: a, Reason: reason})
			}
		}
	}
}

// String summarises a plan in one line.
func (pl *Plan) String() string {
	c := 0
	for _, cs := range pl.Nodes {
		c += len(cs)
	}
	return fmt.Sprintf("xselect: λ=%g (upper %g), %d containers, %d unplaced", pl.Lambda, pl.LambdaUpper, c, len(pl.Unplaced))
}
