package vbp

import (
	"sort"

	"github.com/capplan/capplan/binpack"
	"github.com/capplan/capplan/binpack/internal/work"
)

// improver holds a packing under local search: bins with their loads.
type improver struct {
	p     *problem
	bins  [][]int
	loads [][]int64
	w     *work.Counter // the run's work counter
	stop  int64         // the improvement ends when w reaches it
	tmp   []int64
}

// improve tries to remove bins from pk, in the spirit of ALGORITHMS.md §2.5
// and of the bin-emptying local searches for bin packing (e.g. Fleszar &
// Hindi's "perturbation" moves): it takes the bin of smallest normalised
// volume, puts its items into a pool, and reinserts pool items (largest
// first) into the other bins with these moves, tried in order:
//
//  1. insert x into the bin where it fits with the least slack left;
//  2. eject chain of depth 2: move y from bin b to another bin c, freeing
//     room for x in b;
//  3. swap: replace one item y (or two items y1,y2) of a bin by x when the
//     replaced volume is strictly smaller than vol(x); they go to the pool.
//
// Each move strictly decreases the pool's volume or its size, so an attempt
// ends. If the pool empties, the bin is gone; otherwise the attempt is
// undone and the next-least-filled bin is tried. It stops when no bin can
// be emptied, when the bin count reaches lb, or when w reaches stop
// (moves and probes count one work unit per bin scanned), so it is
// deterministic. The result is never worse than pk.
func (p *problem) improve(pk Packing, lb int, w *work.Counter, stop int64) Packing {
	im := &improver{p: p, w: w, stop: stop, tmp: make([]int64, p.d)}
	for _, b := range pk {
		im.bins = append(im.bins, append([]int(nil), b...))
	}
	im.loads = p.loads(im.bins)
	for len(im.bins) > lb && !im.w.Over(im.stop) {
		if !im.round() {
			break
		}
	}
	return Packing(im.bins)
}

// round tries to empty each bin, least filled first, and reports whether
// one was removed.
func (im *improver) round() bool {
	order := make([]int, len(im.bins))
	vol := make([]float64, len(im.bins))
	for b := range order {
		order[b] = b
		vol[b] = im.p.binVol(im.loads[b])
	}
	sort.SliceStable(order, func(a, b int) bool { return vol[order[a]] < vol[order[b]] })
	for _, b := range order {
		if im.w.Over(im.stop) {
			return false
		}
		if im.tryEmpty(b) {
			return true
		}
	}
	return false
}

// tryEmpty attempts to dissolve bin e; on failure the state is restored.
func (im *improver) tryEmpty(e int) bool {
	p := im.p
	saveBins := make([][]int, len(im.bins))
	for b := range im.bins {
		saveBins[b] = append([]int(nil), im.bins[b]...)
	}
	saveLoads := p.loads(saveBins)
	pool := append([]int(nil), im.bins[e]...)
	// Remove bin e by swapping in the last bin.
	last := len(im.bins) - 1
	im.bins[e], im.loads[e] = im.bins[last], im.loads[last]
	im.bins, im.loads = im.bins[:last], im.loads[:last]

	for len(pool) > 0 && !im.w.Over(im.stop) {
		sort.SliceStable(pool, func(a, b int) bool { return p.vol[pool[a]] > p.vol[pool[b]] })
		progressed := false
		for j, x := range pool {
			out, ok := im.place(x)
			if ok {
				pool = append(append(pool[:j:j], pool[j+1:]...), out...)
				progressed = true
				break
			}
		}
		if !progressed {
			break
		}
	}
	if len(pool) == 0 {
		return true
	}
	im.bins, im.loads = saveBins, saveLoads
	return false
}

// place puts x into the packing by one move and returns the items it
// pushed out to the pool (for a swap), or ok=false when no move applies.
func (im *improver) place(x int) (out []int, ok bool) {
	p := im.p
	// 1. Best-fit insertion.
	bestB, bestSlack := -1, 0.0
	for b := range im.bins {
		im.w.Add(1)
		if p.fits(im.loads[b], x) {
			s := float64(p.d) - p.binVol(im.loads[b]) - p.vol[x]
			if bestB < 0 || s < bestSlack-volEps {
				bestB, bestSlack = b, s
			}
		}
	}
	if bestB >= 0 {
		im.bins[bestB] = append(im.bins[bestB], x)
		p.add(im.loads[bestB], x, 1)
		return nil, true
	}
	// 2. Eject chain: y leaves b for c, x enters b. The budget is checked
	// once per bin b: each costs at most |b|·B units.
	for b := range im.bins {
		if im.w.Over(im.stop) {
			return nil, false
		}
		im.w.Add(1)
		for yi, y := range im.bins[b] {
			if !im.fitsWithout(b, x, y, -1) {
				continue
			}
			for c := range im.bins {
				if c != b && p.fits(im.loads[c], y) {
					im.remove(b, yi)
					im.bins[c] = append(im.bins[c], y)
					p.add(im.loads[c], y, 1)
					im.bins[b] = append(im.bins[b], x)
					p.add(im.loads[b], x, 1)
					return nil, true
				}
			}
			im.w.Add(len(im.bins))
		}
	}
	// 3. Swaps that strictly lower the pool volume: pick the one that
	// returns the least volume.
	bestB, bestY1, bestY2, bestV := -1, -1, -1, p.vol[x]-volEps
	for b, bin := range im.bins {
		if im.w.Over(im.stop) {
			return nil, false
		}
		im.w.Add(1)
		for a := range bin {
			if va := p.vol[bin[a]]; va < bestV && im.fitsWithout(b, x, bin[a], -1) {
				bestB, bestY1, bestY2, bestV = b, a, -1, va
			}
			for c := a + 1; c < len(bin); c++ {
				if vac := p.vol[bin[a]] + p.vol[bin[c]]; vac < bestV && im.fitsWithout(b, x, bin[a], bin[c]) {
					bestB, bestY1, bestY2, bestV = b, a, c, vac
				}
			}
		}
	}
	if bestB < 0 {
		return nil, false
	}
	bin := im.bins[bestB]
	out = append(out, bin[bestY1])
	if bestY2 >= 0 {
		out = append(out, bin[bestY2])
		im.remove(bestB, bestY2) // higher index first
	}
	im.remove(bestB, bestY1)
	im.bins[bestB] = append(im.bins[bestB], x)
	p.add(im.loads[bestB], x, 1)
	return out, true
}

// fitsWithout reports whether x fits in bin b after removing items y1 and
// (if ≥ 0) y2.
func (im *improver) fitsWithout(b, x, y1, y2 int) bool {
	p := im.p
	copy(im.tmp, im.loads[b])
	p.add(im.tmp, y1, -1)
	if y2 >= 0 {
		p.add(im.tmp, y2, -1)
	}
	return binpack.Fits(im.tmp, p.size[x], p.cap)
}

// remove deletes the item at position pos of bin b.
func (im *improver) remove(b, pos int) {
	y := im.bins[b][pos]
	im.bins[b] = append(im.bins[b][:pos], im.bins[b][pos+1:]...)
	im.p.add(im.loads[b], y, -1)
}
