package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/datasets"
)

func newExampleCmd(io *ioStreams) *cobra.Command {
	var xflex bool
	cmd := &cobra.Command{
		Use:   "example <dir>",
		Short: "Write the embedded example inputs into a directory",
		Long: `Write the embedded example cluster, demand and workload into a directory
(created if needed). Existing files are never overwritten.

With --xflex, write W-XFLEX's cluster and demand instead (six nodes, three
applications flex, fair and fifo with their sharing bounds): the inputs from
which capplan shapes and capplan pack build the packing plan that
capplan simulate --workload xflex --packing runs.`,
		Example: `  capplan example ./demo && capplan fairshare -c demo/cluster.yaml -d demo/demand.yaml
  capplan example --xflex xf && capplan shapes -c xf/cluster.yaml -d xf/demand.yaml -k 1 -o xf/shapes.json`,
		Args: wrapArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			write, names := datasets.WriteExamples, []string{"cluster.yaml", "demand.yaml", "workload.yaml"}
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
