package main

import (
	"fmt"
	"maps"
	"slices"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/datasets"
)

func newExampleCmd(io *ioStreams) *cobra.Command {
	var xflex bool
	cmd := &cobra.Command{
		Use:   "example <dir>",
		Short: "Write the embedded example inputs into a directory",
		Long: `Write the embedded example inputs into a directory (created if needed):
cluster.yaml, demand.yaml and workload.yaml, demand-next.yaml (the demand a
quarter later), nodes.json (a kubectl node list) with nodes-demand.yaml, and
sweep.yaml (a sweep of 36 simulator runs, seconds long). Existing files are
never overwritten: if any of them exists, nothing is written.

With --xflex, write W-XFLEX's cluster and demand instead (six nodes, three
applications flex, fair and fifo with their sharing bounds): the inputs from
which capplan shapes and capplan pack build the packing plan that
capplan simulate --workload xflex --packing runs.`,
		Example: `  capplan example ./demo && capplan fairshare -c demo/cluster.yaml -d demo/demand.yaml
  capplan sweep demo/sweep.yaml -o demo/out/       # the example sweep: 36 simulator runs
  capplan example --xflex xflex-demo && capplan shapes -c xflex-demo/cluster.yaml -d xflex-demo/demand.yaml -k 1 -o xflex-demo/shapes.json`,
		Args: wrapArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			write, names := datasets.WriteExamples, slices.Sorted(maps.Keys(datasets.ExampleFiles()))
			if xflex {
				write, names = datasets.WriteXFlexExample, []string{"cluster.yaml", "demand.yaml"}
			}
			if err := write(args[0]); err != nil {
				return err
			}
			for _, n := range names {
				fmt.Fprintf(io.ErrOut, "wrote %s/%s\n", args[0], n)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&xflex, "xflex", false, "write W-XFLEX's cluster and demand (for shapes, pack and simulate --workload xflex)")
	return cmd
}
