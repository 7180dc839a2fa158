package flow

import (
	"fmt"
	"slices"
)

// Divisible computes the weighted, demand-capped CMMF allocation with
// divisible machines: the unique allocation x maximising, lexicographically,
// the sorted vector of levels x_u/w_u (Choosy §4.2.1), subject to
// Σ_u f_{u,t} ≤ c_t, f_{u,t} = 0 for ineligible types, and x_u ≤ d_u.
//
// Algorithm A of ALGORITHMS.md §5.3: in each round a Newton (Dinkelbach)
// iteration finds the highest level λ = p/q at which every still-growing
// user can receive λ·w_u; each step is one integer max flow on the network
// scaled by q, so feasibility is decided exactly. Users that then cannot
// reach the sink in the residual network (one reverse search) are blocked:
// they and the types they exhaust form the round's tight set and leave the
// network. Users whose demand binds first are frozen at d_u but stay, with
// a fixed allowance, because their flow may still move. Identical users are
// merged into classes first (§5.6).
//
// Each round takes at most |U|+1 Newton steps (w(A) strictly decreases),
// typically 1–3; there is one round per distinct level.
//
// Type caps (User.TypeCaps) cap the arcs user → type. The level bound of a
// cut S then also counts the capped arcs leaving it, and a user can be
// blocked by its own caps while the types it uses still have room: it
// leaves with its tight set, and since every arc it has to a type that
// still reaches the sink is saturated (else it would reach the sink too),
// it holds exactly its (integer) cap there, which is taken off those
// types' remaining counts for the later rounds. So all arithmetic stays in
// integers.
func Divisible(p *Problem) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if p.Floors != nil {
		return nil, fmt.Errorf("%w: floors need whole machines (Integral)", ErrFloors)
	}
	if err := checkScale(p); err != nil {
		return nil, err
	}
	s := newDivisibleSolver(p)
	if err := s.run(); err != nil {
		return nil, err
	}
	return s.res, nil
}

type classState uint8

const (
	growing classState = iota // level still rising
	capped                    // frozen at its demand, still routed
	dead                      // removed with a tight set
)

type divisibleSolver struct {
	p       *Problem
	res     *Result
	classes []class
	net     *network
	state   []classState
	typeOK  []bool  // type still in the network
	remain  []int64 // machines of each type not held by removed classes
	mark    []bool
	round   int
	last    Rat
	started bool
}

func newDivisibleSolver(p *Problem) *divisibleSolver {
	eff := effectiveProblem(p)
	classes := compress(eff)
	lists := make([][]int, len(classes))
	for c := range classes {
		lists[c] = classes[c].types
	}
	s := &divisibleSolver{
		p:       p,
		res:     newResult(p),
		classes: classes,
		net:     newNetwork(lists, classCaps(classes), p.Types),
		state:   make([]classState, len(classes)),
		typeOK:  make([]bool, len(p.Types)),
		remain:  slices.Clone(p.Types),
	}
	for t := range s.typeOK {
		s.typeOK[t] = true
	}
	return s
}

// effectiveProblem returns p with every demand that can never bind
// (d_u ≥ the machines u may use) replaced by Unbounded.
func effectiveProblem(p *Problem) *Problem {
	q := &Problem{Types: p.Types, Users: make([]User, len(p.Users))}
	for u, user := range p.Users {
		q.Users[u] = user
		if user.Demand == Unbounded {
			continue
		}
		if reach := user.reach(p.Types); user.Demand >= reach && len(user.Types) > 0 {
			q.Users[u].Demand = Unbounded
		}
	}
	return q
}

func (s *divisibleSolver) run() error {
	for {
		growingAny := false
		var lamCap Rat
		hasCap := false
		for c := range s.classes {
			if s.state[c] != growing {
				continue
			}
			growingAny = true
			if d := s.classes[c].demand; d != Unbounded {
				r := NewRat(d, s.classes[c].weight)
				if !hasCap || r.Cmp(lamCap) < 0 {
					lamCap, hasCap = r, true
				}
			}
		}
		if !growingAny {
			break
		}
		lam := s.ratio(nil)
		if hasCap && lam.Cmp(lamCap) >= 0 {
			ok, err := s.solveAt(lamCap)
			if err != nil {
				return err
			}
			if ok {
				s.freezeCapped(lamCap)
				continue
			}
			lam = s.ratio(s.mark)
		}
		for {
			ok, err := s.solveAt(lam)
			if err != nil {
				return err
			}
			if ok {
				break
			}
			lam = s.ratio(s.mark)
		}
		if err := s.removeTight(lam); err != nil {
			return err
		}
	}
	return s.finishCapped()
}

// ratio returns (c(S) − d(X ∩ capped)) / w(X ∩ growing) for X the live
// classes marked in the source-side marks S of a minimum cut, c(S) the
// remaining machines of the live types in S plus the caps of the arcs from
// X to live types outside S (the unscaled capacity the cut leaves X), or,
// if mark is nil, for all live classes with c the remaining machines of
// their live types: the highest level X can support on its own.
func (s *divisibleSolver) ratio(mark []bool) Rat {
	var capSum, fixed, w int64
	seen := make([]bool, len(s.p.Types))
	for c := range s.classes {
		if s.state[c] == dead || (mark != nil && !mark[s.net.classNode(c)]) {
			continue
		}
		if s.state[c] == capped {
			fixed += s.classes[c].demand
		} else {
			w += s.classes[c].weight
		}
		for k, t := range s.classes[c].types {
			if !s.typeOK[t] {
				continue
			}
			if mark != nil && !mark[s.net.typeNode(t)] {
				if s.classes[c].caps != nil { // a capped arc the cut crosses (an unbounded one never does)
					capSum += s.classes[c].caps[k]
				}
				continue
			}
			if !seen[t] {
				seen[t] = true
				capSum += s.remain[t]
			}
		}
	}
	if w == 0 {
		panic("flow: Newton step on a set without growing users")
	}
	return NewRat(capSum-fixed, w)
}

// solveAt sets allowances for level lam = p/q, scales the network by q and
// solves it from zero flow. It reports whether every allowance is met;
// if not, s.mark holds the source side of a minimum cut.
func (s *divisibleSolver) solveAt(lam Rat) (bool, error) {
	net, g := s.net, s.net.g
	var want int64
	for c := range s.classes {
		var a int64
		switch s.state[c] {
		case growing:
			a = mustMul(lam.Num, s.classes[c].weight)
		case capped:
			a = mustMul(lam.Den, s.classes[c].demand)
		}
		g.SetCap(net.classArc[c], a)
		want += a
	}
	for t, ok := range s.typeOK {
		var a int64
		if ok {
			a = mustMul(lam.Den, s.remain[t])
		}
		g.SetCap(net.typeArc[t], a)
	}
	net.setEdgeScale(lam.Den)
	g.ResetFlow()
	got := g.MaxFlow(net.src, net.sink)
	s.res.MaxFlows++
	if got == want {
		return true, nil
	}
	s.mark = g.ReachableFrom(net.src, s.mark)
	return false, nil
}

// nextRound numbers a piece at level lam: rounds advance only when the
// level strictly rises.
func (s *divisibleSolver) nextRound(lam Rat) int {
	if !s.started || lam.Cmp(s.last) > 0 {
		s.round++
		s.last, s.started = lam, true
	}
	s.res.Rounds = s.round
	return s.round
}

// freezeCapped freezes every growing class whose demand ratio equals lam
// (the network is feasible at lam).
func (s *divisibleSolver) freezeCapped(lam Rat) {
	piece := Piece{Round: s.nextRound(lam), Level: lam, Capped: true}
	for c := range s.classes {
		cl := &s.classes[c]
		if s.state[c] != growing || cl.demand == Unbounded || NewRat(cl.demand, cl.weight) != lam {
			continue
		}
		s.state[c] = capped
		for _, u := range cl.members {
			piece.Users = append(piece.Users, u)
			s.res.Round[u] = piece.Round
			s.res.Capped[u] = true
			s.res.Amount[u] = Int(s.p.Users[u].Demand)
			s.res.Level[u] = NewRat(s.p.Users[u].Demand, s.p.Users[u].Weight)
		}
	}
	s.res.Pieces = append(s.res.Pieces, piece)
}

// removeTight records the tight set of the feasible flow at lam — every
// live class and type that cannot reach the sink — and removes it.
func (s *divisibleSolver) removeTight(lam Rat) error {
	g, net := s.net.g, s.net
	reach := g.CanReach(net.sink, nil)
	piece := Piece{Round: s.nextRound(lam), Level: lam}
	var removed []int
	for c := range s.classes {
		if s.state[c] == dead || reach[net.classNode(c)] {
			continue
		}
		removed = append(removed, c)
		wasGrowing := s.state[c] == growing
		if err := s.settle(c, lam.Den); err != nil {
			return err
		}
		if wasGrowing {
			for _, u := range s.classes[c].members {
				piece.Users = append(piece.Users, u)
				s.res.Round[u] = piece.Round
				s.res.Level[u] = lam
				a, err := mulRat(lam.Num, s.p.Users[u].Weight, lam.Den, 1)
				if err != nil {
					return err
				}
				s.res.Amount[u] = a
			}
		}
	}
	for t, ok := range s.typeOK {
		if ok && !reach[net.typeNode(t)] {
			s.typeOK[t] = false
			piece.Types = append(piece.Types, t)
		}
	}
	// Classes blocked by their caps hold their whole (integer) cap on the
	// types that stay; those machines are no longer available.
	for _, c := range removed {
		if s.classes[c].caps == nil {
			continue
		}
		for k, t := range s.classes[c].types {
			if !s.typeOK[t] {
				continue
			}
			f := g.Flow(net.edgeArc[c][k])
			if f == 0 {
				continue
			}
			if f != mustMul(lam.Den, s.classes[c].caps[k]) {
				panic("flow: a blocked class does not saturate its arc to a live type")
			}
			s.remain[t] -= s.classes[c].caps[k]
		}
	}
	if len(piece.Users) == 0 {
		panic("flow: tight round without blocked users")
	}
	s.res.Pieces = append(s.res.Pieces, piece)
	return nil
}

// settle records class c's per-type allocation from the current flow
// (scaled by q), split among its members in proportion to their weights,
// and removes the class.
func (s *divisibleSolver) settle(c int, q int64) error {
	cl := &s.classes[c]
	for k := range cl.types {
		f := s.net.g.Flow(s.net.edgeArc[c][k])
		for _, u := range cl.members {
			a, err := mulRat(f, s.p.Users[u].Weight, q, cl.weight)
			if err != nil {
				return err
			}
			s.res.Alloc[u][k] = a
		}
	}
	s.state[c] = dead
	return nil
}

// finishCapped routes the demand-capped classes that outlived every
// growing class (their allowances are feasible) and records their flows.
func (s *divisibleSolver) finishCapped() error {
	any := false
	for c := range s.classes {
		any = any || s.state[c] == capped
	}
	if !any {
		return nil
	}
	if ok, _ := s.solveAt(Int(0)); !ok {
		panic("flow: capped demands became infeasible")
	}
	for c := range s.classes {
		if s.state[c] == capped {
			if err := s.settle(c, 1); err != nil {
				return err
			}
		}
	}
	return nil
}
