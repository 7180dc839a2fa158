package pipeline

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/flow"
	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// checkFairShareDoc re-verifies a FairShare document against the problem
// rebuilt from the inputs: same machine types (names, counts) and
// applications in order, each application's exact amount (machinesExact)
// and level (levelExact = amount / weight, exactly), allocations only on
// eligible types, and then flow.Verify — the exact, solver-independent
// check of feasibility and leximin optimality — on the allocation read
// from the document. The per-type allocations are printed as float64, so
// each is recovered as the simplest rational rounding to it
// (plan.RatFromFloat); a wrong recovery cannot make a wrong allocation
// pass, since Verify then finds the sums unequal.
func checkFairShareDoc(c *datasets.Cluster, d *datasets.Demand, doc *plan.FairShare) (string, error) {
	inst, err := datasets.Coalesce(c, d)
	if err != nil {
		return "", err
	}
	capDemand := d
	if doc.Flags["forecastCap"] == "false" {
		capDemand = nil
	}
	p := CMMFProblem(inst, capDemand)
	what := fmt.Sprintf("%s on %s %s flow.Verify (exact feasibility and leximin certificate) on the problem rebuilt from the inputs",
		plural.Count(len(p.Users), "fair share"), plural.Count(len(p.Types), "machine type"), plural.Verb(len(p.Users), "passes", "pass"))
	if len(doc.MachineTypes) != len(inst.Types) {
		return what, fmt.Errorf("%s lists %d machine types, the inputs have %d", PlanFairShareFile, len(doc.MachineTypes), len(inst.Types))
	}
	typeOf := map[string]int{}
	for t, mt := range inst.Types {
		if got := doc.MachineTypes[t]; got.Name != mt.Name || got.Count != mt.Count {
			return what, fmt.Errorf("%s: machineTypes[%d] is %s × %d, the inputs give %s × %d", PlanFairShareFile, t, got.Name, got.Count, mt.Name, mt.Count)
		}
		typeOf[mt.Name] = t
	}
	if len(doc.Shares) != len(p.Users) {
		return what, fmt.Errorf("%s lists %d shares, the demand has %d applications", PlanFairShareFile, len(doc.Shares), len(p.Users))
	}
	n := len(p.Users)
	res := &flow.Result{Integral: doc.Integral, Amount: make([]flow.Rat, n), Level: make([]flow.Rat, n),
		Round: make([]int, n), Capped: make([]bool, n), Alloc: make([][]flow.Rat, n)}
	for u, s := range doc.Shares {
		app := inst.Applications[u]
		field := fmt.Sprintf("%s: shares[%d] (%s)", PlanFairShareFile, u, s.Application)
		if s.Application != app.Name {
			return what, fmt.Errorf("%s: the demand's application %d is %s", field, u, app.Name)
		}
		amount, ok := new(big.Rat).SetString(s.MachinesExact)
		if !ok || amount.Sign() < 0 {
			return what, fmt.Errorf("%s: machinesExact %q is not a non-negative rational", field, s.MachinesExact)
		}
		if f, _ := amount.Float64(); f != s.Machines {
			return what, fmt.Errorf("%s: machines %v differs from machinesExact %s", field, s.Machines, s.MachinesExact)
		}
		level, ok := new(big.Rat).SetString(s.LevelExact)
		if want := new(big.Rat).Quo(amount, d.Applications[u].Weight); !ok || level.Cmp(want) != 0 {
			return what, fmt.Errorf("%s: levelExact %q is not machines / weight = %s", field, s.LevelExact, want.RatString())
		}
		var err error
		if res.Amount[u], err = flowRat(amount); err != nil {
			return what, fmt.Errorf("%s: %w", field, err)
		}
		if res.Level[u], err = flowRat(new(big.Rat).Quo(amount, big.NewRat(p.Users[u].Weight, 1))); err != nil {
			return what, fmt.Errorf("%s: %w", field, err)
		}
		res.Round[u], res.Capped[u] = s.Round, s.DemandCapped
		for name := range s.ByType {
			if t, ok := typeOf[name]; !ok || !slices.Contains(p.Users[u].Types, t) {
				return what, fmt.Errorf("%s: byType allocates machines of %s, a type it may not use", field, name)
			}
		}
		res.Alloc[u] = make([]flow.Rat, len(p.Users[u].Types))
		for k, t := range p.Users[u].Types {
			x := s.ByType[inst.Types[t].Name]
			if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
				return what, fmt.Errorf("%s: byType[%s] = %v is not a non-negative number", field, inst.Types[t].Name, x)
			}
			r := plan.RatFromFloat(x)
			if res.Alloc[u][k], err = flowRat(r); err != nil {
				return what, fmt.Errorf("%s: byType[%s]: %w", field, inst.Types[t].Name, err)
			}
		}
	}
	if err := flow.Verify(p, res); err != nil {
		return what, fmt.Errorf("%s: the shares fail the certificate: %w", PlanFairShareFile, err)
	}
	return what, nil
}

// flowRat converts a non-negative big.Rat to a flow.Rat, or fails when it
// does not fit in int64.
func flowRat(r *big.Rat) (flow.Rat, error) {
	if !r.Num().IsInt64() || !r.Denom().IsInt64() {
		return flow.Rat{}, fmt.Errorf("%s does not fit exact int64 arithmetic", r.RatString())
	}
	return flow.NewRat(r.Num().Int64(), r.Denom().Int64()), nil
}
