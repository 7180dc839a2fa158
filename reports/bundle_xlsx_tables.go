package reports

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/capplan/capplan/plan"
)

// NumberFormat is how a cell's number shows in the bundle report (xlsx
// number format and HTML text alike). No format shows more than four
// decimals.
type NumberFormat int

const (
	// ShowText is text as it is.
	ShowText NumberFormat = iota
	// ShowInteger rounds to a whole number with thousands separators.
	ShowInteger
	// ShowDecimal2 shows two decimals with thousands separators.
	ShowDecimal2
	// ShowDecimal4 shows four decimals with thousands separators.
	ShowDecimal4
	// ShowPercent shows a fraction as a percentage with two decimals.
	ShowPercent
	// ShowYesNo shows a boolean as yes or no.
	ShowYesNo
)

// excelFormat is the xlsx number format code of f ("" for text).
func (f NumberFormat) excelFormat() string {
	switch f {
	case ShowInteger:
		return "#,##0"
	case ShowDecimal2:
		return "#,##0.00"
	case ShowDecimal4:
		return "#,##0.0000"
	case ShowPercent:
		return "0.00%"
	}
	return ""
}

// Text formats v as the format shows it: 12345.678 → "12,346",
// "12,345.68" or "12,345.6780"; 0.1234 → "12.34%"; true → "yes".
func (f NumberFormat) Text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		if x {
			return "yes"
		}
		return "no"
	}
	n, ok := number(v)
	if !ok {
		return fmt.Sprint(v)
	}
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return strconv.FormatFloat(n, 'g', -1, 64)
	}
	switch f {
	case ShowInteger:
		return groupThousands(strconv.FormatFloat(n, 'f', 0, 64))
	case ShowDecimal2:
		return groupThousands(strconv.FormatFloat(n, 'f', 2, 64))
	case ShowDecimal4:
		return groupThousands(strconv.FormatFloat(n, 'f', 4, 64))
	case ShowPercent:
		return strconv.FormatFloat(n*100, 'f', 2, 64) + "%"
	}
	return FormatNumber(n)
}

// number returns v as a float64 when it is a number.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

// groupThousands inserts commas into the integer part of a decimal.
func groupThousands(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		return sign + b.String() + "." + frac
	}
	return sign + b.String()
}

// Column is one column of a step table: its header, with the unit in
// parentheses ("memory (GiB)"), and its format.
type Column struct {
	Header string
	Format NumberFormat
}

// FormattedCell is a value with its own format, overriding its column's (for
// key/value tables whose rows differ in kind).
type FormattedCell struct {
	Value  any
	Format NumberFormat
}

// StepTable is one table of the bundle report: a sheet of report.xlsx and
// a table of report.html. Row values are string, float64, int, int64,
// bool, nil (empty) or FormattedCell.
type StepTable struct {
	// Sheet is the sheet name (at most 31 characters); Title the heading.
	Sheet string
	Title string
	// Note, optional, says how to read the table.
	Note    string
	Columns []Column
	Rows    [][]any
}

// cell returns the value and format of cell (i, j).
func (t *StepTable) cell(i, j int) (any, NumberFormat) {
	v := t.Rows[i][j]
	if c, ok := v.(FormattedCell); ok {
		return c.Value, c.Format
	}
	return v, t.Columns[j].Format
}

// gibibyte is 2^30 bytes: memory shows in GiB.
const gibibyte = 1 << 30

// resourceColumn is the header and scale of a resource amount column:
// "cpu (cores)", "memory (GiB)" (bytes / 2^30), "gpu (GPUs)".
func resourceColumn(res, prefix string) (Column, float64) {
	scale, unit := unitScale(res)
	return Column{Header: strings.TrimSpace(prefix+" "+res) + " (" + unit + ")", Format: ShowDecimal2}, scale
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
	var scales []float64
	for _, r := range fs.Resources {
		c, s := resourceColumn(r, "")
		t.Columns = append(t.Columns, c)
		scales = append(scales, s)
	}
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
	t := StepTable{Sheet: "Shapes", Title: fmt.Sprintf("Shape catalogue: %d shapes (%s)", len(cat.Shapes), cat.Method),
		Note: fmt.Sprintf("Cost %s against a lower bound of %s: within %s of optimal; ε = %s.",
			FormatNumber(cat.Cost), FormatNumber(cat.LowerBound), FormatPercent(cat.Ratio-1), FormatNumber(cat.Epsilon)),
		Columns: []Column{{"shape", ShowText}}}
	var scales []float64
	for _, r := range cat.Resources {
		c, s := resourceColumn(r, "")
		t.Columns = append(t.Columns, c)
		scales = append(scales, s)
	}
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
		Note: fmt.Sprintf("λ = %s of an upper bound of %s (%s of the bound); %d nodes.",
			FormatNumber(pp.Lambda), FormatNumber(pp.LambdaUpperBound), FormatPercent(ratio(pp.Lambda, pp.LambdaUpperBound)), len(pp.Nodes)),
		Columns: []Column{{"application", ShowText}, {"forecast (containers)", ShowInteger},
			{"required (containers)", ShowInteger}, {"packed (containers)", ShowInteger}}}
	var scales []float64
	for _, r := range pp.Resources {
		c, s := resourceColumn(r, "packed")
		t.Columns = append(t.Columns, c)
		scales = append(scales, s)
	}
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

// SizingStepTable lists the node types of a sizing: capacity, price,
// nodes bought, their cost and the cumulative cost (type by type, the
// line the summary chart draws). A single-type sizing has one row at
// price 1.
func SizingStepTable(pp *plan.PackingPlan) StepTable {
	t := StepTable{Sheet: "Sizing", Title: "Cluster sizing",
		Note:    sizingNote(pp),
		Columns: []Column{{"node type", ShowText}}}
	var scales []float64
	for _, r := range pp.Resources {
		c, s := resourceColumn(r, "")
		t.Columns = append(t.Columns, c)
		scales = append(scales, s)
	}
	t.Columns = append(t.Columns, Column{"price (cost per node)", ShowDecimal2}, Column{"nodes (count)", ShowInteger},
		Column{"cost (cost)", ShowDecimal2}, Column{"cumulative cost (cost)", ShowDecimal2})
	types := pp.NodeTypes
	if len(types) == 0 {
		types = []plan.NodeTypeUse{{Name: "node", Capacity: pp.NodeCapacity, Cost: 1, Nodes: pp.NodesUsed}}
	}
	cum := 0.0
	for _, nt := range types {
		row := []any{nt.Name}
		for k, r := range pp.Resources {
			row = append(row, nt.Capacity[r]*scales[k])
		}
		c := float64(nt.Nodes) * nt.Cost
		cum += c
		t.Rows = append(t.Rows, append(row, nt.Cost, nt.Nodes, c, cum))
	}
	return t
}

func sizingNote(pp *plan.PackingPlan) string {
	if len(pp.NodeTypes) > 0 {
		return fmt.Sprintf("%d nodes costing %s; no mix costs less than %s (gap %s).", pp.NodesUsed,
			FormatNumber(pp.Cost), FormatNumber(pp.CostLowerBound), FormatPercent(ratio(pp.Cost, pp.CostLowerBound)-1))
	}
	return fmt.Sprintf("%d nodes; no packing uses fewer than %d (optimal: %s).", pp.NodesUsed, pp.LowerBound, NumberFormat(ShowYesNo).Text(pp.Optimal))
}

// SizingCurveStepTable lists the points of a bundle's sizing curve.
func SizingCurveStepTable(curve []plan.SizingPoint) StepTable {
	t := StepTable{Sheet: "Sizing curve", Title: "Sizing: cost vs nodes",
		Columns: []Column{{"sizing", ShowText}, {"nodes (count)", ShowInteger}, {"cost (cost)", ShowDecimal2}, {"lower bound (cost)", ShowDecimal2}}}
	for _, p := range curve {
		t.Rows = append(t.Rows, []any{p.Label, p.Nodes, p.Cost, p.LowerBound})
	}
	return t
}

// secondsPerHour converts the documents' seconds to the report's hours.
const secondsPerHour = 3600

// DAGStepTable has one row per job: tasks, makespan and every lower bound
// in hours, the gap to the best bound and whether the schedule is optimal.
func DAGStepTable(doc *plan.DAGSchedule) StepTable {
	t := StepTable{Sheet: "DAG schedules", Title: "DAG schedules and their lower bounds",
		Note: fmt.Sprintf("%d jobs, %d optimal; mean gap to the best lower bound %s, largest %s.",
			doc.Summary.Jobs, doc.Summary.Optimal, FormatPercent(doc.Summary.MeanGap), FormatPercent(doc.Summary.MaxGap)),
		Columns: []Column{{"job", ShowText}, {"tasks (count)", ShowInteger}, {"makespan (hours)", ShowDecimal4},
			{"best bound (hours)", ShowDecimal4}, {"critical path (hours)", ShowDecimal4}, {"TWork (hours)", ShowDecimal4},
			{"NewLB (hours)", ShowDecimal4}, {"gap (%)", ShowPercent}, {"optimal (yes/no)", ShowYesNo}, {"method", ShowText}}}
	for _, j := range doc.Jobs {
		b := j.Bounds
		t.Rows = append(t.Rows, []any{j.Name, j.NumTasks, j.Makespan / secondsPerHour, b.Best / secondsPerHour,
			b.CPLength / secondsPerHour, b.TWork / secondsPerHour, b.NewLB / secondsPerHour, j.Gap, j.Optimal, j.Method})
	}
	return t
}

// StepTables returns the tables of every step the bundle holds, in report
// order (the summary and warnings are separate: SummaryTable,
// WarningsTable).
func StepTables(b *plan.Bundle) []StepTable {
	var out []StepTable
	if b.FairShare != nil {
		out = append(out, FairShareStepTable(b.FairShare), CertificateStepTable(b.FairShare))
	}
	if b.Shapes != nil {
		out = append(out, ShapesStepTable(b.Shapes))
	}
	if b.Ownership != nil {
		out = append(out, OwnershipStepTable(b.Ownership), OwnershipNodesStepTable(b.Ownership))
	}
	if b.Sizing != nil {
		out = append(out, SizingStepTable(b.Sizing))
	}
	if b.Plan != nil && len(b.Plan.SizingCurve) > 0 {
		out = append(out, SizingCurveStepTable(b.Plan.SizingCurve))
	}
	if b.DAG != nil {
		out = append(out, DAGStepTable(b.DAG))
	}
	return out
}
