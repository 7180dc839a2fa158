package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/capplan/capplan/binpack/xsize"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// shapesOptions are the flags of `capplan shapes`.
type shapesOptions struct {
	io *ioStreams

	input       inputOptions
	K           int
	Eps         float64
	Budget      time.Duration
	Cost        string
	Method      string
	Round       string
	WeightBy    string
	Seed        uint64
	Assignments bool
	Stats       bool
	output      outputOptions

	round map[string]resource.Quantity
}

func newShapesCmd(io *ioStreams) *cobra.Command {
	opts := &shapesOptions{io: io}
	cmd := &cobra.Command{
		Use:   "shapes {-c <cluster> -d <demand> | --example} [-k <n>] [flags]",
		Short: "Compute a catalog of K container shapes (X-Size)",
		Long: `Compute K container shapes such that every forecast request fits at least one,
minimising the resources requests occupy in their best-fitting shapes (X-Flex's
X-Size). A request's cost is the sum (or, with --cost max, the maximum) of its
shape's shares of the cluster's aggregate capacity; requests are weighted by
count (or count × duration).

Methods: ptas (the default for --cost sum) runs the polynomial-time
approximation scheme for decreasing ε until --eps is reached or --budget ends,
keeping the best catalog and its ε guarantee; exact searches the candidate grid
exhaustively (small inputs only); local runs the assign/shrink/swap local search
(large inputs); maxdp is the exact dynamic program for --cost max (its default).
Every catalog is checked: each request fits its shape and each shape fits a node
type, also after rounding up with --round.`,
		Example: `  capplan shapes --example -k 4
  capplan shapes -c cluster.yaml -d demand.yaml -k 8 --round cpu=1,memory=1Gi -o catalog.json
  capplan shapes -c cluster.yaml -d demand.yaml -k 16 --method local --xlsx catalog.xlsx`,
		Args: wrapArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.validate(); err != nil {
				return err
			}
			return shapesRun(opts)
		},
	}
	f := cmd.Flags()
	opts.input.bind(f)
	f.IntVarP(&opts.K, "k", "k", 8, "number of shapes")
	f.Float64Var(&opts.Eps, "eps", 0.1, "PTAS: stop once a step with ε ≤ `eps` completes")
	f.DurationVar(&opts.Budget, "budget", 30*time.Second, "time budget for ptas and local (0 = none)")
	f.StringVar(&opts.Cost, "cost", "sum", "cost of a shape: `sum` or max of its normalised dimensions")
	f.StringVar(&opts.Method, "method", "", "ptas, exact, local or maxdp (default: ptas for sum, maxdp for max)")
	f.StringVar(&opts.Round, "round", "", "round shapes up to multiples, e.g. `cpu=1,memory=1Gi`")
	f.StringVar(&opts.WeightBy, "weight", "count", "weight requests by `count` or by duration (count × duration)")
	f.Uint64Var(&opts.Seed, "seed", 1, "random seed of the local search")
	f.BoolVar(&opts.Assignments, "assignments", false, "also print every request class's shape")
	f.BoolVar(&opts.Stats, "stats", false, "print timings and PTAS progress to stderr")
	opts.output.bind(f, "ShapeCatalog")
	_ = cmd.RegisterFlagCompletionFunc("method", cobra.FixedCompletions([]string{"ptas", "exact", "local", "maxdp"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("cost", cobra.FixedCompletions([]string{"sum", "max"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func (o *shapesOptions) validate() error {
	if err := o.input.validate(); err != nil {
		return err
	}
	switch {
	case o.K < 1:
		return usageErrorf("invalid -k %d: want at least 1 shape", o.K)
	case o.Eps <= 0 || o.Eps > 1:
		return usageErrorf("invalid --eps %v: want 0 < eps ≤ 1", o.Eps)
	case o.Budget < 0:
		return usageErrorf("invalid --budget %v", o.Budget)
	case o.Cost != "sum" && o.Cost != "max":
		return usageErrorf("invalid --cost %q: valid costs are sum, max", o.Cost)
	case o.WeightBy != "count" && o.WeightBy != "duration":
		return usageErrorf("invalid --weight %q: valid are count, duration", o.WeightBy)
	}
	if o.Method == "" {
		o.Method = map[string]string{"sum": "ptas", "max": "maxdp"}[o.Cost]
	}
	switch o.Method {
	case "ptas", "exact", "local":
	case "maxdp":
		if o.Cost != "max" {
			return usageErrorf("--method maxdp solves --cost max only")
		}
	default:
		return usageErrorf("invalid --method %q: valid methods are ptas, exact, local, maxdp", o.Method)
	}
	if o.Method == "ptas" && o.Cost == "max" {
		return usageErrorf("--cost max is solved exactly by --method maxdp; the PTAS is for --cost sum")
	}
	round, err := parseRound(o.Round)
	if err != nil {
		return err
	}
	o.round = round
	return o.output.validate()
}

// parseRound parses "cpu=1,memory=1Gi" into quantities.
func parseRound(s string) (map[string]resource.Quantity, error) {
	out := map[string]resource.Quantity{}
	if s == "" {
		return out, nil
	}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || k == "" {
			return nil, usageErrorf("invalid --round %q: want RESOURCE=QUANTITY,...", s)
		}
		q, err := resource.ParseQuantity(v)
		if err != nil || q.Sign() <= 0 {
			return nil, usageErrorf("invalid --round %s=%s: want a positive quantity", k, v)
		}
		out[k] = q
	}
	return out, nil
}

func (o *shapesOptions) flags() map[string]string {
	return map[string]string{
		"k": strconv.Itoa(o.K), "eps": strconv.FormatFloat(o.Eps, 'g', -1, 64), "cost": o.Cost,
		"method": o.Method, "round": o.Round, "weight": o.WeightBy, "seed": strconv.FormatUint(o.Seed, 10),
	}
}

func shapesRun(o *shapesOptions) error {
	t0 := time.Now()
	in, err := o.input.load()
	if err != nil {
		return err
	}
	cost, _ := xsize.ParseCost(o.Cost)
	si, err := plan.NewShapeInput(in.Cluster, in.Demand, o.K, cost, o.WeightBy == "duration")
	if err != nil {
		return err
	}
	gran, err := si.Granularity(o.round)
	if err != nil {
		return usageErrorf("%v", err)
	}
	tSolve := time.Now()
	sol, err := o.solve(si.Problem)
	if err != nil {
		return err
	}
	if len(o.round) > 0 {
		if sol, err = xsize.Round(si.Problem, sol, gran); err != nil {
			return err
		}
	}
	if err := plan.CheckCatalog(si.Problem, sol); err != nil {
		return fmt.Errorf("internal error: %w", err)
	}
	tDone := time.Now()
	seed := int64(o.Seed)
	h := plan.Header{Generator: generator(), Inputs: in.Inputs, Flags: o.flags(), Seed: &seed}
	doc := plan.NewShapeCatalog(h, si, sol, gran)
	if err := o.output.write(o.io, views{
		doc: doc,
		text: func(w io.Writer, terminal bool) error {
			return reports.WriteShapeCatalogText(w, doc, terminal, o.Assignments)
		},
		csv:      func(w io.Writer) error { return reports.WriteShapeCatalogCSV(w, doc) },
		workbook: func() (*reports.Workbook, error) { return reports.ShapeCatalogWorkbook(doc) },
	}); err != nil {
		return err
	}
	if o.Stats {
		fmt.Fprintf(o.io.ErrOut, "stats: %d request classes, %d dimensions, %d node types, K=%d; load %v, solve %v, total %v\n",
			len(si.Problem.Requests), len(si.Problem.Dims), len(si.Problem.Nodes), o.K,
			tSolve.Sub(t0).Round(time.Millisecond), tDone.Sub(tSolve).Round(time.Millisecond), time.Since(t0).Round(time.Millisecond))
	}
	return nil
}

func (o *shapesOptions) solve(p *xsize.Problem) (*xsize.Solution, error) {
	switch o.Method {
	case "exact":
		return xsize.Exact(p, xsize.ExactOptions{})
	case "local":
		return xsize.LocalSearch(p, xsize.LocalOptions{Seed: o.Seed, TimeLimit: o.Budget})
	case "maxdp":
		return xsize.MaxDP(p)
	}
	progress := func(s xsize.Step) {
		if o.Stats || o.io.ErrOutTerminal {
			fmt.Fprintf(o.io.ErrOut, "ptas: ε=%.4g rays=%d states=%d cost=%.6g %s (work %d)\n",
				s.Eps, s.Rays, s.States, s.Cost, s.Status, s.Work)
		}
	}
	return xsize.PTAS(p, xsize.PTASOptions{MinEps: o.Eps, TimeLimit: o.Budget, Progress: progress, Local: xsize.LocalOptions{Seed: o.Seed}})
}
