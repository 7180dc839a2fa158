package dag

import (
	"cmp"
	"slices"
)

// withCliques returns p with up to maxCliques redundant unary resources
// added, one per clique of tasks that pairwise cannot overlap (too big
// together on some resource, c_ir + c_jr > C_r, or ordered by the DAG):
// every member demands 1 of capacity 1. No schedule of p runs two members
// at once, so the added resources cut off no schedule and every bound on
// the result is a bound on p; but the propagator's time-table and
// energetic rules, applied to them, reason on the disjunctive clique as a
// whole (overload and edge-finding-like deductions, as the interval
// consistency tests of Brucker & Knust, EJOR 127, 2000, §4, do), where the
// pairwise disjunction rule sees two tasks at a time and the energetic
// rule on the original resources sees demands summed, not exclusions.
//
// Cliques are grown greedily (Mingozzi et al.'s node packing, see
// NodePackingLB): from each of the 4·maxCliques longest tasks, add every
// task in decreasing duration that excludes all members; cliques of at
// least three tasks are kept, distinct, heaviest total duration first.
// It also returns its work (pair tests, plus the closure's words), about
// 4·maxCliques·n·(clique size) + n·E·w.
func (p *problem) withCliques(maxCliques int) (*problem, int64) {
	reach := p.reachability()
	w := (p.n + 63) / 64
	work := int64(p.n * w)
	for i := 0; i < p.n; i++ {
		work += int64(len(p.succ[i]) * w)
	}
	excl := func(i, j int) bool {
		work++
		return reach[i*w+j/64]&(1<<(j%64)) != 0 || reach[j*w+i/64]&(1<<(i%64)) != 0 || p.incompatible(i, j)
	}
	var order []int
	for i := 0; i < p.n; i++ {
		if p.dur[i] > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(p.dur[b], p.dur[a]) })
	type clique struct {
		members []int
		weight  int64
	}
	var found []clique
	for _, seed := range order[:min(len(order), 4*maxCliques)] {
		c := clique{members: []int{seed}, weight: p.dur[seed]}
		for _, j := range order {
			if j == seed {
				continue
			}
			ok := true
			for _, i := range c.members {
				if !excl(i, j) {
					ok = false
					break
				}
			}
			if ok {
				c.members = append(c.members, j)
				c.weight += p.dur[j]
			}
		}
		if len(c.members) < 3 {
			continue
		}
		slices.Sort(c.members)
		if !slices.ContainsFunc(found, func(o clique) bool { return slices.Equal(o.members, c.members) }) {
			found = append(found, c)
		}
	}
	slices.SortStableFunc(found, func(a, b clique) int { return cmp.Compare(b.weight, a.weight) })
	found = found[:min(len(found), maxCliques)]
	if len(found) == 0 {
		return p, work
	}
	k := p.k + len(found)
	q := *p
	q.k = k
	q.cap = append(slices.Clone(p.cap), make([]int64, len(found))...)
	q.dem = make([]int64, p.n*k)
	for i := 0; i < p.n; i++ {
		copy(q.dem[i*k:], p.demand(i))
	}
	for x, c := range found {
		q.cap[p.k+x] = 1
		for _, i := range c.members {
			q.dem[i*k+p.k+x] = 1
		}
	}
	return &q, work
}

// reachability returns the transitive successors of every task as bitset
// rows of (n+63)/64 words. O(n·E/64).
func (p *problem) reachability() []uint64 {
	w := (p.n + 63) / 64
	reach := make([]uint64, p.n*w)
	for k := len(p.topo) - 1; k >= 0; k-- {
		v := p.topo[k]
		row := reach[v*w : (v+1)*w]
		for _, c := range p.succ[v] {
			row[c/64] |= 1 << (c % 64)
			for x, y := range reach[c*w : (c+1)*w] {
				row[x] |= y
			}
		}
	}
	return reach
}
