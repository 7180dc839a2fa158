package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/memguard"
	"github.com/capplan/capplan/pipeline"
)

// run builds the command tree, executes it with args and returns the exit
// code, printing a failure as one line on stderr (and the usage text for a
// usage error).
func run(args []string, io *ioStreams) int {
	datasets.UseStdin(io.In)
	root, guard := newRootCmd(io)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	guard.stop()
	code := exitCode(err)
	if err != nil {
		fmt.Fprintf(io.ErrOut, "capplan: %s\n", userMessage(err))
		if code == exitUsage && cmd != nil {
			fmt.Fprintf(io.ErrOut, "\n%s", cmd.UsageString())
		}
	}
	return code
}

// runGuard holds the --max-memory guard of one run.
type runGuard struct{ g *memguard.Guard }

func (r *runGuard) stop() {
	if r.g != nil {
		r.g.Stop()
	}
}

func newRootCmd(io *ioStreams) (*cobra.Command, *runGuard) {
	root := &cobra.Command{
		Use:   "capplan <command> [flags]",
		Short: "Offline planning and capacity optimization for shared compute clusters",
		Long: `capplan reads a cluster inventory, demand forecasts and job DAGs, computes
plans with proven quality, and writes them for schedulers and spreadsheets.`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          subcommandArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	root.SetIn(io.In)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return &pipeline.OptionError{Err: suggestFlag(cmd, err)}
	})
	var cpuProfile string
	root.PersistentFlags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile to `file`")
	_ = root.PersistentFlags().MarkHidden("cpuprofile")
	maxMemory := memoryFlag{bytes: memguard.DefaultLimit}
	root.PersistentFlags().Var(&maxMemory, "max-memory", "stop cleanly when the memory in use passes `bytes`, such as 1536Mi or 8Gi (0: no limit)")
	guard := &runGuard{}
	var profFile *os.File
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if err := checkStdin(cmd, args); err != nil {
			return err
		}
		guard.g = startMemoryGuard(io, maxMemory.bytes)
		if cpuProfile == "" {
			return nil
		}
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		profFile = f
		return pprof.StartCPUProfile(f)
	}
	root.PersistentPostRunE = func(cmd *cobra.Command, args []string) error {
		if profFile != nil {
			pprof.StopCPUProfile()
			return profFile.Close()
		}
		return nil
	}
	root.AddCommand(
		newVersionCmd(io),
		newValidateCmd(io),
		newExampleCmd(io),
		newFairShareCmd(io),
		newImportCmd(io),
		newShapesCmd(io),
		newPackCmd(io),
		newDAGCmd(io),
		newExportCmd(io),
		newReportCmd(io),
		newSimulateCmd(io, nil),
		newPlanCmd(io),
		newSweepCmd(io),
		newMergeCmd(io),
	)
	return root, guard
}
