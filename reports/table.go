package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Align is a column's alignment in text views.
type Align int

const (
	// AlignLeft suits names and other text (the zero value).
	AlignLeft Align = iota
	// AlignRight suits numbers, so that their digits line up.
	AlignRight
)

// Percent is a fraction (0.25 means 25%) that views show as a percentage:
// text views print "25%", spreadsheets store 0.25 with a percent format and
// CSV stores the plain fraction.
type Percent float64

// Table is a view-neutral table: the common form that terminal tables,
// tab-separated text, CSV and workbook sheets are rendered from.
//
// Rows holds the text every text view prints. Values, when set, is parallel
// to Rows and holds each cell's typed value (float64, int64, int, Percent,
// bool, string, or nil for a missing value), so that spreadsheets store
// numbers as numbers at full precision; a nil row of Values (or a nil
// Values) falls back to the text. AddRow keeps the two in step.
type Table struct {
	Title  string
	Header []string
	// Align gives each column's alignment; missing entries are AlignLeft.
	Align  []Align
	Rows   [][]string
	Values [][]any
	// sheet is each column's spreadsheet unit, scale and number format,
	// taken by AddRow from the first cell that names them (QuantityCell,
	// SecondsCell, IntCell, PercentCell, ...); cells keeps every cell's
	// own, for columns whose rows differ in kind (key/value tables).
	sheet []sheetColumn
	cells [][]sheetColumn
}

// sheetColumn is how a workbook shows a column: the unit its header names
// ("cores", "GiB", "hours"), the factor from the table's base units to it
// (0: as is), and the number format.
type sheetColumn struct {
	unit   string
	scale  float64
	format NumberFormat
	set    bool
}

// Cell is one table cell: Text for text views and Value, the typed value
// for spreadsheets and CSV (nil for a missing value).
type Cell struct {
	Text  string
	Value any
	// sheet, when set, says how a workbook shows the cell's column.
	sheet sheetColumn
}

// TextCell is a text cell.
func TextCell(s string) Cell { return Cell{Text: s, Value: s} }

// NumberCell is a number, printed by FormatNumber (workbooks: four
// decimals).
func NumberCell(x float64) Cell {
	return Cell{Text: FormatNumber(x), Value: x, sheet: sheetColumn{format: ShowDecimal4, set: true}}
}

// SecondsCell is a duration or time in seconds, printed by FormatNumber;
// workbooks show it in hours.
func SecondsCell(x float64) Cell {
	return Cell{Text: FormatNumber(x), Value: x, sheet: sheetColumn{unit: "hours", scale: 1.0 / 3600, format: ShowDecimal4, set: true}}
}

// QuantityCell is an amount of the named resource in base units. Byte
// resources (memory, storage) of at least 1Ki show in the largest binary
// unit they reach (128Gi, 1.5Ti, 288.7811Ti), to four decimals; the
// cell's value stays the number of bytes. Workbooks show the column in the
// resource's unit (ResourceUnit: GiB for bytes, cores for cpu).
func QuantityCell(res string, x float64) Cell {
	c := NumberCell(x)
	unit, scale := ResourceUnit(res)
	c.sheet = sheetColumn{unit: unit, scale: scale, format: ShowDecimal2, set: true}
	if !isByteResource(res) || math.Abs(x) < 1024 || math.IsInf(x, 0) {
		return c
	}
	units := []string{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
	u := 0
	for u+1 < len(units) && math.Abs(x) >= math.Pow(1024, float64(u+2)) {
		u++
	}
	c.Text = FormatNumber(x/math.Pow(1024, float64(u+1))) + units[u]
	return c
}

// ResourceUnit is the unit a workbook shows a resource in, and the factor
// from its base unit: GiB (bytes / 2³⁰) for memory and storage, cores for
// cpu, GPUs for a gpu resource, pods for pods, else "count" (an extended
// resource's own unit).
func ResourceUnit(res string) (unit string, scale float64) {
	switch {
	case isByteResource(res):
		return "GiB", 1.0 / (1 << 30)
	case res == "cpu":
		return "cores", 1
	case strings.Contains(res, "gpu"):
		return "GPUs", 1
	case res == "pods":
		return "pods", 1
	}
	return "count", 1
}

func isByteResource(name string) bool {
	return strings.Contains(name, "memory") || strings.Contains(name, "storage")
}

// SigCell is a number shown to four significant digits (for small
// normalised quantities such as a shape's share of the cluster).
func SigCell(x float64) Cell {
	return Cell{Text: strconv.FormatFloat(x, 'g', 4, 64), Value: x, sheet: sheetColumn{format: ShowScientific, set: true}}
}

// IntCell is an integer.
func IntCell(n int64) Cell {
	return Cell{Text: strconv.FormatInt(n, 10), Value: n, sheet: sheetColumn{format: ShowInteger, set: true}}
}

// PercentCell is a fraction shown as a percentage, printed by FormatPercent.
func PercentCell(frac float64) Cell {
	return Cell{Text: FormatPercent(frac), Value: Percent(frac), sheet: sheetColumn{format: ShowPercent, set: true}}
}

// BoolCell is a yes/no flag.
func BoolCell(b bool) Cell {
	if b {
		return Cell{Text: "yes", Value: true, sheet: sheetColumn{format: ShowYesNo, set: true}}
	}
	return Cell{Text: "no", Value: false, sheet: sheetColumn{format: ShowYesNo, set: true}}
}

// MissingCell is an absent value, printed as text (e.g. "-") in text views
// and left empty in CSV and spreadsheets.
func MissingCell(text string) Cell { return Cell{Text: text} }

// AddRow appends a row of cells. It panics if the number of cells differs
// from the number of header columns, which is a programming error.
func (t *Table) AddRow(cells ...Cell) {
	if len(cells) != len(t.Header) {
		panic(fmt.Sprintf("reports: table %q: row has %d cells, header has %d", t.Title, len(cells), len(t.Header)))
	}
	if t.Values == nil && len(t.Rows) > 0 {
		// Rows added without values keep falling back to their text.
		t.Values = make([][]any, len(t.Rows))
	}
	text := make([]string, len(cells))
	vals := make([]any, len(cells))
	if t.sheet == nil {
		t.sheet = make([]sheetColumn, len(t.Header))
	}
	hints := make([]sheetColumn, len(cells))
	for i, c := range cells {
		text[i], vals[i], hints[i] = c.Text, c.Value, c.sheet
		if !t.sheet[i].set && c.sheet.set && c.Value != nil {
			t.sheet[i] = c.sheet
		}
	}
	for len(t.cells) < len(t.Rows) {
		t.cells = append(t.cells, nil) // rows added without cells
	}
	t.Rows = append(t.Rows, text)
	t.Values = append(t.Values, vals)
	t.cells = append(t.cells, hints)
}

// align returns column j's alignment.
func (t *Table) align(j int) Align {
	if j < len(t.Align) {
		return t.Align[j]
	}
	return AlignLeft
}

// value returns the typed value of cell (i, j). A cell without a typed
// value yields its text, or, in a right-aligned column, the number its text
// parses as.
func (t *Table) value(i, j int) any {
	if i < len(t.Values) && t.Values[i] != nil {
		return t.Values[i][j]
	}
	s := t.Rows[i][j]
	if t.align(j) == AlignRight {
		if x, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(x, 0) && !math.IsNaN(x) {
			return x
		}
	}
	return s
}

// check reports a table whose rows do not match its header.
func (t *Table) check() error {
	if t.Values != nil && len(t.Values) != len(t.Rows) {
		return fmt.Errorf("reports: table %q: %d rows but %d value rows", t.Title, len(t.Rows), len(t.Values))
	}
	for i, r := range t.Rows {
		if len(r) != len(t.Header) {
			return fmt.Errorf("reports: table %q: row %d has %d cells, header has %d", t.Title, i+1, len(r), len(t.Header))
		}
		if i < len(t.Values) && t.Values[i] != nil && len(t.Values[i]) != len(r) {
			return fmt.Errorf("reports: table %q: row %d has %d values, want %d", t.Title, i+1, len(t.Values[i]), len(r))
		}
	}
	return nil
}

// Render writes the table for people or for programs. On a terminal it
// prints the title line and an aligned table with upper-case headers and no
// borders, numbers right-aligned, like `kubectl get`. Anywhere else it
// prints stable tab-separated text: the title as a "# " comment line, the
// header line, then one line per row; tabs and newlines inside cells become
// spaces. An empty title prints no title line.
func (t *Table) Render(w io.Writer, terminal bool) error {
	if err := t.check(); err != nil {
		return err
	}
	if terminal {
		return t.renderTerminal(w)
	}
	return t.renderTSV(w)
}

func (t *Table) renderTSV(w io.Writer) error {
	var b strings.Builder
	if t.Title != "" {
		b.WriteString("# " + tsvField(t.Title) + "\n")
	}
	writeTSVLine(&b, t.Header)
	for _, r := range t.Rows {
		writeTSVLine(&b, r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeTSVLine(b *strings.Builder, fields []string) {
	for j, f := range fields {
		if j > 0 {
			b.WriteByte('\t')
		}
		b.WriteString(tsvField(f))
	}
	b.WriteByte('\n')
}

// tsvField keeps a field on its line and in its column.
var tsvField = strings.NewReplacer("\t", " ", "\r\n", " ", "\n", " ", "\r", " ").Replace

// columnGap separates the columns of a terminal table.
const columnGap = "   "

func (t *Table) renderTerminal(w io.Writer) error {
	var buf strings.Builder
	if t.Title != "" {
		buf.WriteString(tsvField(t.Title) + "\n")
	}
	aligns := make([]tw.Align, len(t.Header))
	header := make([]any, len(t.Header))
	for j, h := range t.Header {
		aligns[j] = tw.AlignLeft
		if t.align(j) == AlignRight {
			aligns[j] = tw.AlignRight
		}
		header[j] = strings.ToUpper(tsvField(h))
	}
	// Each cell gets the column gap on its right; the gap after the last
	// column is trimmed below, so lines carry no trailing blanks.
	pad := tw.CellPadding{Global: tw.Padding{Left: tw.Empty, Right: columnGap, Overwrite: true}}
	section := func() tw.CellConfig {
		return tw.CellConfig{
			Formatting: tw.CellFormatting{AutoWrap: tw.WrapNone, AutoFormat: tw.Off},
			Padding:    pad,
			Alignment:  tw.CellAlignment{Global: tw.AlignLeft, PerColumn: aligns},
		}
	}
	var out strings.Builder
	tbl := tablewriter.NewTable(&out,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders:  tw.BorderNone,
			Symbols:  tw.NewSymbols(tw.StyleNone),
			Settings: tw.Settings{Separators: tw.SeparatorsNone, Lines: tw.LinesNone},
		})),
		tablewriter.WithConfig(tablewriter.Config{
			Header:   section(),
			Row:      section(),
			Behavior: tw.Behavior{TrimSpace: tw.Off, TrimTab: tw.Off, TrimLine: tw.Off},
		}),
	)
	tbl.Header(header...)
	for _, r := range t.Rows {
		cells := make([]string, len(r))
		for j, c := range r {
			cells[j] = tsvField(c)
		}
		if err := tbl.Append(cells); err != nil {
			return fmt.Errorf("reports: table %q: %w", t.Title, err)
		}
	}
	if err := tbl.Render(); err != nil {
		return fmt.Errorf("reports: table %q: %w", t.Title, err)
	}
	for _, line := range strings.SplitAfter(out.String(), "\n") {
		if line == "" {
			continue
		}
		buf.WriteString(strings.TrimRight(line, " \n") + "\n")
	}
	_, err := io.WriteString(w, buf.String())
	return err
}

// WriteCSV writes the table as CSV (encoding/csv): the header row, then one
// record per row. Typed values are written in full precision (numbers by
// FormatFloat, a Percent as its fraction, booleans as true/false) and a
// missing value as an empty field; untyped cells are written as their text.
// The title is not written.
func (t *Table) WriteCSV(w io.Writer) error {
	if err := t.check(); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Header); err != nil {
		return err
	}
	rec := make([]string, len(t.Header))
	for i := range t.Rows {
		for j := range rec {
			rec[j] = csvField(t.value(i, j))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvField formats a typed value for CSV.
func csvField(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return FormatFloat(x)
	case Percent:
		return FormatFloat(float64(x))
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case bool:
		return strconv.FormatBool(x)
	default:
		return fmt.Sprint(x)
	}
}

// numberDigits is the number of decimals FormatNumber keeps: enough to tell
// thirds and quarters of a machine apart in a table, few enough to read.
const numberDigits = 4

// percentDigits is the number of decimals FormatPercent keeps.
const percentDigits = 2

// FormatNumber formats x for people: at most four decimals, trailing zeros
// and a trailing point trimmed (1.5, 3, 0.3333), never an exponent, and
// never "-0". It is deterministic (strconv rounding, no locale).
func FormatNumber(x float64) string { return formatTrimmed(x, numberDigits) }

// FormatPercent formats a fraction as a percentage with at most two
// decimals: 0.75 → "75%", 1/3 → "33.33%".
func FormatPercent(frac float64) string {
	if math.IsNaN(frac) || math.IsInf(frac, 0) {
		return formatTrimmed(frac, percentDigits)
	}
	return formatTrimmed(frac*100, percentDigits) + "%"
}

// FormatFloat formats x in full precision for data files: the shortest
// decimal that reads back as the same float64, without an exponent.
func FormatFloat(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	if x == 0 {
		return "0" // also for -0
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

func formatTrimmed(x float64, digits int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	s := strconv.FormatFloat(x, 'f', digits, 64)
	if strings.IndexByte(s, '.') >= 0 {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}
