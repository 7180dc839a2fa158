package reports

import (
	"fmt"

	"github.com/xuri/excelize/v2"
)

// AddLineChart adds a native line chart to sheet at anchor, over columns
// of a table sheet as BarChart describes them (Horizontal is ignored):
// one line with markers per series, categories along the x axis.
func (wb *Workbook) AddLineChart(sheet, anchor string, c BarChart) error {
	info, ok := wb.sheets[c.DataSheet]
	if !ok {
		return fmt.Errorf("reports: chart %q: no table sheet %q", c.Title, c.DataSheet)
	}
	if info.rows == 0 || len(c.Series) == 0 {
		return fmt.Errorf("%w: chart %q over sheet %q", ErrEmptyChart, c.Title, c.DataSheet)
	}
	ref := func(header string) (name, values string, err error) {
		j := info.column(header)
		if j < 0 {
			return "", "", fmt.Errorf("reports: chart %q: sheet %q has no column %q", c.Title, c.DataSheet, header)
		}
		s := quoteSheet(c.DataSheet) + "!"
		return s + absolute(cellName(j, 0)), s + absolute(cellName(j, 1)) + ":" + absolute(cellName(j, info.rows)), nil
	}
	_, cats, err := ref(c.Categories)
	if err != nil {
		return err
	}
	chart := &excelize.Chart{
		Type:      excelize.Line,
		Legend:    excelize.ChartLegend{Position: "bottom"},
		Dimension: excelize.ChartDimension{Width: chartWidth, Height: chartMinHeight},
		YAxis:     excelize.ChartAxis{MajorGridLines: true},
	}
	if c.Title != "" {
		chart.Title = []excelize.RichTextRun{{Text: c.Title}}
	}
	if c.ValueTitle != "" {
		chart.YAxis.Title = []excelize.RichTextRun{{Text: c.ValueTitle}}
	}
	for _, header := range c.Series {
		name, vals, err := ref(header)
		if err != nil {
			return err
		}
		chart.Series = append(chart.Series, excelize.ChartSeries{
			Name: name, Categories: cats, Values: vals,
			Marker: excelize.ChartMarker{Symbol: "circle", Size: 6},
		})
	}
	if err := wb.f.AddChart(sheet, anchor, chart); err != nil {
		return fmt.Errorf("reports: chart %q: %w", c.Title, err)
	}
	return nil
}
