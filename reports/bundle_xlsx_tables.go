package reports

import (
	"fmt"
	"slices"
	"strings"

	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// gibibyte is 2^30 bytes: memory shows in GiB.
const gibibyte = 1 << 30

// resourceColumn is the header and scale of a resource amount column:
// "cpu (cores)", "memory (GiB)" (bytes / 2^30), "gpu (GPUs)".
func resourceColumn(res, prefix string) (Column, float64) {
	scale, unit := unitScale(res)
	return Column{Header: strings.TrimSpace(prefix+" "+res) + " (" + unit + ")", Format: ShowDecimal2}, scale
}

// addResourceColumns appends one column per resource (see
// resourceColumn) and returns each column's scale.
func (t *StepTable) addResourceColumns(resources []string, prefix string) []float64 {
	scales := make([]float64, len(resources))
	for k, r := range resources {
		var c Column
		c, scales[k] = resourceColumn(r, prefix)
		t.Columns = append(t.Columns, c)
	}
	return scales
}

// shareResources is Σ over machine types of the share's machines ×
// capacity: the share's amount of each resource, in base units.
func shareResources(fs *plan.FairShare, s *plan.Share) map[string]float64 {
	out := map[string]float64{}
	for _, mt := range fs.MachineTypes {
		m := s.ByType[mt.Name]
		for r, c := range mt.Capacity {
			out[r] += m * c
		}
	}
	return out
}

// FairShareStepTable has one row per application: weight, fair share and
// demand in machines, level, the machines it may use, the fraction of
// those it gets, the share's amount of every resource, whether its cap
// stopped it, and the round it saturated in.
func FairShareStepTable(fs *plan.FairShare) StepTable {
	t := StepTable{Sheet: "Fair shares", Title: "Fair shares (CMMF, " + fs.Method + ")",
		Note: "Constrained max-min fair shares. Demand is the cap, or every machine the placement constraints admit; level = machines / weight is what max-min fairness equalises.",
		Columns: []Column{
			{"application", ShowText}, {"weight (×)", ShowDecimal2}, {"fair share (machines)", ShowDecimal2},
			{"demand (machines)", ShowInteger}, {"level (machines per weight)", ShowDecimal4},
			{"eligible (machines)", ShowInteger}, {"of eligible (%)", ShowPercent},
		}}
	scales := t.addResourceColumns(fs.Resources, "")
	t.Columns = append(t.Columns, Column{"demand capped (yes/no)", ShowYesNo}, Column{"round (#)", ShowInteger})
	for i := range fs.Shares {
		s := &fs.Shares[i]
		demand := s.EligibleMachines
		if s.MaxMachines != nil {
			demand = min(*s.MaxMachines, s.EligibleMachines)
		}
		row := []any{s.Application, s.Weight, s.Machines, demand, s.Level, s.EligibleMachines, s.Fraction}
		amounts := shareResources(fs, s)
		for k, r := range fs.Resources {
			row = append(row, amounts[r]*scales[k])
		}
		t.Rows = append(t.Rows, append(row, s.DemandCapped, s.Round))
	}
	return t
}

// CertificateStepTable lists the tight sets that prove the shares
// optimal: each piece's level, applications, machine types, and the
// machines it holds against those allocated.
func CertificateStepTable(fs *plan.FairShare) StepTable {
	t := StepTable{Sheet: "Fair-share evidence", Title: "Optimality certificate (" + fs.Certificate.Kind + ")",
		Note: fmt.Sprintf("Verified: %s. Levels strictly increase; each piece's machine types are fully allocated to its applications (or they are capped): together a proof of max-min optimality.", NumberFormat(ShowYesNo).Text(fs.Certificate.Verified)),
		Columns: []Column{
			{"round (#)", ShowInteger}, {"level (machines per weight)", ShowDecimal4}, {"level exact (fraction)", ShowText},
			{"applications (names)", ShowText}, {"machine types (names)", ShowText},
			{"machines (machines)", ShowInteger}, {"allocated (machines)", ShowDecimal2}, {"demand capped (yes/no)", ShowYesNo},
		}}
	for _, p := range fs.Certificate.Pieces {
		t.Rows = append(t.Rows, []any{p.Round, p.Level, p.LevelExact, strings.Join(p.Applications, ", "),
			strings.Join(p.MachineTypes, ", "), p.Machines, p.Allocated, p.DemandCapped})
	}
	return t
}

// ShapesStepTable has one row per shape: its size per resource, its cost
// (share of the cluster), the requests and classes it serves, and the
// machine types it fits.
func ShapesStepTable(cat *plan.ShapeCatalog) StepTable {
	t := StepTable{Sheet: "Shapes", Title: fmt.Sprintf("Shape catalogue: %s (%s)", plural.Count(len(cat.Shapes), "shape"), cat.Method),
		Note: fmt.Sprintf("Cost %s against a lower bound of %s: within %s of optimal; ε = %s.",
			FormatNumber(cat.Cost), FormatNumber(cat.LowerBound), FormatPercent(cat.Ratio-1), FormatNumber(cat.Epsilon)),
		Columns: []Column{{"shape", ShowText}}}
	scales := t.addResourceColumns(cat.Resources, "")
	t.Columns = append(t.Columns, Column{"cost (share of cluster)", ShowDecimal4}, Column{"requests (count)", ShowInteger},
		Column{"classes (count)", ShowInteger}, Column{"fits (machine types)", ShowText})
	for _, s := range cat.Shapes {
		row := []any{s.Name}
		for k, r := range cat.Resources {
			row = append(row, s.Size[r]*scales[k])
		}
		t.Rows = append(t.Rows, append(row, s.Cost, s.Requests, s.Classes, strings.Join(s.Fits, ", ")))
	}
	return t
}

// OwnershipStepTable has one row per owner of an ownership plan: its
// containers (forecast, required at λ, packed), the packed amount of each
// resource, and its target and achieved shares.
func OwnershipStepTable(pp *plan.PackingPlan) StepTable {
	t := StepTable{Sheet: "Ownership", Title: "Ownership packing (X-Select)",
		Note: fmt.Sprintf("λ = %s of an upper bound of %s (%s of the bound); %s.",
			FormatNumber(pp.Lambda), FormatNumber(pp.LambdaUpperBound), FormatPercent(ratio(pp.Lambda, pp.LambdaUpperBound)), plural.Count(len(pp.Nodes), "node")),
		Columns: []Column{{"application", ShowText}, {"forecast (containers)", ShowInteger},
			{"required (containers)", ShowInteger}, {"packed (containers)", ShowInteger}}}
	scales := t.addResourceColumns(pp.Resources, "packed")
	t.Columns = append(t.Columns, Column{"target share (%)", ShowPercent}, Column{"achieved share (%)", ShowPercent}, Column{"deviation (%)", ShowPercent})
	for _, o := range pp.Owners {
		row := []any{o.Application, o.Forecast, o.Required, o.Packed}
		for k, r := range pp.Resources {
			row = append(row, o.Size[r]*scales[k])
		}
		t.Rows = append(t.Rows, append(row, o.TargetShare, o.AchievedShare, o.Deviation))
	}
	return t
}

// OwnershipNodesStepTable has one row per node of an ownership plan: its
// type, containers, the fraction of each resource used, and its owners.
func OwnershipNodesStepTable(pp *plan.PackingPlan) StepTable {
	t := StepTable{Sheet: "Ownership nodes", Title: "Ownership packing: nodes",
		Columns: []Column{{"node", ShowText}, {"type", ShowText}, {"containers (count)", ShowInteger}}}
	for _, r := range pp.Resources {
		t.Columns = append(t.Columns, Column{r + " used (%)", ShowPercent})
	}
	t.Columns = append(t.Columns, Column{"owners (names)", ShowText})
	for i := range pp.Nodes {
		n := &pp.Nodes[i]
		row := []any{n.Name, n.Type, len(n.Containers)}
		var owners []string
		used := map[string]float64{}
		for _, c := range n.Containers {
			for r, v := range c.Size {
				used[r] += v
			}
			if !slices.Contains(owners, c.Owner) {
				owners = append(owners, c.Owner)
			}
		}
		for _, r := range pp.Resources {
			if c := nodeCapacity(pp, n, r); c > 0 {
				row = append(row, used[r]/c)
			} else {
				row = append(row, nil)
			}
		}
		t.Rows = append(t.Rows, append(row, strings.Join(owners, ", ")))
	}
	return t
}
