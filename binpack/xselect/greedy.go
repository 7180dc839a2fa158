package xselect

// packing is the mutable state of one probe.
type packing struct {
	in    *instance
	free  [][]float64
	nodes [][]Container
	// cnt[a][k] counts a's packed containers of shape k.
	cnt [][]int
}

func newPacking(in *instance) *packing {
	pk := &packing{in: in, free: make([][]float64, in.nn), nodes: make([][]Container, in.nn), cnt: make([][]int, in.na)}
	for n, node := range in.p.Nodes {
		pk.free[n] = append([]float64(nil), node.Capacity...)
	}
	for a := range pk.cnt {
		pk.cnt[a] = make([]int, in.nk)
	}
	return pk
}

func (pk *packing) place(n, k, a int) {
	pk.nodes[n] = append(pk.nodes[n], Container{Shape: k, Owner: a})
	for d, v := range pk.in.p.Shapes[k] {
		pk.free[n][d] -= v
	}
	pk.cnt[a][k]++
}

// remove deletes the i-th container of node n (order not kept).
func (pk *packing) remove(n, i int) Container {
	cs := pk.nodes[n]
	c := cs[i]
	cs[i] = cs[len(cs)-1]
	pk.nodes[n] = cs[:len(cs)-1]
	for d, v := range pk.in.p.Shapes[c.Shape] {
		pk.free[n][d] += v
	}
	pk.cnt[c.Owner][c.Shape]--
	return c
}

// greedy is the node-at-a-time packing of ALGORITHMS §2.4: visit the nodes
// in instance order, fill each with an exact (budget-limited) knapsack over
// the shapes its eligible applications still need, then split each chosen
// shape count among those applications, one container at a time, giving it
// to the application under the most pressure: remaining required volume
// divided by the normalised capacity of its eligible nodes not yet visited
// (ties to the lower index). Filling nodes one at a time with an exact
// per-node knapsack is a 2-approximation of the number-weighted multiple
// knapsack (Chekuri & Khanna, SIAM J. Comput. 2005; Cohen, Katzir & Raz,
// IPL 2006). rem[a][k] is decremented in place; what stays is unpacked.
// Cost O(N·(A·K + budget·K·d) + containers·A).
func greedy(in *instance, rem [][]int, budget int) *packing {
	pk := newPacking(in)
	remVol := make([]float64, in.na)
	remCap := make([]float64, in.na)
	for a := range rem {
		for k, c := range rem[a] {
			remVol[a] += float64(c) * in.vol[k]
		}
		for _, n := range in.eligNodes[a] {
			remCap[a] += in.capVol[n]
		}
	}
	avail := make([]int, in.nk)
	y := make([]int, in.nk)
	ks := &knapsack{in: in}
	for _, n := range in.order {
		apps := in.appsOf[n]
		for k := range avail {
			avail[k] = 0
		}
		any := false
		for _, a := range apps {
			for k, c := range rem[a] {
				avail[k] += c
				any = any || c > 0
			}
		}
		if any {
			ks.solve(n, pk.free[n], avail, budget, y)
			for k, yk := range y {
				for ; yk > 0; yk-- {
					best, bestP := -1, -1.0
					for _, a := range apps {
						if rem[a][k] == 0 {
							continue
						}
						pr := remVol[a] / remCap[a] // remCap[a] ≥ capVol[n] > 0 here unless the node is empty
						if best < 0 || pr > bestP {
							best, bestP = a, pr
						}
					}
					pk.place(n, k, best)
					rem[best][k]--
					remVol[best] -= in.vol[k]
				}
			}
		}
		for _, a := range apps {
			remCap[a] -= in.capVol[n]
		}
	}
	return pk
}
