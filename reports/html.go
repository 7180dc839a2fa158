package reports

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"

	"github.com/capplan/capplan/plan"
)

// HTMLOptions adjust the HTML report.
type HTMLOptions struct {
	// Warnings are listed after the bundle's own (such as the exports').
	Warnings []string
	// CommandLine reproduces the report when the bundle has no index (a
	// report of loose documents); the index's command line wins.
	CommandLine []string
	// Figures, when not nil, are the figures to show (so a caller that
	// also writes them as files draws them once); nil draws Figures(b).
	Figures []Figure
}

// maxHTMLRows bounds the rows a table shows in the HTML report; the
// workbook holds every row.
const maxHTMLRows = 200

// HTMLReport renders the bundle as one self-contained HTML page: the
// summary (key figures with units), a prominent warnings section, each
// step's table and figures (inline SVG), the quality evidence (the fair
// shares' certificate, the gaps to every lower bound, λ against its upper
// bound) and the exact command that reproduces the bundle. Styles are
// inline; the page loads nothing (its Content-Security-Policy forbids any
// fetch) and runs no script. Identical documents give identical bytes.
func HTMLReport(b *plan.Bundle, opts HTMLOptions) ([]byte, error) {
	h := bundleHeader(b)
	if h == nil {
		return nil, fmt.Errorf("reports: the bundle has no documents")
	}
	figs := opts.Figures
	if figs == nil {
		var err error
		if figs, err = Figures(b); err != nil {
			return nil, err
		}
	}
	warnings := BundleWarnings(b, opts.Warnings)
	cmd := opts.CommandLine
	if b.Plan != nil && len(b.Plan.CommandLine) > 0 {
		cmd = b.Plan.CommandLine
	}
	page := htmlPage{
		Generator: h.Generator,
		Inputs:    h.Inputs,
		Summary:   htmlTableOf(SummaryTable(b, len(warnings))),
		Warnings:  warnings,
		Evidence:  Evidence(b),
		Command:   shellJoin(cmd),
	}
	byStep := figuresByStep(figs)
	for _, t := range StepTables(b) {
		s := htmlStep{ID: "step-" + fileSafe(strings.ToLower(strings.ReplaceAll(t.Sheet, " ", "-"))), Table: htmlTableOf(t)}
		for _, f := range byStep[t.Sheet] {
			s.Figures = append(s.Figures, htmlFigure{ID: "fig-" + f.Name, Title: f.Title, Caption: f.Caption, SVG: inlineSVG(f.SVG)})
		}
		page.Steps = append(page.Steps, s)
	}
	var buf bytes.Buffer
	if err := htmlTemplate.Execute(&buf, page); err != nil {
		return nil, fmt.Errorf("reports: HTML report: %w", err)
	}
	return buf.Bytes(), nil
}

// figuresByStep files each figure under the sheet of the step it
// illustrates, by its name.
func figuresByStep(figs []Figure) map[string][]Figure {
	out := map[string][]Figure{}
	for _, f := range figs {
		var sheet string
		switch {
		case f.Name == "shares":
			sheet = "Fair shares"
		case strings.HasPrefix(f.Name, "shapes-"):
			sheet = "Shapes"
		case strings.HasPrefix(f.Name, "packing-"):
			sheet = "Ownership"
		case f.Name == "sizing":
			sheet = "Sizing"
		case strings.HasPrefix(f.Name, "gantt-"):
			sheet = "DAG schedules"
		case strings.HasPrefix(f.Name, simFigurePrefix+"shares-"), strings.HasPrefix(f.Name, simFigurePrefix+"xsight-"):
			sheet = simulationSharesSheet
		case strings.HasPrefix(f.Name, simFigurePrefix):
			sheet = simulationSheet
		}
		out[sheet] = append(out[sheet], f)
	}
	return out
}

// inlineSVG drops the XML declaration and comments before the <svg>
// element, so the figure can sit inside HTML.
func inlineSVG(svg []byte) template.HTML {
	s := string(svg)
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	// The SVG comes from gonum/plot, which escapes all text it draws.
	return template.HTML(s) //nolint:gosec
}

// shellJoin quotes a command line for a POSIX shell, leaving plain words
// as they are.
func shellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=,:@%+") == "" {
			out[i] = a
		} else {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

type htmlPage struct {
	Generator string
	Inputs    []plan.Input
	Summary   htmlTable
	Warnings  []string
	Steps     []htmlStep
	Evidence  []string
	Command   string
}

type htmlStep struct {
	ID      string
	Table   htmlTable
	Figures []htmlFigure
}

type htmlFigure struct {
	ID, Title, Caption string
	SVG                template.HTML
}

type htmlTable struct {
	Title, Note string
	Header      []string
	Numeric     []bool
	Rows        [][]string
	// Hidden counts the rows left out (see maxHTMLRows).
	Hidden int
}

// htmlTableOf renders a step table's cells as text, at most maxHTMLRows
// rows.
func htmlTableOf(t StepTable) htmlTable {
	ht := htmlTable{Title: t.Title, Note: t.Note}
	for _, c := range t.Columns {
		ht.Header = append(ht.Header, c.Header)
		ht.Numeric = append(ht.Numeric, c.Format != ShowText && c.Format != ShowYesNo)
	}
	for i := range t.Rows {
		if i == maxHTMLRows {
			ht.Hidden = len(t.Rows) - maxHTMLRows
			break
		}
		row := make([]string, len(t.Columns))
		for j := range t.Columns {
			v, f := t.cell(i, j)
			row[j] = f.Text(v)
		}
		ht.Rows = append(ht.Rows, row)
	}
	return ht
}
