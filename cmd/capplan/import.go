package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/atomicfile"
	"github.com/capplan/capplan/internal/inputerr"
	"github.com/capplan/capplan/internal/plural"
)

func newImportCmd(streams *ioStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import <format>",
		Short: "Convert public trace data into capplan input files",
		Args:  subcommandArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	cmd.AddCommand(newImportOpenBCmd(streams))
	return cmd
}

func newImportOpenBCmd(streams *ioStreams) *cobra.Command {
	var nodes, pods string
	cmd := &cobra.Command{
		Use:   "openb --nodes <file> --pods <file> <dir>",
		Short: "Convert the Alibaba GPU trace v2023 (openb) into cluster.yaml and demand.yaml",
		Long: `Convert the Alibaba GPU cluster trace v2023 "openb" (a node list and a pod
list, CSV) into a capplan Cluster (resources cpu, memory, gpu; nodes grouped by
shape and GPU model, labelled gpu-model) and Demand (one application per QoS
class and GPU-model constraint; pods with equal requests merged, with their
mean run time as duration; a shared GPU becomes a fraction of one). Pods that
no node can host are left out and counted. Existing files are not overwritten.`,
		Example: `  capplan import openb --nodes ../shared/datasets/alibaba-gpu-v2023-openb/openb_node_list_gpu_node.csv --pods ../shared/datasets/alibaba-gpu-v2023-openb/openb_pod_list_gpuspec33.csv ./openb-gpu
  capplan validate openb-gpu/cluster.yaml openb-gpu/demand.yaml`,
		Args: wrapArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if nodes == "" || pods == "" {
				return usageErrorf("both --nodes and --pods are required")
			}
			return importOpenB(streams, nodes, pods, args[0])
		},
	}
	cmd.Flags().StringVar(&nodes, "nodes", "", "openb node list `file` (openb_node_list_*.csv)")
	cmd.Flags().StringVar(&pods, "pods", "", "openb pod list `file` (openb_pod_list_*.csv)")
	return cmd
}

func importOpenB(streams *ioStreams, nodesPath, podsPath, dir string) error {
	nf, _, err := datasets.Open(nodesPath)
	if err != nil {
		return err
	}
	defer nf.Close()
	pf, _, err := datasets.Open(podsPath)
	if err != nil {
		return err
	}
	defer pf.Close()
	c, d, dropped, err := datasets.ParseOpenB(inputerr.FileName(nodesPath), nf, inputerr.FileName(podsPath), pf)
	if err != nil {
		return err
	}
	files := []struct {
		name string
		v    any
	}{{"cluster.yaml", c}, {"demand.yaml", d}}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, f.name)); err == nil {
			return fmt.Errorf("%s already exists; not overwriting", filepath.Join(dir, f.name))
		} else if !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		v := f.v
		if err := atomicfile.Write(filepath.Join(dir, f.name), func(w io.Writer) error { return datasets.WriteYAML(w, v) }); err != nil {
			return err
		}
	}
	var pods int64
	for _, a := range d.Applications {
		for _, r := range a.Requests {
			pods += r.Count
		}
	}
	fmt.Fprintf(streams.ErrOut, "wrote %s: %s in %s; %s in %s (%s); %s dropped (fit no eligible node)\n",
		dir, plural.Count(c.NumNodes(), "node"), plural.Count(len(c.Groups), "group"), plural.Count(pods, "pod"),
		plural.Count(len(d.Applications), "application"), plural.Count(countShapes(d), "request shape"), plural.Count(dropped, "pod"))
	return nil
}

func countShapes(d *datasets.Demand) int {
	n := 0
	for _, a := range d.Applications {
		n += len(a.Requests)
	}
	return n
}
