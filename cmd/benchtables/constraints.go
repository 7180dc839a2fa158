package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/datasets/workloads"
	"github.com/capplan/capplan/flow"
	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/plan"
	"github.com/capplan/capplan/reports"
	"github.com/capplan/capplan/sim"
	"github.com/capplan/capplan/sim/policies"
)

// constraintTables prints issue 15's measures (SIMULATE.md §5.3, §5.4, §6):
// Choosy against its exact CMMF comparators and constraint-blind DRF on
// GoogleLike; the exact CMMF re-solve rate at 100 users × 20 types;
// W-XFLEX's Table 1 beside X-Flex's; and the W-OPENB replay rate. Every
// simulated figure is the median over seeds 1–5 (quick: seed 1).
func constraintTables(quick bool) error {
	seeds := []uint64{1, 2, 3, 4, 5}
	if quick {
		seeds = seeds[:1]
	}
	if err := choosyTable(seeds); err != nil {
		return err
	}
	if err := resolveTable(); err != nil {
		return err
	}
	if err := xflexTable(seeds); err != nil {
		return err
	}
	return openbTable()
}

func median(xs []float64) float64 { return plan.Quantile(slices.Clone(xs), 0.5) }

func choosyTable(seeds []uint64) error {
	t := reports.Table{Title: fmt.Sprintf("Choosy on GoogleLike (300 jobs, 1,000 machines, 20 types): median of %d seeds", len(seeds)),
		Header: []string{"POLICY", "RMSE % VS RESTRICTED", "VS MIGRATE", "VS PREEMPT", "AVG JCT / RESTRICTED'S", "CONSTRAINED AVG JCT / DRF'S",
			"WALL (s, seed 1)"}}
	names := []string{"choosy", "cmmf-restricted", "cmmf-migrate", "cmmf-preempt", "drf"}
	type key struct{ pol, cmp string }
	rmse, ratio, cons, wall := map[key][]float64{}, map[string][]float64{}, map[string][]float64{}, map[string]float64{}
	for _, n := range names { // the wall time of each policy alone
		t0 := time.Now()
		if _, err := pipeline.Simulate(pipeline.SimulateOptions{Workload: "googlelike", Policies: []string{n}, Seed: seeds[0], Workers: 1}); err != nil {
			return err
		}
		wall[n] = time.Since(t0).Seconds()
	}
	for _, seed := range seeds {
		set, err := pipeline.Simulate(pipeline.SimulateOptions{Workload: "googlelike", Policies: names, Seed: seed})
		if err != nil {
			return err
		}
		drf := set.Runs[len(set.Runs)-1].Constraints // paired with drf, seed by seed
		for _, r := range set.Runs {
			if c := r.Constraints; c != nil && drf != nil && drf.AvgJCT > 0 {
				cons[r.Policy.Name] = append(cons[r.Policy.Name], c.AvgJCT/drf.AvgJCT)
			}
			for _, f := range r.RMSE {
				rmse[key{r.Policy.Name, f.Comparator}] = append(rmse[key{r.Policy.Name, f.Comparator}], f.Mean)
				if f.Comparator == "cmmf-restricted" {
					ratio[r.Policy.Name] = append(ratio[r.Policy.Name], f.AvgJCTRatio)
				}
			}
		}
	}
	cell := func(xs []float64) reports.Cell {
		if len(xs) == 0 {
			return reports.MissingCell("-")
		}
		return reports.NumberCell(median(xs))
	}
	ratioCell := func(xs []float64) reports.Cell { // ratios near 1: five decimals
		if len(xs) == 0 {
			return reports.MissingCell("-")
		}
		return reports.TextCell(fmt.Sprintf("%.5f", median(xs)))
	}
	for _, n := range names {
		t.AddRow(reports.TextCell(n), cell(rmse[key{n, "cmmf-restricted"}]), cell(rmse[key{n, "cmmf-migrate"}]), cell(rmse[key{n, "cmmf-preempt"}]),
			ratioCell(ratio[n]), ratioCell(cons[n]), reports.NumberCell(wall[n]))
	}
	return render(t)
}

// resolveTable times flow.Integral with floors on Google-like instances of
// 100 users × 20 types (1,000 machines), random floors and demands.
func resolveTable() error {
	c, d := datasets.GoogleLike(datasets.GoogleParams{Users: 100, Types: 20, Machines: 1000}, 1)
	inst, err := datasets.Coalesce(c, d)
	if err != nil {
		return err
	}
	base := pipeline.CMMFProblem(inst, nil)
	rng := rand.New(rand.NewPCG(3, 4))
	var probs []*flow.Problem
	for i := 0; i < 200; i++ {
		q := &flow.Problem{Types: base.Types, Users: slices.Clone(base.Users), Floors: make([]int64, len(base.Users))}
		byType := make([][]int, len(q.Types))
		for u := range q.Users {
			for _, ty := range q.Users[u].Types {
				byType[ty] = append(byType[ty], u)
			}
		}
		for ty, n := range q.Types {
			for k := int64(0); k < n && len(byType[ty]) > 0; k++ {
				if rng.Float64() < 0.9 {
					q.Floors[byType[ty][rng.IntN(len(byType[ty]))]]++
				}
			}
		}
		for u := range q.Users {
			q.Users[u].Demand = q.Floors[u] + rng.Int64N(21)
		}
		probs = append(probs, q)
	}
	best, _, err := timeIt(3, func() error {
		for _, p := range probs {
			if _, err := flow.Integral(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	t := reports.Table{Title: "Exact integral CMMF re-solves with floors (flow.Integral), Google-like 100 users × 20 types × 1,000 machines",
		Header: []string{"SOLVES", "BEST TIME", "RE-SOLVES/S"}}
	t.AddRow(reports.IntCell(int64(len(probs))), reports.TextCell(best.Round(time.Millisecond).String()),
		reports.NumberCell(float64(len(probs))/best.Seconds()))
	return render(t)
}

func openbTable() error {
	root := testdatasets.Dir()
	if root == "" {
		fmt.Println("(openb trace not found - skipped)")
		return nil
	}
	dir := filepath.Join(root, "alibaba-gpu-v2023-openb")
	nodes, err := os.ReadFile(filepath.Join(dir, "openb_node_list_all_node.csv"))
	if err != nil {
		return err
	}
	podsData, err := os.ReadFile(filepath.Join(dir, "openb_pod_list_gpuspec33.csv"))
	if err != nil {
		return err
	}
	c, err := datasets.ParseOpenBCluster("nodes", bytes.NewReader(nodes))
	if err != nil {
		return err
	}
	pods, err := datasets.ParseOpenBPods("pods", bytes.NewReader(podsData))
	if err != nil {
		return err
	}
	ob, err := workloads.NewOpenB(c, pods, workloads.OpenBParams{Copies: 10, Seed: 1}, 0.001)
	if err != nil {
		return err
	}
	t := reports.Table{Title: fmt.Sprintf("W-OPENB replay, copies=10 (%d pods, 1,523 nodes, GPUs device by device): the simulation loop alone", len(ob.Jobs)),
		Header: []string{"POLICY", "PLACEMENTS", "LOOP (s)", "PLACEMENTS/S", "GPU ALLOCATED (mean)"}}
	for _, n := range []string{"fifo", "drf", "choosy"} {
		pol, err := policies.New(n, nil)
		if err != nil {
			return err
		}
		t0 := time.Now()
		res, err := sim.Run(sim.Config{Cluster: ob.Cluster, Users: ob.Users, Policy: pol, Seed: 1, TickSeconds: 0.001}, sim.NewSliceSource(ob.Jobs))
		if err != nil {
			return err
		}
		el := time.Since(t0).Seconds()
		gpu := slices.Index(res.Resources, "gpu")
		t.AddRow(reports.TextCell(n), reports.IntCell(res.Stats.Placements), reports.NumberCell(el),
			reports.NumberCell(float64(res.Stats.Placements)/el), reports.PercentCell(res.Utilization[gpu]))
	}
	return render(t)
}
