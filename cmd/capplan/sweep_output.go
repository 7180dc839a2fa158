package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
	"github.com/spf13/pflag"
)

// writeSweepOutputs writes a sweep's summary into dir (sweep.json,
// sweep.xlsx, figures/) and, with table, prints its table to stdout.
func writeSweepOutputs(streams *ioStreams, dir string, doc *plan.SimulationSweep, table bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	if err := writeTo(nil, filepath.Join(dir, sweepDocFile), func(w io.Writer) error { return reports.WriteJSON(w, doc) }); err != nil {
		return err
	}
	wb, err := reports.SweepWorkbook(doc)
	if err != nil {
		return err
	}
	if err := writeTo(nil, filepath.Join(dir, sweepXLSXFile), wb.Write); err != nil {
		return err
	}
	figs, err := reports.SweepFigures(doc)
	if err != nil {
		return err
	}
	if err := writeFigures(filepath.Join(dir, sweepFiguresDir), figs); err != nil {
		return err
	}
	if table {
		return reports.WriteSweepText(streams.Out, doc, streams.OutTerminal)
	}
	return nil
}

// cellDir is the cell store of a sweep's output directory: one
// SimulationResult per cell, cells/<id>.json, written atomically.
type cellDir struct{ dir string }

func (c *cellDir) path(id string) string { return filepath.Join(c.dir, id+".json") }

// Load implements pipeline.CellStore.
func (c *cellDir) Load(id string) ([]byte, bool, error) {
	data, err := os.ReadFile(c.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", c.path(id), err)
	}
	return data, true, nil
}

// Save implements pipeline.CellStore.
func (c *cellDir) Save(id string, doc *plan.SimulationResult) error {
	return writeTo(nil, c.path(id), func(w io.Writer) error { return reports.WriteJSON(w, doc) })
}

// flagValue is a flag's value as given: lists joined by commas.
func flagValue(f *pflag.Flag) string {
	if sv, ok := f.Value.(pflag.SliceValue); ok {
		return strings.Join(sv.GetSlice(), ",")
	}
	return f.Value.String()
}
