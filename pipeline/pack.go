package pipeline

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/capplan/capplan/binpack/xselect"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/plan"
)

// PackOptions are the options of Pack (`capplan pack --shapes`).
type PackOptions struct {
	Inputs Inputs
	// ShapesPath is the ShapeCatalog file whose shapes are the containers;
	// Catalog, when set, is a catalog already in memory (ShapesPath then
	// only names it).
	ShapesPath string
	Catalog    *plan.ShapeCatalog
	// Shares is where the owners' target shares come from: one of
	// plan.ShareSources ("" = plan.SharesFair).
	Shares string
	// FromPath is a previous ownership PackingPlan ("" = none); with it at
	// most a fraction Mutable of the nodes may change (incremental mode).
	FromPath string
	Mutable  float64
	// Seed drives X-Select's randomised moves.
	Seed uint64
	// MaxWork is the deterministic work budget of the whole λ search, in
	// knapsack search nodes and improvement visits (0:
	// xselect.DefaultMaxWork).
	MaxWork int64
	// TimeLimit is an opt-in wall-clock limit after which no new λ probe
	// starts (0: none). When it cuts the search the document says so and
	// the result depends on the machine.
	TimeLimit time.Duration
	// Generator names the tool in the document header.
	Generator string
}

// PackResult is an ownership PackingPlan with run statistics.
type PackResult struct {
	Doc   *plan.PackingPlan
	Stats PackStats
}

// PackStats are the X-Select search's counters and the run's timings.
type PackStats struct {
	// Probes counts the multipliers λ tried.
	Probes int
	// Build covers coalescing and building the problem (fair shares
	// included); Solve X-Select alone; Total the whole job.
	Build, Solve, Total time.Duration
}

// Pack builds an ownership packing plan (X-Flex's X-Select, Middleware'14
// §2.2; ALGORITHMS.md §2):
//
//  1. load the inputs and the shape catalog (plan.CheckCatalogDocument);
//  2. build the X-Select problem: every request class counts towards its
//     cheapest dominating shape, the owners' shares come from Shares (fair
//     shares by flow.Solve, weights or forecast), and the demand's
//     placement rules hold (newOwnershipInput);
//  3. with FromPath, map the previous plan onto the problem (incremental
//     mode: at most Mutable of the nodes change);
//  4. search the largest multiplier λ whose required set packs
//     (xselect.Solve), check the plan independently (xselect.Check or
//     CheckIncremental) and build the document.
func Pack(o PackOptions) (*PackResult, error) {
	if o.Shares == "" {
		o.Shares = plan.SharesFair
	}
	switch {
	case !slices.Contains(plan.ShareSources, o.Shares):
		return nil, optionErrorf("invalid --shares %q (want one of %s)", o.Shares, strings.Join(plan.ShareSources, ", "))
	case !(o.Mutable >= 0 && o.Mutable <= 1):
		return nil, optionErrorf("invalid --mutable %v (want a fraction in [0,1])", o.Mutable)
	case o.MaxWork < 0:
		return nil, optionErrorf("invalid --budget %d: want a work budget ≥ 0", o.MaxWork)
	case o.TimeLimit < 0:
		return nil, optionErrorf("invalid --time-limit %v", o.TimeLimit)
	}
	t0 := time.Now()
	in, err := o.Inputs.load()
	if err != nil {
		return nil, err
	}
	cat, inputs, err := o.catalog(in)
	if err != nil {
		return nil, err
	}
	inst, err := datasets.Coalesce(in.Cluster, in.Demand)
	if err != nil {
		return nil, err
	}
	oi, err := newOwnershipInput(in.Cluster, in.Demand, inst, cat, o.Shares)
	if err != nil {
		return nil, err
	}
	opt := xselect.Options{Seed: o.Seed, MaxWork: o.MaxWork, TimeLimit: o.TimeLimit}
	var gone []string
	flags := map[string]string{"shapes": o.ShapesPath, "shares": o.Shares}
	budgetFlags(flags, o.MaxWork, o.TimeLimit)
	if o.FromPath != "" {
		data, err := datasets.ReadFile(o.FromPath, 0)
		if err != nil {
			return nil, err
		}
		var prev plan.PackingPlan
		if err := plan.DecodeDocument(o.FromPath, data, plan.KindPackingPlan, &prev); err != nil {
			return nil, err
		}
		if opt.From, gone, err = oi.previousPlan(o.FromPath, &prev); err != nil {
			return nil, err
		}
		opt.Mutable = o.Mutable
		inputs = append(inputs, plan.Input{Role: "from", Path: o.FromPath, SHA256: plan.Digest(data)})
		flags["from"], flags["mutable"] = o.FromPath, strconv.FormatFloat(o.Mutable, 'g', -1, 64)
	}
	tSolve := time.Now()
	xp, err := xselect.Solve(oi.Problem, opt)
	if err != nil {
		return nil, err
	}
	solved := time.Since(tSolve)
	if opt.From != nil {
		err = xselect.CheckIncremental(oi.Problem, opt.From, xp, opt.Mutable)
	} else {
		err = xselect.Check(oi.Problem, xp)
	}
	if err != nil {
		return nil, fmt.Errorf("internal error: the plan failed its independent check: %w", err)
	}
	seed := int64(o.Seed)
	h := plan.Header{Generator: o.Generator, Inputs: inputs, Seed: &seed, Flags: flags}
	annotate(&h, in.Cluster)
	doc := newOwnershipPlan(h, oi, xp, opt.From != nil, gone)
	budget := o.MaxWork
	if budget == 0 {
		budget = xselect.DefaultMaxWork
	}
	doc.Search = &plan.Search{WorkUnit: "knapsack search nodes and improvement visits", WorkBudget: budget, WorkUsed: xp.WorkUsed,
		TimeLimit: o.TimeLimit.Seconds(), CutByTimeLimit: xp.TimeLimitHit}
	return &PackResult{Doc: doc, Stats: PackStats{Probes: xp.Probes, Build: tSolve.Sub(t0), Solve: solved, Total: time.Since(t0)}}, nil
}

// catalog returns the shape catalog, read from ShapesPath unless given,
// checked against the cluster's resources, and the job's inputs with it.
func (o *PackOptions) catalog(in *loaded) (*plan.ShapeCatalog, []plan.Input, error) {
	inputs := slices.Clone(in.Inputs)
	cat := o.Catalog
	if cat == nil {
		data, err := datasets.ReadFile(o.ShapesPath, 0)
		if err != nil {
			return nil, nil, err
		}
		cat = &plan.ShapeCatalog{}
		if err := plan.DecodeDocument(o.ShapesPath, data, plan.KindShapeCatalog, cat); err != nil {
			return nil, nil, err
		}
		inputs = append(inputs, plan.Input{Role: "shapes", Path: o.ShapesPath, SHA256: plan.Digest(data)})
	}
	if err := plan.CheckCatalogDocument(o.ShapesPath, cat, in.Cluster.Resources); err != nil {
		return nil, nil, err
	}
	return cat, inputs, nil
}
