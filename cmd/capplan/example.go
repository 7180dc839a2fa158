package main

import (
	"fmt"
	"sort"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/datasets"
)

func newExampleCmd(io *ioStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "example <dir>",
		Short: "Write the embedded example inputs into a directory",
		Long: `Write the embedded example cluster, demand and workload into a directory
(created if needed). Existing files are never overwritten.`,
		Example: `  capplan example ./demo && capplan fairshare -c demo/cluster.yaml -d demo/demand.yaml`,
		Args:    wrapArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := datasets.WriteExamples(args[0]); err != nil {
				return err
			}
			names := make([]string, 0)
			for name := range datasets.ExampleFiles() {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, n := range names {
				fmt.Fprintf(io.ErrOut, "wrote %s/%s\n", args[0], n)
			}
			return nil
		},
	}
}
