package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// Sheet names of the PackingPlan workbook (besides Summary and Nodes).
const (
	SheetOwners    = "Owners"
	SheetUnplaced  = "Unplaced"
	SheetStranded  = "Stranded"
	SheetNodeTypes = "NodeTypes"
)

// PackingPlanSummary is the one-line summary of a packing plan.
func PackingPlanSummary(doc *plan.PackingPlan) string {
	var stranded []string
	for _, s := range doc.Stranded {
		stranded = append(stranded, s.Resource+" "+FormatPercent(s.Percent/100))
	}
	var containers int
	for _, n := range doc.Nodes {
		containers += len(n.Containers)
	}
	switch {
	case doc.Mode == "ownership":
		var unplaced int64
		for _, u := range doc.Unplaced {
			unplaced += max(u.Count, 1)
		}
		s := fmt.Sprintf("ownership (%s, %s shares): λ = %.6g (upper bound %.6g, %s of it); %s on %s; %d not placed; stranded %s",
			doc.Method, doc.SharesFrom, doc.Lambda, doc.LambdaUpperBound, FormatPercent(ratio(doc.Lambda, doc.LambdaUpperBound)),
			plural.Count(containers, "container"), plural.Count(doc.NodesUsed, "node"), unplaced, strings.Join(stranded, ", "))
		if doc.Incremental {
			s += fmt.Sprintf("; incremental: %s changed (limit %d)", plural.Count(len(doc.Changed), "node"), doc.MutableLimit)
		}
		return s
	case len(doc.NodeTypes) > 0:
		var mix []string
		for _, t := range doc.NodeTypes {
			mix = append(mix, fmt.Sprintf("%d × %s", t.Nodes, t.Name))
		}
		opt := "gap " + FormatPercent(ratio(doc.Cost-doc.CostLowerBound, doc.CostLowerBound))
		if doc.Optimal {
			opt = "optimal"
		}
		return fmt.Sprintf("sizing (%s): %s on %s, cost %.6g, lower bound %.6g (%s); stranded %s",
			doc.Method, plural.Count(containers, "container"), strings.Join(mix, " + "), doc.Cost, doc.CostLowerBound, opt, strings.Join(stranded, ", "))
	}
	opt := "gap " + FormatPercent(float64(doc.NodesUsed-doc.LowerBound)/float64(max(doc.LowerBound, 1)))
	if doc.Optimal {
		opt = "optimal"
	}
	return fmt.Sprintf("%s (%s): %s on %s, lower bound %d (%s); stranded %s",
		doc.Mode, doc.Method, plural.Count(containers, "container"), plural.Count(doc.NodesUsed, "node"), doc.LowerBound, opt, strings.Join(stranded, ", "))
}

// ratio is a/b, 0 when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// PackedNodesTable has one row per node: its type (when nodes differ), its
// containers and the fill of each dimension (% of the node's capacity).
func PackedNodesTable(doc *plan.PackingPlan) Table {
	typed := false
	for _, n := range doc.Nodes {
		typed = typed || n.Type != ""
	}
	t := Table{Title: "Nodes", Header: []string{"node"}, Align: []Align{AlignLeft}}
	if typed {
		t.Header, t.Align = append(t.Header, "type"), append(t.Align, AlignLeft)
	}
	if doc.Incremental {
		t.Header, t.Align = append(t.Header, "changed"), append(t.Align, AlignLeft)
	}
	t.Header, t.Align = append(t.Header, "containers"), append(t.Align, AlignRight)
	for _, r := range doc.Resources {
		t.Header = append(t.Header, "fill "+r)
		t.Align = append(t.Align, AlignRight)
	}
	changed := map[string]bool{}
	for _, n := range doc.Changed {
		changed[n] = true
	}
	for _, n := range doc.Nodes {
		cells := []Cell{TextCell(n.Name)}
		if typed {
			cells = append(cells, TextCell(n.Type))
		}
		if doc.Incremental {
			cells = append(cells, BoolCell(changed[n.Name]))
		}
		cells = append(cells, IntCell(int64(len(n.Containers))))
		for _, r := range doc.Resources {
			var used float64
			for _, c := range n.Containers {
				used += c.Size[r]
			}
			cp := doc.NodeCapacity[r]
			if n.Capacity != nil {
				cp = n.Capacity[r]
			}
			if cp > 0 {
				cells = append(cells, PercentCell(used/cp))
			} else {
				cells = append(cells, MissingCell("-"))
			}
		}
		t.AddRow(cells...)
	}
	return t
}

// StrandedTable totals the unused capacity: of the nodes used (sizing) or
// of the whole cluster (ownership).
func StrandedTable(doc *plan.PackingPlan) Table {
	title := "Stranded capacity (nodes used)"
	if doc.Mode == "ownership" {
		title = "Stranded capacity (all nodes)"
	}
	t := Table{Title: title, Header: []string{"resource", "capacity", "used", "unused", "unused %"},
		Align: []Align{AlignLeft, AlignRight, AlignRight, AlignRight, AlignRight}}
	for _, s := range doc.Stranded {
		t.AddRow(TextCell(s.Resource), QuantityCell(s.Resource, s.Capacity), QuantityCell(s.Resource, s.Used),
			QuantityCell(s.Resource, s.Unused), PercentCell(s.Percent/100))
	}
	return t
}

// OwnersTable compares every owner's packed containers and share with its
// target (ownership mode).
func OwnersTable(doc *plan.PackingPlan) Table {
	t := Table{Title: "Owners (λ = " + FormatNumber(doc.Lambda) + ")",
		Header: []string{"application", "forecast", "required", "packed", "charged size", "target share", "achieved share", "deviation"},
		Align:  []Align{AlignLeft, AlignRight, AlignRight, AlignRight, AlignRight, AlignRight, AlignRight, AlignRight}}
	if doc.Incremental {
		t.Header = append(t.Header, "frozen", "surplus")
		t.Align = append(t.Align, AlignRight, AlignRight)
	}
	for _, o := range doc.Owners {
		cells := []Cell{TextCell(o.Application), IntCell(o.Forecast), IntCell(int64(o.Required)), IntCell(int64(o.Packed)),
			SigCell(o.ChargedSize), PercentCell(o.TargetShare), PercentCell(o.AchievedShare), PercentCell(o.Deviation)}
		if doc.Incremental {
			cells = append(cells, IntCell(int64(o.Frozen)), IntCell(int64(o.Surplus)))
		}
		t.AddRow(cells...)
	}
	return t
}

// UnplacedTable lists the containers not placed, with the reason.
func UnplacedTable(doc *plan.PackingPlan) Table {
	t := Table{Title: "Not placed", Header: []string{"owner", "shape", "count", "reason"},
		Align: []Align{AlignLeft, AlignLeft, AlignRight, AlignLeft}}
	for _, u := range doc.Unplaced {
		shape := u.Shape
		if shape == "" {
			var parts []string
			for _, r := range doc.Resources {
				if v, ok := u.Request[r]; ok {
					parts = append(parts, r+"="+formatQuantity(r, v))
				}
			}
			shape = "request " + strings.Join(parts, ",")
		}
		t.AddRow(TextCell(u.Owner), TextCell(shape), IntCell(max(u.Count, 1)), TextCell(u.Reason))
	}
	return t
}

// formatQuantity prints an amount of resource r as QuantityCell does.
func formatQuantity(r string, v float64) string { return QuantityCell(r, v).Text }

// NodeTypesTable lists the node types of a mixed sizing and the nodes
// bought of each.
func NodeTypesTable(doc *plan.PackingPlan) Table {
	t := Table{Title: "Node types", Header: []string{"type", "cost per node", "nodes", "cost"},
		Align: []Align{AlignLeft, AlignRight, AlignRight, AlignRight}}
	for _, r := range doc.Resources {
		t.Header = append(t.Header, r)
		t.Align = append(t.Align, AlignRight)
	}
	for _, nt := range doc.NodeTypes {
		cells := []Cell{TextCell(nt.Name), NumberCell(nt.Cost), IntCell(int64(nt.Nodes)), NumberCell(nt.Cost * float64(nt.Nodes))}
		for _, r := range doc.Resources {
			cells = append(cells, QuantityCell(r, nt.Capacity[r]))
		}
		t.AddRow(cells...)
	}
	return t
}

// packingTables returns the tables of a plan for its mode, in print order.
func packingTables(doc *plan.PackingPlan) []struct {
	sheet string
	table Table
} {
	type st = struct {
		sheet string
		table Table
	}
	var out []st
	if doc.Mode == "ownership" {
		out = append(out, st{SheetOwners, OwnersTable(doc)})
	}
	if len(doc.NodeTypes) > 0 {
		out = append(out, st{SheetNodeTypes, NodeTypesTable(doc)})
	}
	out = append(out, st{SheetStranded, StrandedTable(doc)})
	if len(doc.Unplaced) > 0 {
		out = append(out, st{SheetUnplaced, UnplacedTable(doc)})
	}
	return append(out, st{SheetNodes, PackedNodesTable(doc)})
}

// WritePackingPlanText prints the summary and the plan's tables: owners
// (ownership), node types (mixed sizing), stranded capacity, containers
// not placed, and the nodes.
func WritePackingPlanText(w io.Writer, doc *plan.PackingPlan, terminal bool) error {
	var b strings.Builder
	if !terminal {
		b.WriteString("# ")
	}
	b.WriteString(PackingPlanSummary(doc) + "\n")
	if doc.Incremental && len(doc.GoneNodes) > 0 {
		if !terminal {
			b.WriteString("# ")
		}
		fmt.Fprintf(&b, "previous-plan nodes no longer in the cluster: %s\n", strings.Join(doc.GoneNodes, ", "))
	}
	for _, sk := range doc.Skipped {
		if !terminal {
			b.WriteString("# ")
		}
		fmt.Fprintf(&b, "not packed: %s (%s)\n", sk.Application, sk.Reason)
	}
	for _, s := range packingTables(doc) {
		b.WriteString("\n")
		if err := s.table.Render(&b, terminal); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WritePackingPlanCSV writes one row per container: node, shape, owner and
// size per dimension.
func WritePackingPlanCSV(w io.Writer, doc *plan.PackingPlan) error {
	t := Table{Header: append([]string{"node", "shape", "owner"}, doc.Resources...)}
	for _, n := range doc.Nodes {
		for _, c := range n.Containers {
			cells := []Cell{TextCell(n.Name), TextCell(c.Shape), TextCell(c.Owner)}
			for _, r := range doc.Resources {
				cells = append(cells, NumberCell(c.Size[r]))
			}
			t.AddRow(cells...)
		}
	}
	return t.WriteCSV(w)
}

// PackingPlanWorkbook builds the xlsx report: Summary, then the tables of
// WritePackingPlanText (the Nodes sheet of an incremental re-plan has a
// "changed" column), with a chart of target against achieved shares in
// ownership mode, and in sizing mode a Sizing sheet with the line of the
// cost node type by node type.
func PackingPlanWorkbook(doc *plan.PackingPlan) (*Workbook, error) {
	wb, err := NewWorkbook(WorkbookProperties{Title: "capplan PackingPlan report", Subject: "Vector packing (" + doc.Mode + ")", Creator: doc.Generator})
	if err != nil {
		return nil, err
	}
	summary := Table{Title: "Summary", Header: []string{"key", "value"}}
	add := func(k string, v Cell) { summary.AddRow(TextCell(k), v) }
	add("kind", TextCell(doc.Kind))
	add("mode", TextCell(doc.Mode))
	add("method", TextCell(doc.Method))
	add("nodes used", IntCell(int64(doc.NodesUsed)))
	switch {
	case doc.Mode == "ownership":
		add("shares from", TextCell(doc.SharesFrom))
		add("lambda", NumberCell(doc.Lambda))
		add("lambda upper bound", NumberCell(doc.LambdaUpperBound))
		if doc.Incremental {
			add("nodes changed", IntCell(int64(len(doc.Changed))))
			add("mutable limit", IntCell(int64(doc.MutableLimit)))
		}
	case len(doc.NodeTypes) > 0:
		add("cost", NumberCell(doc.Cost))
		add("cost lower bound", NumberCell(doc.CostLowerBound))
		add("optimal", BoolCell(doc.Optimal))
	default:
		add("lower bound", IntCell(int64(doc.LowerBound)))
		add("optimal", BoolCell(doc.Optimal))
	}
	addProvenance(&summary, &doc.Header)
	if err := wb.AddTable(SheetSummary, summary); err != nil {
		return nil, err
	}
	for _, s := range packingTables(doc) {
		if err := wb.AddTable(s.sheet, s.table); err != nil {
			return nil, err
		}
	}
	if doc.Mode == "sizing" {
		// The cost line node type by node type, as in the bundle report.
		st := SizingStepTable(doc)
		if err := wb.addStepTable(st); err != nil {
			return nil, err
		}
		if err := wb.AddLineChart(st.Sheet, cellName(len(st.Columns)+1, 1), BarChart{
			Title: "Sizing: cumulative cost of the mix, node type by node type", DataSheet: st.Sheet, Categories: "node type",
			Series: []string{"cumulative cost (cost)"}, ValueTitle: "cost",
		}); err != nil {
			return nil, err
		}
	}
	if len(doc.Owners) > 0 {
		owners := OwnersTable(doc)
		err := wb.AddBarChart(SheetOwners, cellName(len(owners.Header)+1, 1), BarChart{
			Title:      "Target and achieved share",
			DataSheet:  SheetOwners,
			Categories: "application",
			Series:     []string{"target share", "achieved share"},
			ValueTitle: "share of packed charged size (%)",
			Horizontal: true,
		})
		if err != nil {
			return nil, err
		}
	}
	return wb, nil
}
