package xsize

import (
	"fmt"
	"math"
	"time"

	"github.com/capplan/capplan/binpack/internal/work"
)

// PTASOptions configures the PTAS outer loop.
type PTASOptions struct {
	// Eps is the first ε (default 1). The sequence is ε_j = Eps/j, j = 1,
	// 2, … (one more ray per level each step), or Eps·Factor^(j−1) if
	// Factor is in (0, 1).
	Eps    float64
	Factor float64
	// MinEps ends the loop after the first completed step with ε ≤ MinEps
	// (default 0.05).
	MinEps float64
	// MaxWork caps the work of the run (0 = DefaultPTASMaxWork; units: see
	// PTAS). A step cut by it is discarded, so the result depends only on
	// the completed steps, and is the same on any machine.
	MaxWork int64
	// TimeLimit, when positive, is an opt-in wall-clock bound on the run;
	// a step it cuts is discarded too (StatusTimeLimit), but which step
	// that is depends on the machine. 0 means none.
	TimeLimit time.Duration
	// MaxStates caps the DP states stored in one step (default
	// DefaultMaxStates, at most 2^30). The a-priori StateBound is counted
	// before the step runs: within the cap the step always completes;
	// above it the step is refused at once if StrictStates, and otherwise
	// runs (branch and bound usually stores far fewer states) and is
	// refused if it stores more than MaxStates. A refused step ends the
	// loop.
	MaxStates    int64
	StrictStates bool
	// Progress, if set, is called after every step.
	Progress func(Step)
	// Local configures the local search that provides the first incumbent
	// and the fallback when no step completes (its MaxWork and TimeLimit
	// are ignored: the PTAS's own count).
	Local LocalOptions

	// noLagrange disables the per-state Lagrangian bound, so that tests
	// exercise the DP's own pruning, state cap and budget checks.
	noLagrange bool
}

// polishRounds caps the local-search rounds that polish the incumbent
// before each step after the first.
const polishRounds = 20

// DefaultPTASMaxWork is PTAS's work cap when PTASOptions.MaxWork is 0:
// about 30 s of one core of a 2020s server (the former default time
// budget of `capplan shapes`). The slowest case of the benchmark tables,
// the Alibaba GPU trace (476 classes, K = 4, ε down to 0.1), uses 0.37e9.
const DefaultPTASMaxWork = 3_000_000_000

// DefaultMaxStates is the default cap on DP states per step (about 60
// bytes each plus the bitset).
const DefaultMaxStates = 4_000_000

// PTAS solves a SumCost problem within 1+ε of optimal for a decreasing
// sequence of ε until MinEps, the work budget (MaxWork), the opt-in
// TimeLimit or the state cap (X-Flex §2.2; ALGORITHMS.md §1.4). For
// MaxCost it returns MaxDP's exact answer.
//
// Each step builds the lines for ε (lines.go: every container is within
// 1+ε of a line of its support), the candidate family on them with node-fit
// repair (chains.go), and solves the family exactly with the DP on K
// (coverDP) seeded with the incumbent, so after a completed step
// Cost ≤ (1+ε)·OPT. The first incumbent comes from LocalSearch started
// from seedShapes, with the first step's family as swap pool. Every step
// is deterministic given its ε and the incumbent, so the output depends
// only on the sequence of completed steps; Solution.Epsilon is the last
// completed ε and Steps the history. If no step completes (the first is
// refused or cut by the work budget or the time limit), the local-search
// incumbent is returned with Method "local".
//
// Work: one unit is one DP state expanded, one (candidate, class) pair
// priced by an iteration of a step's Lagrangian multipliers (subgradient),
// or one local-search unit (a request class priced against a catalog
// change, see LocalOptions); Solution.WorkUsed reports the total,
// Step.Work each step's share. The final lower bound (setLowerBound) is
// capped by its own limits (lagrangeWork) and not counted. Without a
// TimeLimit, the result is the same on any machine and any GOMAXPROCS.
//
// Cost per step: the lines number ⌈1/ε'⌉^{r−1} per support of size r, each
// with at most n candidates, and the DP stores at most
// K·Σ_{r≤K} e_r(chain sizes) states of O(n/64) words, each expanded over
// the later candidates — n^{O(ε^{-(D−1)})} in the worst case.
func PTAS(p *Problem, o PTASOptions) (*Solution, error) {
	if p.Cost == MaxCost {
		if err := p.Validate(); err != nil {
			return nil, err
		}
		return MaxDP(p)
	}
	in, err := newInstance(p)
	if err != nil {
		return nil, err
	}
	if in.meetsCapped {
		return nil, fmt.Errorf("%w: the node types have more than %d meets under the placement constraints (use LocalSearch)", ErrTooLarge, maxMeets)
	}
	if o.Eps <= 0 {
		o.Eps = 1
	}
	if o.MinEps <= 0 {
		o.MinEps = 0.05
	}
	if o.MaxStates <= 0 {
		o.MaxStates = DefaultMaxStates
	}
	maxWork, err := checkWork(o.MaxWork, o.TimeLimit, DefaultPTASMaxWork)
	if err != nil {
		return nil, err
	}
	w := work.New(maxWork, o.TimeLimit)
	seed, err := in.seedShapes()
	if err != nil {
		return nil, err
	}
	first := in.rayFamily(o.Eps)
	lo := o.Local
	best, err := in.finalize(in.localSearch(seed, first.cands, lo, w), "local")
	if err != nil {
		return nil, err
	}
	best.Seed = lo.Seed
	var steps []Step
	for j := 1; ; j++ {
		eps := o.Eps / float64(j)
		if o.Factor > 0 && o.Factor < 1 {
			eps = o.Eps * math.Pow(o.Factor, float64(j-1))
		}
		st := Step{Eps: eps, Status: cutStatus(w), Cost: best.Cost}
		if used := w.Used(); !w.Done() {
			fam := first
			if j > 1 {
				fam = in.rayFamily(eps)
				// Polish the incumbent with the family as swap pool: a
				// better incumbent prunes more of the DP.
				polish := LocalOptions{Seed: lo.Seed, MaxRounds: polishRounds, Restarts: -1}
				if s, err := in.finalize(in.localSearch(best.Shapes, fam.cands, polish, w), best.Method); err == nil && s.Cost < best.Cost {
					s.Epsilon, s.Seed = best.Epsilon, best.Seed
					best = s
				}
			}
			if st, err = in.ptasStep(fam, &best, o, w); err != nil {
				return nil, err
			}
			st.Eps, st.Work = eps, w.Used()-used
			if st.Status == StatusDone {
				best.Method, best.Epsilon, best.Seed = "ptas", eps, 0
			}
		}
		steps = append(steps, st)
		if o.Progress != nil {
			o.Progress(st)
		}
		if st.Status != StatusDone || eps <= o.MinEps {
			break
		}
	}
	best.Steps = steps
	best.WorkUsed, best.TimeLimitHit = w.Used(), w.TimeLimitHit()
	in.setLowerBound(best)
	return best, nil
}

// ptasStep solves one candidate family exactly with coverDP, seeded with
// the incumbent *best, which it replaces on improvement.
func (in *instance) ptasStep(fam rayFamily, best **Solution, o PTASOptions, w *work.Counter) (Step, error) {
	st := Step{Rays: fam.lines, Candidates: len(fam.cands), StateBound: stateBound(fam.chains, in.k)}
	maxStates := o.MaxStates
	if st.StateBound <= float64(maxStates) {
		maxStates = math.MaxInt64 // the a-priori bound guarantees completion
	} else if o.StrictStates {
		st.Status, st.Cost = StatusRefused, (*best).Cost
		return st, nil
	}
	dp := &coverDP{w: in.w, cands: fam.cands, K: in.k, maxStates: maxStates,
		work: w, ub: (*best).Cost}
	if !o.noLagrange {
		if _, u, ok := in.subgradient(fam.cands, (*best).Cost, w); ok {
			dp.u = u
		}
	}
	res := dp.run()
	st.States, st.Status = res.states, res.status
	if res.status == StatusDone && res.chosen != nil {
		shapes := make([][]float64, len(res.chosen))
		for a, c := range res.chosen {
			shapes[a] = fam.cands[c].shape
		}
		s, err := in.finalize(shapes, "ptas")
		if err != nil {
			return st, err
		}
		if s.Cost < (*best).Cost {
			*best = s
		}
	}
	st.Cost = (*best).Cost
	return st, nil
}

// cutStatus is the status of a step that w stopped: StatusTimeLimit when
// the deadline passed, StatusBudget when MaxWork ran out.
func cutStatus(w *work.Counter) string {
	if w.TimeLimitHit() {
		return StatusTimeLimit
	}
	return StatusBudget
}
