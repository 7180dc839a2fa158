package vbp

// empty tries to move all items of a bin (least filled bins first) into
// the room left in the other bins, each item (by decreasing value) to the
// bin it may use where it leaves the least weighted room; when all fit,
// the bin goes.
func (pl *polisher) empty(s *msol) bool {
	mp := pl.mp
	changed := false
	type mv struct{ item, to int }
	var moves []mv
	for _, b := range pl.binsByFill(s) {
		if pl.w.Over(pl.stop) {
			break
		}
		src := s.bins[b]
		if src == nil {
			continue
		}
		moves = moves[:0]
		ok := true
		for _, i := range pl.wt.byValue(src.items) {
			pl.w.Add(len(s.bins))
			bc := mp.bestFit(i, s.bins, b, pl.wt)
			if bc < 0 {
				ok = false
				break
			}
			for k, v := range mp.size[i] {
				s.bins[bc].load[k] += v
			}
			moves = append(moves, mv{i, bc})
		}
		if !ok {
			for _, m := range moves {
				for k, v := range mp.size[m.item] {
					s.bins[m.to].load[k] -= v
				}
			}
			continue
		}
		for _, m := range moves {
			s.bins[m.to].items = append(s.bins[m.to].items, m.item)
		}
		s.count[src.t]--
		s.bins[b] = nil
		changed = true
	}
	if changed {
		s.compact()
		s.noteMove("empty")
	}
	return changed
}
