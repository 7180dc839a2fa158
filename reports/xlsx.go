package reports

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/capplan/capplan/internal/atomicfile"
)

// DefaultWorkbookTime is the creation and modification time recorded in a
// workbook whose properties give none. Plan documents carry no wall-clock
// time, and a fixed timestamp keeps identical documents byte-identical as
// workbooks. It is the zip epoch, the earliest time the container can hold.
var DefaultWorkbookTime = time.Date(1980, time.January, 1, 0, 0, 0, 0, time.UTC)

// WorkbookProperties are the document properties of a workbook.
type WorkbookProperties struct {
	Title       string
	Subject     string
	Creator     string // e.g. the plan document's generator
	Description string
	// Time is recorded as both created and modified; the zero value means
	// DefaultWorkbookTime.
	Time time.Time
}

// Column width bounds, in Excel character units. Widths come from the
// longest text in a column plus widthPadding, clamped to this range so that
// short columns stay clickable and long lists do not swallow the screen.
const (
	minColumnWidth = 8
	maxColumnWidth = 60
	widthPadding   = 2
	// numberWidthCap bounds the width a full-precision number asks for:
	// Excel's General format shows at most about 11 significant characters.
	numberWidthCap = 12
)

// Workbook builds an xlsx workbook out of Tables and native charts. Build
// it with NewWorkbook, add sheets with AddTable and charts with
// AddBarChart, then Save or Write it. The output is deterministic: the same
// calls give byte-identical files.
type Workbook struct {
	f            *excelize.File
	sheets       map[string]*sheetInfo
	headerStyle  int
	percentStyle int
}

// Sheet limits. An Excel sheet holds 1,048,576 rows, one of them the
// header, so a table of more rows continues on sheets "NAME (2)", "NAME
// (3)", …, each with the header. A table of more than streamRows rows is
// written through excelize's stream writer, which keeps the sheet as XML
// (a few dozen bytes a cell) instead of a cell object (a few hundred); such
// a sheet can only be added whole.
const (
	maxSheetDataRows = excelize.TotalRows - 1
	streamRows       = 50_000
)

// sheetInfo remembers a table sheet's layout, so charts can refer to its
// columns by header name.
type sheetInfo struct {
	header []string
	rows   int
}

// NewWorkbook starts an empty workbook with the given properties.
func NewWorkbook(props WorkbookProperties) (*Workbook, error) {
	// TmpDir names no directory, so the stream writer of large tables
	// keeps its XML in memory and never leaves a spill file behind (in
	// /tmp) when a run is interrupted.
	f := excelize.NewFile(excelize.Options{TmpDir: filepath.Join(os.DevNull, "capplan-no-spill")})
	ts := props.Time
	if ts.IsZero() {
		ts = DefaultWorkbookTime
	}
	stamp := ts.UTC().Format(time.RFC3339)
	if err := f.SetDocProps(&excelize.DocProperties{
		Title:          props.Title,
		Subject:        props.Subject,
		Creator:        props.Creator,
		LastModifiedBy: props.Creator,
		Description:    props.Description,
		Created:        stamp,
		Modified:       stamp,
	}); err != nil {
		return nil, fmt.Errorf("reports: workbook properties: %w", err)
	}
	header, err := f.NewStyle(&excelize.Style{
		Font:   &excelize.Font{Bold: true},
		Fill:   excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"#D9E1F2"}},
		Border: []excelize.Border{{Type: "bottom", Color: "#8EA9DB", Style: 1}},
	})
	if err != nil {
		return nil, fmt.Errorf("reports: workbook styles: %w", err)
	}
	// Built-in number format 10 is "0.00%".
	pct, err := f.NewStyle(&excelize.Style{NumFmt: 10})
	if err != nil {
		return nil, fmt.Errorf("reports: workbook styles: %w", err)
	}
	return &Workbook{f: f, sheets: map[string]*sheetInfo{}, headerStyle: header, percentStyle: pct}, nil
}

// Excel gives access to the underlying excelize file, for features the
// builder does not wrap.
func (wb *Workbook) Excel() *excelize.File { return wb.f }

// Sheets lists the sheets added so far, in workbook order.
func (wb *Workbook) Sheets() []string {
	if len(wb.sheets) == 0 {
		return nil // only excelize's placeholder sheet exists
	}
	return wb.f.GetSheetList()
}

// AddTable adds a sheet holding the table: a bold header row, frozen so it
// stays in view, with an autofilter over the table, then one row per table
// row with typed cells (see Table): numbers as numbers at full precision,
// Percent values as numbers in a percent format, booleans as booleans,
// missing values as empty cells. Column widths follow the content. The
// table's title is not written (the sheet name labels it). The first sheet
// added becomes the active one.
func (wb *Workbook) AddTable(sheet string, t Table) error {
	if err := t.check(); err != nil {
		return err
	}
	if len(t.Header) == 0 {
		return fmt.Errorf("reports: sheet %q: table has no columns", sheet)
	}
	if len(t.Header) > excelize.MaxColumns {
		return fmt.Errorf("reports: sheet %q: %d columns, more than a sheet holds (%d)", sheet, len(t.Header), excelize.MaxColumns)
	}
	if len(t.Rows) > streamRows {
		return wb.streamTable(sheet, t)
	}
	if err := wb.newSheet(sheet); err != nil {
		return err
	}
	f := wb.f
	for j, h := range t.Header {
		if err := f.SetCellStr(sheet, cellName(j, 0), h); err != nil {
			return fmt.Errorf("reports: sheet %q: %w", sheet, err)
		}
	}
	last := cellName(len(t.Header)-1, 0)
	if err := f.SetCellStyle(sheet, "A1", last, wb.headerStyle); err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	widths := make([]int, len(t.Header))
	for j, h := range t.Header {
		widths[j] = utf8.RuneCountInString(h)
	}
	for i := range t.Rows {
		for j := range t.Header {
			ref := cellName(j, i+1)
			v := t.value(i, j)
			if err := wb.setCell(sheet, ref, v); err != nil {
				return fmt.Errorf("reports: sheet %q: cell %s: %w", sheet, ref, err)
			}
			widths[j] = max(widths[j], displayWidth(t.Rows[i][j], v))
		}
	}
	for j, w := range widths {
		col, _ := excelize.ColumnNumberToName(j + 1)
		width := float64(min(max(w+widthPadding, minColumnWidth), maxColumnWidth))
		if err := f.SetColWidth(sheet, col, col, width); err != nil {
			return fmt.Errorf("reports: sheet %q: %w", sheet, err)
		}
	}
	if err := f.SetPanes(sheet, &excelize.Panes{
		Freeze:      true,
		YSplit:      1,
		TopLeftCell: "A2",
		ActivePane:  "bottomLeft",
		Selection:   []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}},
	}); err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	filter := "A1:" + cellName(len(t.Header)-1, max(len(t.Rows), 1))
	if err := f.AutoFilter(sheet, filter, nil); err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	wb.sheets[sheet] = &sheetInfo{header: slices.Clone(t.Header), rows: len(t.Rows)}
	return nil
}

// streamTable adds a large table like AddTable, through excelize's stream
// writer, continued on further sheets past maxSheetDataRows rows.
func (wb *Workbook) streamTable(sheet string, t Table) error {
	parts := (len(t.Rows) + maxSheetDataRows - 1) / maxSheetDataRows
	names := []string{sheet}
	for k := 2; k <= parts; k++ {
		suffix := fmt.Sprintf(" (%d)", k)
		base := []rune(sheet)
		if room := maxSheetName - utf8.RuneCountInString(suffix); len(base) > room {
			base = base[:room]
		}
		names = append(names, string(base)+suffix)
	}
	widths := make([]int, len(t.Header))
	for j, h := range t.Header {
		widths[j] = utf8.RuneCountInString(h)
	}
	for i := range t.Rows {
		for j := range t.Header {
			widths[j] = max(widths[j], displayWidth(t.Rows[i][j], t.value(i, j)))
		}
	}
	header := make([]any, len(t.Header))
	for j, h := range t.Header {
		header[j] = excelize.Cell{StyleID: wb.headerStyle, Value: h}
	}
	for k, name := range names {
		lo, hi := k*maxSheetDataRows, min((k+1)*maxSheetDataRows, len(t.Rows))
		if err := wb.streamSheet(name, t, header, widths, lo, hi); err != nil {
			return err
		}
	}
	return nil
}

// maxSheetName is the longest sheet name Excel accepts.
const maxSheetName = 31

// streamSheet writes rows lo … hi−1 of t, under the header, as one sheet.
func (wb *Workbook) streamSheet(sheet string, t Table, header []any, widths []int, lo, hi int) error {
	if err := wb.newSheet(sheet); err != nil {
		return err
	}
	f := wb.f
	filter := "A1:" + cellName(len(t.Header)-1, max(hi-lo, 1))
	if err := f.AutoFilter(sheet, filter, nil); err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	for j, w := range widths {
		width := float64(min(max(w+widthPadding, minColumnWidth), maxColumnWidth))
		if err := sw.SetColWidth(j+1, j+1, width); err != nil {
			return fmt.Errorf("reports: sheet %q: %w", sheet, err)
		}
	}
	if err := sw.SetPanes(&excelize.Panes{
		Freeze:      true,
		YSplit:      1,
		TopLeftCell: "A2",
		ActivePane:  "bottomLeft",
		Selection:   []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}},
	}); err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	if err := sw.SetRow("A1", header); err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	row := make([]any, len(t.Header))
	for i := lo; i < hi; i++ {
		for j := range t.Header {
			row[j] = wb.streamValue(t.value(i, j))
		}
		if err := sw.SetRow(cellName(0, i-lo+1), row); err != nil {
			return fmt.Errorf("reports: sheet %q: row %d: %w", sheet, i-lo+2, err)
		}
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	wb.sheets[sheet] = &sheetInfo{header: slices.Clone(t.Header), rows: hi - lo}
	return nil
}

// streamValue is setCell's typed value for the stream writer.
func (wb *Workbook) streamValue(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return FormatFloat(x)
		}
	case Percent:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return FormatFloat(float64(x))
		}
		return excelize.Cell{StyleID: wb.percentStyle, Value: float64(x)}
	}
	return v
}

// newSheet creates a sheet; the first one replaces excelize's default sheet.
func (wb *Workbook) newSheet(sheet string) error {
	// Excel compares sheet names without regard to case.
	for name := range wb.sheets {
		if strings.EqualFold(name, sheet) {
			return fmt.Errorf("reports: sheet %q already exists", sheet)
		}
	}
	if len(wb.sheets) == 0 {
		first := wb.f.GetSheetList()[0]
		if err := wb.f.SetSheetName(first, sheet); err != nil {
			return fmt.Errorf("reports: sheet %q: %w", sheet, err)
		}
		return nil
	}
	if _, err := wb.f.NewSheet(sheet); err != nil {
		return fmt.Errorf("reports: sheet %q: %w", sheet, err)
	}
	return nil
}

// setCell writes one typed value.
func (wb *Workbook) setCell(sheet, ref string, v any) error {
	switch x := v.(type) {
	case nil:
		return nil // an absent value is an empty cell
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return wb.f.SetCellStr(sheet, ref, FormatFloat(x))
		}
		return wb.f.SetCellFloat(sheet, ref, x, -1, 64)
	case Percent:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return wb.f.SetCellStr(sheet, ref, FormatFloat(float64(x)))
		}
		if err := wb.f.SetCellFloat(sheet, ref, float64(x), -1, 64); err != nil {
			return err
		}
		return wb.f.SetCellStyle(sheet, ref, ref, wb.percentStyle)
	case string:
		return wb.f.SetCellStr(sheet, ref, x)
	default:
		return wb.f.SetCellValue(sheet, ref, x)
	}
}

// displayWidth estimates the characters a cell needs on screen.
func displayWidth(text string, v any) int {
	n := utf8.RuneCountInString(text)
	switch x := v.(type) {
	case float64:
		n = max(n, min(len(FormatFloat(x)), numberWidthCap))
	case Percent:
		n = max(n, len(FormatPercent(float64(x))))
	}
	return n
}

// cellName is the A1 reference of zero-based column j and row i, within
// Excel's 16,384 columns and 1,048,576 rows (AddTable keeps to them).
func cellName(j, i int) string {
	ref, err := excelize.CoordinatesToCellName(j+1, i+1)
	if err != nil {
		panic(fmt.Sprintf("reports: cell (%d, %d): %v", j, i, err))
	}
	return ref
}

// Write writes the workbook in xlsx format.
func (wb *Workbook) Write(w io.Writer) error {
	if len(wb.sheets) == 0 {
		return errors.New("reports: workbook has no sheets")
	}
	wb.sortContentTypes()
	if _, err := wb.f.WriteTo(w); err != nil {
		return fmt.Errorf("reports: write workbook: %w", err)
	}
	return nil
}

// sortContentTypes puts the default content types of the package in a
// fixed order. excelize adds the image types (when a chart or picture is
// added) by ranging over a map, so without this their order, and the
// file's bytes, would vary from run to run.
func (wb *Workbook) sortContentTypes() {
	ct := wb.f.ContentTypes
	if ct == nil {
		return
	}
	rank := func(ext string) int {
		switch ext {
		case "rels":
			return 0
		case "xml":
			return 1
		}
		return 2
	}
	d := ct.Defaults
	sort.SliceStable(d, func(i, j int) bool {
		if ri, rj := rank(d[i].Extension), rank(d[j].Extension); ri != rj {
			return ri < rj
		}
		return d[i].Extension < d[j].Extension
	})
}

// Save writes the workbook to path atomically (see atomicfile.Write).
func (wb *Workbook) Save(path string) error {
	return atomicfile.Write(path, wb.Write)
}
