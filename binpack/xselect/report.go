package xselect

import (
	"fmt"
	"math"
	"slices"
)

// report fills plan.Nodes, plan.Changed, plan.Apps and plan.Unplaced from
// the final packing pk.
func (s *searcher) report(plan *Plan, pk *packing) {
	full := s.full
	plan.Nodes = make([][]Container, full.nn)
	for n, cs := range pk.nodes {
		if s.opt.From != nil {
			if sameMultiset(cs, s.opt.From[n]) {
				plan.Nodes[n] = append([]Container{}, s.opt.From[n]...) // keep From's order
				continue
			}
			plan.Changed = append(plan.Changed, n)
		}
		plan.Nodes[n] = append([]Container{}, cs...)
		slices.SortFunc(plan.Nodes[n], func(x, y Container) int {
			if x.Shape != y.Shape {
				return x.Shape - y.Shape
			}
			return x.Owner - y.Owner
		})
	}
	if s.opt.From != nil && plan.Changed == nil {
		plan.Changed = []int{}
	}
	req := s.counts(plan.Lambda)
	total := 0.0
	plan.Apps = make([]AppResult, full.na)
	for a, app := range full.p.Apps {
		r := &plan.Apps[a]
		r.Target = app.Share
		for k, c := range pk.cnt[a] {
			r.Required += req[a][k]
			r.Packed += c
			r.Volume += float64(c) * full.vol[k]
			if s.frozen != nil {
				r.Frozen += s.frozen[a][k]
				r.Surplus += max(0, s.frozen[a][k]-req[a][k])
			}
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
			if c := pk.cnt[a][k]; c < w {
				reason := s.reason(pk, a, k)
				for ; c < w; c++ {
					plan.Unplaced = append(plan.Unplaced, Unplaced{Shape: k, Owner: a, Reason: reason})
				}
			}
		}
	}
}

// reason explains why one more (a,k) container is not in the final
// packing (see the Reason constants): the candidate nodes are a's
// eligible nodes whose empty capacity holds k; if none, no eligible node;
// if all are frozen, frozen; if the rules rule a out of every mutable one
// (outside can[a], MaxPerNode reached, an exlocated app present, or a
// colocation partner absent and not admitted), constraint; else no room.
func (s *searcher) reason(pk *packing, a, k int) string {
	full := s.full
	cands, mutable := 0, 0
	for n := range full.nn {
		if !full.elig[a][n] || !full.fits(k, n, full.p.Nodes[n].Capacity) {
			continue
		}
		cands++
		if !s.in.active[n] {
			continue
		}
		mutable++
		if !pk.admits(n, a) {
			continue
		}
		ok := true
		for _, b := range full.colo[a] {
			ok = ok && (pk.onNode(n, b) > 0 || pk.admits(n, b))
		}
		if ok {
			return ReasonNoRoom
		}
	}
	switch {
	case cands == 0:
		return ReasonNoEligibleNode
	case mutable == 0:
		return ReasonFrozen
	}
	return ReasonConstraint
}

// String summarises a plan in one line.
func (pl *Plan) String() string {
	c := 0
	for _, cs := range pl.Nodes {
		c += len(cs)
	}
	s := fmt.Sprintf("xselect: λ=%g (upper %g), %d containers, %d unplaced, %d probes", pl.Lambda, pl.LambdaUpper, c, len(pl.Unplaced), pl.Probes)
	if pl.Changed != nil {
		s += fmt.Sprintf(", %d/%d nodes changed", len(pl.Changed), pl.MutableLimit)
	}
	return s
}
