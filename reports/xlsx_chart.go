package reports

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/xuri/excelize/v2"
)

// BarChart describes a clustered bar chart over columns of a table sheet.
type BarChart struct {
	Title string
	// DataSheet is a sheet added by AddTable; Categories names its column
	// of category labels and Series its columns of values, one series per
	// column, by header text. A series' legend entry is its header cell
	// (xlsx charts name series by cell reference).
	DataSheet  string
	Categories string
	Series     []string
	// ValueTitle labels the value axis.
	ValueTitle string
	// Horizontal draws bars (categories down the side, first at the top);
	// otherwise columns.
	Horizontal bool
	// Stacked stacks the series of a category instead of placing them
	// side by side; the series named in Hidden are drawn without fill (a
	// Gantt chart: an invisible start, then the visible duration).
	Stacked bool
	Hidden  []string
}

// ErrEmptyChart is returned when a chart would have no data.
var ErrEmptyChart = errors.New("reports: chart has no data")

// Chart size in pixels: a fixed width, and a height that grows with the
// number of bars so each stays readable (chartBarHeight per bar on top of
// chartChromeHeight for title, axis and legend), bounded below.
const (
	chartWidth        = 640
	chartMinHeight    = 320
	chartChromeHeight = 120
	chartBarHeight    = 18
)

// AddBarChart adds a native clustered bar chart to sheet, its top-left
// corner at cell anchor (e.g. "K2"). The data stays in DataSheet and the
// chart refers to it, so the chart follows edits of the cells.
func (wb *Workbook) AddBarChart(sheet, anchor string, c BarChart) error {
	info, ok := wb.sheets[c.DataSheet]
	if !ok {
		return fmt.Errorf("reports: chart %q: no table sheet %q", c.Title, c.DataSheet)
	}
	if info.rows == 0 || len(c.Series) == 0 {
		return fmt.Errorf("%w: chart %q over sheet %q", ErrEmptyChart, c.Title, c.DataSheet)
	}
	sheetRef := quoteSheet(c.DataSheet) + "!"
	// column returns the references of a column's header cell and values.
	column := func(header string) (name, values string, err error) {
		j := info.column(header)
		if j < 0 {
			return "", "", fmt.Errorf("reports: chart %q: sheet %q has no column %q", c.Title, c.DataSheet, header)
		}
		name = sheetRef + absolute(cellName(j, 0))
		values = sheetRef + absolute(cellName(j, 1)) + ":" + absolute(cellName(j, info.rows))
		return name, values, nil
	}
	_, cats, err := column(c.Categories)
	if err != nil {
		return err
	}
	noVary := false
	chart := &excelize.Chart{
		Type:   excelize.Col,
		Legend: excelize.ChartLegend{Position: "bottom"},
		Dimension: excelize.ChartDimension{
			Width:  chartWidth,
			Height: uint(max(chartMinHeight, chartChromeHeight+chartBarHeight*info.rows*len(c.Series))),
		},
		YAxis:      excelize.ChartAxis{MajorGridLines: true},
		VaryColors: &noVary, // colour by series, not by bar
	}
	if c.Title != "" {
		chart.Title = []excelize.RichTextRun{{Text: c.Title}}
	}
	if c.ValueTitle != "" {
		chart.YAxis.Title = []excelize.RichTextRun{{Text: c.ValueTitle}}
	}
	if c.Horizontal {
		chart.Type = excelize.Bar
		// Excel draws the first category at the bottom; reverse the
		// category axis so bars read top-down in table order.
		chart.XAxis.ReverseOrder = true
	}
	if c.Stacked {
		chart.Type = excelize.ColStacked
		if c.Horizontal {
			chart.Type = excelize.BarStacked
		}
		chart.Dimension.Height = uint(max(chartMinHeight, chartChromeHeight+chartBarHeight*info.rows))
	}
	for _, header := range c.Series {
		name, vals, err := column(header)
		if err != nil {
			return err
		}
		s := excelize.ChartSeries{Name: name, Categories: cats, Values: vals}
		if slices.Contains(c.Hidden, header) {
			// Fully transparent (excelize cannot write a series without
			// fill: it dereferences the missing colour).
			s.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"#FFFFFF"}, Transparency: 100}
		}
		chart.Series = append(chart.Series, s)
	}
	if err := wb.f.AddChart(sheet, anchor, chart); err != nil {
		return fmt.Errorf("reports: chart %q: %w", c.Title, err)
	}
	return nil
}

// column returns the index of the column named header: its header text,
// or that text followed by a unit in parentheses ("cpu" finds "cpu
// (cores)"); -1 when there is none.
func (info *sheetInfo) column(header string) int {
	for j, h := range info.header {
		if h == header || strings.HasPrefix(h, header+" (") {
			return j
		}
	}
	return -1
}

// quoteSheet quotes a sheet name for a formula reference.
func quoteSheet(name string) string {
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}

// absolute turns "B2" into "$B$2".
func absolute(ref string) string {
	i := strings.IndexFunc(ref, func(r rune) bool { return r >= '0' && r <= '9' })
	return "$" + ref[:i] + "$" + ref[i:]
}
