package reports

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// Sheet names of the DAG workbooks (SheetSummary is shared).
const (
	SheetDAGJobs       = "Jobs"
	SheetDAGTasks      = "Tasks"
	SheetDAGRejected   = "Rejected"
	SheetDAGGaps       = "Gaps"
	SheetDAGViolations = "Violations"
	SheetDAGBounds     = "Destructive bounds"
)

// maxSheetRows is the row limit of an xlsx sheet.
const maxSheetRows = 1 << 20

// boundHeaders are the people's column names of plan.BoundNames.
var boundHeaders = []string{"cpLength", "tWork", "energy", "newLB", "nodePacking", "bin", "best bound"}

// DAGMachinesText describes the machines in one phrase: "10 × machine
// (cpu 24, memory 192Gi)" for one group, "240 machines in 5 groups" else.
func DAGMachinesText(groups []plan.DAGMachineGroup, pooled bool) string {
	n := 0
	for _, g := range groups {
		n += g.Count
	}
	var s string
	if len(groups) == 1 {
		g := groups[0]
		s = fmt.Sprintf("%d × %s (%s)", g.Count, g.Name, capacityText(g.Capacity))
	} else {
		s = fmt.Sprintf("%s in %s", plural.Count(n, "machine"), plural.Count(len(groups), "group"))
	}
	if pooled {
		s += ", pooled"
	}
	return s
}

func capacityText(c map[string]float64) string {
	var parts []string
	for _, r := range slices.Sorted(maps.Keys(c)) {
		parts = append(parts, r+" "+QuantityCell(r, c[r]).Text)
	}
	return strings.Join(parts, ", ")
}

// DAGScheduleSummary is the one-line summary of a DAGSchedule.
func DAGScheduleSummary(doc *plan.DAGSchedule) string {
	s := doc.Summary
	return fmt.Sprintf("%s schedules of %s, %s (%s) on %s: %d optimal, gap to the best bound mean %s, max %s; %d rejected",
		doc.Method, plural.Count(s.Jobs, "job"), plural.Count(s.Tasks, "task"), doc.Format,
		DAGMachinesText(doc.Machines, doc.Pooled), s.Optimal, FormatPercent(s.MeanGap), FormatPercent(s.MaxGap), s.Rejected)
}

// boundCells are a job's bound cells in the order of plan.BoundNames.
func boundCells(format string, b plan.DAGBoundSet) []Cell {
	var out []Cell
	for _, v := range b.Values() {
		out = append(out, timeCell(format, v))
	}
	return out
}

// timeCell is a time of a DAG document in an input of format: seconds
// (workloads, Alibaba), which workbooks show in hours, or the PSPLIB
// file's periods.
func timeCell(format string, x float64) Cell {
	if format == "psplib" {
		c := NumberCell(x)
		c.sheet.unit = "periods"
		return c
	}
	return SecondsCell(x)
}

// optionalSeconds is SecondsCell, or "-" for nil.
func optionalSeconds(x *float64) Cell {
	if x == nil {
		return MissingCell("-")
	}
	return SecondsCell(*x)
}

// optionalTime is timeCell, or "-" for nil.
func optionalTime(format string, x *float64) Cell {
	if x == nil {
		return MissingCell("-")
	}
	return timeCell(format, *x)
}

func rightAligned(n int) []Align {
	a := make([]Align, n)
	for i := range a {
		a[i] = AlignRight
	}
	return a
}

// compareMethods lists the methods of the jobs' Compare maps, sorted.
func compareMethods(jobs []plan.DAGJob) []string {
	set := map[string]bool{}
	for _, j := range jobs {
		for m := range j.Compare {
			set[m] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

func hasObserved(jobs []plan.DAGJobInfo) bool {
	for _, j := range jobs {
		if j.ObservedSpan != nil {
			return true
		}
	}
	return false
}

func jobInfos(jobs []plan.DAGJob) []plan.DAGJobInfo {
	out := make([]plan.DAGJobInfo, len(jobs))
	for i, j := range jobs {
		out[i] = j.DAGJobInfo
	}
	return out
}

// optional returns a number cell, or "-" for nil.
func optional(x *float64, percent bool) Cell {
	switch {
	case x == nil:
		return MissingCell("-")
	case percent:
		return PercentCell(*x)
	}
	return NumberCell(*x)
}

// DAGJobsTable has one row per job: tasks, makespan, every bound, the gap
// to the best bound, the method that won and whether the makespan is
// proven optimal; then, when present, the makespan on the machines
// (pooled mode), each compared method's makespan and the observed run
// time (Alibaba).
func DAGJobsTable(doc *plan.DAGSchedule) Table {
	t := Table{Title: "Jobs", Header: []string{"job", "tasks", "makespan"}}
	t.Header = append(t.Header, boundHeaders...)
	t.Header = append(t.Header, "gap", "method", "optimal", "certificate")
	t.Align = append([]Align{AlignLeft}, rightAligned(len(t.Header)-4)...)
	t.Align = append(t.Align, AlignLeft, AlignLeft, AlignLeft)
	cmp := compareMethods(doc.Jobs)
	observed := hasObserved(jobInfos(doc.Jobs))
	if doc.Pooled {
		t.Header = append(t.Header, "on machines")
	}
	for _, m := range cmp {
		t.Header = append(t.Header, m)
	}
	if observed {
		t.Header = append(t.Header, "observed")
	}
	t.Align = append(t.Align, rightAligned(len(t.Header)-len(t.Align))...)
	for _, j := range doc.Jobs {
		cells := []Cell{TextCell(j.Name), IntCell(int64(j.NumTasks)), timeCell(doc.Format, j.Makespan)}
		cells = append(cells, boundCells(doc.Format, j.Bounds)...)
		cells = append(cells, PercentCell(j.Gap), TextCell(j.Method), BoolCell(j.Optimal), TextCell(j.Certificate))
		if doc.Pooled {
			cells = append(cells, optionalTime(doc.Format, j.MachinesMakespan))
		}
		for _, m := range cmp {
			if v, ok := j.Compare[m]; ok {
				cells = append(cells, timeCell(doc.Format, v))
			} else {
				cells = append(cells, MissingCell("-"))
			}
		}
		if observed {
			cells = append(cells, optionalTime(doc.Format, j.ObservedSpan))
		}
		t.AddRow(cells...)
	}
	return t
}

// DAGTasksTable lists one job's tasks in schedule order: id, start, end
// and machine name.
func DAGTasksTable(doc *plan.DAGSchedule, job int) Table {
	j := doc.Jobs[job]
	t := Table{
		Title:  "Tasks of " + j.Name,
		Header: []string{"task", "start", "end", "machine"},
		Align:  []Align{AlignLeft, AlignRight, AlignRight, AlignLeft},
	}
	index := make(map[string]int, len(j.Tasks))
	for i, task := range j.Tasks {
		index[task.ID] = i
	}
	for _, id := range j.Order {
		task := j.Tasks[index[id]]
		t.AddRow(TextCell(task.ID), timeCell(doc.Format, task.Start), timeCell(doc.Format, task.End), TextCell(plan.MachineName(doc.Machines, task.Machine)))
	}
	return t
}

// DAGAllTasksTable lists every job's tasks in schedule order, with the
// machine's index and name (the workbook's Tasks sheet).
func DAGAllTasksTable(doc *plan.DAGSchedule) Table {
	t := Table{
		Title:  "Tasks",
		Header: []string{"job", "task", "start", "end", "machine", "machine name"},
		Align:  []Align{AlignLeft, AlignLeft, AlignRight, AlignRight, AlignRight, AlignLeft},
	}
	for _, j := range doc.Jobs {
		index := make(map[string]int, len(j.Tasks))
		for i, task := range j.Tasks {
			index[task.ID] = i
		}
		for _, id := range j.Order {
			task := j.Tasks[index[id]]
			t.AddRow(TextCell(j.Name), TextCell(task.ID), timeCell(doc.Format, task.Start), timeCell(doc.Format, task.End),
				IntCell(int64(task.Machine)), TextCell(plan.MachineName(doc.Machines, task.Machine)))
		}
	}
	return t
}

// writeText writes a summary line and tables, for people or programs (see
// Table.Render): off a terminal the summary is a "# " comment line.
func writeText(w io.Writer, summary string, terminal bool, tables []Table) error {
	var b strings.Builder
	if !terminal {
		b.WriteString("# ")
	}
	b.WriteString(summary + "\n")
	for _, t := range tables {
		b.WriteString("\n")
		if err := t.Render(&b, terminal); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteDAGScheduleText writes the summary, the jobs table and, for a
// single job, its tasks in schedule order.
func WriteDAGScheduleText(w io.Writer, doc *plan.DAGSchedule, terminal bool) error {
	tables := []Table{DAGJobsTable(doc)}
	if len(doc.Jobs) == 1 {
		tables = append(tables, DAGTasksTable(doc, 0))
	}
	return writeText(w, DAGScheduleSummary(doc), terminal, tables)
}

// DAGScheduleTasksCSVTable is the schedules in the CSV form `capplan dag
// check --schedule` reads: one row per task, job,task,start,end,machine
// (times in seconds at full precision, the machine by name), jobs in
// document order and tasks in schedule order.
func DAGScheduleTasksCSVTable(doc *plan.DAGSchedule) Table {
	t := Table{Title: "Tasks", Header: []string{"job", "task", "start", "end", "machine"}}
	for _, j := range doc.Jobs {
		index := make(map[string]int, len(j.Tasks))
		for i, task := range j.Tasks {
			index[task.ID] = i
		}
		for _, id := range j.Order {
			task := j.Tasks[index[id]]
			t.AddRow(TextCell(j.Name), TextCell(task.ID), timeCell(doc.Format, task.Start), timeCell(doc.Format, task.End), TextCell(plan.MachineName(doc.Machines, task.Machine)))
		}
	}
	return t
}

// WriteDAGScheduleCSV writes the schedules (DAGScheduleTasksCSVTable), so
// that `capplan dag schedule --csv > s.csv` and `capplan dag check
// --schedule s.csv` round-trip. The jobs summary is in the table, JSON
// and workbook views.
func WriteDAGScheduleCSV(w io.Writer, doc *plan.DAGSchedule) error {
	t := DAGScheduleTasksCSVTable(doc)
	return t.WriteCSV(w)
}

// DAGMachinesTable lists the machine groups: name, count, first index and
// capacity.
func DAGMachinesTable(groups []plan.DAGMachineGroup) Table {
	t := Table{Title: "Machines", Header: []string{"group", "count", "first", "capacity"},
		Align: []Align{AlignLeft, AlignRight, AlignRight, AlignLeft}}
	for _, g := range groups {
		t.AddRow(TextCell(g.Name), IntCell(int64(g.Count)), IntCell(int64(g.First)), TextCell(capacityText(g.Capacity)))
	}
	return t
}

// DAGRejectedTable lists the rejected jobs with line and reason.
func DAGRejectedTable(rs []plan.DAGRejection) Table {
	t := Table{Title: "Rejected", Header: []string{"job", "line", "reason"}, Align: []Align{AlignLeft, AlignRight, AlignLeft}}
	for _, r := range rs {
		t.AddRow(TextCell(r.Job), IntCell(int64(r.Line)), TextCell(r.Reason))
	}
	return t
}

// workbook builds a workbook from named tables; a table too long for a
// sheet continues on further sheets (Workbook.AddTable).
func workbook(title, subject, creator string, sheets []string, tables []Table) (*Workbook, error) {
	wb, err := NewWorkbook(WorkbookProperties{Title: title, Subject: subject, Creator: creator})
	if err != nil {
		return nil, err
	}
	for i, t := range tables {
		if err := wb.AddTable(sheets[i], t); err != nil {
			return nil, err
		}
	}
	return wb, nil
}

// DAGScheduleSummaryTable lists the facts of a DAGSchedule as key/value
// rows, then the provenance.
func DAGScheduleSummaryTable(doc *plan.DAGSchedule) Table {
	t := Table{Title: "Summary", Header: []string{"key", "value"}}
	add := func(key string, v Cell) { t.AddRow(TextCell(key), v) }
	s := doc.Summary
	add("kind", TextCell(doc.Kind))
	add("apiVersion", TextCell(doc.APIVersion))
	add("format", TextCell(doc.Format))
	add("method", TextCell(doc.Method))
	add("pooled", BoolCell(doc.Pooled))
	add("machines", TextCell(DAGMachinesText(doc.Machines, doc.Pooled)))
	add("jobs", IntCell(int64(s.Jobs)))
	add("tasks", IntCell(int64(s.Tasks)))
	add("rejected", IntCell(int64(s.Rejected)))
	add("optimal", IntCell(int64(s.Optimal)))
	add("mean gap", PercentCell(s.MeanGap))
	add("max gap", PercentCell(s.MaxGap))
	addProvenance(&t, &doc.Header)
	return t
}

// DAGBoundsTable has one row per job: size and every bound (and the
// observed run time, for traces).
func DAGBoundsTable(doc *plan.DAGBounds) Table {
	return dagBoundsTable(doc, false)
}

// dagBoundsTable is the bounds table for people, or with data the CSV
// form: JSON field names, and the observed gap beside the observed span.
func dagBoundsTable(doc *plan.DAGBounds, data bool) Table {
	t := Table{Title: "Lower bounds", Header: []string{"job", "tasks", "edges", "stages"}}
	t.Header = append(t.Header, boundHeaders...)
	t.Header = append(t.Header, "best by")
	if data {
		t.Header = append(append([]string{"name", "numTasks", "edges", "stages"}, plan.BoundNames...), "bestBy")
	}
	observed := hasObserved(doc.Jobs)
	switch {
	case observed && data:
		t.Header = append(t.Header, "observedSpan", "observedGap")
	case observed:
		t.Header = append(t.Header, "observed")
	}
	t.Align = append([]Align{AlignLeft}, rightAligned(len(t.Header)-1)...)
	t.Align[4+len(boundHeaders)] = AlignLeft // best by
	for _, j := range doc.Jobs {
		cells := []Cell{TextCell(j.Name), IntCell(int64(j.NumTasks)), IntCell(int64(j.Edges)), IntCell(int64(j.Stages))}
		cells = append(cells, boundCells(doc.Format, j.Bounds)...)
		cells = append(cells, TextCell(j.Bounds.BestBy))
		if observed {
			cells = append(cells, optional(j.ObservedSpan, false))
			if data {
				cells = append(cells, optional(j.ObservedGap, false))
			}
		}
		t.AddRow(cells...)
	}
	return t
}

// DAGBoundsSummary is the one-line summary of a DAGBounds document.
func DAGBoundsSummary(doc *plan.DAGBounds) string {
	return fmt.Sprintf("lower bounds of %s (%s) on %s; %d rejected", plural.Count(len(doc.Jobs), "job"), doc.Format,
		DAGMachinesText(doc.Machines, doc.Pooled), len(doc.Rejected))
}

// WriteDAGBoundsText writes the summary, the bounds table and, when any
// was computed, the destructive bounds.
func WriteDAGBoundsText(w io.Writer, doc *plan.DAGBounds, terminal bool) error {
	tables := []Table{DAGBoundsTable(doc)}
	if d := DAGDestructiveBoundsTable(doc); len(d.Rows) > 0 {
		tables = append(tables, d)
	}
	return writeText(w, DAGBoundsSummary(doc), terminal, tables)
}

// DAGDestructiveBoundsTable has one row per job and destructive bound
// (those the bounds table has no column for), in the order of the
// document's list: the value and the work units spent, and the seconds
// taken when the document records them (--timings).
func DAGDestructiveBoundsTable(doc *plan.DAGBounds) Table {
	timed := slices.ContainsFunc(doc.Jobs, func(j plan.DAGJobInfo) bool {
		return slices.ContainsFunc(j.Bounds.List, func(b plan.DAGBound) bool { return b.Seconds != nil })
	})
	t := Table{Title: "Destructive bounds", Header: []string{"job", "bound", "value", "work units"}}
	if timed {
		t.Header = append(t.Header, "seconds")
	}
	t.Align = append([]Align{AlignLeft, AlignLeft}, rightAligned(len(t.Header)-2)...)
	for _, j := range doc.Jobs {
		for _, bd := range destructiveBounds(j.Bounds) {
			cells := []Cell{TextCell(j.Name), TextCell(bd.Name), timeCell(doc.Format, bd.Value), IntCell(bd.Work)}
			switch {
			case bd.Seconds != nil: // wall-clock seconds, not a schedule's time
				cells = append(cells, NumberCell(*bd.Seconds))
			case timed:
				cells = append(cells, MissingCell("-"))
			}
			t.AddRow(cells...)
		}
	}
	return t
}

// destructiveBounds returns the bounds of b's list that plan.BoundNames
// (the fixed columns) leaves out: the destructive ones, in list order.
func destructiveBounds(b plan.DAGBoundSet) []plan.DAGBound {
	var out []plan.DAGBound
	for _, bd := range b.List {
		if !slices.Contains(plan.BoundNames, bd.Name) {
			out = append(out, bd)
		}
	}
	return out
}

// DAGBoundsCSVTable is the bounds table with JSON field names.
func DAGBoundsCSVTable(doc *plan.DAGBounds) Table {
	return dagBoundsTable(doc, true)
}

// DAGBoundsWorkbook builds the xlsx report of a DAGBounds document:
// Summary, Jobs, Destructive bounds and Machines.
func DAGBoundsWorkbook(doc *plan.DAGBounds) (*Workbook, error) {
	s := Table{Title: "Summary", Header: []string{"key", "value"}}
	s.AddRow(TextCell("kind"), TextCell(doc.Kind))
	s.AddRow(TextCell("format"), TextCell(doc.Format))
	s.AddRow(TextCell("machines"), TextCell(DAGMachinesText(doc.Machines, doc.Pooled)))
	s.AddRow(TextCell("jobs"), IntCell(int64(len(doc.Jobs))))
	s.AddRow(TextCell("rejected"), IntCell(int64(len(doc.Rejected))))
	addProvenance(&s, &doc.Header)
	return workbook("capplan DAGBounds report", "DAG lower bounds", doc.Generator,
		[]string{SheetSummary, SheetDAGJobs, SheetDAGBounds, "Machines"},
		[]Table{s, DAGBoundsTable(doc), DAGDestructiveBoundsTable(doc), DAGMachinesTable(doc.Machines)})
}

// DAGCheckSummaryLine is the one-line verdict of a DAGCheck.
func DAGCheckSummaryLine(doc *plan.DAGCheck) string {
	s := doc.Summary
	verdict := "feasible"
	if s.Violations > 0 {
		verdict = fmt.Sprintf("INFEASIBLE: %s in %d of them", plural.Count(s.Violations, "violation"), s.Jobs-s.Feasible)
	}
	return fmt.Sprintf("checked %s, %s (%s) on %s: %s", plural.Count(s.Jobs, "job"), plural.Count(s.Tasks, "task"), doc.Format,
		DAGMachinesText(doc.Machines, doc.Pooled), verdict)
}

// DAGCheckJobsTable has one row per checked job: tasks, observed makespan,
// feasibility, violations, the best bound and the gap to it.
func DAGCheckJobsTable(doc *plan.DAGCheck) Table {
	t := Table{Title: "Jobs", Header: []string{"job", "tasks", "makespan", "feasible", "violations", "best bound", "gap", "certificate"},
		Align: []Align{AlignLeft, AlignRight, AlignRight, AlignLeft, AlignRight, AlignRight, AlignRight, AlignLeft}}
	for _, j := range doc.Jobs {
		t.AddRow(TextCell(j.Name), IntCell(int64(j.NumTasks)), timeCell(doc.Format, j.Makespan), BoolCell(j.Feasible),
			IntCell(int64(len(j.Violations))), NumberCell(j.Bounds.Best), PercentCell(j.Gap), TextCell(j.Certificate))
	}
	return t
}

// DAGCheckGapsTable has one row per job and bound: the bound's value and
// the observed makespan's gap to it.
func DAGCheckGapsTable(doc *plan.DAGCheck) Table {
	t := Table{Title: "Gap of the makespan to each lower bound", Header: []string{"job", "bound", "value", "makespan", "gap"},
		Align: []Align{AlignLeft, AlignLeft, AlignRight, AlignRight, AlignRight}}
	for _, j := range doc.Jobs {
		for k, v := range j.Bounds.Values() {
			name := plan.BoundNames[k]
			t.AddRow(TextCell(j.Name), TextCell(name), timeCell(doc.Format, v), timeCell(doc.Format, j.Makespan), PercentCell(j.Gaps[name]))
		}
		for _, bd := range destructiveBounds(j.Bounds) {
			t.AddRow(TextCell(j.Name), TextCell(bd.Name), timeCell(doc.Format, bd.Value), timeCell(doc.Format, j.Makespan), PercentCell(j.Gaps[bd.Name]))
		}
	}
	return t
}

// DAGViolationsTable lists every violation, one per row.
func DAGViolationsTable(doc *plan.DAGCheck) Table {
	t := Table{Title: "Violations", Header: []string{"job", "kind", "task", "time", "until", "violation"},
		Align: []Align{AlignLeft, AlignLeft, AlignLeft, AlignRight, AlignRight, AlignLeft}}
	for _, j := range doc.Jobs {
		for _, v := range j.Violations {
			t.AddRow(TextCell(j.Name), TextCell(v.Kind), TextCell(v.Task), timeCell(doc.Format, v.Time), timeCell(doc.Format, v.Until), TextCell(v.Message))
		}
	}
	return t
}

// WriteDAGCheckText writes the verdict, the violations (if any), the jobs
// and the gaps to every bound.
func WriteDAGCheckText(w io.Writer, doc *plan.DAGCheck, terminal bool) error {
	var tables []Table
	if doc.Summary.Violations > 0 {
		tables = append(tables, DAGViolationsTable(doc))
	}
	tables = append(tables, DAGCheckJobsTable(doc), DAGCheckGapsTable(doc))
	return writeText(w, DAGCheckSummaryLine(doc), terminal, tables)
}

// DAGCheckCSVTable has one row per job with JSON field names: name,
// numTasks, makespan, feasible, violations, each bound and the gap to it
// (gap:<bound>), then the bound that gives the best value (bestBy) and the
// certificate.
func DAGCheckCSVTable(doc *plan.DAGCheck) Table {
	t := Table{Title: "Jobs", Header: []string{"name", "numTasks", "makespan", "feasible", "violations"}}
	for _, b := range plan.BoundNames {
		t.Header = append(t.Header, b, "gap:"+b)
	}
	t.Header = append(t.Header, "bestBy", "certificate")
	for _, j := range doc.Jobs {
		cells := []Cell{TextCell(j.Name), IntCell(int64(j.NumTasks)), NumberCell(j.Makespan), BoolCell(j.Feasible), IntCell(int64(len(j.Violations)))}
		for k, v := range j.Bounds.Values() {
			cells = append(cells, NumberCell(v), NumberCell(j.Gaps[plan.BoundNames[k]]))
		}
		cells = append(cells, TextCell(j.Bounds.BestBy), TextCell(j.Certificate))
		t.AddRow(cells...)
	}
	return t
}

// DAGCheckWorkbook builds the xlsx report of a DAGCheck: Summary, Jobs,
// Gaps and Violations.
func DAGCheckWorkbook(doc *plan.DAGCheck) (*Workbook, error) {
	s := Table{Title: "Summary", Header: []string{"key", "value"}}
	add := func(key string, v Cell) { s.AddRow(TextCell(key), v) }
	add("kind", TextCell(doc.Kind))
	add("format", TextCell(doc.Format))
	add("machines", TextCell(DAGMachinesText(doc.Machines, doc.Pooled)))
	add("jobs", IntCell(int64(doc.Summary.Jobs)))
	add("tasks", IntCell(int64(doc.Summary.Tasks)))
	add("feasible jobs", IntCell(int64(doc.Summary.Feasible)))
	add("violations", IntCell(int64(doc.Summary.Violations)))
	addProvenance(&s, &doc.Header)
	return workbook("capplan DAGCheck report", "Schedule check against the DAGs and lower bounds", doc.Generator,
		[]string{SheetSummary, SheetDAGJobs, SheetDAGGaps, SheetDAGViolations},
		[]Table{s, DAGCheckJobsTable(doc), DAGCheckGapsTable(doc), DAGViolationsTable(doc)})
}
