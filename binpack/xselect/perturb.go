package xselect

// perturbNodes is the number r of nodes one perturbation empties.
const perturbNodes = 6

// perturb is move 6 of improve, run when a whole pass found no improving
// move: empty r = min(perturbNodes, active nodes) seeded-random nodes
// (half of them, when possible, among the nodes of the app owning the
// largest pooled container, so that the perturbation touches the stuck
// part of the packing), return their containers to the pool, and refill
// them greedily (filler, pressure = pooled volume, knapsack values
// randomised) in random order. The
// result is kept if W is not worse, else undone. Emptying a whole node
// never breaks a rule elsewhere, since every rule is local to a node.
// Cost O(r·(A·K + knapsack budget·K·d)).
func (im *improver) perturb() {
	pk, in := im.pk, im.pk.in
	if len(in.order) == 0 {
		return
	}
	r := min(perturbNodes, len(in.order))
	// The app with the largest pooled container (ties: lowest a).
	stuck, sv := -1, -1.0
	for a := range pk.pool {
		if pk.poolA[a] == 0 {
			continue
		}
		for k, c := range pk.pool[a] {
			if c > 0 && in.vol[k] > sv {
				stuck, sv = a, in.vol[k]
			}
		}
	}
	chosen := make(map[int]bool, r)
	var nodes []int
	pick := func(from []int, want int) {
		for tries := 0; len(nodes) < want && tries < 4*want; tries++ {
			n := from[im.rng.IntN(len(from))]
			if !chosen[n] {
				chosen[n] = true
				nodes = append(nodes, n)
			}
		}
	}
	if stuck >= 0 && len(in.eligNodes[stuck]) > 0 {
		pick(in.eligNodes[stuck], (r+1)/2)
	}
	pick(in.order, r)
	im.rng.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
	m0 := pk.mark()
	for _, n := range nodes {
		im.work++
		for len(pk.nodes[n]) > 0 {
			pk.take(n, len(pk.nodes[n])-1)
		}
	}
	// Noisy knapsack values (each shape's volume times a factor in
	// [½, 1½)) let the refill leave the local optimum the plain greedy
	// rebuilds.
	val := make([]float64, in.nk)
	for k, v := range in.vol {
		val[k] = v * (0.5 + im.rng.Float64())
	}
	im.fill.ks.val = val
	for _, n := range nodes {
		im.work += im.fill.fill(n)
	}
	im.fill.ks.val = in.vol
	if pk.gain(m0) < -valTol {
		pk.undo(m0)
	}
}
