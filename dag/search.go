package dag

import "encoding/binary"

// searchOutcome is the result of one bounded search.
type searchOutcome int

const (
	// searchFound: a schedule of makespan ≤ T exists (and was returned).
	searchFound searchOutcome = iota
	// searchRefuted: the search space was exhausted: no schedule of
	// makespan ≤ T exists, so T + 1 is a lower bound.
	searchRefuted
	// searchStopped: the budget ran out first.
	searchStopped
)

// searcher is the exact search of the package: a depth-first branch and
// bound that fixes start times in chronological order, with the
// propagator's rules at every node and the cut-set dominance rule of
// Demeulemeester & Herroelen (Management Science 38(12), 1992; 43(11),
// 1997).
//
// It enumerates semi-active schedules, in which every task starts at 0 or
// when another task ends (otherwise it could start a tick earlier), which
// include an optimal schedule. A node has a decision time t: the tasks
// starting before t are fixed, the others start at t or later. Its
// candidates are the unfixed tasks whose earliest start is t; the one of
// least latest start (ties: longest, then index) either starts at t (left
// branch) or does not (right branch: its earliest start becomes the
// first decision time that can follow t, see postpone).
// Without candidates the decision time advances to the first end of a
// fixed task at or after every unfixed task's earliest start (in a
// semi-active schedule the next start is such an end); there is none, the
// node fails. Each semi-active schedule is reached by exactly one path.
//
// Cut-set dominance: at a decision time t with fixed set F, a node whose
// subtree was exhausted without a schedule dominates any later node with
// the same F, a decision time t' ≥ t and ends e'_i with e_i ≤ max(e'_i, t')
// for every fixed task i: from t' on, the first node's fixed tasks use no
// more of any resource and release every successor no later, so any
// completion of the second is a completion of the first (left-shifted
// onto its decision times), which was exhausted. Dominated nodes fail.
type searcher struct {
	p     *problem
	pr    *propagator
	b     *budget
	nodes int64
	w     int
	pool  []*windows
	fixed [][]bool
	start []int64 // the schedule found
	memo  map[string][]cutset
	// memoSize counts the cut sets stored, bounded by maxCutsets.
	memoSize int
	key      []byte
	T        int64
}

// cutset is one exhausted node of cut-set dominance: its decision time
// and the ends of its fixed tasks (in task order) that lie after it.
type cutset struct {
	t    int64
	ends []int64
}

// nodeWork is the work charged per search node on top of propagation.
const nodeWork = 8

// maxCutsets bounds the exhausted nodes remembered for dominance (memory
// about maxCutsets × fixed tasks × 8 bytes); beyond it the search goes on
// without storing more.
const maxCutsets = 200_000

func newSearcher(p *problem, b *budget) *searcher {
	return &searcher{p: p, pr: newPropagator(p, false), b: b, w: (p.n + 63) / 64}
}

// level returns the scratch state of depth k.
func (s *searcher) level(k int) (*windows, []bool) {
	for len(s.pool) <= k {
		s.pool = append(s.pool, newWindows(s.p.n, s.w, 0))
		s.fixed = append(s.fixed, make([]bool, s.p.n))
	}
	return s.pool[k], s.fixed[k]
}

// feasible searches for a schedule of makespan ≤ T from root windows
// (already propagated for T).
func (s *searcher) feasible(root *windows) searchOutcome {
	st, fixed := s.level(0)
	st.copyFrom(root)
	clear(fixed)
	if s.memo == nil {
		s.memo = map[string][]cutset{}
	}
	clear(s.memo) // a cut set exhausted under another makespan proves nothing here
	s.memoSize = 0
	return s.dfs(0, 0)
}

// stop reports whether the budget is spent (the clock is read every 256
// nodes).
func (s *searcher) stop() bool {
	if s.b.used >= s.b.max {
		return true
	}
	return s.nodes&255 == 0 && s.b.done()
}

// dfs explores the node at depth k with decision time t.
func (s *searcher) dfs(k int, t int64) searchOutcome {
	p := s.p
	s.nodes++
	s.b.spend(nodeWork)
	if s.stop() {
		return searchStopped
	}
	st, fixed := s.level(k)
	sel := -1
	for i := 0; i < p.n; i++ {
		if fixed[i] || st.est[i] != t {
			continue
		}
		if sel < 0 || better(p, st, i, sel) {
			sel = i
		}
	}
	if sel < 0 {
		return s.advance(k, t)
	}
	// Left: sel starts at t.
	child, cfixed := s.level(k + 1)
	child.copyFrom(st)
	copy(cfixed, fixed)
	s.pr.setLct(child, sel, t+p.dur[sel])
	cfixed[sel] = true
	ok := s.pr.fixpoint(child)
	s.b.spend(s.pr.take())
	if ok {
		if out := s.dfs(k+1, t); out != searchRefuted {
			return out
		}
	}
	// Right: sel starts after t.
	child, cfixed = s.level(k + 1)
	child.copyFrom(st)
	copy(cfixed, fixed)
	s.postpone(child, cfixed, sel, t)
	ok = s.pr.fixpoint(child)
	s.b.spend(s.pr.take())
	if !ok {
		return searchRefuted
	}
	return s.dfs(k+1, t)
}

// better orders the candidates: least latest start, then longest, then
// lowest index.
func better(p *problem, st *windows, i, j int) bool {
	li, lj := st.lct[i]-p.dur[i], st.lct[j]-p.dur[j]
	if li != lj {
		return li < lj
	}
	if p.dur[i] != p.dur[j] {
		return p.dur[i] > p.dur[j]
	}
	return i < j
}

// advance moves the node at depth k, which has no candidate left at t,
// to the next decision time.
func (s *searcher) advance(k int, t int64) searchOutcome {
	p := s.p
	st, fixed := s.level(k)
	minEst, open := int64(-1), false
	for i := 0; i < p.n; i++ {
		if !fixed[i] {
			if !open || st.est[i] < minEst {
				minEst = st.est[i]
			}
			open = true
		}
	}
	if !open {
		s.start = append(s.start[:0], st.est...)
		return searchFound
	}
	next := int64(-1)
	for i := 0; i < p.n; i++ {
		if e := st.lct[i]; fixed[i] && e > t && e >= minEst && (next < 0 || e < next) {
			next = e
		}
	}
	if next < 0 {
		return searchRefuted
	}
	if s.dominated(fixed, st, next) {
		return searchRefuted
	}
	child, cfixed := s.level(k + 1)
	child.copyFrom(st)
	copy(cfixed, fixed)
	for i := 0; i < p.n; i++ {
		if !cfixed[i] {
			s.pr.setEst(child, i, next)
		}
	}
	ok := s.pr.fixpoint(child)
	s.b.spend(s.pr.take())
	out := searchRefuted
	if ok {
		out = s.dfs(k+1, next)
	}
	if out == searchRefuted {
		s.remember(fixed, st, next)
	}
	return out
}

// cutKey encodes the fixed set as a map key.
func (s *searcher) cutKey(fixed []bool) string {
	s.key = s.key[:0]
	var word uint64
	for i, f := range fixed {
		if f {
			word |= 1 << (i % 64)
		}
		if i%64 == 63 || i == len(fixed)-1 {
			s.key = binary.LittleEndian.AppendUint64(s.key, word)
			word = 0
		}
	}
	return string(s.key)
}

// dominated reports whether an exhausted cut set dominates the node with
// fixed set F (ends st.lct), decision time t.
func (s *searcher) dominated(fixed []bool, st *windows, t int64) bool {
	list := s.memo[s.cutKey(fixed)]
	for _, c := range list {
		s.b.spend(int64(len(c.ends)))
		if c.t > t {
			continue
		}
		ok, x := true, 0
		for i, f := range fixed {
			if !f {
				continue
			}
			if e := c.ends[x]; e > max(st.lct[i], t) {
				ok = false
				break
			}
			x++
		}
		if ok {
			return true
		}
	}
	return false
}

// remember stores an exhausted node's cut set.
func (s *searcher) remember(fixed []bool, st *windows, t int64) {
	if s.memoSize >= maxCutsets {
		return
	}
	var ends []int64
	for i, f := range fixed {
		if f {
			ends = append(ends, st.lct[i])
		}
	}
	key := s.cutKey(fixed)
	s.memo[key] = append(s.memo[key], cutset{t: t, ends: ends})
	s.memoSize++
	s.b.spend(int64(len(ends)))
}

// postpone is the right branch's decision: sel does not start at t. A
// task starts at a decision time, and the first one after t is the end
// of a task started by then: one fixed already (ending after t) or one
// that may still start at t (ending at t + p_i); tasks started later end
// later. So sel, and every task not fixed whose earliest start lies after
// t, starts at the least such end or later (T + 1 when there is none: the
// windows then fail).
func (s *searcher) postpone(st *windows, fixed []bool, sel int, t int64) {
	p := s.p
	next := s.T + 1
	for i := 0; i < p.n; i++ {
		switch {
		case fixed[i]:
			if e := st.lct[i]; e > t {
				next = min(next, e)
			}
		case i != sel && st.est[i] == t && p.dur[i] > 0:
			next = min(next, t+p.dur[i])
		}
	}
	s.b.spend(int64(p.n))
	for i := 0; i < p.n; i++ {
		if !fixed[i] && (i == sel || st.est[i] > t) {
			s.pr.setEst(st, i, next)
		}
	}
}
