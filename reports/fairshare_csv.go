package reports

import (
	"io"

	"github.com/capplan/capplan/plan"
)

// FairShareCSVTable is the shares table in data form, as WriteFairShareCSV
// writes it: the columns carry the document's JSON field names (application,
// weight, maxMachines, machines, level, eligibleMachines, fraction, round,
// independent), one "type:<name>" column per machine type with the machines
// of that type, one "amount:<resource>" and one "forecast:<resource>"
// column per resource (base units: cores, bytes, devices; forecast empty
// without requests), and forecastMachines (empty when not capped).
func FairShareCSVTable(doc *plan.FairShare) Table {
	t := Table{
		Title:  titleShares,
		Header: []string{"application", "weight", "maxMachines", "machines", "level", "eligibleMachines", "fraction", "round", "independent"},
	}
	for _, mt := range doc.MachineTypes {
		t.Header = append(t.Header, "type:"+mt.Name)
	}
	for _, r := range doc.Resources {
		t.Header = append(t.Header, "amount:"+r)
	}
	for _, r := range doc.Resources {
		t.Header = append(t.Header, "forecast:"+r)
	}
	t.Header = append(t.Header, "forecastMachines")
	for _, s := range doc.Shares {
		cells := shareCells(s)
		for _, mt := range doc.MachineTypes {
			cells = append(cells, NumberCell(s.ByType[mt.Name]))
		}
		for _, r := range doc.Resources {
			cells = append(cells, NumberCell(s.Amounts[r]))
		}
		for _, r := range doc.Resources {
			if s.Forecast == nil {
				cells = append(cells, MissingCell(""))
			} else {
				cells = append(cells, NumberCell(s.Forecast[r]))
			}
		}
		if s.ForecastMachines != nil {
			cells = append(cells, IntCell(*s.ForecastMachines))
		} else {
			cells = append(cells, MissingCell(""))
		}
		t.AddRow(cells...)
	}
	return t
}

// WriteFairShareCSV writes the shares as CSV (see FairShareCSVTable), with
// full-precision numbers, the fraction as a plain fraction and an empty
// maxMachines for an unbounded application.
func WriteFairShareCSV(w io.Writer, doc *plan.FairShare) error {
	if err := checkFairShare(doc); err != nil {
		return err
	}
	t := FairShareCSVTable(doc)
	return t.WriteCSV(w)
}

// WriteFairShareNodesCSV writes the node-by-node assignment as CSV with the
// columns node, type, application, fraction. It returns ErrNoNodes when the
// document has none.
func WriteFairShareNodesCSV(w io.Writer, doc *plan.FairShare) error {
	if err := checkFairShare(doc); err != nil {
		return err
	}
	t, err := FairShareNodesTable(doc)
	if err != nil {
		return err
	}
	return t.WriteCSV(w)
}
