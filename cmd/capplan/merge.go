package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
)

// mergeOptions are the flags of `capplan merge`.
type mergeOptions struct {
	io     *ioStreams
	run    pipeline.MergeOptions
	output outputOptions
}

func newMergeCmd(io *ioStreams) *cobra.Command {
	opts := &mergeOptions{io: io}
	cmd := &cobra.Command{
		Use:   "merge {<dir> | <part.json>}... [-o <out>] [flags]",
		Short: "Merge the parts of a sharded run into the document one unsharded run writes",
		Long: `Merge the part files that the N shards of a sharded run wrote (capplan sweep,
dag schedule, dag bounds or dag check with --shard or --shard-from-env) into the
document the same run writes unsharded, byte for byte.

Arguments are part files or directories holding them (NAME-part-I-of-N.json,
directly or in a parts/ subdirectory). Merging refuses, with a message naming
the files, parts of different runs (other inputs, flags or capplan versions,
checked against the digests every part carries), a missing or repeated shard,
and slices that do not cover every item once; nothing is written then.

Output is that of the command that wrote the parts: a table, --json, --csv,
-o FILE (by extension), --xlsx. For a sweep, -o DIR (a path without a .json,
.csv, .xlsx or .txt extension) writes DIR/sweep.json, DIR/sweep.xlsx and
DIR/figures/, as an unsharded 'capplan sweep -o DIR' does.`,
		Example: `  capplan merge parts/ -o schedule.json      # the parts of dag schedule --shard i/N -o parts/
  capplan merge out/ -o out/                 # a sweep's parts: sweep.json, sweep.xlsx, figures/
  capplan dag bounds --example --machines 4 --shard 0/2 -o .    # writes bounds-part-0-of-2.json
  capplan dag bounds --example --machines 4 --shard 1/2 -o .
  capplan merge bounds-part-*-of-2.json --csv                   # = capplan dag bounds --example --machines 4 --csv`,
		Args: wrapArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.run.Paths = args
			return mergeRun(opts)
		},
	}
	opts.output.bind(cmd.Flags(), "merged")
	return cmd
}

// isSweepDir reports whether out names a directory for a sweep's outputs
// rather than a file (it has none of the output extensions).
func isSweepDir(out string) bool {
	switch strings.ToLower(filepath.Ext(out)) {
	case ".json", ".csv", ".xlsx", ".txt", ".tsv":
		return false
	}
	return out != ""
}

func mergeRun(o *mergeOptions) error {
	sweepDir := isSweepDir(o.output.Out)
	if !sweepDir {
		if err := o.output.validate(); err != nil {
			return err
		}
	}
	res, err := pipeline.Merge(o.run)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.io.ErrOut, "capplan: merged %d parts into a %s\n", res.Parts, res.Kind)
	var v views
	switch doc := res.Doc.(type) {
	case *plan.SimulationSweep:
		if sweepDir {
			if o.output.JSON || o.output.CSV || o.output.XLSX != "" {
				return usageErrorf("-o DIR writes the sweep's files; --json, --csv and --xlsx go with -o FILE")
			}
			return writeSweepOutputs(o.io, o.output.Out, doc, false)
		}
		v = views{doc: doc,
			text:     func(w io.Writer, terminal bool) error { return reports.WriteSweepText(w, doc, terminal) },
			csv:      func(w io.Writer) error { return reports.WriteSweepCSV(w, doc) },
			workbook: func() (*reports.Workbook, error) { return reports.SweepWorkbook(doc) }}
	case *plan.DAGSchedule:
		v = views{doc: doc,
			text:     func(w io.Writer, terminal bool) error { return reports.WriteDAGScheduleText(w, doc, terminal) },
			csv:      func(w io.Writer) error { return reports.WriteDAGScheduleCSV(w, doc) },
			workbook: func() (*reports.Workbook, error) { return reports.DAGScheduleWorkbook(doc) }}
	case *plan.DAGBounds:
		v = views{doc: doc,
			text: func(w io.Writer, terminal bool) error { return reports.WriteDAGBoundsText(w, doc, terminal) },
			csv: func(w io.Writer) error {
				t := reports.DAGBoundsCSVTable(doc)
				return t.WriteCSV(w)
			},
			workbook: func() (*reports.Workbook, error) { return reports.DAGBoundsWorkbook(doc) }}
	case *plan.DAGCheck:
		v = views{doc: doc,
			text: func(w io.Writer, terminal bool) error { return reports.WriteDAGCheckText(w, doc, terminal) },
			csv: func(w io.Writer) error {
				t := reports.DAGCheckCSVTable(doc)
				return t.WriteCSV(w)
			},
			workbook: func() (*reports.Workbook, error) { return reports.DAGCheckWorkbook(doc) }}
	default:
		return fmt.Errorf("internal error: merged a %T", res.Doc)
	}
	if sweepDir {
		return usageErrorf("-o %s: the parts merge into a %s; give a file (.json, .csv, .xlsx or .txt)", o.output.Out, res.Kind)
	}
	if err := o.output.write(o.io, v); err != nil {
		return err
	}
	if doc, ok := res.Doc.(*plan.DAGCheck); ok && doc.Summary.Violations > 0 {
		// As `capplan dag check`: exit status 1 when the schedule breaks
		// a constraint (the shards themselves exit 0).
		path := "the schedule"
		for _, in := range doc.Inputs {
			if in.Role == "schedule" {
				path = in.Path
			}
		}
		return &dagViolationsError{path: path, violations: doc.Summary.Violations, infeasible: doc.Summary.Jobs - doc.Summary.Feasible, total: doc.Summary.Jobs}
	}
	return nil
}
