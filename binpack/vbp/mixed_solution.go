package vbp

import (
	"sort"
	"strings"
)

// mbin is one node of a solution under construction.
type mbin struct {
	t     int
	items []int
	load  []int64
}

// msol is a mixed packing under construction.
type msol struct {
	bins   []*mbin
	count  []int
	method string
	moves  []string // improvement moves that lowered the cost, in order
}

func (s *msol) cost(mp *mixedProblem) float64 {
	c := 0.0
	for t, k := range s.count {
		c += float64(k) * mp.cost[t]
	}
	return c
}

func (s *msol) noteMove(m string) {
	for _, x := range s.moves {
		if x == m {
			return
		}
	}
	s.moves = append(s.moves, m)
}

func (s *msol) name() string {
	if len(s.moves) == 0 {
		return s.method
	}
	return s.method + "+" + strings.Join(s.moves, "+")
}

// compact drops removed (nil) bins.
func (s *msol) compact() {
	out := s.bins[:0]
	for _, b := range s.bins {
		if b != nil {
			out = append(out, b)
		}
	}
	for i := len(out); i < len(s.bins); i++ {
		s.bins[i] = nil
	}
	s.bins = out
}

func (mp *mixedProblem) newBin(t int, items []int) *mbin {
	b := &mbin{t: t, items: items, load: make([]int64, mp.d)}
	for _, i := range items {
		for k, v := range mp.size[i] {
			b.load[k] += v
		}
	}
	return b
}

// place puts item i into bin b.
func (mp *mixedProblem) place(b *mbin, i int) {
	b.items = append(b.items, i)
	for k, v := range mp.size[i] {
		b.load[k] += v
	}
}

// fromPacking wraps a single-type packing.
func (mp *mixedProblem) fromPacking(t int, pk Packing) *msol {
	s := &msol{count: make([]int, len(mp.cap))}
	for _, b := range pk {
		s.bins = append(s.bins, mp.newBin(t, append([]int(nil), b...)))
	}
	s.count[t] = len(pk)
	return s
}

// result fills res from s in canonical order: items ascending within a
// bin, bins by type, then by first item.
func (mp *mixedProblem) result(s *msol, res *MixedResult) {
	res.Bins = make([]MixedBin, len(s.bins))
	for b, bin := range s.bins {
		items := append([]int(nil), bin.items...)
		sort.Ints(items)
		res.Bins[b] = MixedBin{Type: bin.t, Items: items}
	}
	sort.SliceStable(res.Bins, func(a, b int) bool {
		x, y := res.Bins[a], res.Bins[b]
		if x.Type != y.Type {
			return x.Type < y.Type
		}
		return x.Items[0] < y.Items[0]
	})
	res.Count = make([]int, len(mp.cap))
	for _, b := range res.Bins {
		res.Count[b.Type]++
	}
	res.Cost = mixedCost(mp.inst, res.Count)
	res.Optimal = res.Cost <= res.LowerBound*(1+1e-9)
	res.Method = s.name()
}
