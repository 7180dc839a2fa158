package reports

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

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
)

// Workbook builds an xlsx workbook out of Tables and native charts. Build
// it with NewWorkbook, add sheets with AddTable and charts with
// AddBarChart, then Save or Write it. The output is deterministic: the same
// calls give byte-identical files.
type Workbook struct {
	f           *excelize.File
	sheets      map[string]*sheetInfo
	headerStyle int
	// steps writes every table sheet, with one style per number format.
	steps *stepWriter
	// streamed counts the sheets written through the stream writer (see
	// Write).
	streamed int
}

// sheetInfo remembers a table sheet's layout, so charts can refer to its
// columns by header name.
type sheetInfo struct {
	header []string
	rows   int
}

// noSpill are the excelize options of every workbook: TmpDir names no
// directory, so the stream writer of large tables keeps its XML in memory
// and never leaves a spill file behind (in /tmp) when a run is
// interrupted; the unzip limits keep a re-read workbook (Write) in memory
// too.
var noSpill = excelize.Options{TmpDir: filepath.Join(os.DevNull, "capplan-no-spill"),
	UnzipSizeLimit: 1 << 40, UnzipXMLSizeLimit: 1 << 40}

// NewWorkbook starts an empty workbook with the given properties.
func NewWorkbook(props WorkbookProperties) (*Workbook, error) {
	f := excelize.NewFile(noSpill)
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
	return &Workbook{f: f, sheets: map[string]*sheetInfo{}, headerStyle: header}, nil
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

// AddTable adds a sheet holding the table, written as a step table of
// the bundle report (stepWriter): a bold header row with each column's
// unit ("memory (GiB)", "cpu (cores)", "makespan (hours)"), frozen so it
// stays in view, an autofilter over the table, then one row per table row
// with typed cells: numbers as numbers in the column's unit with a number
// format of at most four decimals (thousands separators, percentages as
// %), booleans as yes/no, missing values as empty cells (sheetTable).
// Column widths follow the content. The table's title is not written (the
// sheet name labels it). The first sheet added becomes the active one.
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
	if wb.steps == nil {
		wb.steps = &stepWriter{wb: wb, styles: map[NumberFormat]int{}}
	}
	return wb.steps.write(t.sheetTable(sheet), 0, true)
}

// addStepTable adds a sheet holding a step table of the bundle report.
func (wb *Workbook) addStepTable(t StepTable) error {
	if wb.steps == nil {
		wb.steps = &stepWriter{wb: wb, styles: map[NumberFormat]int{}}
	}
	return wb.steps.write(t, 0, true)
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

// cellName is the A1 reference of zero-based column j and row i, within
// Excel's 16,384 columns and 1,048,576 rows (the writers keep to them).
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
	if wb.streamed < 2 {
		if _, err := wb.f.WriteTo(w); err != nil {
			return fmt.Errorf("reports: write workbook: %w", err)
		}
		return nil
	}
	// excelize writes streamed sheets in map order: with two or more the
	// file's bytes would vary from run to run. Written once and read back,
	// every part is an ordinary one, and those are written sorted.
	var tmp bytes.Buffer
	if _, err := wb.f.WriteTo(&tmp); err != nil {
		return fmt.Errorf("reports: write workbook: %w", err)
	}
	g, err := excelize.OpenReader(&tmp, noSpill)
	if err != nil {
		return fmt.Errorf("reports: write workbook: %w", err)
	}
	defer g.Close()
	if _, err := g.WriteTo(w); err != nil {
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
