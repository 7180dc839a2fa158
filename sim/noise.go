package sim

import (
	"math"
	"math/rand/v2"
)

// Random streams: one PCG stream per purpose (SIMULATE.md §1.7).
const (
	streamNoise  = 0x6e6f697365 // "noise"
	streamPolicy = 0x706f6c6963 // "polic"
)

// mix is SplitMix64's finaliser (Steele, Lea & Flood, OOPSLA 2014): a
// bijective hash that spreads (ordinal, task) over all 64 bits.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// noise draws actual durations: actual = estimate·exp(σZ − σ²/2) with Z a
// standard normal (a lognormal factor of mean 1; with median set, of
// median 1), rounded to ticks and at least 1. The draw for task t of the
// job with ordinal j is counter-based: a PCG seeded (seed ⊕ mix(j, t),
// streamNoise), so every policy sees the same actual values whatever the
// order in which tasks start, and paired comparisons are exact.
type noise struct {
	seed   uint64
	sigma  float64
	shift  float64 // −σ²/2, or 0 for the median form
	pcg    rand.PCG
	normal *rand.Rand
}

func newNoise(seed uint64, sigma float64, median bool) *noise {
	n := &noise{seed: seed, sigma: sigma}
	if !median {
		n.shift = -sigma * sigma / 2
	}
	n.normal = rand.New(&n.pcg)
	return n
}

// actual returns the actual duration of a task of estimate est (> 0).
func (n *noise) actual(job JobID, task int32, est Tick) Tick {
	if n.sigma == 0 {
		return est
	}
	n.pcg.Seed(n.seed^mix(uint64(uint32(job))<<32|uint64(uint32(task))), streamNoise)
	f := math.Exp(n.sigma*n.normal.NormFloat64() + n.shift)
	return max(1, Tick(math.Round(float64(est)*f)))
}
