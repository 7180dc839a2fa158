package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/inputerr"
	"github.com/capplan/capplan/internal/plural"
)

// errInvalidInputs is returned when validate found problems it has already
// printed; the error line only summarises.
var errInvalidInputs = errors.New("inputs have problems")

func newValidateCmd(io *ioStreams) *cobra.Command {
	var rackLabel string
	var pods bool
	cmd := &cobra.Command{
		Use:   "validate <file>...",
		Short: "Check input files and print every problem found",
		Long: `Check Cluster (or kubectl node list), Demand and Workload files and print
every problem found, not just the first. When a cluster is among the files,
demands and workloads are also checked against it (declared resources, and
applications that no node can host).`,
		Example: `  capplan validate cluster.yaml demand.yaml workload.yaml`,
		Args:    wrapArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return validateRun(io, args, datasets.LoadOptions{RackLabel: rackLabel, Pods: pods})
		},
	}
	cmd.Flags().StringVar(&rackLabel, "rack-label", datasets.RackLabel, "node label holding the rack, for kubectl node lists")
	cmd.Flags().BoolVar(&pods, "pods-resource", false, "read kubectl nodes' pod limit (allocatable pods) as a resource")
	return cmd
}

func validateRun(io *ioStreams, paths []string, opts datasets.LoadOptions) error {
	bad := 0
	var cluster *datasets.Cluster
	var demands []*datasets.Demand
	var workloads []*datasets.Workload
	report := func(err error) {
		bad++
		var ve *inputerr.Error
		if errors.As(err, &ve) {
			for _, p := range ve.Problems {
				fmt.Fprintln(io.ErrOut, p.String())
			}
			return
		}
		fmt.Fprintln(io.ErrOut, err)
	}
	for _, path := range paths {
		v, err := datasets.Load(path, opts)
		if err != nil {
			report(err)
			continue
		}
		switch x := v.(type) {
		case *datasets.Cluster:
			if cluster != nil {
				report(usageErrorf("%s: more than one cluster given (first: %s)", path, cluster.Source))
				continue
			}
			cluster = x
			fmt.Fprintf(io.Out, "%s: ok (Cluster: %s in %s, resources %v)\n", path, plural.Count(x.NumNodes(), "node"), plural.Count(len(x.Groups), "group"), x.Resources)
		case *datasets.Demand:
			demands = append(demands, x)
			fmt.Fprintf(io.Out, "%s: ok (Demand: %s)\n", path, plural.Count(len(x.Applications), "application"))
		case *datasets.Workload:
			workloads = append(workloads, x)
			fmt.Fprintf(io.Out, "%s: ok (Workload: %s)\n", path, plural.Count(len(x.Jobs), "job"))
		}
	}
	if cluster != nil {
		for _, d := range demands {
			if err := datasets.CheckDemand(cluster, d); err != nil {
				report(err)
			}
		}
		for _, w := range workloads {
			if err := datasets.CheckWorkload(cluster, w); err != nil {
				report(err)
			}
		}
	}
	if bad > 0 {
		return errInvalidInputs
	}
	return nil
}
