package reports

import (
	"github.com/capplan/capplan/plan"
)

// Sheet names of the FairShare workbook.
const (
	SheetSummary      = "Summary"
	SheetShares       = "Shares"
	SheetResources    = "Resources"
	SheetAllocation   = "Allocation"
	SheetMachineTypes = "MachineTypes"
	SheetCertificate  = "Certificate"
	SheetNodes        = "Nodes"
)

// FairShareWorkbook builds the xlsx report of a FairShare document. Its
// sheets are Summary (key/value facts: method, allocation, counts, rounds,
// certificate, generator, inputs with digests, seed and flags), Shares,
// Resources (the shares in cores, GiB, GPUs beside the forecast),
// Allocation (application × machine type), MachineTypes, Certificate, and
// Nodes when the document has a per-node assignment. The Shares sheet holds
// a native clustered bar chart of each application's machines under CMMF
// (series "machines") beside the independent-allocation baseline (series
// "independent").
//
// The workbook's timestamps are DefaultWorkbookTime, so identical documents
// give byte-identical workbooks.
func FairShareWorkbook(doc *plan.FairShare) (*Workbook, error) {
	if err := checkFairShare(doc); err != nil {
		return nil, err
	}
	wb, err := NewWorkbook(WorkbookProperties{
		Title:   "capplan FairShare report",
		Subject: "Constrained max-min fair shares (" + doc.Method + ")",
		Creator: doc.Generator,
	})
	if err != nil {
		return nil, err
	}
	shares := FairShareSharesTable(doc)
	sheets := []struct {
		name  string
		table Table
	}{
		{SheetSummary, FairShareSummaryTable(doc)},
		{SheetShares, shares},
		{SheetResources, FairShareResourcesTable(doc)},
		{SheetAllocation, FairShareAllocationTable(doc)},
		{SheetMachineTypes, FairShareMachineTypesTable(doc)},
		{SheetCertificate, FairShareCertificateTable(doc)},
	}
	for _, s := range sheets {
		if err := wb.AddTable(s.name, s.table); err != nil {
			return nil, err
		}
	}
	if len(doc.Nodes) > 0 {
		nodes, err := FairShareNodesTable(doc)
		if err != nil {
			return nil, err
		}
		if err := wb.AddTable(SheetNodes, nodes); err != nil {
			return nil, err
		}
	}
	if len(doc.Shares) > 0 {
		// Two columns right of the table, below the header row.
		anchor := cellName(len(shares.Header)+1, 1)
		err := wb.AddBarChart(SheetShares, anchor, BarChart{
			Title:      "Machines per application: CMMF (machines) vs independent allocation",
			DataSheet:  SheetShares,
			Categories: "application",
			Series:     []string{"machines", "independent"},
			ValueTitle: "machines",
			Horizontal: true,
		})
		if err != nil {
			return nil, err
		}
	}
	return wb, nil
}

// FairShareSummaryTable lists the facts of a FairShare document as
// key/value rows: what was computed and how, its totals, the certificate,
// and the provenance (generator, inputs with SHA-256 digests, seed, flags
// in name order).
func FairShareSummaryTable(doc *plan.FairShare) Table {
	t := Table{Title: "Summary", Header: []string{"key", "value"}}
	add := func(key string, v Cell) { t.AddRow(TextCell(key), v) }
	alloc := "divisible"
	if doc.Integral {
		alloc = "integral"
	}
	sm := doc.Summary
	add("kind", TextCell(doc.Kind))
	add("apiVersion", TextCell(doc.APIVersion))
	add("method", TextCell(doc.Method))
	add("allocation", TextCell(alloc))
	add("integral", BoolCell(doc.Integral))
	add("applications", IntCell(int64(sm.Applications)))
	add("machine types", IntCell(int64(sm.MachineTypes)))
	add("machines", IntCell(sm.Machines))
	add("allocated", NumberCell(sm.Allocated))
	add("idle", NumberCell(sm.Idle))
	add("rounds", IntCell(int64(sm.Rounds)))
	add("min level", NumberCell(sm.MinLevel))
	add("independent min level", NumberCell(sm.IndependentMin))
	add("certificate", TextCell(doc.Certificate.Kind))
	add("certificate verified", BoolCell(doc.Certificate.Verified))
	if d := doc.Certificate.LPMaxRelDiff; d != nil {
		add("LP max relative difference", NumberCell(*d))
	}
	addProvenance(&t, &doc.Header)
	return t
}
