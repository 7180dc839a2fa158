package export

import (
	"bytes"

	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// Paths of the report files, relative to the bundle directory.
const (
	ReportHTMLPath = "report.html"
	ReportXLSXPath = "report.xlsx"
	// FiguresDir holds the SVG figures, figures/<name>.svg.
	FiguresDir = "figures"
)

// Report renders the people's side of a bundle as files: report.html
// (reports.HTMLReport), report.xlsx (reports.BundleWorkbook) and every
// figure as figures/<name>.svg (reports.Figures), the figures drawn once
// for both. opts.Warnings (such as the exports') are listed in both
// reports after the bundle's own. Identical documents give identical
// bytes.
func Report(b *plan.Bundle, opts reports.HTMLOptions) (*Export, error) {
	figs := opts.Figures
	if figs == nil {
		var err error
		if figs, err = reports.Figures(b); err != nil {
			return nil, err
		}
		opts.Figures = figs
	}
	html, err := reports.HTMLReport(b, opts)
	if err != nil {
		return nil, err
	}
	wb, err := reports.BundleWorkbook(b, opts.Warnings)
	if err != nil {
		return nil, err
	}
	var xlsx bytes.Buffer
	if err := wb.Write(&xlsx); err != nil {
		return nil, err
	}
	files := []File{{Path: ReportHTMLPath, Data: html}, {Path: ReportXLSXPath, Data: xlsx.Bytes()}}
	for _, f := range figs {
		files = append(files, File{Path: FiguresDir + "/" + f.Name + ".svg", Data: f.SVG})
	}
	return &Export{Files: files}, nil
}
