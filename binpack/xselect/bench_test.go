package xselect

import (
	"fmt"
	"math/rand/v2"
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

// BenchmarkSolve packs about 100,000 containers onto 10,000 nodes.
func BenchmarkSolve(b *testing.B) {
	for _, c := range []struct{ nodes, containers int }{{1000, 10000}, {10000, 100000}} {
		p := generate(1, c.nodes, c.containers)
		b.Run(fmt.Sprintf("nodes=%d-containers=%d", c.nodes, c.containers), func(b *testing.B) {
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
			n := 0
			for _, cs := range plan.Nodes {
				n += len(cs)
			}
			b.ReportMetric(plan.Lambda, "lambda")
			b.ReportMetric(plan.LambdaUpper, "lambdaUpper")
			b.ReportMetric(float64(n), "containers")
		})
	}
}
