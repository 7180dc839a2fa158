package main

import (
	"fmt"
	"maps"
	"slices"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/datasets/dags"
)

func newExampleCmd(io *ioStreams) *cobra.Command {
	var xflex bool
	var progen string
	var per int
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
capplan simulate --workload xflex --packing runs.

With --progen SET (j30, j60, j90 or j120), write PSPLIB-like RCPSP projects
as .sm files instead, made the way PSPLIB's generator ProGen made its sets
(the same parameter combinations, --per projects of each, project I of
combination P from seed 1000·P + I, named jSET<P>_<I>.sm): PSPLIB's own J90
and J120 files are not shipped with capplan, and capplan dag schedule and
capplan dag bounds read these like PSPLIB's.`,
		Example: `  capplan example ./demo && capplan fairshare -c demo/cluster.yaml -d demo/demand.yaml
  capplan sweep demo/sweep.yaml -o demo/out/       # the example sweep: 36 simulator runs
  capplan example --xflex xflex-demo && capplan shapes -c xflex-demo/cluster.yaml -d xflex-demo/demand.yaml -k 1 -o xflex-demo/shapes.json
  capplan example --progen j90 --per 1 j90 && capplan dag schedule j90/j901_1.sm`,
		Args: wrapArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if xflex && progen != "" {
				return usageErrorf("--xflex and --progen each choose what to write; give one")
			}
			write, names := datasets.WriteExamples, slices.Sorted(maps.Keys(datasets.ExampleFiles()))
			if xflex {
				write, names = datasets.WriteXFlexExample, []string{"cluster.yaml", "demand.yaml"}
			}
			if progen != "" {
				n, ok := map[string]int{"j30": 30, "j60": 60, "j90": 90, "j120": 120}[progen]
				if !ok {
					return usageErrorf("--progen %q: want j30, j60, j90 or j120", progen)
				}
				if per < 1 {
					return usageErrorf("--per %d: want at least 1 project per combination", per)
				}
				write = func(dir string) (err error) {
					names, err = dags.WriteProGenSet(dir, n, per)
					return err
				}
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
	cmd.Flags().StringVar(&progen, "progen", "", "write PSPLIB-like projects of `SET` (j30, j60, j90, j120) as .sm files")
	cmd.Flags().IntVar(&per, "per", 10, "with --progen: projects per parameter combination")
	return cmd
}
