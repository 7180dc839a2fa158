package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/export"
	"github.com/capplan/capplan/reports"
)

// reportOptions are the flags of `capplan report`.
type reportOptions struct {
	io *ioStreams

	Bundle string
	Docs   documentPaths
	Out    string
}

func newReportCmd(io *ioStreams) *cobra.Command {
	opts := &reportOptions{io: io}
	cmd := &cobra.Command{
		Use:   "report {<dir> | <plan.json> | --fairshare <file> ...} [-o <dir>]",
		Short: "Render report.html, report.xlsx and SVG figures from plan documents",
		Long: `Render the reports of a plan from its documents, without solving anything:
report.html (one self-contained page: summary, warnings, each step's table and
figure, the quality evidence and the command that reproduces the plan),
report.xlsx (a summary sheet with native charts, then one sheet per step, with
units and number formats) and figures/*.svg.

The documents come from a plan bundle (its directory or its plan.json; every
document is checked against its digest) or from loose documents named by
--fairshare, --shapes, --ownership, --sizing and --dag. The files go to -o, or
for a bundle back into its directory. Files are written atomically.`,
		Example: `  capplan report bundle/
  capplan fairshare --example -o fs.json && capplan dag schedule --example -o dag.json
  capplan report --fairshare fs.json --dag dag.json -o report/`,
		Args: wrapArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Bundle = args[0]
			}
			if err := opts.validate(); err != nil {
				return err
			}
			return reportRun(opts, commandLine(cmd, args))
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Docs.FairShare, "fairshare", "", "FairShare document `file`")
	f.StringVar(&opts.Docs.Shapes, "shapes", "", "ShapeCatalog document `file`")
	f.StringVar(&opts.Docs.Ownership, "ownership", "", "ownership PackingPlan document `file` (capplan pack --shapes)")
	f.StringVar(&opts.Docs.Sizing, "sizing", "", "sizing PackingPlan document `file` (capplan pack --min-nodes)")
	f.StringVar(&opts.Docs.DAG, "dag", "", "DAGSchedule document `file`")
	f.StringVarP(&opts.Out, "out", "o", "", "write the reports under `dir` (default: the bundle's directory)")
	return cmd
}

func (o *reportOptions) validate() error {
	loose := o.Docs != documentPaths{}
	switch {
	case o.Bundle == datasets.Stdin:
		return usageErrorf("a bundle is a directory and cannot come from standard input: give its directory, or a document with --fairshare - (or --shapes -, ...)")
	case o.Bundle != "" && loose:
		return usageErrorf("a bundle cannot be combined with --fairshare, --shapes, --ownership, --sizing or --dag")
	case o.Bundle == "" && !loose:
		return usageErrorf("give a bundle (its directory or plan.json) or documents (--fairshare, --shapes, --ownership, --sizing, --dag)")
	case o.Bundle == "" && o.Out == "":
		return usageErrorf("an output directory is required with loose documents: -o dir")
	}
	return nil
}

// commandLine rebuilds the command as typed: its path, the flags set (in
// name order, each as --name=value, lists comma-separated, so that boolean
// flags read back) and the arguments. It reproduces reports of loose
// documents and plan bundles.
func commandLine(cmd *cobra.Command, args []string) []string {
	line := strings.Fields(cmd.CommandPath())
	cmd.Flags().Visit(func(f *pflag.Flag) {
		value := f.Value.String()
		if s, ok := f.Value.(pflag.SliceValue); ok {
			value = strings.Join(s.GetSlice(), ",")
		}
		line = append(line, "--"+f.Name+"="+value)
	})
	return append(line, args...)
}

// reportRun renders the reports; cmdLine is shown as the way to reproduce
// reports of loose documents (a bundle records its own).
func reportRun(o *reportOptions, cmdLine []string) error {
	b, err := openDocuments(o.Bundle, o.Docs)
	if err != nil {
		return err
	}
	out := o.Out
	if out == "" {
		out = o.Bundle
		if fi, err := os.Stat(o.Bundle); err == nil && !fi.IsDir() {
			out = filepath.Dir(o.Bundle)
		}
	}
	e, err := export.Report(b, reports.HTMLOptions{CommandLine: cmdLine})
	if err != nil {
		return err
	}
	if err := export.WriteDir(out, e.Files); err != nil {
		return err
	}
	for _, f := range e.Files {
		fmt.Fprintf(o.io.ErrOut, "wrote %s\n", filepath.Join(out, filepath.FromSlash(f.Path)))
	}
	return nil
}
