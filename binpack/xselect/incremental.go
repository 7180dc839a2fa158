package xselect

import (
	"math"
	"sort"
)

// incremental prepares incremental mode (ALGORITHMS §2.6) from opt.From:
//
//  1. Every node whose From containers break the problem (checker: range,
//     eligibility, capacity, MaxPerNode, Exlocate, Colocate) must change.
//     If there are more of them than limit = MutableNodes(N, Mutable), it
//     returns a *TooManyInvalidError.
//  2. The other places of the mutable set M (up to limit in all) go to
//     the valid nodes with the highest usefulness score (mutableScore;
//     ties to the lower index).
//  3. The nodes outside M are frozen: the base packing holds their From
//     containers exactly, and the packer may not touch them (s.in is
//     restricted to M). frozen[a][k] counts them.
//
// It sets plan.MutableLimit and plan.Forced (Solve sets plan.Mutable
// from the set of the final packing). Cost
// O(N log N + containers·(d + rules)).
func (s *searcher) incremental(plan *Plan) error {
	full, from := s.full, s.opt.From
	nn := full.nn
	limit := MutableNodes(nn, s.opt.Mutable)
	chk := newChecker(full.p)
	inM := make([]bool, nn)
	var forced, rest []int
	for n := range nn {
		if chk.node(n, from[n]) != nil {
			forced = append(forced, n)
			inM[n] = true
		} else {
			rest = append(rest, n)
		}
	}
	if len(forced) > limit {
		return &TooManyInvalidError{Nodes: forced, Limit: limit}
	}
	score := mutableScore(full, from)
	sort.SliceStable(rest, func(i, j int) bool { return score[rest[i]] > score[rest[j]] })
	for _, n := range rest[:limit-len(forced)] {
		inM[n] = true
	}
	plan.MutableLimit = limit
	plan.Forced = forced
	s.limit, s.forced = limit, forced
	s.setMutable(inM, nil)
	return nil
}

// setMutable makes inM the mutable set M of the following probes: s.in is
// restricted to M, s.base holds the nodes outside M with their From
// containers exactly, and s.frozen[a][k] counts those containers. keep is
// the order in which keepFrom visits M's nodes (nil: the packer's node
// order). Cost O(N log N + N·A + containers·d).
func (s *searcher) setMutable(inM []bool, keep []int) {
	full, from := s.full, s.opt.From
	s.in = full.restrict(inM)
	s.keep = keep
	s.base = newPacking(s.in)
	s.frozen = make([][]int, full.na)
	for a := range s.frozen {
		s.frozen[a] = make([]int, full.nk)
	}
	for n, cs := range from {
		if inM[n] {
			continue
		}
		for _, c := range cs {
			s.base.place(n, c.Shape, c.Owner)
			s.frozen[c.Owner][c.Shape]++
		}
	}
	s.base.forget()
}

// mutableList returns the nodes of inM, ascending.
func mutableList(inM []bool) []int {
	l := []int{}
	for n, ok := range inM {
		if ok {
			l = append(l, n)
		}
	}
	return l
}

// mutableScore rates how useful changing each node would be, in
// normalised volume, from three signals (ALGORITHMS §2.6 step 1):
//
//   - surplus: Σ_c vol_c·max(0, f_{a,k} − λ₀·m_{a,k})/f_{a,k} over the
//     node's containers, where f_{a,k} counts (a,k) containers in From
//     and λ₀ = (From's packed volume)/(Σ_{a,k} m_{a,k}·vol_k) is the
//     multiplier at which the new mix has From's total volume: containers
//     of apps and shapes the new mix wants less of are worth moving;
//   - stranded capacity: the node's free normalised capacity under From
//     (a node added since From is all free), counted double in proportion
//     to the share of the under-target volume (Σ_k max(0, λ₀·m_{a,k} −
//     f_{a,k})·vol_k over apps a) whose apps may use the node: free room
//     where the apps that must grow can go is worth most;
//   - nodes whose From containers break a rule are not scored here: they
//     are always mutable.
//
// Cost O(N·(d + apps per node) + containers).
func mutableScore(in *instance, from [][]Container) []float64 {
	f := make([][]int, in.na)
	for a := range f {
		f[a] = make([]int, in.nk)
	}
	have := 0.0
	for _, cs := range from {
		for _, c := range cs {
			f[c.Owner][c.Shape]++
			have += in.vol[c.Shape]
		}
	}
	want := 0.0
	for _, app := range in.p.Apps {
		for k, m := range app.Mix {
			want += m * in.vol[k]
		}
	}
	lambda0 := 0.0
	if want > 0 { // no mix: every container is surplus
		lambda0 = have / want
	}
	deficit := make([]float64, in.na)
	totDeficit := 0.0
	for a, app := range in.p.Apps {
		for k, m := range app.Mix {
			deficit[a] += math.Max(0, lambda0*m-float64(f[a][k])) * in.vol[k]
		}
		totDeficit += deficit[a]
	}
	score := make([]float64, in.nn)
	used := make([]float64, in.nd)
	for n, cs := range from {
		clear(used)
		for _, c := range cs {
			for d, v := range in.p.Shapes[c.Shape] {
				used[d] += v
			}
			fc := float64(f[c.Owner][c.Shape])
			score[n] += in.vol[c.Shape] * math.Max(0, fc-lambda0*in.p.Apps[c.Owner].Mix[c.Shape]) / fc
		}
		stranded := 0.0
		for d, v := range in.p.Nodes[n].Capacity {
			if in.total[d] > 0 {
				stranded += math.Max(0, v-used[d]) / in.total[d]
			}
		}
		share := 0.0
		if totDeficit > 0 { // nobody under target: free room counts once
			for _, a := range in.appsOf[n] {
				share += deficit[a]
			}
			share /= totDeficit
		}
		score[n] += stranded * (1 + share)
	}
	return score
}

// keepFrom seeds the mutable nodes of pk with their From containers that
// the pool still needs, node by node in s.keep order (the packer's node
// order if nil) and in From order on a node, each only if it fits and is
// admitted; then it repairs colocation on each such node
// (repairColocation, which may keep a From partner as an extra). This is
// the "improve the previous plan" start of an incremental probe. Cost
// O(containers on M·(d + rules)).
func (s *searcher) keepFrom(pk *packing) {
	in := pk.in
	order := s.keep
	if order == nil {
		order = in.order
	}
	for _, n := range order {
		var spare []Container
		for _, c := range s.opt.From[n] {
			if pk.pool[c.Owner][c.Shape] > 0 && in.fits(c.Shape, n, pk.free[n]) && pk.admits(n, c.Owner) {
				pk.put(n, c.Owner, c.Shape)
			} else {
				spare = append(spare, c)
			}
		}
		repairColocation(pk, n, spare)
	}
	pk.forget()
}

// seedPartners keeps, on each mutable node of pk, one From container of
// every colocation partner b absent from the node whose needers have
// pooled containers and are admitted there: from the pool if b still
// needs that shape, else as an extra beyond the required set (it was there
// before, so keeping it changes nothing). Without it a needer could only
// go where a partner comes from the pool, and a partner whose required set
// the frozen nodes already hold has none pooled. Used by the targeted
// phase. Cost O(containers on M·(needers + rules)).
func (s *searcher) seedPartners(pk *packing) {
	in := pk.in
	for _, n := range in.order {
		for _, c := range s.opt.From[n] {
			b := c.Owner
			if len(in.needers[b]) == 0 || pk.onNode(n, b) > 0 || !in.fits(c.Shape, n, pk.free[n]) || !pk.admits(n, b) {
				continue
			}
			wanted := false
			for _, a := range in.needers[b] {
				wanted = wanted || pk.poolA[a] > 0 && pk.admits(n, a)
			}
			if !wanted {
				continue
			}
			m := pk.mark()
			if pk.pool[b][c.Shape] > 0 {
				pk.put(n, b, c.Shape)
			} else {
				pk.place(n, c.Shape, b)
			}
			if !pk.valid(n) {
				pk.undo(m)
			}
		}
	}
	pk.forget()
}

// repairColocation makes node n valid when only colocation rules are
// broken. For the first present app a missing a partner b: bundle b from
// the pool; or else, if spare (From containers of n not kept) holds a b
// container that fits and is admitted, keep it as an extra beyond the
// required set (the previous plan had it there; it leaves the pool
// untouched); or else return all of a's containers on n to the pool.
// Repeat until valid.
func repairColocation(pk *packing, n int, spare []Container) {
	for !pk.valid(n) {
		fixed := false
		for _, e := range pk.present[n] {
			a := e.app
			b := -1
			for _, x := range pk.in.colo[a] {
				if pk.onNode(n, x) == 0 {
					b = x
					break
				}
			}
			if b < 0 {
				continue
			}
			fixed = true
			m := pk.mark()
			if pk.bundle(n, a) {
				break
			}
			pk.undo(m)
			for i, c := range spare {
				if c.Owner == b && pk.in.fits(c.Shape, n, pk.free[n]) && pk.admits(n, b) {
					pk.place(n, c.Shape, b)
					spare = append(spare[:i:i], spare[i+1:]...)
					b = -1
					break
				}
			}
			if b < 0 {
				break
			}
			for i := len(pk.nodes[n]) - 1; i >= 0; i-- {
				if pk.nodes[n][i].Owner == a {
					pk.take(n, i)
				}
			}
			break
		}
		if !fixed { // not a colocation fault: empty the node
			for len(pk.nodes[n]) > 0 {
				pk.take(n, len(pk.nodes[n])-1)
			}
		}
	}
}

// fromLambda returns the largest breakpoint λ whose required set the
// From containers cover, counted over all nodes: λ < (f_{a,k}+1)/m_{a,k}
// for every (a,k). Cost O(A·K).
func (s *searcher) fromLambda() float64 {
	f := make([][]int, s.full.na)
	for a := range f {
		f[a] = make([]int, s.full.nk)
	}
	for _, cs := range s.opt.From {
		for _, c := range cs {
			f[c.Owner][c.Shape]++
		}
	}
	lim := math.Inf(1)
	for a, app := range s.full.p.Apps {
		for k, m := range app.Mix {
			if m > 0 {
				lim = math.Min(lim, float64(f[a][k]+1)/m)
			}
		}
	}
	if math.IsInf(lim, 1) {
		return 0
	}
	return s.prev(lim)
}

// restoreFrom puts back, on each mutable node, the From containers it
// lost, as extras beyond the required set, wherever they fit and leave the
// node valid, so that nodes the search did not need to change come out
// unchanged. A container refused because its colocation partner was not
// back yet is retried in a further sweep over the node (up to
// restoreSweeps). Cost O(restoreSweeps·containers on M·(d + rules)).
func (s *searcher) restoreFrom(pk *packing) {
	in := pk.in
	for _, n := range in.order {
		for range restoreSweeps {
			have := map[Container]int{}
			for _, c := range pk.nodes[n] {
				have[c]++
			}
			added := false
			for _, c := range s.opt.From[n] {
				if have[c] > 0 {
					have[c]--
					continue
				}
				if !in.fits(c.Shape, n, pk.free[n]) || !pk.admits(n, c.Owner) {
					continue
				}
				m := pk.mark()
				pk.place(n, c.Shape, c.Owner)
				if pk.valid(n) {
					added = true
				} else {
					pk.undo(m)
				}
			}
			if !added {
				break
			}
		}
		pk.forget()
	}
}

// restoreSweeps bounds the sweeps of restoreFrom over one node.
const restoreSweeps = 3
