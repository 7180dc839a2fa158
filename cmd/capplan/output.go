package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

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

// writeTo writes through fn to path atomically, or to w when path is "".
func writeTo(w io.Writer, path string, fn func(io.Writer) error) error {
	if path == "" {
		return fn(w)
	}
	if err := reports.WriteFileAtomic(path, fn); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
