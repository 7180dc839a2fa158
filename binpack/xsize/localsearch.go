package xsize

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/capplan/capplan/binpack"
	"github.com/capplan/capplan/binpack/internal/work"
)

// LocalOptions configures LocalSearch.
type LocalOptions struct {
	// Seed of the random proposals; same seed and inputs → same catalog
	// (unless TimeLimit cuts the search short).
	Seed uint64
	// MaxWork caps the work (0 = DefaultLocalMaxWork). One unit is one
	// request class priced against a catalog change: pricing a swap
	// costs n units, re-assigning every class to K slots n·K, for n
	// request classes. It ends the search after the same work on any
	// machine.
	MaxWork int64
	// TimeLimit, when positive, is an opt-in wall-clock bound (0 = none).
	// When it ends the search the result depends on the machine's speed.
	TimeLimit time.Duration
	// MaxRounds caps improvement rounds per descent (default 100).
	MaxRounds int
	// Restarts is the number of perturb-and-descend restarts (default 6).
	Restarts int
	// Init is an optional starting catalog (each shape must fit a node type
	// and together they must cover every request); default: seedShapes.
	Init [][]float64
}

// DefaultLocalMaxWork is LocalSearch's work cap when LocalOptions.MaxWork
// is 0: about 30 s of one core of a 2020s server (the former default time
// budget of `capplan shapes`). The largest case of the benchmark tables,
// 5,000 request classes in 3 dimensions with K = 16, converges (default
// rounds and restarts) with 0.35e9.
const DefaultLocalMaxWork = 3_000_000_000

// jumpSpread lists the δ of jump candidates max{q : q ≤ (1+δ)·p}.
var jumpSpread = []float64{0, 0.25, 1}

// maxPoolWork caps |pool|·K·n, the work of one full swap pass over a
// candidate pool; larger pools are not used.
const maxPoolWork = 5e7

// jumpsPerRound is how many jump candidates a round samples.
const jumpsPerRound = 48

// LocalSearch improves a catalog by local search, the practical fallback of
// ALGORITHMS.md §1.4 for inputs too large for the PTAS (non-metric k-median
// over the grid candidates). It starts from Init or from seedShapes (the
// one-dimensional DP on ‖p̂‖, exact MaxDP for MaxCost), alternates
// (a) assigning each request to its cheapest dominating shape and (b)
// shrinking each shape to the max of its members, and tries single-slot
// swaps, accepting strict improvements: peel (lower one coordinate of a
// shape to its members' next value), grow (raise one coordinate to the next
// request value), jumps to random tight shapes max{q ≤ (1+δ)p} around
// requests sampled by weight × waste, and merge-split (merge the two
// closest shapes, split the most wasteful group in two). Descents are
// repeated from Restarts random perturbations of the best catalog.
// The result is never worse than the start. Each swap is priced in O(n·D)
// with best/second-best bookkeeping; a round is O((K·D + jumps·K)·n·D).
// The search stops after MaxRounds rounds per descent and Restarts
// restarts, or when MaxWork (see LocalOptions) or the opt-in TimeLimit
// runs out; without a TimeLimit the result is the same on any machine.
func LocalSearch(p *Problem, o LocalOptions) (*Solution, error) {
	in, err := newInstance(p)
	if err != nil {
		return nil, err
	}
	maxWork, err := checkWork(o.MaxWork, o.TimeLimit, DefaultLocalMaxWork)
	if err != nil {
		return nil, err
	}
	w := work.New(maxWork, o.TimeLimit)
	init := o.Init
	if init == nil {
		if init, err = in.seedShapes(); err != nil {
			return nil, err
		}
	} else if err := in.checkCatalog(init); err != nil {
		return nil, err
	}
	shapes := in.localSearch(init, nil, o, w)
	s, err := in.finalize(shapes, "local")
	if err != nil {
		return nil, err
	}
	s.Seed = o.Seed
	s.WorkUsed, s.TimeLimitHit = w.Used(), w.TimeLimitHit()
	in.setLowerBound(s)
	return s, nil
}

// checkCatalog validates a user-supplied starting catalog.
func (in *instance) checkCatalog(shapes [][]float64) error {
	if len(shapes) > in.k {
		return &InputError{"Init", -1, -1, fmt.Sprintf("%d shapes > K = %d", len(shapes), in.k)}
	}
	for j, g := range shapes {
		if len(g) != in.dim {
			return &InputError{"Init", j, -1, fmt.Sprintf("%d values for %d dimensions", len(g), in.dim)}
		}
		if !in.fitsNode(g) {
			return &InputError{"Init", j, -1, "shape fits no node type"}
		}
	}
	_, _, err := in.evaluate(shapes)
	return err
}

// localSearch runs the search from a feasible init, charging w (it stops
// when w is done); pool, if not nil, adds a full swap neighbourhood over
// those candidates. o's MaxWork and TimeLimit are not read: w carries them.
func (in *instance) localSearch(init [][]float64, pool []candidate, o LocalOptions, w *work.Counter) [][]float64 {
	if o.MaxRounds <= 0 {
		o.MaxRounds = 100
	}
	if o.Restarts < 0 {
		o.Restarts = 0
	} else if o.Restarts == 0 {
		o.Restarts = 6
	}
	if float64(len(pool))*float64(in.k)*float64(in.n()) > maxPoolWork {
		pool = nil // a full swap pass would dominate the run
	}
	ls := &searcher{in: in, pool: pool, rng: rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15)), w: w}
	ls.values = make([][]float64, in.dim)
	for d := range in.dim {
		for _, s := range in.size {
			ls.values[d] = append(ls.values[d], s[d])
		}
		slices.Sort(ls.values[d])
		ls.values[d] = slices.Compact(ls.values[d])
	}
	s := newLSState(in, init, w)
	best, bestCost := s.snapshot(), s.total
	for r := 0; ; r++ {
		ls.descend(s, o.MaxRounds)
		if s.total < bestCost*(1-lsTol) {
			best, bestCost = s.snapshot(), s.total
		} else {
			s = newLSState(in, best, w)
		}
		if r == o.Restarts || w.Done() {
			return best
		}
		ls.perturb(s)
	}
}

type searcher struct {
	in     *instance
	pool   []candidate
	rng    *rand.Rand
	w      *work.Counter
	values [][]float64 // distinct request values per dimension
}

func (ls *searcher) descend(s *lsState, rounds int) {
	for range rounds {
		if ls.w.Done() || !ls.round(s) {
			return
		}
	}
}

// round tries every move family once; it reports whether any improved.
func (ls *searcher) round(s *lsState) bool {
	improved := false
	for j := range s.shapes {
		for d := range ls.in.dim {
			if g := ls.peel(s, j, d); g != nil && s.try(j, g) {
				improved = true
			}
			if g := ls.grow(s, j, d); g != nil && s.try(j, g) {
				improved = true
			}
		}
	}
	for _, c := range ls.pool {
		for j := range s.shapes {
			if s.try(j, c.shape) {
				improved = true
				break
			}
		}
	}
	for range jumpsPerRound {
		g := ls.jump(s)
		for j := range s.shapes {
			if s.try(j, g) {
				improved = true
				break
			}
		}
	}
	if ls.mergeSplit(s) {
		improved = true
	}
	return improved
}

// peel lowers coordinate d of slot j to its members' next lower value.
func (ls *searcher) peel(s *lsState, j, d int) []float64 {
	g := s.shapes[j]
	if g == nil {
		return nil
	}
	next, found := 0.0, false
	for _, i := range s.members(j) {
		if x := ls.in.size[i][d]; x < g[d] && (!found || x > next) {
			next, found = x, true
		}
	}
	if !found {
		return nil
	}
	h := slices.Clone(g)
	h[d] = next
	return h
}

// grow raises coordinate d of slot j to the next request value.
func (ls *searcher) grow(s *lsState, j, d int) []float64 {
	g := s.shapes[j]
	if g == nil {
		return nil
	}
	vs := ls.values[d]
	k, _ := slices.BinarySearch(vs, g[d])
	for k < len(vs) && vs[k] <= g[d] {
		k++
	}
	if k == len(vs) {
		return nil
	}
	h := slices.Clone(g)
	h[d] = vs[k]
	return h
}

// jump samples a class by weight × waste and returns the tight shape
// max{q : q ≤ (1+δ)·p} for a random δ in jumpSpread.
func (ls *searcher) jump(s *lsState) []float64 {
	in := ls.in
	total := 0.0
	waste := make([]float64, in.n())
	for i, b := range s.best {
		waste[i] = in.w[i] * (s.cost[b] - in.costOf(in.size[i]))
		total += waste[i]
	}
	i := ls.rng.IntN(in.n())
	if total > 0 {
		x := ls.rng.Float64() * total
		for i = 0; i < in.n()-1 && x >= waste[i]; i++ {
			x -= waste[i]
		}
	}
	delta := jumpSpread[ls.rng.IntN(len(jumpSpread))]
	box := make([]float64, in.dim)
	for d, x := range in.size[i] {
		box[d] = x * (1 + delta)
	}
	g := make([]float64, in.dim)
	for _, q := range in.size {
		if binpack.Dominates(box, q) {
			for d, x := range q {
				g[d] = max(g[d], x)
			}
		}
	}
	return g
}

// perturb replaces about K/4 random slots by random jumps, keeping every
// class covered, then settles.
func (ls *searcher) perturb(s *lsState) {
	for range max(1, len(s.shapes)/4) {
		j := ls.rng.IntN(len(s.shapes))
		g := ls.jump(s)
		if !ls.in.fitsNode(g) {
			continue
		}
		old := s.shapes[j]
		s.shapes[j] = g
		s.recompute()
		if math.IsInf(s.total, 1) { // a class lost its only shape
			s.shapes[j] = old
			s.recompute()
		}
	}
	s.settle()
}
