package vbp

import (
	"slices"
	"sort"
)

// exactResult is the outcome of packInto.
type exactResult int

const (
	exactFound      exactResult = iota // a packing into m bins was found
	exactInfeasible                    // proven: no packing into m bins
	exactUnknown                       // node limit reached, or not decided
)

// packInto decides by depth-first branch and bound whether the items fit
// into m bins, visiting at most nodeLimit search nodes. Items are placed
// in decreasing order of their largest normalised size, each into an
// open bin or, while fewer than m are open, a new one (bins with equal
// loads are tried once, which removes the symmetry between bins). A node
// is cut when, in some dimension, the items left exceed the room left in
// the m bins, counting as lost the room of open bins that no item left
// fits into. It returns the packing when found and the number of nodes
// visited.
//
// With a negative size somewhere, a bin's load may exceed the capacity
// part-way and still end within it, so that adding items one at a time
// would miss packings: packInto then answers exactUnknown at once.
func (p *problem) packInto(m, nodeLimit int) (Packing, exactResult, int) {
	if p.n == 0 {
		return Packing{}, exactFound, 0
	}
	for _, ng := range p.neg {
		if ng {
			return nil, exactUnknown, 0
		}
	}
	if m <= 0 {
		return nil, exactInfeasible, 0
	}
	key := make([]float64, p.n)
	order := make([]int, p.n)
	for i := range order {
		order[i] = i
		for _, w := range p.w[i] {
			key[i] = max(key[i], w)
		}
		key[i] = 2*key[i] + p.vol[i]/float64(p.d)
	}
	sort.SliceStable(order, func(a, b int) bool { return key[order[a]] > key[order[b]] })
	// rest[j][k] is the total size of order[j:] in dimension k.
	rest := make([][]int64, p.n+1)
	for j := p.n; j >= 0; j-- {
		rest[j] = make([]int64, p.d)
		if j < p.n {
			copy(rest[j], rest[j+1])
			for k, v := range p.size[order[j]] {
				rest[j][k] += v
			}
		}
	}
	// minRest[j][k] is the smallest size of order[j:] in dimension k: an
	// open bin with less room than that in some dimension takes no more
	// items.
	minRest := make([][]int64, p.n+1)
	for j := p.n; j >= 0; j-- {
		minRest[j] = make([]int64, p.d)
		for k := range minRest[j] {
			if j == p.n {
				minRest[j][k] = p.cap[k] + 1
			} else {
				minRest[j][k] = min(minRest[j+1][k], p.size[order[j]][k])
			}
		}
	}
	loads := make([][]int64, m)
	for b := range loads {
		loads[b] = make([]int64, p.d)
	}
	assign := make([]int, p.n)
	dead := make([]bool, m)
	used, nodes := 0, 0
	limitHit := false
	var dfs func(j int) bool
	dfs = func(j int) bool {
		if j == p.n {
			return true
		}
		nodes++
		if nodes > nodeLimit {
			limitHit = true
			return false
		}
		// Volume bound over the m bins, without the room of dead bins.
		for b := 0; b < used; b++ {
			dead[b] = false
			for k := 0; k < p.d; k++ {
				if p.cap[k]-loads[b][k] < minRest[j][k] {
					dead[b] = true
					break
				}
			}
		}
		for k := 0; k < p.d; k++ {
			room := int64(m-used) * p.cap[k]
			for b := 0; b < used; b++ {
				if !dead[b] {
					room += p.cap[k] - loads[b][k]
				}
			}
			if rest[j][k] > room {
				return false
			}
		}
		x := order[j]
	next:
		for b := 0; b < used; b++ {
			if !p.fits(loads[b], x) {
				continue
			}
			for c := 0; c < b; c++ {
				if slices.Equal(loads[c], loads[b]) {
					continue next
				}
			}
			p.add(loads[b], x, 1)
			assign[j] = b
			if dfs(j + 1) {
				return true
			}
			p.add(loads[b], x, -1)
			if limitHit {
				return false
			}
		}
		if used < m {
			used++
			p.add(loads[used-1], x, 1)
			assign[j] = used - 1
			if dfs(j + 1) {
				return true
			}
			p.add(loads[used-1], x, -1)
			used--
		}
		return false
	}
	if dfs(0) {
		pk := make(Packing, used)
		for j, x := range order {
			pk[assign[j]] = append(pk[assign[j]], x)
		}
		return pk, exactFound, nodes
	}
	if limitHit {
		return nil, exactUnknown, nodes
	}
	return nil, exactInfeasible, nodes
}
