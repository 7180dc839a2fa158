package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/binpack/xsize"
	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/reports"
)

// shapesOptions are the flags of `capplan shapes`: the pipeline's options,
// bound straight to flags, and the output flags.
type shapesOptions struct {
	io          *ioStreams
	run         pipeline.ShapesOptions
	Assignments bool
	Stats       bool
	output      outputOptions
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
approximation scheme for decreasing ε until --eps is reached or the work
budget (--budget) is spent, keeping the best completed step's catalog and its
ε guarantee; exact searches the candidate grid exhaustively (small inputs
only); local runs the assign/shrink/swap local search (large inputs); maxdp is the exact dynamic program for --cost max (its
default). Budgets count work, so the same inputs and --seed give the same
catalog on any machine; --time-limit adds an opt-in wall-clock limit, and the
catalog says when it cut the search. Every catalog is checked: each request
fits its shape and each shape fits a node type, also after rounding up with
--round.`,
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
	bindInputs(f, &opts.run.Inputs)
	f.IntVarP(&opts.run.K, "k", "k", 8, "number of shapes")
	f.Float64Var(&opts.run.Eps, "eps", 0.1, "PTAS: stop once a step with ε ≤ `eps` completes")
	f.Int64Var(&opts.run.MaxWork, "budget", 0, "work budget of the search (ptas: DP states expanded and candidates priced, default 3000000000; local: request classes priced, default 3000000000)")
	f.DurationVar(&opts.run.TimeLimit, "time-limit", 0, "opt-in wall-clock limit for ptas and local, such as 30s (0: none); recorded in the catalog when it cuts the search")
	f.StringVar(&opts.run.Cost, "cost", "sum", "cost of a shape: `sum` or max of its normalised dimensions")
	f.StringVar(&opts.run.Method, "method", "", "ptas, exact, local or maxdp (default: ptas for sum, maxdp for max)")
	f.StringVar(&opts.run.Round, "round", "", "round shapes up to multiples, e.g. `cpu=1,memory=1Gi`")
	f.StringVar(&opts.run.WeightBy, "weight", "count", "weight requests by `count` or by duration (count × duration)")
	f.Uint64Var(&opts.run.Seed, "seed", 1, "random seed of the local search")
	f.BoolVar(&opts.Assignments, "assignments", false, "also print every request class's shape")
	f.BoolVar(&opts.Stats, "stats", false, "print timings and PTAS progress to stderr")
	opts.output.bind(f, "ShapeCatalog")
	_ = cmd.RegisterFlagCompletionFunc("method", cobra.FixedCompletions(pipeline.ShapesMethods, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("cost", cobra.FixedCompletions([]string{"sum", "max"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func (o *shapesOptions) validate() error {
	if err := validateInputs(&o.run.Inputs); err != nil {
		return err
	}
	return o.output.validate()
}

func shapesRun(o *shapesOptions) error {
	o.run.Generator = generator()
	if o.Stats || o.io.ErrOutTerminal {
		o.run.Progress = func(s xsize.Step) {
			fmt.Fprintf(o.io.ErrOut, "ptas: ε=%.4g rays=%d states=%d cost=%.6g %s (work %d)\n",
				s.Eps, s.Rays, s.States, s.Cost, s.Status, s.Work)
		}
	}
	res, err := pipeline.Shapes(o.run)
	if err != nil {
		return err
	}
	doc := res.Doc
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
		st := res.Stats
		fmt.Fprintf(o.io.ErrOut, "stats: %s, %s, %s, K=%d; load %v, solve %v, total %v\n",
			plural.Count(st.Requests, "request class"), plural.Count(st.Dims, "dimension"), plural.Count(st.NodeTypes, "node type"), st.K,
			st.Load.Round(time.Millisecond), st.Solve.Round(time.Millisecond), st.Total.Round(time.Millisecond))
	}
	return nil
}
