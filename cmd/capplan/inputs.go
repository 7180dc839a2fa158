package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/pipeline"
)

// bindInputs binds the input flags of the commands that read a cluster and
// a demand to in.
func bindInputs(f *pflag.FlagSet, in *pipeline.Inputs) {
	f.StringVarP(&in.ClusterPath, "cluster", "c", "", "cluster inventory `file` (capplan Cluster or kubectl get nodes -o json)")
	f.StringVarP(&in.DemandPath, "demand", "d", "", "demand `file` (capplan Demand)")
	f.BoolVar(&in.Example, "example", false, "use the embedded example cluster and demand")
	f.StringVar(&in.RackLabel, "rack-label", datasets.RackLabel, "node label holding the rack, for kubectl node lists")
	f.BoolVar(&in.Pods, "pods-resource", false, "plan kubectl nodes' pod limit (allocatable pods) as a resource")
}

// validateInputs checks that the flags name a cluster and a demand, or the
// example.
func validateInputs(in *pipeline.Inputs) error {
	switch {
	case in.Example && (in.ClusterPath != "" || in.DemandPath != ""):
		return usageErrorf("--example cannot be combined with --cluster or --demand")
	case !in.Example && (in.ClusterPath == "" || in.DemandPath == ""):
		return usageErrorf("both --cluster and --demand are required (or --example)")
	}
	return nil
}

// inputFlags are the flags, of any command, that name an input file; each
// accepts "-" for standard input.
var inputFlags = []string{"cluster", "demand", "workload", "workload-file", "shapes", "from", "schedule",
	"fairshare", "packing", "ownership", "sizing", "dag", "nodes", "pods"}

// checkStdin refuses a command line on which more than one input names
// "-": standard input holds one file.
func checkStdin(cmd *cobra.Command, args []string) error {
	var named []string
	for _, name := range inputFlags {
		if f := cmd.Flags().Lookup(name); f != nil && f.Value.String() == datasets.Stdin {
			named = append(named, "--"+name)
		}
	}
	args = slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a != datasets.Stdin })
	switch len(args) {
	case 0:
	case 1:
		named = append(named, "the input argument")
	default:
		named = append(named, plural.Count(len(args), "input argument"))
	}
	switch {
	case len(named) == 1 && len(args) > 1:
		return usageErrorf("%s name standard input (-), which holds one file: give all but one as files", named[0])
	case len(named) == 2:
		return usageErrorf("%s and %s both name standard input (-), which holds one file: give one of them as a file", named[0], named[1])
	case len(named) > 2:
		return usageErrorf("%s all name standard input (-), which holds one file: give all but one as files", strings.Join(named, ", "))
	}
	return nil
}
