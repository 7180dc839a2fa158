package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/capplan/capplan/binpack/xsize"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/testdatasets"
	"github.com/capplan/capplan/pipeline"
	"github.com/capplan/capplan/reports"
)

// shapesTables prints the X-Size tables: PTAS quality against the exact
// optimum on small random instances, speed on larger synthetic mixes, and
// the real Alibaba GPU request mix.
func shapesTables(quick bool) error {
	if err := shapesSmallTable(quick); err != nil {
		return err
	}
	if err := shapesSpeedTable(quick); err != nil {
		return err
	}
	return shapesOpenBTable(quick)
}

// mix draws n distinct request classes in D dimensions (cpu lognormal
// around 1 core, memory lognormal around 4 GiB per core, 1 class in 10 with
// 1–8 GPUs when D = 3), Zipf-like weights, on nodes of 32c/128Gi and
// 64c/512Gi (and a GPU box with 8 GPUs), aggregated over 1000/200/40 nodes.
func mix(seed uint64, D, n, K int) *xsize.Problem {
	const gib = 1 << 30
	rng := rand.New(rand.NewPCG(seed, uint64(D*1000+n)))
	nodes := [][]float64{{32000, 128 * gib, 0}, {64000, 512 * gib, 0}, {64000, 512 * gib, 8}}[:D]
	for i := range nodes {
		nodes[i] = nodes[i][:D]
	}
	if D == 2 {
		nodes = nodes[:2]
	}
	counts := []float64{1000, 200, 40}
	p := &xsize.Problem{Dims: []string{"cpu", "memory", "gpu"}[:D], K: K, Scale: make([]float64, D), Nodes: nodes}
	for j, nd := range nodes {
		for d := range D {
			p.Scale[d] += counts[j] * nd[d]
		}
	}
	seen := map[string]bool{}
	for len(p.Requests) < n {
		cpu := math.Min(64000, math.Max(50, math.Ceil(1000*math.Exp(rng.NormFloat64())/50)*50))
		mem := math.Min(512*gib, math.Max(64<<20, math.Ceil(cpu/1000*4*gib*math.Exp(0.8*rng.NormFloat64())/(64<<20))*(64<<20)))
		size := []float64{cpu, mem}
		if D == 3 {
			g := 0.0
			if rng.IntN(10) == 0 {
				g = float64(int(1) << rng.IntN(4))
			}
			size = append(size, g)
		}
		if key := fmt.Sprint(size); !seen[key] {
			seen[key] = true
			p.Requests = append(p.Requests, xsize.Request{Size: size, Weight: 1000 / math.Pow(float64(len(p.Requests)+1), 1.1)})
		}
	}
	return p
}

func shapesSmallTable(quick bool) error {
	t := reports.Table{
		Title:  "X-Size PTAS vs exact optimum (brute force), 100 random instances per row, n = 8 request classes",
		Header: []string{"dims", "K", "eps target", "mean eps reached", "mean cost/OPT", "max cost/OPT", "bound 1+eps", "mean time"},
		Align:  []reports.Align{reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight},
	}
	reps := 100
	if quick {
		reps = 10
	}
	for _, D := range []int{2, 3} {
		for _, K := range []int{2, 3} {
			for _, eps := range []float64{0.5, 0.1} {
				var sumRatio, maxRatio, sumEps float64
				var total time.Duration
				for i := 0; i < reps; i++ {
					p := mix(uint64(i+1), D, 8, K)
					opt, err := xsize.Exact(p, xsize.ExactOptions{})
					if err != nil {
						return err
					}
					t0 := time.Now()
					s, err := xsize.PTAS(p, xsize.PTASOptions{MinEps: eps})
					if err != nil {
						return err
					}
					total += time.Since(t0)
					r := s.Cost / opt.Cost
					sumRatio += r
					maxRatio = math.Max(maxRatio, r)
					sumEps += s.Epsilon
				}
				t.Rows = append(t.Rows, []string{fmt.Sprint(D), fmt.Sprint(K), reports.FormatNumber(eps),
					reports.FormatNumber(sumEps / float64(reps)), fmt.Sprintf("%.5f", sumRatio/float64(reps)),
					fmt.Sprintf("%.5f", maxRatio), reports.FormatNumber(1 + eps), (total / time.Duration(reps)).Round(time.Microsecond).String()})
			}
		}
	}
	return render(t)
}

func shapesSpeedTable(quick bool) error {
	t := reports.Table{
		Title:  "X-Size speed on synthetic request mixes (one run each)",
		Header: []string{"dims", "classes", "K", "method", "time", "eps reached", "cost/lower bound"},
		Align:  []reports.Align{reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignLeft, reports.AlignRight, reports.AlignRight, reports.AlignRight},
	}
	type row struct {
		D, n, K int
		method  string
	}
	rows := []row{{2, 50, 8, "ptas"}, {2, 200, 8, "ptas"}, {3, 100, 8, "ptas"}, {3, 5000, 16, "local"}}
	if quick {
		rows = rows[:1]
	}
	for _, r := range rows {
		p := mix(1, r.D, r.n, r.K)
		t0 := time.Now()
		var s *xsize.Solution
		var err error
		if r.method == "local" {
			s, err = xsize.LocalSearch(p, xsize.LocalOptions{Seed: 1})
		} else {
			s, err = xsize.PTAS(p, xsize.PTASOptions{MinEps: 0.1})
		}
		if err != nil {
			return err
		}
		t.Rows = append(t.Rows, []string{fmt.Sprint(r.D), fmt.Sprint(r.n), fmt.Sprint(r.K), s.Method,
			time.Since(t0).Round(time.Millisecond).String(), reports.FormatNumber(s.Epsilon), fmt.Sprintf("%.4f", s.Ratio())})
	}
	return render(t)
}

// shapesOpenBTable runs the real request mix of the Alibaba GPU trace
// through pipeline.Shapes, the road of `capplan shapes`.
func shapesOpenBTable(quick bool) error {
	dir := filepath.Join(testdatasets.Dir(), "alibaba-gpu-v2023-openb")
	nf, err := os.Open(filepath.Join(dir, "openb_node_list_all_node.csv"))
	if err != nil {
		fmt.Println("(openb trace not found at", dir, "- skipped)")
		return nil
	}
	defer nf.Close()
	pf, err := os.Open(filepath.Join(dir, "openb_pod_list_gpuspec33.csv"))
	if err != nil {
		return err
	}
	defer pf.Close()
	c, d, _, err := datasets.ParseOpenB(nf.Name(), nf, pf.Name(), pf)
	if err != nil {
		return err
	}
	t := reports.Table{
		Title:  "X-Size on the Alibaba GPU trace (openb, gpuspec33): 476 request classes, cpu/memory/gpu, PTAS to ε = 0.1 (default work budget), through pipeline.Shapes",
		Header: []string{"K", "time", "eps reached", "cost", "lower bound", "cost/LB", "waste cpu", "waste memory", "waste gpu"},
		Align:  []reports.Align{reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignRight},
	}
	ks := []int{4, 8, 16}
	if quick {
		ks = ks[:1]
	}
	for _, k := range ks {
		t0 := time.Now()
		res, err := pipeline.Shapes(pipeline.ShapesOptions{Inputs: pipeline.Inputs{Cluster: c, Demand: d}, K: k, Eps: 0.1, Method: pipeline.ShapesPTAS})
		if err != nil {
			return err
		}
		el := time.Since(t0)
		doc := res.Doc
		row := []string{fmt.Sprint(k), el.Round(time.Millisecond).String(), reports.FormatNumber(doc.Epsilon),
			fmt.Sprintf("%.4f", doc.Cost), fmt.Sprintf("%.4f", doc.LowerBound), fmt.Sprintf("%.4f", doc.Ratio)}
		for _, w := range doc.Waste {
			row = append(row, reports.FormatPercent(w.Percent/100))
		}
		t.Rows = append(t.Rows, row)
	}
	return render(t)
}
