package reports

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// SimulationSummaryLine describes a simulation set in one line.
func SimulationSummaryLine(set *plan.SimulationSet) string {
	w := set.Workload
	s := fmt.Sprintf("simulated %s (%s, %s) on %s (%s), %s, seed %d, tick %gs",
		w.Name, plural.Count(w.Jobs, "job"), plural.Count(w.Tasks, "task"), plural.Count(set.Cluster.Machines, "machine"),
		plural.Count(set.Cluster.Classes, "class"), plural.Count(len(set.Runs), "policy"), seedOf(&set.Header), set.Tick)
	if set.Noise > 0 {
		s += fmt.Sprintf(", noise σ=%g", set.Noise)
	}
	if len(w.Rejected) > 0 {
		s += fmt.Sprintf(", %s rejected", plural.Count(len(w.Rejected), "job"))
	}
	return s
}

func seedOf(h *plan.Header) int64 {
	if h.Seed == nil {
		return 0
	}
	return *h.Seed
}

// SimulationPoliciesTable puts the policies side by side: JCT statistics,
// makespan, utilisation per resource, Jain's index over 60 s windows,
// kills and, with a baseline, the FI median and the share of jobs slowed.
func SimulationPoliciesTable(set *plan.SimulationSet) Table {
	t := Table{Title: "Policies", Header: []string{"policy", "finished", "avg JCT", "median JCT", "p95 JCT", "makespan"}}
	res := set.Cluster.Resources
	for _, r := range res {
		t.Header = append(t.Header, "util "+r)
	}
	t.Header = append(t.Header, "Jain 60s", "kills")
	if set.Baseline != "" {
		t.Header = append(t.Header, "FI p50 vs "+set.Baseline, "avg JCT ratio", "slowed")
	}
	t.Align = []Align{AlignLeft}
	for range t.Header[1:] {
		t.Align = append(t.Align, AlignRight)
	}
	for _, r := range set.Runs {
		s := r.Summary
		cells := []Cell{TextCell(r.Policy.Name), IntCell(int64(s.Finished)), SecondsCell(s.AvgJCT), SecondsCell(s.MedianJCT),
			SecondsCell(s.P95JCT), SecondsCell(s.Makespan)}
		for _, name := range res {
			cells = append(cells, PercentCell(s.Utilization[name]))
		}
		if j, ok := s.Jain["60s"]; ok && j.Windows > 0 {
			cells = append(cells, NumberCell(j.Mean))
		} else {
			cells = append(cells, MissingCell("-"))
		}
		cells = append(cells, IntCell(s.Kills))
		if set.Baseline != "" {
			if c := r.Compare; c != nil && c.Paired > 0 {
				cells = append(cells, NumberCell(c.FI.P50), NumberCell(c.AvgJCTRatio), PercentCell(c.Slowed))
			} else {
				cells = append(cells, MissingCell("-"), MissingCell("-"), MissingCell("-"))
			}
		}
		t.AddRow(cells...)
	}
	return t
}

// SimulationRejectedTable lists the jobs rejected before the run.
func SimulationRejectedTable(set *plan.SimulationSet) Table {
	t := Table{Title: "Rejected", Header: []string{"job", "reason"}}
	for _, r := range set.Workload.Rejected {
		t.AddRow(TextCell(r.Job), TextCell(r.Reason))
	}
	return t
}

// WriteSimulationText writes the summary line and the policies table (and
// the rejected jobs).
func WriteSimulationText(w io.Writer, set *plan.SimulationSet, terminal bool) error {
	tables := []Table{SimulationPoliciesTable(set)}
	for _, t := range []Table{SimulationGroupsTable(set), SimulationRMSETable(set)} {
		if len(t.Rows) > 0 {
			tables = append(tables, t)
		}
	}
	if len(set.Workload.Rejected) > 0 {
		tables = append(tables, SimulationRejectedTable(set))
	}
	return writeText(w, SimulationSummaryLine(set), terminal, tables)
}

// SimulationCSVTable has one row per policy and job (SIMULATE.md §4.3):
// policy, job, user, arrival, start, finish, jct, lb, fi (FI against the
// baseline; empty without one or for unpaired jobs).
func SimulationCSVTable(set *plan.SimulationSet) Table {
	t := Table{Title: "Jobs", Header: []string{"policy", "job", "user", "arrival", "start", "finish", "jct", "lb", "fi"}}
	for _, r := range set.Runs {
		fi := map[string]float64{}
		if r.Compare != nil {
			for _, p := range r.Compare.PerJob {
				fi[p.Name] = p.FI
			}
		}
		for _, j := range r.Jobs {
			cells := []Cell{TextCell(r.Policy.Name), TextCell(j.Name), TextCell(j.User), SecondsCell(j.Arrival),
				optionalSeconds(j.Start), optionalSeconds(j.Finish), optionalSeconds(j.JCT), SecondsCell(j.LB)}
			if x, ok := fi[j.Name]; ok {
				cells = append(cells, NumberCell(x))
			} else {
				cells = append(cells, MissingCell(""))
			}
			t.AddRow(cells...)
		}
	}
	return t
}

// WriteSimulationCSV writes SimulationCSVTable.
func WriteSimulationCSV(w io.Writer, set *plan.SimulationSet) error {
	t := SimulationCSVTable(set)
	return t.WriteCSV(w)
}

// sortedNames returns a map's keys, sorted.
func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sheetName makes a policy name a valid, unique sheet name.
func sheetName(prefix, name string, taken map[string]bool) string {
	s := prefix + strings.NewReplacer("/", "-", "\\", "-", "?", "-", "*", "-", "[", "(", "]", ")", ":", "-").Replace(name)
	if len(s) > 31 {
		s = s[:31]
	}
	base := s
	for k := 2; taken[s]; k++ {
		suffix := fmt.Sprintf("~%d", k)
		s = base[:min(len(base), 31-len(suffix))] + suffix
	}
	taken[s] = true
	return s
}
