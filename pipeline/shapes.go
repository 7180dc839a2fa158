package pipeline

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/capplan/capplan/binpack/xsize"
	"github.com/capplan/capplan/internal/kvlist"
	"github.com/capplan/capplan/plan"
)

// Shape catalog methods.
const (
	ShapesPTAS  = "ptas"
	ShapesExact = "exact"
	ShapesLocal = "local"
	ShapesMaxDP = "maxdp"
)

// ShapesMethods lists the valid ShapesOptions.Method values.
var ShapesMethods = []string{ShapesPTAS, ShapesExact, ShapesLocal, ShapesMaxDP}

// ShapesOptions are the options of Shapes (`capplan shapes`).
type ShapesOptions struct {
	Inputs Inputs
	// K is the number of shapes (≥ 1).
	K int
	// Eps ends the PTAS once a step with ε ≤ Eps completes (0 < Eps ≤ 1).
	Eps float64
	// Cost is "sum" ("" means it) or "max" of a shape's normalised
	// dimensions.
	Cost string
	// Method is one of ShapesMethods ("": ptas for sum, maxdp for max).
	Method string
	// Round rounds shapes up to multiples: a NAME=QUANTITY list such as
	// "cpu=1,memory=1Gi" ("" = no rounding).
	Round string
	// WeightBy weighs requests by "count" ("" means it) or by "duration"
	// (count × duration).
	WeightBy string
	// Seed drives the local search.
	Seed uint64
	// MaxWork is the deterministic work budget of the whole search (0: the
	// method's default, xsize.DefaultPTASMaxWork or DefaultLocalMaxWork):
	// for ptas DP states expanded and (candidate, class) pairs priced, a
	// step cut by it being discarded; for local request classes priced
	// against a catalog change.
	MaxWork int64
	// TimeLimit is an opt-in wall-clock limit (0: none). When it cuts the
	// search the document says so and the result depends on the machine.
	TimeLimit time.Duration
	// Progress, when set, is called after every PTAS step.
	Progress func(xsize.Step)
	// Generator names the tool in the document header.
	Generator string
}

// ShapesResult is a ShapeCatalog document with run statistics.
type ShapesResult struct {
	Doc   *plan.ShapeCatalog
	Stats ShapesStats
}

// ShapesStats are the problem's sizes and the run's timings.
type ShapesStats struct {
	Requests, Dims, NodeTypes, K int
	// Load covers reading the inputs and building the problem; Solve the
	// solver, rounding and check; Total the whole job.
	Load, Solve, Total time.Duration
}

// Shapes computes a catalog of K container shapes that every forecast
// request fits, minimising the resources requests occupy in their cheapest
// dominating shapes (X-Flex's X-Size, Middleware'14 §2.2):
//
//  1. load the inputs and build the X-Size problem (newShapeInput), sizes
//     in exact integer units;
//  2. solve with the method: the PTAS for decreasing ε (the default for
//     sum cost), the exact grid search, the local search, or the exact
//     dynamic program for max cost;
//  3. round shapes up to the granularity of Round (xsize.Round);
//  4. check the catalog independently (every request fits its shape, every
//     shape fits a node type, at most K shapes) and build the document.
func Shapes(o ShapesOptions) (*ShapesResult, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	round, err := parseRound(o.Round)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	in, err := o.Inputs.load()
	if err != nil {
		return nil, err
	}
	cost, _ := xsize.ParseCost(o.Cost)
	si, err := newShapeInput(in.Cluster, in.Demand, o.K, cost, o.WeightBy == "duration")
	if err != nil {
		return nil, err
	}
	gran, err := si.granularity(round)
	if err != nil {
		return nil, &OptionError{err}
	}
	tSolve := time.Now()
	sol, err := o.solve(si.Problem)
	if err != nil {
		return nil, err
	}
	if len(round) > 0 {
		if sol, err = xsize.Round(si.Problem, sol, gran); err != nil {
			return nil, err
		}
	}
	if err := checkCatalog(si.Problem, sol); err != nil {
		return nil, fmt.Errorf("internal error: %w", err)
	}
	tDone := time.Now()
	seed := int64(o.Seed)
	h := plan.Header{Generator: o.Generator, Inputs: in.Inputs, Flags: o.flags(), Seed: &seed}
	annotate(&h, in.Cluster)
	doc := newShapeCatalog(h, si, sol, gran)
	doc.Search = o.search(sol)
	return &ShapesResult{Doc: doc, Stats: ShapesStats{
		Requests: len(si.Problem.Requests), Dims: len(si.Problem.Dims), NodeTypes: len(si.Problem.Nodes), K: o.K,
		Load: tSolve.Sub(t0), Solve: tDone.Sub(tSolve), Total: time.Since(t0),
	}}, nil
}

func (o *ShapesOptions) validate() error {
	if o.Cost == "" {
		o.Cost = "sum"
	}
	if o.WeightBy == "" {
		o.WeightBy = "count"
	}
	switch {
	case o.K < 1:
		return optionErrorf("invalid -k %d: want at least 1 shape", o.K)
	case !(o.Eps > 0 && o.Eps <= 1):
		return optionErrorf("invalid --eps %v: want 0 < eps ≤ 1", o.Eps)
	case o.MaxWork < 0:
		return optionErrorf("invalid --budget %d: want a work budget ≥ 0", o.MaxWork)
	case o.TimeLimit < 0:
		return optionErrorf("invalid --time-limit %v", o.TimeLimit)
	case o.Cost != "sum" && o.Cost != "max":
		return optionErrorf("invalid --cost %q: valid costs are sum, max", o.Cost)
	case o.WeightBy != "count" && o.WeightBy != "duration":
		return optionErrorf("invalid --weight %q: valid are count, duration", o.WeightBy)
	}
	if o.Method == "" {
		o.Method = map[string]string{"sum": ShapesPTAS, "max": ShapesMaxDP}[o.Cost]
	}
	switch o.Method {
	case ShapesPTAS, ShapesExact, ShapesLocal:
	case ShapesMaxDP:
		if o.Cost != "max" {
			return optionErrorf("--method maxdp solves --cost max only")
		}
	default:
		return optionErrorf("invalid --method %q: valid methods are ptas, exact, local, maxdp", o.Method)
	}
	switch {
	case o.Method == ShapesPTAS && o.Cost == "max":
		return optionErrorf("--cost max is solved exactly by --method maxdp; the PTAS is for --cost sum")
	case (o.MaxWork > 0 || o.TimeLimit > 0) && !o.searches():
		return optionErrorf("--budget and --time-limit apply to --method ptas and local; %s is exact", o.Method)
	}
	return nil
}

// searches reports whether the method is a search bounded by a budget.
func (o *ShapesOptions) searches() bool { return o.Method == ShapesPTAS || o.Method == ShapesLocal }

// parseRound parses a rounding list "cpu=1,memory=1Gi" into positive
// quantities.
func parseRound(s string) (map[string]resource.Quantity, error) {
	round, err := kvlist.Quantities(s)
	if err != nil {
		return nil, optionErrorf("invalid --round %q: %v", s, err)
	}
	for _, k := range slices.Sorted(maps.Keys(round)) {
		if q := round[k]; q.Sign() <= 0 {
			return nil, optionErrorf("invalid --round %s=%s: want a positive quantity", k, q.String())
		}
	}
	return round, nil
}

// flags records the options that shape a ShapeCatalog, by flag name.
func (o *ShapesOptions) flags() map[string]string {
	m := map[string]string{
		"k": strconv.Itoa(o.K), "eps": strconv.FormatFloat(o.Eps, 'g', -1, 64), "cost": o.Cost,
		"method": o.Method, "round": o.Round, "weight": o.WeightBy, "seed": strconv.FormatUint(o.Seed, 10),
	}
	budgetFlags(m, o.MaxWork, o.TimeLimit)
	return m
}

func (o *ShapesOptions) solve(p *xsize.Problem) (*xsize.Solution, error) {
	switch o.Method {
	case ShapesExact:
		return xsize.Exact(p, xsize.ExactOptions{})
	case ShapesLocal:
		return xsize.LocalSearch(p, xsize.LocalOptions{Seed: o.Seed, MaxWork: o.MaxWork, TimeLimit: o.TimeLimit})
	case ShapesMaxDP:
		return xsize.MaxDP(p)
	}
	return xsize.PTAS(p, xsize.PTASOptions{MinEps: o.Eps, MaxWork: o.MaxWork, TimeLimit: o.TimeLimit,
		Progress: o.Progress, Local: xsize.LocalOptions{Seed: o.Seed}})
}

// search records the limits of a ptas or local run: the work budget in
// force (the package default when none was given), the work used, and
// whether the opt-in time limit cut the search.
func (o *ShapesOptions) search(sol *xsize.Solution) *plan.Search {
	if !o.searches() {
		return nil
	}
	s := &plan.Search{WorkBudget: o.MaxWork, WorkUsed: sol.WorkUsed, TimeLimit: o.TimeLimit.Seconds(), CutByTimeLimit: sol.TimeLimitHit}
	if o.Method == ShapesLocal {
		s.WorkUnit = "request classes priced against a catalog change"
		if s.WorkBudget == 0 {
			s.WorkBudget = xsize.DefaultLocalMaxWork
		}
		return s
	}
	s.WorkUnit = "DP states expanded, (candidate, class) pairs priced, local-search units"
	if s.WorkBudget == 0 {
		s.WorkBudget = xsize.DefaultPTASMaxWork
	}
	return s
}

// budgetFlags records a work budget and a time limit among the flags when
// they were given.
func budgetFlags(m map[string]string, maxWork int64, timeLimit time.Duration) {
	if maxWork > 0 {
		m["budget"] = strconv.FormatInt(maxWork, 10)
	}
	if timeLimit > 0 {
		m["timeLimit"] = timeLimit.String()
	}
}
