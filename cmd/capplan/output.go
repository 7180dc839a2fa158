package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/capplan/capplan/internal/atomicfile"
	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// outputFormat is how a document is written.
type outputFormat string

const (
	formatTable outputFormat = "table"
	formatJSON  outputFormat = "json"
	formatCSV   outputFormat = "csv"
	formatXLSX  outputFormat = "xlsx"
)

// formatForPath infers the format of -o FILE from its extension.
func formatForPath(path string) (outputFormat, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		return formatJSON, nil
	case ".csv":
		return formatCSV, nil
	case ".xlsx":
		return formatXLSX, nil
	case ".txt", ".tsv":
		return formatTable, nil
	}
	return "", usageErrorf("cannot tell the format of %q from its extension: use .json, .csv, .xlsx or .txt", path)
}

// outputOptions are the output flags every planning command shares.
type outputOptions struct {
	JSON bool
	CSV  bool
	Out  string
	XLSX string
}

func (o *outputOptions) bind(f interface {
	BoolVar(p *bool, name string, value bool, usage string)
	StringVarP(p *string, name, shorthand, value, usage string)
	StringVar(p *string, name, value, usage string)
}, kind string) {
	f.BoolVar(&o.JSON, "json", false, "write the "+kind+" document as JSON to stdout")
	f.BoolVar(&o.CSV, "csv", false, "write the main table as CSV to stdout")
	f.StringVarP(&o.Out, "out", "o", "", "write to `file` (format from extension: .json, .csv, .xlsx, .txt)")
	f.StringVar(&o.XLSX, "xlsx", "", "also write an Excel workbook to `file`")
}

func (o *outputOptions) validate() error {
	switch {
	case o.JSON && o.CSV:
		return usageErrorf("--json and --csv cannot be combined")
	case (o.JSON || o.CSV) && o.Out != "":
		return usageErrorf("--out cannot be combined with --json or --csv")
	}
	if o.Out != "" {
		if _, err := formatForPath(o.Out); err != nil {
			return err
		}
	}
	return nil
}

// views renders one document in each output format.
type views struct {
	doc      any
	text     func(w io.Writer, terminal bool) error
	csv      func(w io.Writer) error
	workbook func() (*reports.Workbook, error)
}

// write writes the document as the flags ask: a table (to a terminal or
// pipe), JSON, CSV, or a file by extension; plus the workbook with --xlsx.
// A workbook is built before anything is written, so that a document it
// cannot hold leaves no output at all.
func (o *outputOptions) write(streams *ioStreams, v views) error {
	if h, ok := v.doc.(interface{ DocumentHeader() *plan.Header }); ok {
		reportInventory(streams, h.DocumentHeader())
	}
	format := formatTable
	switch {
	case o.JSON:
		format = formatJSON
	case o.CSV:
		format = formatCSV
	case o.Out != "":
		format, _ = formatForPath(o.Out)
	}
	var wb *reports.Workbook
	if format == formatXLSX || o.XLSX != "" {
		var err error
		if wb, err = v.workbook(); err != nil {
			return err
		}
	}
	err := writeTo(streams.Out, o.Out, func(w io.Writer) error {
		switch format {
		case formatJSON:
			return reports.WriteJSON(w, v.doc)
		case formatCSV:
			return v.csv(w)
		case formatXLSX:
			return wb.Write(w)
		}
		return v.text(w, o.Out == "" && streams.OutTerminal)
	})
	if err != nil {
		return err
	}
	if o.XLSX != "" {
		if format == formatXLSX { // written once; -o FILE.xlsx --xlsx FILE2
			if wb, err = v.workbook(); err != nil {
				return err
			}
		}
		return writeTo(nil, o.XLSX, wb.Write)
	}
	return nil
}

// reportInventory tells on stderr which nodes of the inventory a document
// leaves out and why, and the notes on how the inputs were read.
func reportInventory(streams *ioStreams, h *plan.Header) {
	if n := len(h.Excluded); n > 0 {
		fmt.Fprintf(streams.ErrOut, "capplan: left out %s of the inventory:\n", plural.Count(n, "node"))
		for _, x := range h.Excluded {
			fmt.Fprintf(streams.ErrOut, "  %s: %s\n", x.Node, x.Reason)
		}
	}
	for _, note := range h.Notes {
		fmt.Fprintf(streams.ErrOut, "capplan: note: %s\n", note)
	}
}

// writeTo writes through fn to path atomically, or to w when path is "".
func writeTo(w io.Writer, path string, fn func(io.Writer) error) error {
	if path == "" {
		return fn(w)
	}
	return atomicfile.Write(path, fn)
}

// writeFigures writes every figure into dir, each atomically.
func writeFigures(dir string, figs []reports.Figure) error {
	if len(figs) == 0 {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range figs {
		data := f.SVG
		if err := writeTo(nil, filepath.Join(dir, f.Name+".svg"), func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
			return err
		}
	}
	return nil
}
