package xselect

import (
	"math/rand/v2"
	"sort"

	"github.com/capplan/capplan/binpack"
)

const (
	// maxStalls is the number of perturbations in a row that may fail to
	// lower the best unpacked volume before improve gives up.
	maxStalls = 30
	// moveShare: one call of one move may spend at most 1/moveShare of
	// the improvement budget (and at least minMoveWork), so that an
	// expensive move cannot starve the cheaper moves of later containers.
	moveShare   = 16
	minMoveWork = 20_000
)

// improver runs the iterative improvement of ALGORITHMS §2.5 on a
// packing. Objective: the weighted unpacked volume W = Σ pool[a][k]·vol[k]
// (fewest unpacked containers, weighted by normalised volume). Every move
// is journaled and kept only if W drops, so W falls strictly from move to
// move; perturbations may keep W level.
type improver struct {
	pk     *packing
	work   int
	budget int
	// left is the work left in the whole run (Options.MaxWork): the
	// improvement stops there even within budget.
	left int
	// stop is the work at which the current move call must give up.
	stop int
	rng  *rand.Rand
	fill *filler
	rp   repacker
	// room is scratch: a node's free space after a tentative removal.
	room []float64
}

// improve runs the moves until the pool is empty (the probe is feasible),
// or budget work units (node and container visits, knapsack and repack
// search nodes) are spent, or the run's left units, or maxStalls
// perturbations in a row have not lowered W. For each pooled (a,k), largest volume first, it tries in
// turn, first success wins:
//
//  1. insert: tryPlace on the first node of a (node order) that takes it;
//  2. pull (colocation): free a container of each partner of a that has
//     none pooled from a node it may leave, and start a new node with
//     (a,k) and those partners;
//  3. eject (depth-2 chain): move one packed container x off a node n of
//     a to another node n' so that (a,k) fits on n;
//  4. swap 1-for-1 / 1-for-2: send one or two packed containers of n,
//     together smaller than (a,k), back to the pool so that (a,k) fits;
//  5. pair repack: re-solve two nodes of a over their containers plus
//     pooled ones (repacker), exactly within a search budget;
//
// and when a whole pass over the pool changes nothing, 6. perturb: empty
// a few seeded-random nodes and refill them greedily, kept if W is not
// worse. The spec orders swap before eject; eject is tried first here
// because it packs without unpacking anything, so it dominates a swap on
// the same node. A per-dimension volume test rejects hopeless pools at
// once. Returns whether the pool is empty. Deterministic for a given rng
// state. It also returns the work units spent. Cost O(budget·d) beyond
// the volume test.
func improve(pk *packing, budget, left, ksBudget int, rng *rand.Rand) (bool, int) {
	if pk.poolN == 0 {
		return true, 0
	}
	if !volumeFits(pk) {
		return false, 0
	}
	im := &improver{pk: pk, budget: budget, left: left, rng: rng, fill: newFiller(pk, ksBudget), room: make([]float64, pk.in.nd)}
	best := pk.poolVolume()
	stalls := 0
	for pk.poolN > 0 && im.work < min(budget, left) {
		if !im.pass() {
			if stalls >= maxStalls {
				break
			}
			im.perturb()
		}
		if w := pk.poolVolume(); w < best-valTol {
			best, stalls = w, 0
		} else {
			stalls++
		}
	}
	pk.forget()
	return pk.poolN == 0, im.work
}

// volumeFits is the necessary test that, in every dimension, the pooled
// containers fit into the total free space of the active nodes (with the
// packer's tolerance).
func volumeFits(pk *packing) bool {
	in := pk.in
	need, room := make([]float64, in.nd), make([]float64, in.nd)
	for d := range in.nd {
		for a := range pk.pool {
			if pk.poolA[a] == 0 {
				continue
			}
			for k, c := range pk.pool[a] {
				need[d] += float64(c) * in.p.Shapes[k][d]
			}
		}
		for _, n := range in.order {
			room[d] += pk.free[n][d] - in.tol[n][d]
		}
	}
	return binpack.Dominates(room, need)
}

type appShape struct{ a, k int }

// pass tries moves 1–5 on every pooled (a,k), largest volume first, and
// reports whether any succeeded.
func (im *improver) pass() bool {
	pk, in := im.pk, im.pk.in
	var todo []appShape
	for a := range pk.pool {
		if pk.poolA[a] == 0 {
			continue
		}
		for k, c := range pk.pool[a] {
			if c > 0 {
				todo = append(todo, appShape{a, k})
			}
		}
	}
	sort.SliceStable(todo, func(i, j int) bool { return in.vol[todo[i].k] > in.vol[todo[j].k] })
	progress := false
	moves := []func(a, k int) bool{im.insert, im.pull, im.eject, im.swap, im.repack}
	for _, t := range todo {
	next:
		for pk.pool[t.a][t.k] > 0 && im.work < min(im.budget, im.left) {
			pk.forget()
			for _, move := range moves {
				im.stop = min(im.budget, im.left, im.work+max(im.budget/moveShare, minMoveWork))
				if move(t.a, t.k) {
					progress = true
					continue next
				}
			}
			break
		}
	}
	return progress
}

// spent reports whether the current move call must stop.
func (im *improver) spent() bool { return im.work >= im.stop }

// insert is move 1: place one pooled (a,k) on the first node of a, in node
// order, that takes it (with its colocation bundle). The spec suggests the
// best-aligned node (Tetris ⟨c, free⟩); first fit in node order is used
// instead, as in greedy's own order, which keeps scarce nodes for the
// apps that need them and costs no scoring pass.
func (im *improver) insert(a, k int) bool {
	pk := im.pk
	for _, n := range pk.in.eligNodes[a] {
		im.work++
		if im.spent() {
			return false
		}
		if pk.tryPlace(n, a, k) {
			return true
		}
	}
	return false
}

// eject is move 3, an eject chain of depth 2: on a node n of a, move one
// packed container x (not itself an (a,k)) whose removal leaves room for
// k to another node n' of x's owner, then place (a,k) on n. Kept iff W
// drops (it does whenever both placements succeed). Containers of an app
// with a colocation partner that has nothing pooled are not moved: they
// could only go to the few nodes hosting the partner, and scanning for
// those would cost O(N) per candidate.
func (im *improver) eject(a, k int) bool {
	pk, in := im.pk, im.pk.in
	shape := in.p.Shapes[k]
	for _, n := range in.eligNodes[a] {
		im.work++
		if im.spent() {
			return false
		}
		if !in.fits(k, n, in.p.Nodes[n].Capacity) || !pk.partnersReady(n, a) {
			continue
		}
		for i := 0; i < len(pk.nodes[n]); i++ {
			im.work++
			x := pk.nodes[n][i]
			if (x.Shape == k && x.Owner == a) || !pk.poolPartners(x.Owner) {
				continue // pointless, or x could only move to its partners' few nodes
			}
			// room: n's free space once x has left it.
			for d, v := range in.p.Shapes[x.Shape] {
				im.room[d] = pk.free[n][d] + v
			}
			if !binpack.Fits(in.tol[n], shape, im.room) || !pk.removable(n, i) {
				continue
			}
			m0 := pk.mark()
			pk.take(n, i)
			if !pk.tryPlace(n, a, k) {
				pk.undo(m0)
				continue
			}
			if pk.pool[x.Owner][x.Shape] > 0 {
				for _, m := range in.eligNodes[x.Owner] {
					im.work++
					if m != n && in.fits(x.Shape, m, pk.free[m]) && pk.partnersReady(m, x.Owner) && pk.tryPlace(m, x.Owner, x.Shape) {
						break
					}
					if im.spent() {
						break
					}
				}
			}
			// Kept iff W dropped: x found a node (or a bundle on n took
			// it back), or (a,k) outweighs x and x stays pooled.
			if pk.gain(m0) > valTol {
				return true
			}
			pk.undo(m0)
			if im.spent() {
				return false
			}
		}
	}
	return false
}
