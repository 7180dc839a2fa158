package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/capplan/capplan/plan"
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
	opt := "gap " + FormatPercent(float64(doc.NodesUsed-doc.LowerBound)/float64(max(doc.LowerBound, 1)))
	if doc.Optimal {
		opt = "optimal"
	}
	return fmt.Sprintf("%s (%s): %d containers on %d nodes, lower bound %d (%s); stranded %s",
		doc.Mode, doc.Method, containers, doc.NodesUsed, doc.LowerBound, opt, strings.Join(stranded, ", "))
}

// PackedNodesTable has one row per node: its containers and the fill of
// each dimension (% of the node's capacity).
func PackedNodesTable(doc *plan.PackingPlan) Table {
	t := Table{Title: "Nodes", Header: []string{"node", "containers"}, Align: []Align{AlignLeft, AlignRight}}
	for _, r := range doc.Resources {
		t.Header = append(t.Header, "fill "+r)
		t.Align = append(t.Align, AlignRight)
	}
	for _, n := range doc.Nodes {
		cells := []Cell{TextCell(n.Name), IntCell(int64(len(n.Containers)))}
		for _, r := range doc.Resources {
			var used float64
			for _, c := range n.Containers {
				used += c.Size[r]
			}
			frac := 0.0
			if cp := doc.NodeCapacity[r]; cp > 0 {
				frac = used / cp
			}
			cells = append(cells, PercentCell(frac))
		}
		t.AddRow(cells...)
	}
	return t
}

// StrandedTable totals the unused capacity of the nodes used.
func StrandedTable(doc *plan.PackingPlan) Table {
	t := Table{Title: "Stranded capacity (nodes used)", Header: []string{"resource", "capacity", "used", "unused", "unused %"},
		Align: []Align{AlignLeft, AlignRight, AlignRight, AlignRight, AlignRight}}
	for _, s := range doc.Stranded {
		t.AddRow(TextCell(s.Resource), QuantityCell(s.Resource, s.Capacity), QuantityCell(s.Resource, s.Used),
			QuantityCell(s.Resource, s.Unused), PercentCell(s.Percent/100))
	}
	return t
}

// WritePackingPlanText prints the summary, the stranded capacity and the
// nodes.
func WritePackingPlanText(w io.Writer, doc *plan.PackingPlan, terminal bool) error {
	var b strings.Builder
	if !terminal {
		b.WriteString("# ")
	}
	b.WriteString(PackingPlanSummary(doc) + "\n")
	for _, t := range []Table{StrandedTable(doc), PackedNodesTable(doc)} {
		b.WriteString("\n")
		if err := t.Render(&b, terminal); err != nil {
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

// PackingPlanWorkbook builds the xlsx report: Summary, Stranded, Nodes.
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
	add("lower bound", IntCell(int64(doc.LowerBound)))
	add("optimal", BoolCell(doc.Optimal))
	addProvenance(&summary, &doc.Header)
	for _, s := range []struct {
		name  string
		table Table
	}{{SheetSummary, summary}, {"Stranded", StrandedTable(doc)}, {SheetNodes, PackedNodesTable(doc)}} {
		if err := wb.AddTable(s.name, s.table); err != nil {
			return nil, err
		}
	}
	return wb, nil
}
