package reports

import "github.com/capplan/capplan/plan"

// DAGScheduleWorkbook builds the xlsx report of a DAGSchedule: Summary,
// Jobs (with a bar chart of each job's makespan against its best lower
// bound), Tasks (every job's tasks in schedule order), Machines, Rejected
// when jobs were rejected, and Gantt (the first job's schedule as a
// stacked bar chart).
func DAGScheduleWorkbook(doc *plan.DAGSchedule) (*Workbook, error) {
	jobs := DAGJobsTable(doc)
	sheets := []string{SheetSummary, SheetDAGJobs, SheetDAGTasks, "Machines"}
	tables := []Table{DAGScheduleSummaryTable(doc), jobs, DAGAllTasksTable(doc), DAGMachinesTable(doc.Machines)}
	if len(doc.Rejected) > 0 {
		sheets = append(sheets, SheetDAGRejected)
		tables = append(tables, DAGRejectedTable(doc.Rejected))
	}
	gantt := DAGGanttTable(doc)
	if len(gantt.Rows) > 0 {
		sheets = append(sheets, SheetDAGGantt)
		tables = append(tables, gantt)
	}
	wb, err := workbook("capplan DAGSchedule report", "DAG schedules ("+doc.Method+") and lower bounds", doc.Generator, sheets, tables)
	if err != nil || len(doc.Jobs) == 0 {
		return wb, err
	}
	// Makespan against the best lower bound, per job.
	if err := wb.AddBarChart(SheetDAGJobs, cellName(len(jobs.Header)+1, 1), BarChart{
		Title: "Makespan vs best lower bound", DataSheet: SheetDAGJobs, Categories: "job",
		Series: []string{"makespan", "best bound"}, ValueTitle: timeAxis(doc.Format), Horizontal: true,
	}); err != nil {
		return nil, err
	}
	// The first job's schedule as a Gantt chart: an invisible bar up to
	// each task's start, then its run.
	if len(gantt.Rows) > 0 {
		if err := wb.AddBarChart(SheetDAGGantt, cellName(len(gantt.Header)+1, 1), BarChart{
			Title: "Schedule of " + doc.Jobs[0].Name + " (Gantt)", DataSheet: SheetDAGGantt, Categories: "task",
			Series: []string{"start", "duration"}, Hidden: []string{"start"}, ValueTitle: timeAxis(doc.Format),
			Horizontal: true, Stacked: true,
		}); err != nil {
			return nil, err
		}
	}
	return wb, nil
}

// SheetDAGGantt is the sheet of the DAG workbook's Gantt chart.
const SheetDAGGantt = "Gantt"

// maxGanttTasks bounds the tasks of the Gantt sheet, so that the chart
// stays readable.
const maxGanttTasks = 100

// DAGGanttTable lists the first job's tasks (its first maxGanttTasks in
// schedule order) with machine, start and duration: the data of the
// workbook's Gantt chart.
func DAGGanttTable(doc *plan.DAGSchedule) Table {
	t := Table{Title: "Gantt", Header: []string{"task", "machine", "start", "duration"},
		Align: []Align{AlignLeft, AlignLeft, AlignRight, AlignRight}}
	if len(doc.Jobs) == 0 {
		return t
	}
	j := doc.Jobs[0]
	index := make(map[string]int, len(j.Tasks))
	for i, task := range j.Tasks {
		index[task.ID] = i
	}
	for k, id := range j.Order {
		if k == maxGanttTasks {
			break
		}
		task := j.Tasks[index[id]]
		t.AddRow(TextCell(task.ID), TextCell(plan.MachineName(doc.Machines, task.Machine)),
			timeCell(doc.Format, task.Start), timeCell(doc.Format, task.End-task.Start))
	}
	return t
}

// timeAxis names the time unit of a DAG workbook's charts.
func timeAxis(format string) string {
	if format == "psplib" {
		return "periods"
	}
	return "hours"
}
