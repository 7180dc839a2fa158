package reports

import (
	"fmt"

	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// SizingStepTable lists the node types of a sizing: capacity, price,
// nodes bought, their cost and the cumulative cost (type by type, the
// line the summary chart draws). A single-type sizing has one row at
// price 1.
func SizingStepTable(pp *plan.PackingPlan) StepTable {
	t := StepTable{Sheet: "Sizing", Title: "Cluster sizing",
		Note:    sizingNote(pp),
		Columns: []Column{{"node type", ShowText}}}
	scales := t.addResourceColumns(pp.Resources, "")
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
		return fmt.Sprintf("%s costing %s; no mix costs less than %s (gap %s).", plural.Count(pp.NodesUsed, "node"),
			FormatNumber(pp.Cost), FormatNumber(pp.CostLowerBound), FormatPercent(ratio(pp.Cost, pp.CostLowerBound)-1))
	}
	return fmt.Sprintf("%s; no packing uses fewer than %d (optimal: %s).", plural.Count(pp.NodesUsed, "node"), pp.LowerBound, NumberFormat(ShowYesNo).Text(pp.Optimal))
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
// in hours, the gap to the best bound, whether the schedule is optimal,
// and its certificate (which bound proves it optimal, or its gap to
// which bound).
func DAGStepTable(doc *plan.DAGSchedule) StepTable {
	t := StepTable{Sheet: "DAG schedules", Title: "DAG schedules and their lower bounds",
		Note: fmt.Sprintf("%s, %d optimal; mean gap to the best lower bound %s, largest %s.",
			plural.Count(doc.Summary.Jobs, "job"), doc.Summary.Optimal, FormatPercent(doc.Summary.MeanGap), FormatPercent(doc.Summary.MaxGap)),
		Columns: []Column{{"job", ShowText}, {"tasks (count)", ShowInteger}, {"makespan (hours)", ShowDecimal4},
			{"best bound (hours)", ShowDecimal4}, {"critical path (hours)", ShowDecimal4}, {"TWork (hours)", ShowDecimal4},
			{"NewLB (hours)", ShowDecimal4}, {"gap (%)", ShowPercent}, {"optimal (yes/no)", ShowYesNo}, {"certificate", ShowText},
			{"method", ShowText}}}
	for _, j := range doc.Jobs {
		b := j.Bounds
		t.Rows = append(t.Rows, []any{j.Name, j.NumTasks, j.Makespan / secondsPerHour, b.Best / secondsPerHour,
			b.CPLength / secondsPerHour, b.TWork / secondsPerHour, b.NewLB / secondsPerHour, j.Gap, j.Optimal, j.Certificate, j.Method})
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
	if b.Simulation != nil {
		out = append(out, SimulationStepTable(b.Simulation), SimulatedSharesStepTable(b.Simulation))
	}
	return out
}
