package flow

import "slices"

// Integral computes the weighted, demand-capped CMMF allocation with whole
// machines: an integral allocation whose sorted level vector (x_u/w_u) is
// lexicographically maximal (leximin). The paper's integral definition —
// no subset can reshuffle its machines to raise its minimum — is implied
// by leximin optimality (ALGORITHMS.md §5.1).
//
// With equal weights it rounds the divisible solution piece by piece
// (Algorithm B, exact by Frank–Murota proximity: two max flows); otherwise
// it runs the exact weighted greedy in rounds (Algorithm C).
func Integral(p *Problem) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := checkScale(p); err != nil {
		return nil, err
	}
	equal := true
	for _, u := range p.Users {
		equal = equal && u.Weight == p.Users[0].Weight
	}
	if equal && p.Floors == nil {
		return integralUnweighted(p)
	}
	return integralWeighted(p)
}

// integralUnweighted is Algorithm B of ALGORITHMS.md §5.4. With the
// divisible solution x* in hand, every user is first given ⌊x*_u⌋ (one max
// flow; it saturates because x* dominates it and the feasible set is
// downward closed); then, piece by piece in increasing level order, the
// allowances are raised to ⌈x*_u⌉ and the flow is augmented. Augmenting
// paths from the source never lower a source arc's flow, and earlier pieces'
// types are then full, so later pieces cannot take from them. Every
// allocation in the box [⌊x*⌋, ⌈x*⌉] with the pieces' totals has the same
// sorted vector, the leximin optimum.
func integralUnweighted(p *Problem) (*Result, error) {
	frac, err := Divisible(p)
	if err != nil {
		return nil, err
	}
	classes := compress(effectiveProblem(p))
	lists := make([][]int, len(classes))
	for c := range classes {
		lists[c] = classes[c].types
	}
	net := newNetwork(lists, classCaps(classes), p.Types)
	for t, c := range p.Types {
		net.g.SetCap(net.typeArc[t], c)
	}
	floorSum := func(c int, ceil bool) int64 {
		var s int64
		for _, u := range classes[c].members {
			a := frac.Amount[u]
			v := a.Num / a.Den
			if ceil && a.Num%a.Den != 0 {
				v++
			}
			s += v
		}
		return s
	}
	var want int64
	for c := range classes {
		a := floorSum(c, false)
		net.g.SetCap(net.classArc[c], a)
		want += a
	}
	got := net.g.MaxFlow(net.src, net.sink)
	maxFlows := 1
	if got != want {
		panic("flow: floors of the divisible solution do not fit")
	}
	// Raise allowances round by round (pieces of one round are disjoint).
	order := make([]int, len(classes))
	for c := range order {
		order[c] = c
	}
	round := func(c int) int { return frac.Round[classes[c].members[0]] }
	slices.SortStableFunc(order, func(a, b int) int { return round(a) - round(b) })
	for i := 0; i < len(order); {
		j := i
		for j < len(order) && round(order[j]) == round(order[i]) {
			net.g.SetCap(net.classArc[order[j]], floorSum(order[j], true))
			j++
		}
		net.g.MaxFlow(net.src, net.sink)
		maxFlows++
		i = j
	}

	res := newResult(p)
	res.Integral = true
	res.Pieces = frac.Pieces
	res.Rounds = frac.Rounds
	res.MaxFlows = frac.MaxFlows + maxFlows
	copy(res.Round, frac.Round)
	copy(res.Capped, frac.Capped)
	for c := range classes {
		cl := &classes[c]
		total := net.g.Flow(net.classArc[c])
		amounts := make([]int64, len(cl.members))
		for i, u := range cl.members {
			a := frac.Amount[u]
			amounts[i] = a.Num / a.Den
			total -= amounts[i]
		}
		for i := 0; total > 0; i++ { // identical members: any may take the ceiling
			amounts[i]++
			total--
		}
		flows := make([]int64, len(cl.types))
		for k := range cl.types {
			flows[k] = net.g.Flow(net.edgeArc[c][k])
		}
		splitIntegral(res, p, cl.members, amounts, flows)
	}
	return res, nil
}

// splitIntegral distributes a class's per-type integer flows among its
// identical members so that member i receives amounts[i] (north-west
// corner rule: the totals agree, and every member may use every type).
func splitIntegral(res *Result, p *Problem, members []int, amounts, flows []int64) {
	k := 0
	for i, u := range members {
		need := amounts[i]
		res.Amount[u] = Int(need)
		res.Level[u] = NewRat(need, p.Users[u].Weight)
		for need > 0 {
			for flows[k] == 0 {
				k++
			}
			take := min(need, flows[k])
			res.Alloc[u][k] = Int(res.Alloc[u][k].Num + take)
			flows[k] -= take
			need -= take
		}
	}
}
