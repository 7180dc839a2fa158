package xsize

import (
	"math"
	"math/rand/v2"
)

// realisticMix generates n request classes in D = 2 (cpu, memory) or
// D = 3 (cpu, memory, gpu) dimensions from a fixed seed: cpu lognormal
// around 1 core (σ = 1, rounded up to 50 milli-cores), memory per core
// lognormal around 4 GiB (rounded up to 64 MiB), one class in ten with 1–8
// GPUs, and Zipf-like frequencies w_r = 1000/r^1.1 by random rank; sizes
// are redrawn until all n classes are distinct. Node
// types: 32 cores/128 GiB, 64 cores/512 GiB, and (D = 3) a GPU box with 8
// GPUs; the scale is the aggregate of 1000, 200 and 40 nodes of each.
func realisticMix(seed uint64, D, n, K int) *Problem {
	const gib = 1 << 30
	r := rand.New(rand.NewPCG(seed, uint64(D*1_000_003+n)))
	nodes := [][]float64{{32000, 128 * gib, 0}, {64000, 512 * gib, 0}, {64000, 512 * gib, 8}}
	counts := []float64{1000, 200, 40}
	if D == 2 {
		nodes = [][]float64{nodes[0][:2], nodes[1][:2]}
	}
	p := &Problem{Dims: []string{"cpu", "memory", "gpu"}[:D], K: K, Cost: SumCost, Nodes: nodes}
	p.Scale = make([]float64, D)
	for j, nd := range nodes {
		for d := range D {
			p.Scale[d] += counts[j] * nd[d]
		}
	}
	ranks := r.Perm(n)
	seen := map[string]bool{} // lookup only
	for i := 0; i < n; {
		cpu := math.Ceil(1000*math.Exp(r.NormFloat64())/50) * 50
		cpu = min(max(cpu, 50), 64000)
		mem := math.Ceil(cpu/1000*4*gib*math.Exp(0.8*r.NormFloat64())/(64<<20)) * (64 << 20)
		mem = min(max(mem, 64<<20), 512*gib)
		s := []float64{cpu, mem}
		if D == 3 {
			g := 0.0
			if r.IntN(10) == 0 {
				g = float64(int(1) << r.IntN(4))
			}
			s = append(s, g)
		}
		if seen[shapeKey(s)] {
			continue
		}
		seen[shapeKey(s)] = true
		p.Requests = append(p.Requests, Request{Size: s, Weight: 1000 / math.Pow(float64(ranks[i]+1), 1.1)})
		i++
	}
	return p
}
