package pipeline

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/flow"
	"github.com/capplan/capplan/lp"
	"github.com/capplan/capplan/plan"
)

// Fair-share methods.
const (
	// MethodFlow is the exact integer max-flow computation (flow.Solve).
	MethodFlow = "flow"
	// MethodLP is the paper's iterative linear programs (lp.CMMF),
	// cross-checked against the flow result.
	MethodLP = "lp"
)

// FairShareOptions are the options of FairShare (`capplan fairshare`).
type FairShareOptions struct {
	Inputs Inputs
	// Method is MethodFlow ("" means it) or MethodLP.
	Method string
	// LPBackend names the lp backend of MethodLP ("" = lp.Backends()[0]).
	LPBackend string
	// Integral allocates whole machines (leximin over integral
	// allocations); MethodFlow only.
	Integral bool
	// PerNode also assigns the machines to concrete nodes.
	PerNode bool
	// NoForecastCap leaves the applications uncapped by their forecasts
	// (only maxMachines caps them; see forecastCaps).
	NoForecastCap bool
	// Generator names the tool in the document header.
	Generator string
}

// FairShareResult is a FairShare document with the solver's statistics.
type FairShareResult struct {
	Doc   *plan.FairShare
	Stats FairShareStats
}

// FairShareStats are the sizes, solver counters and timings of a run.
type FairShareStats struct {
	Applications, MachineTypes int
	Machines                   int64
	// Rounds and MaxFlows count the flow solver's work; LPs the linear
	// programs of MethodLP.
	Rounds, MaxFlows, LPs int
	// Load covers reading, checking and coalescing the inputs; Flow and LP
	// the two solvers; Total the whole job.
	Load, Flow, LP, Total time.Duration
}

// lpAgreement is the relative tolerance within which the iterative LP must
// reproduce the exact flow shares (ALGORITHMS.md §5; issue acceptance).
const lpAgreement = 1e-9

// FairShare computes the constrained max-min fair shares of the cluster's
// machines among the demand's applications (Choosy, EuroSys'13):
//
//  1. load and check the inputs, coalesce nodes into machine types and
//     applications into flow users (CMMFProblem);
//  2. solve exactly by max-flow (flow.Solve), divisible or integral;
//  3. with MethodLP, also run the iterative LP and require it to agree with
//     the flow shares to lpAgreement (relative);
//  4. verify the flow result's optimality certificate (flow.Verify) and
//     build the document; with MethodLP its numbers are the LP's.
//
// A result that fails verification or an LP that disagrees is an internal
// error: no document is returned.
func FairShare(o FairShareOptions) (*FairShareResult, error) {
	if o.Method == "" {
		o.Method = MethodFlow
	}
	switch {
	case o.Method != MethodFlow && o.Method != MethodLP:
		return nil, optionErrorf("invalid --method %q: valid methods are flow, lp", o.Method)
	case o.Method == MethodLP && o.Integral:
		return nil, optionErrorf("--method lp computes divisible shares only; use --method flow with --integral")
	case o.LPBackend != "" && o.Method != MethodLP:
		return nil, optionErrorf("--lp-backend needs --method lp")
	}
	var solver lp.Solver
	if o.Method == MethodLP {
		if o.LPBackend == "" {
			o.LPBackend = lp.Backends()[0]
		}
		s, err := lp.NewSolver(o.LPBackend)
		if err != nil {
			return nil, &OptionError{err}
		}
		if c, ok := s.(io.Closer); ok {
			defer c.Close()
		}
		solver = s
	}
	t0 := time.Now()
	in, err := o.Inputs.load()
	if err != nil {
		return nil, err
	}
	inst, err := datasets.Coalesce(in.Cluster, in.Demand)
	if err != nil {
		return nil, err
	}
	capDemand := in.Demand
	if o.NoForecastCap {
		capDemand = nil
	}
	p := CMMFProblem(inst, capDemand)
	tLoad := time.Now()
	res, err := flow.Solve(p, o.Integral)
	if err != nil {
		return nil, err
	}
	tFlow := time.Now()
	var lpRes *lp.CMMFResult
	if solver != nil {
		if lpRes, err = lp.CMMF(p, solver); err != nil {
			var big *lp.TooLargeError
			if errors.As(err, &big) {
				return nil, fmt.Errorf("iterative LP: %w (--lp-backend clp, in a build with -tags clp), or use --method flow, exact and fast at any size", err)
			}
			return nil, fmt.Errorf("iterative LP: %w", err)
		}
	}
	tLP := time.Now()
	h := plan.Header{Generator: o.Generator, Inputs: in.Inputs, Flags: o.flags()}
	annotate(&h, in.Cluster)
	doc, err := newFairShare(h, in.Demand, inst, p, res, o.Method, o.PerNode)
	if err != nil {
		return nil, err
	}
	if lpRes != nil {
		if err := applyLP(doc, inst, p, res, lpRes); err != nil {
			return nil, err
		}
	}
	st := FairShareStats{
		Applications: len(p.Users), MachineTypes: len(p.Types), Machines: doc.Summary.Machines,
		Rounds: res.Rounds, MaxFlows: res.MaxFlows,
		Load: tLoad.Sub(t0), Flow: tFlow.Sub(tLoad), Total: time.Since(t0),
	}
	if lpRes != nil {
		st.LPs, st.LP = lpRes.LPs, tLP.Sub(tFlow)
	}
	return &FairShareResult{Doc: doc, Stats: st}, nil
}

// flags records the options that shape a FairShare, by flag name.
func (o *FairShareOptions) flags() map[string]string {
	m := map[string]string{
		"method":   o.Method,
		"integral": strconv.FormatBool(o.Integral),
		"perNode":  strconv.FormatBool(o.PerNode),
		// forecastCap: each application capped at what its forecast
		// fills (forecastCaps).
		"forecastCap": strconv.FormatBool(!o.NoForecastCap),
	}
	if o.Method == MethodLP {
		m["lpBackend"] = o.LPBackend
	}
	return m
}

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
