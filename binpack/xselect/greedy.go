package xselect

// maxFillRounds caps the knapsack rounds fill runs on one node: a round
// only repeats when the rules refused part of the previous round's
// choice, leaving room for containers the rules do admit.
const maxFillRounds = 8

// filler fills one node at a time from the pool (ALGORITHMS §2.4): an
// exact (budget-limited) knapsack chooses how many containers of each
// shape the node takes, over the pooled containers of the apps it admits,
// and the chosen containers are then given out one at a time to the
// admitted app under the most pressure that still has one of that shape.
type filler struct {
	pk     *packing
	ks     knapsack
	budget int
	// remCap[a] is the normalised capacity of a's nodes not yet filled
	// (greedy), or nil to measure pressure by pooled volume alone.
	remCap []float64
	avail  []int
	y      []int
	tried  []bool
	// blocked[a]: the rules refused a on the node being filled (it stays
	// refused: the node only fills up).
	blocked []bool
}

func newFiller(pk *packing, budget int) *filler {
	in := pk.in
	return &filler{pk: pk, ks: knapsack{in: in}, budget: budget, avail: make([]int, in.nk), y: make([]int, in.nk), tried: make([]bool, in.na), blocked: make([]bool, in.na)}
}

// pressure is a's pooled volume, divided by the capacity of its nodes
// still to be filled when that is tracked.
func (f *filler) pressure(a int) float64 {
	v := f.pk.poolVolA[a]
	if f.remCap != nil && f.remCap[a] > 0 { // 0: no node left, compare raw volumes
		v /= f.remCap[a]
	}
	return v
}

// fill packs node n from the pool and returns the work done (knapsack
// search nodes plus container assignments). The knapsack counts, per
// shape, the pooled containers of the apps n admits (with their
// colocation partners present or admissible), each app limited to its
// remaining MaxPerNode room. Every container then goes through tryPlace,
// so the rules hold; when some were refused (an exlocated app got there
// first, a bundle could not be formed or used the room), the refused apps
// are blocked on n and another round packs the space left. Cost
// O(rounds·(A_n·K + budget·K·d) + placed·A_n).
func (f *filler) fill(n int) int {
	pk, in := f.pk, f.pk.in
	apps := in.appsOf[n]
	for _, a := range apps {
		f.blocked[a] = false
	}
	work := f.anchor(n, apps)
	for range maxFillRounds {
		any := false
		for k := range f.avail {
			f.avail[k] = 0
		}
		for _, a := range apps {
			if pk.poolA[a] == 0 || f.blocked[a] || !f.admissible(n, a) {
				continue
			}
			room := pk.poolA[a]
			if in.cap[a] > 0 {
				room = in.cap[a] - pk.onNode(n, a)
			}
			for k, c := range pk.pool[a] {
				f.avail[k] += min(c, room)
				any = any || c > 0
			}
		}
		if !any {
			break
		}
		work += f.ks.solve(n, pk.free[n], f.avail, f.budget, f.y)
		refused := 0
		for k, yk := range f.y {
			for ; yk > 0; yk-- {
				if !f.give(n, k, apps) {
					refused++
				}
				work += len(apps)
			}
		}
		if refused == 0 {
			break
		}
	}
	return work
}

// anchor is fill's colocation step, run before the general rounds: a
// needer a whose pool outnumbers some partner's (poolA[b] < poolA[a])
// must share few partner containers among many of its own, so it takes n
// first: one container with its bundle (largest shape that works), then a
// knapsack over a's pool alone for the room left. Without it the needer's
// containers spread one per node and use up the partners. Returns the
// work done.
func (f *filler) anchor(n int, apps []int) int {
	pk, in := f.pk, f.pk.in
	work := 0
	for _, a := range apps {
		if len(in.colo[a]) == 0 || pk.poolA[a] == 0 || f.blocked[a] {
			continue
		}
		scarce := false
		for _, b := range in.colo[a] {
			scarce = scarce || pk.poolA[b] < pk.poolA[a]
		}
		if !scarce || !f.admissible(n, a) {
			continue
		}
		placed := false
		for i := len(in.byVol) - 1; i >= 0 && !placed; i-- {
			if k := in.byVol[i]; pk.pool[a][k] > 0 {
				placed = pk.tryPlace(n, a, k)
			}
		}
		work += in.nk
		if !placed {
			f.blocked[a] = true
			continue
		}
		room := pk.poolA[a]
		if in.cap[a] > 0 {
			room = in.cap[a] - pk.onNode(n, a)
		}
		for k, c := range pk.pool[a] {
			f.avail[k] = min(c, room)
		}
		work += f.ks.solve(n, pk.free[n], f.avail, f.budget, f.y)
		for k, yk := range f.y {
			for ; yk > 0 && pk.pool[a][k] > 0; yk-- {
				if !pk.tryPlace(n, a, k) {
					break
				}
			}
		}
	}
	return work
}

// admissible reports whether a may join n with its colocation partners,
// as far as a quick test tells: n admits a, and each partner is present or
// admitted with containers in the pool.
func (f *filler) admissible(n, a int) bool {
	pk := f.pk
	if !pk.admits(n, a) {
		return false
	}
	for _, b := range pk.in.colo[a] {
		if pk.onNode(n, b) == 0 && (pk.poolA[b] == 0 || !pk.admits(n, b)) {
			return false
		}
	}
	return true
}

// give places one container of shape k on n, trying the apps that hold
// one in the pool by decreasing pressure (ties to the lower index). An
// app refused although k fits is blocked on n.
func (f *filler) give(n, k int, apps []int) bool {
	pk := f.pk
	if !pk.in.fits(k, n, pk.free[n]) {
		return false
	}
	for _, a := range apps {
		f.tried[a] = false
	}
	for {
		best, bestP := -1, -1.0
		for _, a := range apps {
			if f.tried[a] || f.blocked[a] || pk.pool[a][k] == 0 {
				continue
			}
			if pr := f.pressure(a); best < 0 || pr > bestP {
				best, bestP = a, pr
			}
		}
		if best < 0 {
			return false
		}
		if pk.tryPlace(n, best, k) {
			return true
		}
		f.tried[best] = true
		f.blocked[best] = true
	}
}

// greedy is the node-at-a-time packing of ALGORITHMS §2.4: visit the
// active nodes in instance order and fill each from the pool (filler),
// the pressure of an app being its pooled volume divided by the normalised
// capacity of its nodes not yet visited. Filling nodes one at a time with
// an exact per-node knapsack is a 2-approximation of the number-weighted
// multiple knapsack without placement rules (Chekuri & Khanna, SIAM J.
// Comput. 2005; Cohen, Katzir & Raz, IPL 2006); the rules are enforced
// container by container, so the packing stays valid throughout and needs
// no repair. Nodes that already hold containers (incremental mode) are
// topped up. Returns the work done. Cost O(N·(A·K + budget·K·d) +
// containers·A).
func greedy(pk *packing, budget int) int {
	in := pk.in
	f := newFiller(pk, budget)
	f.remCap = make([]float64, in.na)
	for a := range in.na {
		for _, n := range in.eligNodes[a] {
			f.remCap[a] += in.capVol[n]
		}
	}
	work := 0
	for _, n := range in.order {
		if pk.poolN == 0 {
			break
		}
		work += f.fill(n)
		pk.forget()
		for _, a := range in.appsOf[n] {
			f.remCap[a] -= in.capVol[n]
		}
	}
	return work
}
