package xselect

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// generate builds a reproducible instance (seed, nodes, containers): four
// node sizes, six shapes, twenty apps with random shares, mixes and, for a
// quarter of them, eligibility restricted to half the nodes. The mixes are
// scaled so that λ = 1 asks for about `containers` containers, and the
// nodes are sized so that roughly that many fit.
func generate(seed uint64, nodes, containers int) *Problem {
	rng := rand.New(rand.NewPCG(seed, 0))
	p := &Problem{Dims: []string{"cpu", "mem"}}
	p.Shapes = [][]float64{{1, 2}, {2, 4}, {4, 8}, {1, 8}, {4, 4}, {8, 16}}
	sizes := [][]float64{{16, 32}, {32, 64}, {32, 128}, {64, 128}}
	for n := range nodes {
		p.Nodes = append(p.Nodes, Node{Name: fmt.Sprintf("n%d", n), Capacity: sizes[rng.IntN(len(sizes))]})
	}
	const apps = 20
	w := make([]float64, apps)
	sum := 0.0
	for a := range w {
		w[a] = 0.5 + rng.Float64()
		sum += w[a]
	}
	per := float64(containers)
	for a := range apps {
		app := App{Name: fmt.Sprintf("app%d", a), Share: w[a] / sum, Mix: make([]float64, len(p.Shapes))}
		tot := 0.0
		for k := range app.Mix {
			if rng.IntN(2) == 0 {
				app.Mix[k] = rng.Float64()
				tot += app.Mix[k]
			}
		}
		if tot == 0 {
			app.Mix[0], tot = 1, 1
		}
		for k := range app.Mix {
			app.Mix[k] *= per * app.Share / tot
		}
		if a%4 == 0 {
			app.Eligible = []int{}
			for n := range nodes {
				if rng.IntN(2) == 0 {
					app.Eligible = append(app.Eligible, n)
				}
			}
		}
		p.Apps = append(p.Apps, app)
	}
	return p
}

// generateRules builds a reproducible constrained instance: 3 dimensions
// (cpu, mem, gpu), 10 shapes (two with a GPU), 6 node types (one with
// GPUs, on 10% of the nodes), 50 apps with random shares and mixes; the
// two GPU shapes only in the mixes of apps 0–4 (a tenth of the weight of
// the others), which may only use the GPU nodes; every fifth other app restricted to a random 60% of the
// nodes; MaxPerNode 2 on apps 5–14; Exlocate pairs (15,16), (17,18),
// (19,20), (21,5); Colocate 22→23 and the cycle 24↔25. Mixes are scaled
// so that λ = 1 asks for about `containers` containers, more than fit,
// so the top probe (λ_hi, which ignores fragmentation) fails and the
// search bisects.
func generateRules(seed uint64, nodes, containers int) *Problem {
	rng := rand.New(rand.NewPCG(seed, 1))
	p := &Problem{Dims: []string{"cpu", "mem", "gpu"}}
	p.Shapes = [][]float64{
		{1, 2, 0}, {2, 4, 0}, {4, 8, 0}, {1, 8, 0}, {4, 4, 0},
		{8, 16, 0}, {2, 16, 0}, {8, 8, 0}, {4, 16, 1}, {8, 32, 2},
	}
	sizes := [][]float64{{16, 32, 0}, {32, 64, 0}, {32, 128, 0}, {64, 128, 0}, {64, 256, 0}}
	gpuNode := []float64{48, 192, 3}
	var gpuNodes []int
	for n := range nodes {
		c := sizes[rng.IntN(len(sizes))]
		if rng.IntN(10) == 0 {
			c = gpuNode
			gpuNodes = append(gpuNodes, n)
		}
		p.Nodes = append(p.Nodes, Node{Name: fmt.Sprintf("n%d", n), Capacity: c})
	}
	const apps = 50
	w := make([]float64, apps)
	sum := 0.0
	for a := range w {
		w[a] = 0.5 + rng.Float64()
		sum += w[a]
	}
	for a := range apps {
		app := App{Name: fmt.Sprintf("app%d", a), Share: w[a] / sum, Mix: make([]float64, len(p.Shapes))}
		tot := 0.0
		hi := 8
		if a < 5 {
			hi = 10
		}
		for k := range hi {
			if rng.IntN(3) == 0 || (a < 5 && k >= 8) {
				app.Mix[k] = rng.Float64()
				if k >= 8 {
					app.Mix[k] *= 0.1 // GPUs are scarce: few GPU containers
				}
				tot += app.Mix[k]
			}
		}
		if tot == 0 {
			app.Mix[0], tot = 1, 1
		}
		for k := range app.Mix {
			app.Mix[k] *= float64(containers) * app.Share / tot
		}
		switch {
		case a < 5:
			app.Eligible = gpuNodes
		case a%5 == 0:
			app.Eligible = []int{}
			for n := range nodes {
				if rng.IntN(10) < 6 {
					app.Eligible = append(app.Eligible, n)
				}
			}
		}
		if a >= 5 && a < 15 {
			app.MaxPerNode = 2
		}
		p.Apps = append(p.Apps, app)
	}
	p.Exlocate = [][2]int{{15, 16}, {17, 18}, {19, 20}, {21, 5}}
	p.Colocate = [][2]int{{22, 23}, {24, 25}, {25, 24}}
	return p
}

// BenchmarkSolve packs about 10,000 and 100,000 containers onto 1,000 and
// 10,000 nodes without placement rules (generate).
func BenchmarkSolve(b *testing.B) {
	for _, c := range []struct{ nodes, containers int }{{1000, 10000}, {10000, 100000}} {
		p := generate(1, c.nodes, c.containers)
		b.Run(fmt.Sprintf("nodes=%d-containers=%d", c.nodes, c.containers), func(b *testing.B) {
			benchSolve(b, p)
		})
	}
}

// BenchmarkSolveRules packs about 100,000 containers onto 10,000 nodes with
// eligibility, MaxPerNode, Exlocate and Colocate rules (generateRules),
// where the top probe fails so that the search bisects.
func BenchmarkSolveRules(b *testing.B) {
	for _, c := range []struct{ nodes, containers int }{{1000, 11000}, {10000, 110000}} {
		p := generateRules(1, c.nodes, c.containers)
		b.Run(fmt.Sprintf("nodes=%d-containers=%d", c.nodes, c.containers), func(b *testing.B) {
			benchSolve(b, p)
		})
	}
}

// BenchmarkSolveIncremental reruns the 10,000-node rules instance in
// incremental mode, from the initial plan after the mixes changed (apps
// 5–24 up by a quarter, 25–49 down by a fifth, the GPU apps 0–4 as they
// were), with φ = 0.1.
func BenchmarkSolveIncremental(b *testing.B) {
	p := generateRules(1, 10000, 110000)
	prev, err := Solve(p, Options{})
	if err != nil {
		b.Fatal(err)
	}
	q := *p
	q.Apps = slices.Clone(p.Apps)
	for a := range q.Apps {
		f := 1.0 // the GPU apps 0–4 keep their mixes
		switch {
		case a >= 25:
			f = 0.8
		case a >= 5:
			f = 1.25
		}
		q.Apps[a].Mix = slices.Clone(p.Apps[a].Mix)
		for k := range q.Apps[a].Mix {
			q.Apps[a].Mix[k] *= f
		}
	}
	opt := Options{From: prev.Nodes, Mutable: 0.1}
	var plan *Plan
	for b.Loop() {
		if plan, err = Solve(&q, opt); err != nil {
			b.Fatal(err)
		}
	}
	if err := CheckIncremental(&q, prev.Nodes, plan, opt.Mutable); err != nil {
		b.Fatal(err)
	}
	report(b, plan)
	b.ReportMetric(float64(len(plan.Changed)), "changed")
}

func benchSolve(b *testing.B, p *Problem) {
	var plan *Plan
	for b.Loop() {
		var err error
		if plan, err = Solve(p, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	if err := Check(p, plan); err != nil {
		b.Fatal(err)
	}
	report(b, plan)
}

func report(b *testing.B, plan *Plan) {
	n, req := 0, 0
	for _, cs := range plan.Nodes {
		n += len(cs)
	}
	for _, r := range plan.Apps {
		req += r.Required
	}
	b.ReportMetric(plan.Lambda, "lambda")
	b.ReportMetric(plan.LambdaUpper, "lambdaUpper")
	b.ReportMetric(float64(plan.Probes), "probes")
	b.ReportMetric(float64(req), "required")
	b.ReportMetric(float64(n), "containers")
}
