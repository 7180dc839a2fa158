package reports

import (
	"fmt"

	"github.com/capplan/capplan/plan"
)

// Sheets of the simulation workbook for X-Sight, Choosy's comparisons and
// size classes.
const (
	SheetSimXSight   = "XSight"
	SheetSimPairs    = "Pairs"
	SheetSimSnapshot = "Snapshots"
	SheetSimRMSE     = "RMSE"
	SheetSimGroups   = "Groups"
)

// SimulationGroupsTable lists, per policy and user (and over all users),
// the average JCT by size class and the makespan: X-Flex's Table 1 layout.
func SimulationGroupsTable(set *plan.SimulationSet) Table {
	t := Table{Title: "Average response time by size class", Header: []string{"policy", "user", "jobs", "avg JCT"}}
	var bins []string
	for _, r := range set.Runs {
		for _, b := range r.Bins {
			if !containsString(bins, b.Bin) {
				bins = append(bins, b.Bin)
			}
		}
	}
	for _, b := range bins {
		t.Header = append(t.Header, b+" avg JCT")
	}
	t.Header = append(t.Header, "makespan")
	t.Align = []Align{AlignLeft, AlignLeft}
	for range t.Header[2:] {
		t.Align = append(t.Align, AlignRight)
	}
	for _, r := range set.Runs {
		if len(r.Bins) == 0 {
			continue
		}
		row := func(user string, jobs int, avg float64, bs []plan.SimBinStat, mk float64) {
			cells := []Cell{TextCell(r.Policy.Name), TextCell(user), IntCell(int64(jobs)), NumberCell(avg)}
			for _, b := range bins {
				c := MissingCell("-")
				for _, x := range bs {
					if x.Bin == b && x.Jobs > 0 {
						c = NumberCell(x.AvgJCT)
					}
				}
				cells = append(cells, c)
			}
			t.AddRow(append(cells, NumberCell(mk))...)
		}
		for _, u := range r.Users {
			row(u.User, u.Jobs, u.AvgJCT, u.Bins, u.Makespan)
		}
		row("(all)", r.Summary.Finished+r.Summary.Unfinished, r.Summary.AvgJCT, r.Bins, r.Summary.Makespan)
	}
	return t
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// SimulationRMSETable compares every run with the CMMF comparators of the
// set (Choosy §7.1): mean RMSE of the sorted allocation vectors (% of the
// cluster), the average JCT ratio, and the mean slowdown per bin.
func SimulationRMSETable(set *plan.SimulationSet) Table {
	t := Table{Title: "Against the CMMF comparators", Header: []string{"policy", "comparator", "mean RMSE %", "samples",
		"avg JCT ratio", "slowdown <30s", "30-120s", "120-600s", ">600s"}}
	t.Align = []Align{AlignLeft, AlignLeft}
	for range t.Header[2:] {
		t.Align = append(t.Align, AlignRight)
	}
	for _, r := range set.Runs {
		for _, f := range r.RMSE {
			cells := []Cell{TextCell(r.Policy.Name), TextCell(f.Comparator), NumberCell(f.Mean), IntCell(int64(f.Samples)), NumberCell(f.AvgJCTRatio)}
			for _, b := range []string{"<30s", "30-120s", "120-600s", ">600s"} {
				c := MissingCell("-")
				for _, s := range f.Slowdown {
					if s.Bin == b {
						c = TextCell(fmt.Sprintf("%.3f (%.2f)", s.Mean, s.SD))
					}
				}
				cells = append(cells, c)
			}
			t.AddRow(cells...)
		}
	}
	return t
}

// simXSightTables lists the X-Sight views of every run: the use of each
// application's containers per time bucket, the pairs' imbalance points,
// and the snapshots' containers.
func simXSightTables(set *plan.SimulationSet) (apps, pairs, snaps Table) {
	apps = Table{Title: "X-Sight: use of owned containers", Header: []string{"policy", "app", "time (s)", "own used", "lent", "borrowed"}}
	pairs = Table{Title: "X-Sight: pairwise sharing", Header: []string{"policy", "a", "b", "bound", "time (s)", "share", "seconds beyond"}}
	snaps = Table{Title: "X-Sight: node snapshots", Header: []string{"policy", "time (s)", "node", "container", "owner", "shape", "user", "job"}}
	for _, r := range set.Runs {
		x := r.XSight
		if x == nil {
			continue
		}
		for _, a := range x.Apps {
			for i, t0 := range a.T {
				apps.AddRow(TextCell(r.Policy.Name), TextCell(a.App), NumberCell(t0), PercentCell(a.OwnUsed[i]), PercentCell(a.Lent[i]),
					PercentCell(a.Borrowed[i]))
			}
		}
		for _, p := range x.Pairs {
			for i, t0 := range p.T {
				pairs.AddRow(TextCell(r.Policy.Name), TextCell(p.A), TextCell(p.B), NumberCell(p.Bound), NumberCell(t0), NumberCell(p.Share[i]),
					NumberCell(p.Beyond))
			}
		}
		for _, s := range x.Snapshots {
			for _, n := range s.Nodes {
				for k, c := range n.Containers {
					snaps.AddRow(TextCell(r.Policy.Name), NumberCell(s.T), TextCell(n.Name), IntCell(int64(k)), TextCell(c.Owner), TextCell(c.Shape),
						TextCell(c.User), TextCell(c.Job))
				}
			}
		}
	}
	return apps, pairs, snaps
}

// addChoosyXFlexSheets adds the RMSE, Groups and X-Sight sheets when the
// set has their data.
func addChoosyXFlexSheets(wb *Workbook, set *plan.SimulationSet) error {
	if t := SimulationRMSETable(set); len(t.Rows) > 0 {
		if err := wb.AddTable(SheetSimRMSE, t); err != nil {
			return err
		}
	}
	if t := SimulationGroupsTable(set); len(t.Rows) > 0 {
		if err := wb.AddTable(SheetSimGroups, t); err != nil {
			return err
		}
	}
	apps, pairs, snaps := simXSightTables(set)
	for _, s := range []struct {
		name string
		t    Table
	}{{SheetSimXSight, apps}, {SheetSimPairs, pairs}, {SheetSimSnapshot, snaps}} {
		if len(s.t.Rows) == 0 {
			continue
		}
		if len(s.t.Rows) >= maxSheetRows {
			return fmt.Errorf("reports: sheet %s: %d rows exceed the xlsx limit", s.name, len(s.t.Rows))
		}
		if err := wb.AddTable(s.name, s.t); err != nil {
			return err
		}
	}
	return nil
}
