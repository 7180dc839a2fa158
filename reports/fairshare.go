package reports

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// ErrNoNodes is returned when a per-node view is asked of a FairShare
// document that has no node-by-node assignment (made without --per-node).
var ErrNoNodes = errors.New("reports: document has no per-node assignment (compute it with --per-node)")

// ErrBadDocument is returned (wrapped, with the offending field) for a plan
// document whose parts contradict each other, such as a share naming a
// machine type the document does not list.
var ErrBadDocument = errors.New("reports: inconsistent plan document")

// Titles of the FairShare tables, shared by text and workbook views.
const (
	titleShares       = "Shares"
	titleAllocation   = "Allocation by machine type"
	titleResources    = "Shares by resource"
	titleMachineTypes = "Machine types"
	titleCertificate  = "Certificate"
	titleNodes        = "Nodes"
)

// FairShareTables returns the tables of a FairShare document, in reading
// order: the shares, the allocation per application and machine type (a
// wide table), the machine types, and the certificate's tight sets.
func FairShareTables(doc *plan.FairShare) []Table {
	ts := []Table{
		FairShareSharesTable(doc),
		FairShareResourcesTable(doc),
		FairShareAllocationTable(doc),
		FairShareMachineTypesTable(doc),
		FairShareCertificateTable(doc),
	}
	if nodes, err := FairShareNodesTable(doc); err == nil {
		ts = append(ts, nodes)
	}
	return ts
}

// FairShareSharesTable has one row per application: weight, demand cap ("-"
// when unbounded), machines allocated, level (machines/weight), eligible
// machines, fraction of the eligible machines, saturation round, and the
// machines under the independent-allocation baseline.
func FairShareSharesTable(doc *plan.FairShare) Table {
	t := Table{
		Title:  titleShares,
		Header: []string{"application", "weight", "max machines", "machines", "level", "eligible", "fraction", "round", "independent"},
		Align:  []Align{AlignLeft, AlignRight, AlignRight, AlignRight, AlignRight, AlignRight, AlignRight, AlignRight, AlignRight},
	}
	for _, s := range doc.Shares {
		t.AddRow(shareCells(s)...)
	}
	return t
}

// shareCells are the shares table's cells of one application.
func shareCells(s plan.Share) []Cell {
	maxMachines := MissingCell("-")
	if s.MaxMachines != nil {
		maxMachines = IntCell(*s.MaxMachines)
	}
	return []Cell{
		TextCell(s.Application),
		NumberCell(s.Weight),
		maxMachines,
		NumberCell(s.Machines),
		NumberCell(s.Level),
		IntCell(s.EligibleMachines),
		PercentCell(s.Fraction),
		IntCell(int64(s.Round)),
		NumberCell(s.Independent),
	}
}

// FairShareResourcesTable has one row per application: its share in each
// resource of the cluster (machines × capacity, summed over machine types),
// what its forecast asks for in each, and the forecast cap on its machines
// ("-" without one).
func FairShareResourcesTable(doc *plan.FairShare) Table {
	t := Table{Title: titleResources, Header: []string{"application"}, Align: []Align{AlignLeft}}
	for _, r := range doc.Resources {
		t.Header = append(t.Header, r)
		t.Align = append(t.Align, AlignRight)
	}
	for _, r := range doc.Resources {
		t.Header = append(t.Header, "forecast "+r)
		t.Align = append(t.Align, AlignRight)
	}
	t.Header = append(t.Header, "machines", "forecast cap")
	t.Align = append(t.Align, AlignRight, AlignRight)
	for _, s := range doc.Shares {
		cells := []Cell{TextCell(s.Application)}
		for _, r := range doc.Resources {
			cells = append(cells, QuantityCell(r, s.Amounts[r]))
		}
		for _, r := range doc.Resources {
			if s.Forecast == nil {
				cells = append(cells, MissingCell("-"))
			} else {
				cells = append(cells, QuantityCell(r, s.Forecast[r]))
			}
		}
		cap := MissingCell("-")
		if s.ForecastMachines != nil {
			cap = IntCell(*s.ForecastMachines)
		}
		t.AddRow(append(cells, NumberCell(s.Machines), cap)...)
	}
	return t
}

// FairShareAllocationTable is the wide view of the per-type allocation: one
// row per application, one column per machine type (in document order, 0
// where the application receives none), and the application's total.
func FairShareAllocationTable(doc *plan.FairShare) Table {
	t := Table{
		Title:  titleAllocation,
		Header: []string{"application"},
		Align:  []Align{AlignLeft},
	}
	for _, mt := range doc.MachineTypes {
		t.Header = append(t.Header, mt.Name)
		t.Align = append(t.Align, AlignRight)
	}
	t.Header = append(t.Header, "total")
	t.Align = append(t.Align, AlignRight)
	for _, s := range doc.Shares {
		cells := []Cell{TextCell(s.Application)}
		for _, mt := range doc.MachineTypes {
			cells = append(cells, NumberCell(s.ByType[mt.Name]))
		}
		cells = append(cells, NumberCell(s.Machines))
		t.AddRow(cells...)
	}
	return t
}

// FairShareMachineTypesTable has one row per machine type: its name, node
// count, capacity in each resource of doc.Resources (0 where the type has
// none), and the node groups it was coalesced from.
func FairShareMachineTypesTable(doc *plan.FairShare) Table {
	t := Table{
		Title:  titleMachineTypes,
		Header: []string{"name", "count"},
		Align:  []Align{AlignLeft, AlignRight},
	}
	for _, r := range doc.Resources {
		t.Header = append(t.Header, r)
		t.Align = append(t.Align, AlignRight)
	}
	t.Header = append(t.Header, "groups")
	t.Align = append(t.Align, AlignLeft)
	for _, mt := range doc.MachineTypes {
		cells := []Cell{TextCell(mt.Name), IntCell(mt.Count)}
		for _, r := range doc.Resources {
			cells = append(cells, QuantityCell(r, mt.Capacity[r]))
		}
		cells = append(cells, TextCell(strings.Join(mt.Groups, ",")))
		t.AddRow(cells...)
	}
	return t
}

// FairShareCertificateTable has one row per tight set of the certificate:
// its round and level, applications, machine types, the machines of those
// types, the machines the applications receive, and whether the set is
// stopped by demand caps.
func FairShareCertificateTable(doc *plan.FairShare) Table {
	t := Table{
		Title:  titleCertificate + " (" + doc.Certificate.Kind + ")",
		Header: []string{"round", "level", "applications", "machine types", "machines", "allocated", "demand-capped"},
		Align:  []Align{AlignRight, AlignRight, AlignLeft, AlignLeft, AlignRight, AlignRight, AlignLeft},
	}
	for _, p := range doc.Certificate.Pieces {
		t.AddRow(
			IntCell(int64(p.Round)),
			NumberCell(p.Level),
			TextCell(strings.Join(p.Applications, ",")),
			TextCell(strings.Join(p.MachineTypes, ",")),
			IntCell(p.Machines),
			NumberCell(p.Allocated),
			BoolCell(p.DemandCapped),
		)
	}
	return t
}

// FairShareNodesTable has one row per application on each node (node, type,
// application, fraction of the node); an idle node has one row with no
// application. It returns ErrNoNodes when doc.Nodes is empty.
func FairShareNodesTable(doc *plan.FairShare) (Table, error) {
	if len(doc.Nodes) == 0 {
		return Table{}, ErrNoNodes
	}
	t := Table{
		Title:  titleNodes,
		Header: []string{"node", "type", "application", "fraction"},
		Align:  []Align{AlignLeft, AlignLeft, AlignLeft, AlignRight},
	}
	for _, n := range doc.Nodes {
		if len(n.Users) == 0 {
			t.AddRow(TextCell(n.Node), TextCell(n.Type), MissingCell("-"), MissingCell("-"))
			continue
		}
		for _, u := range n.Users {
			t.AddRow(TextCell(n.Node), TextCell(n.Type), TextCell(u.Application), PercentCell(u.Fraction))
		}
	}
	return t, nil
}

// FairShareSummary is the one-line summary of a FairShare document, e.g.
// "flow, divisible: 4 applications on 10 machines (10 types), 10 allocated,
// 0 idle; 3 rounds; certificate tightSets verified".
func FairShareSummary(doc *plan.FairShare) string {
	alloc := "divisible"
	if doc.Integral {
		alloc = "integral"
	}
	verified := "verified"
	if !doc.Certificate.Verified {
		verified = "NOT verified"
	}
	cert := fmt.Sprintf("certificate %s %s", doc.Certificate.Kind, verified)
	if d := doc.Certificate.LPMaxRelDiff; d != nil {
		cert += fmt.Sprintf(" (LP agrees to %.1e)", *d)
	}
	sm := doc.Summary
	return fmt.Sprintf("%s, %s: %s on %s (%s), %s allocated, %s idle; %s; %s",
		doc.Method, alloc,
		plural.Count(sm.Applications, "application"),
		plural.Count(sm.Machines, "machine"),
		plural.Count(sm.MachineTypes, "type"),
		FormatNumber(sm.Allocated), FormatNumber(sm.Idle),
		plural.Count(sm.Rounds, "round"),
		cert)
}

// WriteFairShareText writes the FairShare document for people (terminal) or
// programs (pipe): the one-line summary, then each table of FairShareTables
// with its title, separated by blank lines. Off a terminal the summary and
// titles are "# " comment lines and the tables tab-separated (see
// Table.Render).
func WriteFairShareText(w io.Writer, doc *plan.FairShare, terminal bool) error {
	if err := checkFairShare(doc); err != nil {
		return err
	}
	var b strings.Builder
	if terminal {
		b.WriteString(FairShareSummary(doc) + "\n")
	} else {
		b.WriteString("# " + FairShareSummary(doc) + "\n")
	}
	for _, t := range FairShareTables(doc) {
		b.WriteString("\n")
		if err := t.Render(&b, terminal); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// checkFairShare rejects a document whose views would silently drop data:
// every machine type named by a share, node or certificate piece must be
// listed in machineTypes, and names must be unique.
func checkFairShare(doc *plan.FairShare) error {
	types := make(map[string]bool, len(doc.MachineTypes))
	for i, mt := range doc.MachineTypes {
		if types[mt.Name] {
			return fmt.Errorf("%w: machineTypes[%d]: duplicate name %q", ErrBadDocument, i, mt.Name)
		}
		types[mt.Name] = true
	}
	apps := make(map[string]bool, len(doc.Shares))
	for i, s := range doc.Shares {
		if apps[s.Application] {
			return fmt.Errorf("%w: shares[%d]: duplicate application %q", ErrBadDocument, i, s.Application)
		}
		apps[s.Application] = true
		for _, name := range slices.Sorted(maps.Keys(s.ByType)) {
			if !types[name] {
				return fmt.Errorf("%w: shares[%d].byType: unknown machine type %q (not in machineTypes)", ErrBadDocument, i, name)
			}
		}
	}
	for i, p := range doc.Certificate.Pieces {
		for _, name := range p.MachineTypes {
			if !types[name] {
				return fmt.Errorf("%w: certificate.pieces[%d].machineTypes: unknown machine type %q", ErrBadDocument, i, name)
			}
		}
	}
	for i, n := range doc.Nodes {
		if !types[n.Type] {
			return fmt.Errorf("%w: nodes[%d] (%s): unknown machine type %q", ErrBadDocument, i, n.Node, n.Type)
		}
	}
	return nil
}
