package dag

// Conflict analysis and learning of the learning search (lcg): the
// first-UIP clause of a conflict, its minimisation, the activities that
// steer branching and clause deletion, and the clause's addition.

// analyze derives the first-UIP clause of the conflict in s.confl. It
// returns the clause (its asserting literal first, the literal of the
// highest other level second) and the level to jump back to.
func (s *lcg) analyze() ([]lit, int) {
	cur := int32(s.level())
	count := 0
	// add makes the true literal l pending, merged with the pending
	// literal of its variable and direction (the stronger is kept).
	add := func(l lit) {
		i := s.entryOf(l)
		if i < 0 || s.trail[i].level == 0 {
			return
		}
		slot, none := s.pend(l.x, l.ge)
		prev := *slot
		if prev != none && implies(l.ge, prev, l.v) {
			return
		}
		if !s.isTouched[l.x] { // once, though its slots may empty and fill again
			s.isTouched[l.x] = true
			s.touched = append(s.touched, l.x)
		}
		*slot = l.v
		if prev != none && s.levelOf(lit{l.x, l.ge, prev}) == int(cur) {
			count--
		}
		if s.trail[i].level == cur {
			count++
		}
		s.bump(l.x)
	}
	for _, l := range s.confl {
		add(l)
	}
	var uip lit
	found := false
	for i := len(s.trail) - 1; i >= 0; i-- {
		e := &s.trail[i]
		slot, none := s.pend(e.x, e.ge)
		need := *slot
		// e is the change that made the pending literal true
		if need == none || implies(e.ge, e.old, need) || !implies(e.ge, e.val, need) {
			continue
		}
		*slot = none
		s.b.spend(1)
		if count == 1 {
			uip, found = lit{e.x, e.ge, need}, true
			break
		}
		count--
		if e.kind == byClause {
			e.cl.act += s.actInc
		}
		s.explain(e, need, add)
	}
	if !found {
		panic("dag: conflict analysis found no unique implication point")
	}
	out := append(s.out[:0], uip.neg())
	bt, second := 0, -1
	s.keep = s.keep[:0]
	for _, x := range s.touched {
		for _, l := range []lit{{x, true, s.pendLo[x]}, {x, false, s.pendHi[x]}} {
			if l.ge && l.v == lcgNone || !l.ge && l.v == lcgNoUB {
				continue
			}
			if s.redundant(l) {
				continue
			}
			s.keep = append(s.keep, l)
		}
	}
	for _, x := range s.touched {
		s.pendLo[x], s.pendHi[x] = lcgNone, lcgNoUB
		s.isTouched[x] = false
	}
	for _, l := range s.keep {
		{
			if lv := s.levelOf(l); second < 0 || lv > bt {
				bt, second = lv, len(out)
			}
			out = append(out, l.neg())
		}
	}
	s.touched = s.touched[:0]
	if second > 1 {
		out[1], out[second] = out[second], out[1]
	}
	s.out = out
	s.decay()
	return out, bt
}

// pend returns the slot of the pending literal of variable x in direction
// ge (analyze) and the slot's empty value.
func (s *lcg) pend(x int32, ge bool) (*int64, int64) {
	if ge {
		return &s.pendLo[x], lcgNone
	}
	return &s.pendHi[x], lcgNoUB
}

// implies reports whether a bound a implies a bound b in direction ge:
// [x ≥ a] → [x ≥ b], or [x ≤ a] → [x ≤ b].
func implies(ge bool, a, b int64) bool {
	if ge {
		return a >= b
	}
	return a <= b
}

// bump raises the activity of variable x.
func (s *lcg) bump(x int32) {
	s.act[x] += s.actInc
	if s.act[x] > 1e100 {
		for i := range s.act {
			s.act[i] *= 1e-100
		}
		s.actInc *= 1e-100
		for _, c := range s.cls {
			c.act *= 1e-100
		}
	}
}

func (s *lcg) decay() { s.actInc /= lcgDecay }

// learnClause adds the learned clause lits (asserting lits[0]) after the
// jump back, and asserts it.
func (s *lcg) learnClause(lits []lit) {
	if s.learned != nil {
		s.learned(lits)
	}
	if len(lits) == 1 {
		s.set(lits[0], byClause, 0, 0, &lcgClause{lits: []lit{lits[0]}})
		return
	}
	c := &lcgClause{lits: append([]lit(nil), lits...), act: s.actInc}
	s.cls = append(s.cls, c)
	s.watch(c, c.lits[0])
	s.watch(c, c.lits[1])
	s.set(c.lits[0], byClause, 0, 0, c)
	s.b.spend(int64(len(lits)))
}

// redundant reports whether the pending literal l of a learned clause is
// implied by the others: every antecedent of the change that made it true
// holds at the root or follows from a pending literal made true earlier
// (so that no two literals are dropped for each other).
func (s *lcg) redundant(l lit) bool {
	i := s.entryOf(l)
	if i < 0 {
		return true
	}
	e := &s.trail[i]
	if e.kind == byDecision {
		return false
	}
	ok := true
	s.explain(e, l.v, func(a lit) {
		if !ok {
			return
		}
		j := s.entryOf(a)
		if j < 0 || s.trail[j].level == 0 {
			return
		}
		slot, none := s.pend(a.x, a.ge)
		if *slot == none || !implies(a.ge, *slot, a.v) {
			ok = false
			return
		}
		p := lit{a.x, a.ge, *slot}
		if s.entryOf(p) >= i {
			ok = false
		}
	})
	s.b.spend(1)
	return ok
}
