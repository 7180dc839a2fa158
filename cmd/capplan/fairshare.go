package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/flow"
	"github.com/capplan/capplan/lp"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// fairShareOptions are the flags of `capplan fairshare`.
type fairShareOptions struct {
	io *ioStreams

	input    inputOptions
	Method   string
	Backend  string
	Integral bool
	PerNode  bool
	Stats    bool
	output   outputOptions
}

func newFairShareCmd(io *ioStreams, runF func(*fairShareOptions) error) *cobra.Command {
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
  capplan fairshare -c nodes.json -d demand.yaml --rack-label topology.kubernetes.io/zone --xlsx shares.xlsx`,
		Args: wrapArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return fairShareRun(opts)
		},
	}
	f := cmd.Flags()
	opts.input.bind(f)
	f.StringVar(&opts.Method, "method", "flow", "solver: `flow` (exact) or lp (iterative LP)")
	f.StringVar(&opts.Backend, "lp-backend", "", "LP backend for --method lp: simplex or clp (default: the fastest built in)")
	f.BoolVar(&opts.Integral, "integral", false, "allocate whole machines (leximin over integral allocations)")
	f.BoolVar(&opts.PerNode, "per-node", false, "also assign machines to concrete nodes")
	opts.output.bind(f, "FairShare")
	f.BoolVar(&opts.Stats, "stats", false, "print solver statistics and timings to stderr")
	_ = cmd.RegisterFlagCompletionFunc("method", cobra.FixedCompletions([]string{"flow", "lp"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("lp-backend", cobra.FixedCompletions(lp.Backends(), cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func (o *fairShareOptions) validate() error {
	if err := o.input.validate(); err != nil {
		return err
	}
	switch {
	case o.Method != "flow" && o.Method != "lp":
		return usageErrorf("invalid --method %q: valid methods are flow, lp", o.Method)
	case o.Method == "lp" && o.Integral:
		return usageErrorf("--method lp computes divisible shares only; use --method flow with --integral")
	case o.Backend != "" && o.Method != "lp":
		return usageErrorf("--lp-backend needs --method lp")
	}
	return o.output.validate()
}

func (o *fairShareOptions) flags() map[string]string {
	m := map[string]string{
		"method":   o.Method,
		"integral": strconv.FormatBool(o.Integral),
		"perNode":  strconv.FormatBool(o.PerNode),
	}
	if o.Method == "lp" {
		m["lpBackend"] = o.Backend
	}
	return m
}

func fairShareRun(o *fairShareOptions) error {
	t0 := time.Now()
	in, err := o.input.load()
	if err != nil {
		return err
	}
	inst, err := datasets.Coalesce(in.Cluster, in.Demand)
	if err != nil {
		return err
	}
	p := plan.CMMFProblem(inst)
	tLoad := time.Now()
	res, err := flow.Solve(p, o.Integral)
	if err != nil {
		return err
	}
	tSolve := time.Now()
	var lpRes *lp.CMMFResult
	if o.Method == "lp" {
		solver, err := o.lpSolver()
		if err != nil {
			return err
		}
		if c, ok := solver.(io.Closer); ok {
			defer c.Close()
		}
		if lpRes, err = lp.CMMF(p, solver); err != nil {
			return fmt.Errorf("iterative LP: %w", err)
		}
	}
	tLP := time.Now()
	h := plan.Header{Generator: generator(), Inputs: in.Inputs, Flags: o.flags()}
	doc, err := plan.NewFairShare(h, in.Demand, inst, p, res, o.Method, o.PerNode)
	if err != nil {
		return err
	}
	if lpRes != nil {
		if err := applyLP(doc, inst, p, res, lpRes); err != nil {
			return err
		}
	}
	if err := o.write(doc); err != nil {
		return err
	}
	if o.Stats {
		fmt.Fprintf(o.io.ErrOut, "stats: %d applications, %d machine types, %d machines; %d rounds, %d max flows\n",
			len(p.Users), len(p.Types), doc.Summary.Machines, res.Rounds, res.MaxFlows)
		fmt.Fprintf(o.io.ErrOut, "stats: load %v, flow solve %v", tLoad.Sub(t0).Round(time.Microsecond), tSolve.Sub(tLoad).Round(time.Microsecond))
		if lpRes != nil {
			fmt.Fprintf(o.io.ErrOut, ", lp solve %v (%d LPs)", tLP.Sub(tSolve).Round(time.Microsecond), lpRes.LPs)
		}
		fmt.Fprintf(o.io.ErrOut, ", total %v\n", time.Since(t0).Round(time.Microsecond))
	}
	return nil
}

func (o *fairShareOptions) lpSolver() (lp.Solver, error) {
	if o.Backend == "" {
		o.Backend = lp.Backends()[0]
	}
	s, err := lp.NewSolver(o.Backend)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return s, nil
}

// lpAgreement is the relative tolerance within which the iterative LP must
// reproduce the exact flow shares (ALGORITHMS.md §5; issue acceptance).
const lpAgreement = 1e-9

// applyLP replaces the document's numbers by the iterative LP's, after
// checking that they agree with the exact flow result; the exact strings
// and the certificate stay those of the flow solver.
func applyLP(doc *plan.FairShare, inst *datasets.Instance, p *flow.Problem, res *flow.Result, r *lp.CMMFResult) error {
	worst := 0.0
	for u := range p.Users {
		exact := res.Amount[u].Float64()
		diff := math.Abs(r.Amount[u]-exact) / math.Max(1, math.Abs(exact))
		worst = math.Max(worst, diff)
		if diff > lpAgreement {
			return fmt.Errorf("internal error: iterative LP gives %s %v machines, exact flow %s", inst.Applications[u].Name, r.Amount[u], res.Amount[u])
		}
		s := &doc.Shares[u]
		s.Machines = r.Amount[u]
		s.Level = r.Level[u]
		s.Round = r.Round[u]
		if s.EligibleMachines > 0 {
			s.Fraction = s.Machines / float64(s.EligibleMachines)
		}
		s.ByType = map[string]float64{}
		for k, t := range p.Users[u].Types {
			if a := r.Alloc[u][k]; a > 0 {
				s.ByType[inst.Types[t].Name] = a
			}
		}
	}
	doc.Certificate.LPMaxRelDiff = &worst
	return nil
}

func (o *fairShareOptions) write(doc *plan.FairShare) error {
	return o.output.write(o.io, views{
		doc:      doc,
		text:     func(w io.Writer, terminal bool) error { return reports.WriteFairShareText(w, doc, terminal) },
		csv:      func(w io.Writer) error { return reports.WriteFairShareCSV(w, doc) },
		workbook: func() (*reports.Workbook, error) { return reports.FairShareWorkbook(doc) },
	})
}
