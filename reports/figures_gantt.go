package reports

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// Gantt layout bounds: at most maxGanttJobs figures (the jobs with the
// largest gap to their bound first), at most maxTaskLanes lanes of single
// tasks before tasks are drawn in one lane per stage, at most
// maxStageLanes stage lanes (the rest share a last lane).
const (
	maxGanttJobs  = 12
	maxTaskLanes  = 40
	maxStageLanes = 40
	laneHeight    = vg.Length(0.18) * vg.Inch
)

// GanttFigures draws the schedule of each job of a DAGSchedule: tasks as
// bars over time, coloured by stage (the task ID up to "["), with the
// best lower bound as a dashed red line and the makespan as a dashed black
// one, so the gap between them is the schedule's distance from optimal at
// most. Tasks go into the fewest lanes where none overlap; a job needing
// more than 40 such lanes gets one lane per stage instead. Up to 12 jobs
// are drawn, largest gap first (ties in input order).
func GanttFigures(doc *plan.DAGSchedule) ([]Figure, error) {
	if doc == nil {
		return nil, nil
	}
	order := make([]int, len(doc.Jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(doc.Jobs[b].Gap, doc.Jobs[a].Gap) })
	var figs []Figure
	for k, i := range order {
		if k == maxGanttJobs {
			break
		}
		f, err := ganttFigure(&doc.Jobs[i], i)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	return figs, nil
}

// stageOf is a task's stage: its ID up to "[" ("scan[3]" → "scan").
func stageOf(id string) string {
	if i := strings.IndexByte(id, '['); i > 0 {
		return id[:i]
	}
	return id
}

// timeUnit picks the unit of a time axis from the makespan in seconds.
func timeUnit(span float64) (scale float64, name string) {
	switch {
	case span >= 4*3600:
		return 1.0 / 3600, "hours"
	case span >= 600:
		return 1.0 / 60, "minutes"
	}
	return 1, "seconds"
}

func ganttFigure(job *plan.DAGJob, index int) (Figure, error) {
	tasks := slices.Clone(job.Tasks)
	slices.SortStableFunc(tasks, func(a, b plan.DAGTask) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End), cmp.Compare(a.ID, b.ID))
	})
	stages := map[string]int{}
	var stageNames []string
	for _, t := range job.Tasks {
		s := stageOf(t.ID)
		if _, ok := stages[s]; !ok {
			stages[s] = len(stageNames)
			stageNames = append(stageNames, s)
		}
	}
	lane, lanes := ganttLanes(tasks)
	byStage := false
	if lanes > maxTaskLanes {
		byStage = true
		lanes = min(len(stageNames), maxStageLanes)
		for i, t := range tasks {
			lane[i] = min(stages[stageOf(t.ID)], maxStageLanes-1)
		}
	}
	scale, unit := timeUnit(max(job.Makespan, job.Bounds.Best))
	var rs rects
	for i, t := range tasks {
		c := seriesColor(stages[stageOf(t.ID)])
		fill := color.Color(c)
		if byStage {
			fill = color.NRGBA{c.R, c.G, c.B, 0x80}
		}
		// Lane 0 at the top.
		y := float64(lanes - 1 - lane[i])
		rs = append(rs, rect{x0: t.Start * scale, x1: t.End * scale, y0: y + 0.12, y1: y + 0.88, color: fill})
	}
	p := newPlot(fmt.Sprintf("Schedule of %s: makespan %s vs lower bound %s %s", job.Name,
		FormatNumber(job.Makespan*scale), FormatNumber(job.Bounds.Best*scale), unit), "time ("+unit+")", "")
	leg := newSideLegend()
	p.Add(rs)
	for _, s := range stageNames {
		leg.add(s, legendBox(seriesColor(stages[s])))
	}
	top := float64(lanes)
	if job.Bounds.Best > 0 {
		bl, err := verticalLine(job.Bounds.Best*scale, 0, top, boundColor)
		if err != nil {
			return Figure{}, err
		}
		p.Add(bl)
		leg.add("best lower bound", bl)
	}
	ml, err := verticalLine(job.Makespan*scale, 0, top, color.Black)
	if err != nil {
		return Figure{}, err
	}
	p.Add(ml)
	leg.add("makespan", ml)
	p.X.Min, p.Y.Min, p.Y.Max = 0, 0, top
	p.X.Max = max(job.Makespan, job.Bounds.Best) * scale * 1.02
	p.HideY()
	height := min(max(figureHeight, barChromeHeight+laneHeight*vg.Length(lanes)), figureMaxHeight)
	svg, err := renderSVG(p, leg, figureWidth, height)
	if err != nil {
		return Figure{}, err
	}
	gap := "optimal: the makespan meets the bound"
	if !job.Optimal {
		gap = "within " + FormatPercent(job.Gap) + " of optimal"
	}
	return Figure{
		Name:    fmt.Sprintf("gantt-%d-%s", index+1, fileSafe(job.Name)),
		Title:   "Schedule of " + job.Name,
		Caption: fmt.Sprintf("%s, method %s; %s.", plural.Count(job.NumTasks, "task"), job.Method, gap),
		SVG:     svg,
	}, nil
}

// ganttLanes puts tasks, sorted by start, into lanes by greedy interval
// partitioning: each task into the first lane free at its start. The
// number of lanes is the largest number of tasks running at once, the
// fewest possible (interval graphs are perfect). Cost O(n × lanes).
func ganttLanes(tasks []plan.DAGTask) (lane []int, lanes int) {
	var laneEnd []float64
	lane = make([]int, len(tasks))
	for i, t := range tasks {
		l := slices.IndexFunc(laneEnd, func(end float64) bool { return end <= t.Start })
		if l < 0 {
			l = len(laneEnd)
			laneEnd = append(laneEnd, 0)
		}
		laneEnd[l] = t.End
		lane[i] = l
	}
	return lane, len(laneEnd)
}

// fileSafe keeps letters, digits, '-' and '_' of a name for a file name.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, s)
}
