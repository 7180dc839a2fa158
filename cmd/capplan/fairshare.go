package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/lp"
	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/reports"
)

// fairShareOptions are the flags of `capplan fairshare`: the pipeline's
// options, bound straight to flags, and the output flags.
type fairShareOptions struct {
	io     *ioStreams
	run    pipeline.FairShareOptions
	Stats  bool
	output outputOptions
}

func newFairShareCmd(io *ioStreams) *cobra.Command {
	opts := &fairShareOptions{io: io}
	cmd := &cobra.Command{
		Use:   "fairshare {-c <cluster> -d <demand> | --example} [flags]",
		Short: "Compute constrained max-min fair (CMMF) shares of machines",
		Long: `Compute each application's constrained max-min fair share of the cluster's
machines (Choosy, EuroSys'13): weighted, with demand caps and placement
constraints (selectors, minimum capacity), divisible or whole machines.

The flow method is exact (integer max-flow, rational levels) and every result
carries an optimality certificate that is checked before it is written. The lp
method runs the paper's iterative linear programs and is cross-checked against
the flow result.`,
		Example: `  capplan fairshare --example
  capplan fairshare -c cluster.yaml -d demand.yaml --integral --per-node -o shares.json
  kubectl get nodes -o json > nodes.json
  capplan fairshare -c nodes.json -d nodes-demand.yaml --rack-label topology.kubernetes.io/zone --xlsx shares.xlsx`,
		Args: wrapArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.validate(); err != nil {
				return err
			}
			return fairShareRun(opts)
		},
	}
	f := cmd.Flags()
	bindInputs(f, &opts.run.Inputs)
	f.StringVar(&opts.run.Method, "method", pipeline.MethodFlow, "solver: `flow` (exact) or lp (iterative LP)")
	f.StringVar(&opts.run.LPBackend, "lp-backend", "", "LP backend for --method lp: simplex or clp (default: the fastest built in)")
	f.BoolVar(&opts.run.Integral, "integral", false, "allocate whole machines (leximin over integral allocations)")
	f.BoolVar(&opts.run.PerNode, "per-node", false, "also assign machines to concrete nodes")
	f.BoolVar(&opts.run.NoForecastCap, "no-forecast-cap", false, "do not cap applications at what their forecast requests fill (only maxMachines caps them)")
	opts.output.bind(f, "FairShare")
	f.BoolVar(&opts.Stats, "stats", false, "print solver statistics and timings to stderr")
	_ = cmd.RegisterFlagCompletionFunc("method", cobra.FixedCompletions([]string{pipeline.MethodFlow, pipeline.MethodLP}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("lp-backend", cobra.FixedCompletions(lp.Backends(), cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func (o *fairShareOptions) validate() error {
	if err := validateInputs(&o.run.Inputs); err != nil {
		return err
	}
	return o.output.validate()
}

func fairShareRun(o *fairShareOptions) error {
	o.run.Generator = generator()
	res, err := pipeline.FairShare(o.run)
	if err != nil {
		return err
	}
	doc := res.Doc
	if err := o.output.write(o.io, views{
		doc:      doc,
		text:     func(w io.Writer, terminal bool) error { return reports.WriteFairShareText(w, doc, terminal) },
		csv:      func(w io.Writer) error { return reports.WriteFairShareCSV(w, doc) },
		workbook: func() (*reports.Workbook, error) { return reports.FairShareWorkbook(doc) },
	}); err != nil {
		return err
	}
	if o.Stats {
		st := res.Stats
		fmt.Fprintf(o.io.ErrOut, "stats: %s, %s, %s; %s, %s\n",
			plural.Count(st.Applications, "application"), plural.Count(st.MachineTypes, "machine type"), plural.Count(st.Machines, "machine"),
			plural.Count(st.Rounds, "round"), plural.Count(st.MaxFlows, "max flow"))
		fmt.Fprintf(o.io.ErrOut, "stats: load %v, flow solve %v", st.Load.Round(time.Microsecond), st.Flow.Round(time.Microsecond))
		if o.run.Method == pipeline.MethodLP {
			fmt.Fprintf(o.io.ErrOut, ", lp solve %v (%d LPs)", st.LP.Round(time.Microsecond), st.LPs)
		}
		fmt.Fprintf(o.io.ErrOut, ", total %v\n", st.Total.Round(time.Microsecond))
	}
	return nil
}
