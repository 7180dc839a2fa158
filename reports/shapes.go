package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// Sheet names of the ShapeCatalog workbook.
const (
	SheetShapes      = "Shapes"
	SheetWaste       = "Waste"
	SheetAssignments = "Assignments"
	SheetSteps       = "Steps"
)

// ShapeCatalogSummary is the one-line summary of a catalog: method, K, the
// cost against the lower bound, ε, and the total waste per dimension.
func ShapeCatalogSummary(doc *plan.ShapeCatalog) string {
	quality := fmt.Sprintf("cost %s, lower bound %s, ratio %s", FormatNumber(doc.Cost), FormatNumber(doc.LowerBound), FormatNumber(doc.Ratio))
	switch {
	case doc.Optimal:
		quality += " (optimal)"
	case doc.Epsilon > 0:
		quality += fmt.Sprintf(", within %s of optimal (ε = %s)", FormatNumber(1+doc.Epsilon)+"×", FormatNumber(doc.Epsilon))
	}
	if len(doc.Rounding) > 0 {
		quality += "; rounded up after solving"
	}
	var waste []string
	for _, w := range doc.Waste {
		waste = append(waste, w.Resource+" "+FormatPercent(w.Percent/100))
	}
	return fmt.Sprintf("%s, %s cost, K=%d: %s for %s; %s; waste %s",
		doc.Method, doc.CostFunction, doc.K, plural.Count(len(doc.Shapes), "shape"), plural.Count(len(doc.Assignments), "request class"), quality, strings.Join(waste, ", "))
}

// ShapesTable has one row per shape: its size per dimension, normalised
// cost, the requests and request classes it serves, its waste per
// dimension (% of requested) and the node groups it fits.
func ShapesTable(doc *plan.ShapeCatalog) Table {
	t := Table{Title: "Shapes", Header: []string{"shape"}, Align: []Align{AlignLeft}}
	for _, r := range doc.Resources {
		t.Header = append(t.Header, r)
		t.Align = append(t.Align, AlignRight)
	}
	t.Header = append(t.Header, "cost", "requests", "classes")
	t.Align = append(t.Align, AlignRight, AlignRight, AlignRight)
	for _, r := range doc.Resources {
		t.Header = append(t.Header, "waste "+r)
		t.Align = append(t.Align, AlignRight)
	}
	t.Header = append(t.Header, "fits")
	t.Align = append(t.Align, AlignLeft)
	for _, s := range doc.Shapes {
		cells := []Cell{TextCell(s.Name)}
		for _, r := range doc.Resources {
			cells = append(cells, QuantityCell(r, s.Size[r]))
		}
		cells = append(cells, SigCell(s.Cost), NumberCell(s.Requests), IntCell(int64(s.Classes)))
		for _, w := range s.Waste {
			cells = append(cells, PercentCell(w.Percent/100))
		}
		// Text views shorten the list; CSV and workbooks keep it whole.
		cells = append(cells, Cell{Text: fitsText(s.Fits), Value: strings.Join(s.Fits, ",")})
		t.AddRow(cells...)
	}
	return t
}

// fitsText names the node groups a shape fits, or counts them when there
// are more than two (the JSON document, the CSV and the workbook list them
// all).
func fitsText(groups []string) string {
	if len(groups) <= 2 {
		return strings.Join(groups, ",")
	}
	return fmt.Sprintf("%s,%s +%d more", groups[0], groups[1], len(groups)-2)
}

// WasteTable totals requested, allocated and wasted resources per
// dimension over all requests (in base units).
func WasteTable(doc *plan.ShapeCatalog) Table {
	t := Table{Title: "Waste (allocated − requested, all requests)",
		Header: []string{"resource", "requested", "allocated", "wasted", "wasted %"},
		Align:  []Align{AlignLeft, AlignRight, AlignRight, AlignRight, AlignRight}}
	for _, w := range doc.Waste {
		t.AddRow(TextCell(w.Resource), QuantityCell(w.Resource, w.Requested), QuantityCell(w.Resource, w.Allocated),
			QuantityCell(w.Resource, w.Wasted), PercentCell(w.Percent/100))
	}
	return t
}

// AssignmentsTable maps every request class to its shape.
func AssignmentsTable(doc *plan.ShapeCatalog) Table {
	t := Table{Title: "Assignments", Header: []string{"application"}, Align: []Align{AlignLeft}}
	for _, r := range doc.Resources {
		t.Header = append(t.Header, r)
		t.Align = append(t.Align, AlignRight)
	}
	t.Header = append(t.Header, "count", "shape")
	t.Align = append(t.Align, AlignRight, AlignLeft)
	for _, a := range doc.Assignments {
		cells := []Cell{TextCell(a.Application)}
		for _, r := range doc.Resources {
			cells = append(cells, QuantityCell(r, a.Request[r]))
		}
		cells = append(cells, IntCell(a.Count), TextCell(a.Shape))
		t.AddRow(cells...)
	}
	return t
}

// StepsTable is the PTAS outer-loop history.
func StepsTable(doc *plan.ShapeCatalog) Table {
	t := Table{Title: "PTAS steps", Header: []string{"epsilon", "rays", "states", "cost", "outcome"},
		Align: []Align{AlignRight, AlignRight, AlignRight, AlignRight, AlignLeft}}
	for _, s := range doc.Steps {
		t.AddRow(NumberCell(s.Epsilon), IntCell(int64(s.Rays)), IntCell(s.States), NumberCell(s.Cost), TextCell(s.Outcome))
	}
	return t
}

// WriteShapeCatalogText prints the summary, the shapes, the waste and the
// PTAS steps; with assignments, also every request class's shape.
func WriteShapeCatalogText(w io.Writer, doc *plan.ShapeCatalog, terminal, assignments bool) error {
	var b strings.Builder
	prefix := "# "
	if terminal {
		prefix = ""
	}
	b.WriteString(prefix + ShapeCatalogSummary(doc) + "\n")
	tables := []Table{ShapesTable(doc), WasteTable(doc)}
	if len(doc.Steps) > 0 {
		tables = append(tables, StepsTable(doc))
	}
	if assignments {
		tables = append(tables, AssignmentsTable(doc))
	}
	for _, t := range tables {
		b.WriteString("\n")
		if err := t.Render(&b, terminal); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteShapeCatalogCSV writes the shapes table as CSV.
func WriteShapeCatalogCSV(w io.Writer, doc *plan.ShapeCatalog) error {
	t := ShapesTable(doc)
	return t.WriteCSV(w)
}

// ShapeCatalogWorkbook builds the xlsx report of a catalog: Summary,
// Shapes (with a bar chart of requests per shape), Waste, Assignments and
// Steps.
func ShapeCatalogWorkbook(doc *plan.ShapeCatalog) (*Workbook, error) {
	wb, err := NewWorkbook(WorkbookProperties{
		Title:   "capplan ShapeCatalog report",
		Subject: fmt.Sprintf("X-Size container shapes (K=%d, %s)", doc.K, doc.Method),
		Creator: doc.Generator,
	})
	if err != nil {
		return nil, err
	}
	summary := Table{Title: "Summary", Header: []string{"key", "value"}}
	add := func(k string, v Cell) { summary.AddRow(TextCell(k), v) }
	add("kind", TextCell(doc.Kind))
	add("apiVersion", TextCell(doc.APIVersion))
	add("method", TextCell(doc.Method))
	add("cost function", TextCell(doc.CostFunction))
	add("weight by", TextCell(doc.WeightBy))
	add("K", IntCell(int64(doc.K)))
	add("shapes", IntCell(int64(len(doc.Shapes))))
	add("request classes", IntCell(int64(len(doc.Assignments))))
	add("cost", NumberCell(doc.Cost))
	add("lower bound", NumberCell(doc.LowerBound))
	add("ratio", NumberCell(doc.Ratio))
	add("epsilon", NumberCell(doc.Epsilon))
	add("optimal", BoolCell(doc.Optimal))
	addProvenance(&summary, &doc.Header)
	shapes := ShapesTable(doc)
	for _, s := range []struct {
		name  string
		table Table
	}{
		{SheetSummary, summary},
		{SheetShapes, shapes},
		{SheetWaste, WasteTable(doc)},
		{SheetAssignments, AssignmentsTable(doc)},
		{SheetSteps, StepsTable(doc)},
	} {
		if err := wb.AddTable(s.name, s.table); err != nil {
			return nil, err
		}
	}
	if len(doc.Shapes) > 0 {
		err := wb.AddBarChart(SheetShapes, cellName(len(shapes.Header)+1, 1), BarChart{
			Title:      "Requests per shape",
			DataSheet:  SheetShapes,
			Categories: "shape",
			Series:     []string{"requests"},
			ValueTitle: "requests",
		})
		if err != nil {
			return nil, err
		}
	}
	return wb, nil
}
