package flow

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// integralWeighted is Algorithm C of ALGORITHMS.md §5.5: the exact
// leximin greedy — repeatedly give one machine to the unfrozen user of
// smallest current level x_u/w_u, ties to the smaller weight (whose next
// level is higher), then the lower index; a user whose increment finds no
// augmenting path is frozen forever (in bipartite b-matching a vertex with
// no augmenting path never regains one). It is the Federgruen–Groenevelt
// greedy for a separable concave objective whose maximisers are the
// weighted leximin vectors.
//
// The greedy is replayed in rounds. The increment that takes u from x to
// x+1 happens at level x/w_u. A level search finds the highest level L
// (a breakpoint k/w_u) such that every increment strictly below L fits at
// once (one warm-started max flow per probe; an infeasible probe's minimum
// cut A bounds L by Σ_{u∈A} req_u(L) ≤ C_A, which the search inverts
// exactly). Increments exactly at L are then tried in greedy order, in
// blocks: a block whose increments all fit is granted, a block of which
// none fits is frozen whole, and a mixed block splits in halves, which
// replays the sequential greedy. Finally every user that cannot reach the
// sink in the residual network is frozen.
//
// Users with equal types and weight are merged into one network node that
// keeps its members' individual counts and demands (§5.6): a member's
// increment succeeds iff its class has an augmenting path, so the greedy is
// unchanged while the network shrinks (Google-like instances: 5000 users →
// about 800 nodes).
//
// With floors the greedy starts at x = Floors: one max flow routes the
// floors first (an error when it cannot), and later augmentations, which
// start at the source, never lower a source arc's flow.
func integralWeighted(p *Problem) (*Result, error) {
	s := newGreedy(p)
	if err := s.routeFloors(); err != nil {
		return nil, err
	}
	s.run()
	return s.result(), nil
}

// routeFloors sets x = Floors and routes them, failing when no flow meets
// every floor at once.
func (s *greedy) routeFloors() error {
	if s.p.Floors == nil {
		return nil
	}
	var want int64
	for u, f := range s.p.Floors {
		if f > s.dcap[u] {
			return fmt.Errorf("%w: user %d has floor %d but can use at most %d machines", ErrFloors, u, f, s.dcap[u])
		}
		s.x[u] = f
		want += f
	}
	for c := range s.classes {
		s.net.g.SetCap(s.net.classArc[c], s.classX(c))
	}
	if got := s.net.g.MaxFlow(s.net.src, s.net.sink); got != want {
		return fmt.Errorf("%w: the types hold %d of the %d floor machines together", ErrFloors, got, want)
	}
	s.flows++
	return nil
}

// wclass is a set of users with identical types and weight (a user with
// type caps is a class of its own, with those caps).
type wclass struct {
	types   []int
	caps    []int64 // per type, nil for none
	weight  int64
	members []int // user indices, increasing
}

type greedy struct {
	p        *Problem
	classes  []wclass
	classOf  []int
	net      *network
	x        []int64 // per user
	dcap     []int64 // per user: min(d_u, c(N(u)))
	active   []bool  // per user
	round    []int
	capped   []bool
	deadType []bool
	snap     []int64
	mark     []bool
	pieces   []Piece
	rounds   int
	flows    int
}

func newGreedy(p *Problem) *greedy {
	s := &greedy{
		p:        p,
		classOf:  make([]int, len(p.Users)),
		x:        make([]int64, len(p.Users)),
		dcap:     make([]int64, len(p.Users)),
		active:   make([]bool, len(p.Users)),
		round:    make([]int, len(p.Users)),
		capped:   make([]bool, len(p.Users)),
		deadType: make([]bool, len(p.Types)),
	}
	index := map[string]int{}
	var key strings.Builder
	for u, user := range p.Users {
		reach := user.reach(p.Types)
		s.dcap[u] = reach
		if user.Demand != Unbounded {
			s.dcap[u] = min(reach, user.Demand)
		}
		s.active[u] = s.dcap[u] > 0
		key.Reset()
		caps := userCaps(p, u)
		if caps != nil {
			key.WriteString("user " + strconv.Itoa(u) + "|") // a class of its own
		}
		key.WriteString(strconv.FormatInt(user.Weight, 10))
		for _, t := range user.Types {
			key.WriteByte(',')
			key.WriteString(strconv.Itoa(t))
		}
		c, ok := index[key.String()]
		if !ok {
			c = len(s.classes)
			index[key.String()] = c
			s.classes = append(s.classes, wclass{types: user.Types, caps: caps, weight: user.Weight})
		}
		s.classes[c].members = append(s.classes[c].members, u)
		s.classOf[u] = c
	}
	lists := make([][]int, len(s.classes))
	caps := make([][]int64, len(s.classes))
	for c := range s.classes {
		lists[c], caps[c] = s.classes[c].types, s.classes[c].caps
	}
	s.net = newNetwork(lists, caps, p.Types)
	for t, c := range p.Types {
		s.net.g.SetCap(s.net.typeArc[t], c)
	}
	return s
}

// req is user u's allowance when every increment strictly below level
// L = a/b is granted: min(dcap, max(x, ⌈L·w⌉)).
func (s *greedy) req(u int, L Rat) int64 {
	k := ceilDiv(mustMul(L.Num, s.p.Users[u].Weight), L.Den)
	return min(s.dcap[u], max(s.x[u], k))
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// classReq is Σ req over the active members of class c, plus the frozen
// members' fixed counts.
func (s *greedy) classReq(c int, L Rat) int64 {
	var t int64
	for _, u := range s.classes[c].members {
		if s.active[u] {
			t += s.req(u, L)
		} else {
			t += s.x[u]
		}
	}
	return t
}

func (s *greedy) classX(c int) int64 {
	var t int64
	for _, u := range s.classes[c].members {
		t += s.x[u]
	}
	return t
}

func (s *greedy) run() {
	for {
		var act []int // classes with an active member
		for c := range s.classes {
			if slices.ContainsFunc(s.classes[c].members, func(u int) bool { return s.active[u] }) {
				act = append(act, c)
			}
		}
		if len(act) == 0 {
			return
		}
		s.rounds++
		L := s.levelSearch(act)
		s.ties(act, L)
		s.freeze(act, L)
	}
}

// levelSearch finds and commits the highest breakpoint L at which all
// increments strictly below L fit.
func (s *greedy) levelSearch(act []int) Rat {
	g, net := s.net.g, s.net
	// Start above every cap: max_u dcap_u/w_u.
	L := Int(0)
	for _, c := range act {
		for _, u := range s.classes[c].members {
			if r := NewRat(s.dcap[u], s.classes[c].weight); s.active[u] && r.Cmp(L) > 0 {
				L = r
			}
		}
	}
	for {
		s.snap = g.SaveFlow(s.snap)
		var want int64
		for _, c := range act {
			r := s.classReq(c, L)
			g.SetCap(net.classArc[c], r)
			want += r - s.classX(c)
		}
		got := g.MaxFlow(net.src, net.sink)
		s.flows++
		if got == want {
			for _, c := range act {
				for _, u := range s.classes[c].members {
					if s.active[u] {
						s.x[u] = s.req(u, L)
					}
				}
			}
			return L
		}
		s.mark = g.ReachableFrom(net.src, s.mark)
		g.RestoreFlow(s.snap)
		for _, c := range act {
			g.SetCap(net.classArc[c], s.classX(c))
		}
		var A []int // active users in the cut
		var capA int64
		for t, c := range s.p.Types {
			if s.mark[net.typeNode(t)] {
				capA += c
			}
		}
		for c := range s.classes {
			if !s.mark[net.classNode(c)] {
				continue
			}
			// Capped arcs from the cut to types outside it.
			for k, t := range s.classes[c].types {
				if s.classes[c].caps != nil && !s.mark[net.typeNode(t)] {
					capA += s.classes[c].caps[k]
				}
			}
			for _, u := range s.classes[c].members {
				if s.active[u] {
					A = append(A, u)
				} else {
					capA -= s.x[u]
				}
			}
		}
		L = s.stepDown(A, capA, L)
	}
}

// stepDown returns the highest breakpoint L' < hi with Σ_{u∈A} req_u(L')
// ≤ capA, never below the lowest pending increment of A (where the sum is
// Σ x_u, which fits).
func (s *greedy) stepDown(A []int, capA int64, hi Rat) Rat {
	sum := func(L Rat) int64 {
		var t int64
		for _, u := range A {
			t += s.req(u, L)
		}
		return t
	}
	var floorL Rat
	for i, u := range A {
		if r := NewRat(s.x[u], s.p.Users[u].Weight); i == 0 || r.Cmp(floorL) < 0 {
			floorL = r
		}
	}
	// Float bisection for a starting point, then exact walking: the float
	// only guides; every decision below is exact.
	sumF := func(L float64) float64 {
		var t float64
		for _, u := range A {
			w := float64(s.p.Users[u].Weight)
			t += math.Min(float64(s.dcap[u]), math.Max(float64(s.x[u]), math.Ceil(L*w)))
		}
		return t
	}
	lo, up := floorL.Float64(), hi.Float64()
	for i := 0; i < 64 && lo < up; i++ {
		mid := lo + (up-lo)/2
		if mid == lo || mid == up {
			break
		}
		if sumF(mid) <= float64(capA) {
			lo = mid
		} else {
			up = mid
		}
	}
	L := s.breakpointAtMost(A, lo)
	if L.Cmp(hi) >= 0 {
		L = s.prevBreakpoint(A, hi)
	}
	if L.Cmp(floorL) < 0 {
		L = floorL
	}
	for L.Cmp(floorL) > 0 && sum(L) > capA {
		L = s.prevBreakpoint(A, L)
	}
	if L.Cmp(floorL) < 0 {
		L = floorL
	}
	for {
		n := s.nextBreakpoint(A, L)
		if n.Cmp(hi) >= 0 || sum(n) > capA {
			return L
		}
		L = n
	}
}

// breakpointAtMost returns max_u ⌊f·w_u⌋/w_u over A (from a float level).
func (s *greedy) breakpointAtMost(A []int, f float64) Rat {
	best := Int(0)
	for _, u := range A {
		w := s.p.Users[u].Weight
		k := max(int64(math.Floor(f*float64(w))), 0)
		if r := NewRat(k, w); r.Cmp(best) > 0 {
			best = r
		}
	}
	return best
}

// prevBreakpoint returns the highest breakpoint k/w_u (u ∈ A) below L.
func (s *greedy) prevBreakpoint(A []int, L Rat) Rat {
	best := Int(0)
	for _, u := range A {
		w := s.p.Users[u].Weight
		k := ceilDiv(mustMul(L.Num, w), L.Den) - 1
		if k < 0 {
			continue
		}
		if r := NewRat(k, w); r.Cmp(best) > 0 {
			best = r
		}
	}
	return best
}

// nextBreakpoint returns the lowest breakpoint k/w_u (u ∈ A) above L.
func (s *greedy) nextBreakpoint(A []int, L Rat) Rat {
	var best Rat
	for i, u := range A {
		w := s.p.Users[u].Weight
		k := mustMul(L.Num, w)/L.Den + 1
		if r := NewRat(k, w); i == 0 || r.Cmp(best) < 0 {
			best = r
		}
	}
	return best
}

// ties grants, in greedy order (weight ascending, then index), the
// increments of the active users sitting exactly at level L.
func (s *greedy) ties(act []int, L Rat) {
	var tied []int
	for _, c := range act {
		for _, u := range s.classes[c].members {
			if s.active[u] && s.x[u] < s.dcap[u] && NewRat(s.x[u], s.p.Users[u].Weight) == L {
				tied = append(tied, u)
			}
		}
	}
	slices.SortFunc(tied, func(a, b int) int {
		if wa, wb := s.p.Users[a].Weight, s.p.Users[b].Weight; wa != wb {
			return int(wa - wb)
		}
		return a - b
	})
	s.block(tied)
}

// block tries to grant one machine to every still-active user of list at
// once; on partial failure it splits the list in halves, which replays the
// sequential greedy. When nothing fits, every user of the list is frozen
// (each alone has no augmenting path, and never will).
func (s *greedy) block(list []int) {
	list = slices.DeleteFunc(slices.Clone(list), func(u int) bool { return !s.active[u] })
	if len(list) == 0 {
		return
	}
	g, net := s.net.g, s.net
	s.snap = g.SaveFlow(s.snap)
	for _, u := range list {
		c := s.classOf[u]
		g.SetCap(net.classArc[c], g.Cap(net.classArc[c])+1)
	}
	got := g.MaxFlow(net.src, net.sink)
	s.flows++
	if got == int64(len(list)) {
		for _, u := range list {
			s.x[u]++
		}
		return
	}
	g.RestoreFlow(s.snap)
	for _, u := range list {
		c := s.classOf[u]
		g.SetCap(net.classArc[c], s.classX(c))
	}
	if got == 0 {
		for _, u := range list {
			s.freezeClass(s.classOf[u])
		}
		return
	}
	h := len(list) / 2
	s.block(list[:h])
	s.block(list[h:])
}

// freezeClass freezes every active member of a class with no augmenting
// path.
func (s *greedy) freezeClass(c int) {
	for _, u := range s.classes[c].members {
		if s.active[u] {
			s.stop(u, false)
		}
	}
}

func (s *greedy) stop(u int, capped bool) {
	s.active[u] = false
	s.round[u] = s.rounds
	s.capped[u] = capped
}

// freeze stops users at their demand and users that cannot reach the sink,
// and records the round's piece.
func (s *greedy) freeze(act []int, L Rat) {
	reach := s.net.g.CanReach(s.net.sink, nil)
	piece := Piece{Round: s.rounds, Level: L}
	for _, c := range act {
		for _, u := range s.classes[c].members {
			if !s.active[u] {
				if s.round[u] == s.rounds {
					piece.Users = append(piece.Users, u)
				}
				continue
			}
			switch {
			case s.x[u] == s.dcap[u]:
				s.stop(u, s.p.Users[u].Demand != Unbounded && s.x[u] == s.p.Users[u].Demand)
			case !reach[s.net.classNode(c)]:
				s.stop(u, false)
			default:
				continue
			}
			piece.Users = append(piece.Users, u)
		}
	}
	slices.Sort(piece.Users)
	for t := range s.p.Types {
		if !reach[s.net.typeNode(t)] && !s.deadType[t] {
			s.deadType[t] = true
			piece.Types = append(piece.Types, t)
		}
	}
	if len(piece.Users) > 0 {
		s.pieces = append(s.pieces, piece)
	}
}

func (s *greedy) result() *Result {
	res := newResult(s.p)
	res.Integral = true
	res.Rounds = s.rounds
	res.MaxFlows = s.flows
	res.Pieces = s.pieces
	copy(res.Round, s.round)
	copy(res.Capped, s.capped)
	for c := range s.classes {
		cl := &s.classes[c]
		amounts := make([]int64, len(cl.members))
		for i, u := range cl.members {
			amounts[i] = s.x[u]
		}
		flows := make([]int64, len(cl.types))
		for k := range cl.types {
			flows[k] = s.net.g.Flow(s.net.edgeArc[c][k])
		}
		splitIntegral(res, s.p, cl.members, amounts, flows)
	}
	return res
}
