package dag

// The disjunction rule of the learning search (lcg): two tasks that
// cannot run at the same time (c_ir + c_jr > C_r for some r) run one
// before the other. When i cannot come first, because it would end after
// j's latest start, j comes first:
//
//	[S_i ≥ b − p_i + 1] ∧ [S_j ≤ b] ∧ [S_j ≥ a] → [S_i ≥ a + p_j]
//	[S_i ≥ b − p_i + 1] ∧ [S_j ≤ b] ∧ [S_i ≤ c] → [S_j ≤ c − p_j]
//
// with b = ub_j, the weakest literal on i that keeps the condition. The
// time-table sees the same exclusion only once a task has a compulsory
// part; this rule sees it from the windows alone (the detectable
// precedences of Vilím's disjunctive reasoning, pairwise).

// disjoin applies the rule to task x and each of its partners, both
// ways; it returns false on a conflict.
func (s *lcg) disjoin(x int32) bool {
	for _, j := range s.partners[x] {
		if !s.orderPair(x, j) || !s.orderPair(j, x) {
			return false
		}
	}
	s.b.spend(int64(2 * len(s.partners[x])))
	return true
}

// orderPair: if i cannot come before j, j comes first.
func (s *lcg) orderPair(i, j int32) bool {
	dur := s.p.dur
	b := s.ub[j]
	if s.lb[i]+dur[i] <= b {
		return true
	}
	if v := s.lb[j] + dur[j]; v > s.lb[i] {
		off := int32(len(s.expl))
		s.expl = append(s.expl, lit{i, true, b - dur[i] + 1}, lit{j, false, b}, lit{j, true, s.lb[j]})
		if !s.set(lit{i, true, v}, byStored, off, 3, nil) {
			return false
		}
	}
	if u := s.ub[i] - dur[j]; u < s.ub[j] {
		off := int32(len(s.expl))
		s.expl = append(s.expl, lit{i, true, b - dur[i] + 1}, lit{j, false, b}, lit{i, false, s.ub[i]})
		if !s.set(lit{j, false, u}, byStored, off, 3, nil) {
			return false
		}
	}
	return true
}
