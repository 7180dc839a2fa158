package pipeline

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/datasets/workloads"
	"github.com/capplan/capplan/plan"
)

// openb prepares W-OPENB (SIMULATE.md §2.3): the Alibaba GPU trace v2023
// from --wparam dir=DIR (its node list, all nodes or GPU nodes only, and
// pod list, gpuspec33 or default), one job per pod, GPUs fitted device by
// device, users by QoS class.
func (w *workload) openb(o *SimulateOptions, p *params) error {
	p.used["dir"] = true
	dir := p.m["dir"]
	if dir == "" {
		return fmt.Errorf("pipeline: --workload openb needs --wparam dir=DIR, the directory of openb_node_list_*.csv and openb_pod_list_*.csv")
	}
	pods, err := p.str("pods", "gpuspec33", "gpuspec33", "default")
	if err != nil {
		return err
	}
	nodes, err := p.str("nodes", "all", "all", "gpu")
	if err != nil {
		return err
	}
	pending, err := p.str("pending", "drop", "drop", "hold")
	if err != nil {
		return err
	}
	copies, err := p.int("copies", 1)
	if err != nil {
		return err
	}
	nodesPath := filepath.Join(dir, "openb_node_list_"+nodes+"_node.csv")
	podsPath := filepath.Join(dir, "openb_pod_list_"+pods+".csv")
	nd, err := w.input("cluster", nodesPath)
	if err != nil {
		return err
	}
	pd, err := w.input("workload", podsPath)
	if err != nil {
		return err
	}
	c, err := datasets.ParseOpenBCluster(nodesPath, bytes.NewReader(nd))
	if err != nil {
		return err
	}
	list, err := datasets.ParseOpenBPods(podsPath, bytes.NewReader(pd))
	if err != nil {
		return err
	}
	ob, err := workloads.NewOpenB(c, list, workloads.OpenBParams{Copies: copies, Hold: pending == "hold", Seed: o.Seed}, o.TickSeconds)
	if err != nil {
		return err
	}
	w.cluster, w.users, w.jobs = ob.Cluster, ob.Users, ob.Jobs
	w.name = "openb"
	w.params = map[string]string{"pods": pods, "nodes": nodes, "pending": pending, "copies": strconv.Itoa(copies),
		"dropped": strconv.Itoa(ob.Dropped)}
	if o.ClusterPath != "" || o.DemandPath != "" {
		return fmt.Errorf("pipeline: --workload openb reads its own nodes and users from the trace, not -c or -d")
	}
	return nil
}

// offline reads the packing plan of --against: what an offline plan
// allocates of the cluster, per resource, to draw beside the simulated
// allocation over time.
func (w *workload) offline(path string) (*plan.SimOffline, error) {
	data, err := w.input("against", path)
	if err != nil {
		return nil, err
	}
	var pp plan.PackingPlan
	if err := plan.DecodeDocument(path, data, plan.KindPackingPlan, &pp); err != nil {
		return nil, err
	}
	total := total(w.cluster)
	out := &plan.SimOffline{Plan: filepath.Base(path), Mode: pp.Mode, Allocated: map[string]float64{}}
	for d, r := range w.cluster.Resources {
		var sum float64
		for _, n := range pp.Nodes {
			for _, ct := range n.Containers {
				sum += ct.Size[r]
			}
		}
		q := 1.0
		if w.cluster.Quanta != nil {
			q = w.cluster.Quanta[d]
		}
		if c := float64(total[d]) * q; c > 0 {
			out.Allocated[r] = sum / c
		}
	}
	return out, nil
}
