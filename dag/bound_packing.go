package dag

import (
	"cmp"
	"slices"
)

// reachLimit bounds the DAG size for which NodePackingLB builds the
// transitive-reachability bitsets (N²/8 bytes); larger DAGs use direct
// edges only, which finds fewer incompatible pairs but stays sound.
const reachLimit = 6000

// packingStarts is the number of longest tasks NodePackingLB tries as the
// first member of its greedy set.
const packingStarts = 8

// NodePackingLB is the incompatibility (node-packing) bound in the style
// of Mingozzi et al. (Management Science 1998, "LB3"; ALGORITHMS §6.5).
// Tasks i and j are incompatible when they cannot run at the same time:
// one depends on the other (transitively), or no machine holds both at
// once and they cannot sit on two different machines (each fits only the
// same single machine). A set of pairwise-incompatible tasks runs one at a
// time, so Σ dur over it is a bound. The set is grown greedily in
// decreasing duration, starting from each of the packingStarts longest
// tasks in turn; the heaviest set wins. O(packingStarts·N·|set|) after
// O(E·N/64) for reachability.
func NodePackingLB(d *DAG, machines [][]float64) int64 {
	n := d.N()
	if n == 0 {
		return 0
	}
	var reach []uint64 // reach[i·w : (i+1)·w] = descendants of i
	w := (n + 63) / 64
	if n <= reachLimit {
		reach = make([]uint64, n*w)
		topo := d.Topo()
		for k := n - 1; k >= 0; k-- {
			v := topo[k]
			rv := reach[v*w : (v+1)*w]
			for _, s := range d.Succs(v) {
				rv[s/64] |= 1 << (s % 64)
				for x, y := range reach[s*w : (s+1)*w] {
					rv[x] |= y
				}
			}
		}
	}
	related := func(i, j int) bool {
		if reach != nil {
			return reach[i*w+j/64]&(1<<(j%64)) != 0 || reach[j*w+i/64]&(1<<(i%64)) != 0
		}
		_, a := slices.BinarySearch(d.Succs(i), j)
		_, b := slices.BinarySearch(d.Succs(j), i)
		return a || b
	}
	// only[i] is the single machine task i fits, or −1 when it fits several.
	only := make([]int, n)
	for i := range d.Tasks {
		only[i] = -1
		cnt := 0
		for m, c := range machines {
			if fitsAll(d.Tasks[i].Demand, nil, c) {
				cnt++
				only[i] = m
			}
		}
		if cnt != 1 {
			only[i] = -1
		}
	}
	incompatible := func(i, j int) bool {
		if related(i, j) {
			return true
		}
		return only[i] >= 0 && only[i] == only[j] && !fitsAll(d.Tasks[i].Demand, d.Tasks[j].Demand, machines[only[i]])
	}
	order := d.allTasks()
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(d.Tasks[b].Duration, d.Tasks[a].Duration) })
	var best int64
	var set []int
	for start := 0; start < min(packingStarts, n); start++ {
		set = append(set[:0], order[start])
		sum := d.Tasks[order[start]].Duration
		for _, v := range order {
			if v == order[start] || d.Tasks[v].Duration == 0 {
				continue
			}
			ok := true
			for _, u := range set {
				if !incompatible(u, v) {
					ok = false
					break
				}
			}
			if ok {
				set = append(set, v)
				sum += d.Tasks[v].Duration
			}
		}
		best = max(best, sum)
	}
	return best
}

// fitsAll reports whether a + b (b may be nil) fits capacity c.
func fitsAll(a, b, c []float64) bool {
	for r, x := range a {
		if b != nil {
			x += b[r]
		}
		if !fitsCap(x, c[r]) {
			return false
		}
	}
	return true
}

// binLevels are the q of BinLB: tasks above 1/q of the largest machine.
var binLevels = []int{2, 3, 4}

// BinLB is the per-machine bin bound (ALGORITHMS §6.5, cluster version,
// generalised): for a resource r and q ≥ 2, tasks needing more than
// cap_max,r / q of r cannot run q at a time on one machine, so at most
// (q−1)·M' of them run at once, M' being the number of machines that hold
// at least one of them:
//
//	Bin = max_{r,q} ⌈ Σ_{t: d_{t,r} > cap_max,r/q} dur_t / ((q−1)·M') ⌉
//
// and the slot bound (slotLB) of the whole DAG and of each stage run
// alone. O(N·K·M + S·M·K).
func BinLB(d *DAG, machines [][]float64) int64 {
	best := slotLB(d, d.allTasks(), machines)
	for _, s := range d.Stages {
		best = max(best, slotLB(d, s.Tasks, machines))
	}
	for r := range d.Resources {
		var capMax float64
		for _, c := range machines {
			capMax = max(capMax, c[r])
		}
		for _, q := range binLevels {
			var work int64
			hosts := make([]bool, len(machines))
			for i := range d.Tasks {
				t := &d.Tasks[i]
				if fitsCap(float64(q)*t.Demand[r], capMax) || t.Duration == 0 {
					continue
				}
				work += t.Duration
				for m, c := range machines {
					if !hosts[m] && fitsAll(t.Demand, nil, c) {
						hosts[m] = true
					}
				}
			}
			mp := 0
			for _, h := range hosts {
				if h {
					mp++
				}
			}
			if mp > 0 {
				div := int64((q - 1) * mp)
				best = max(best, (work+div-1)/div)
			}
		}
	}
	return best
}
