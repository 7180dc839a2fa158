package workloads

import (
	"math"
	"math/rand/v2"

	"github.com/capplan/capplan/sim"
)

// Poisson draws the arrival ticks of a Poisson process of rate jobs per
// second from its own PCG stream (seed, streamArr): exponential gaps
// summed in seconds and rounded up to ticks, so arrivals never decrease.
type Poisson struct {
	rng  *rand.Rand
	rate float64
	tick float64
	t    float64 // seconds
}

// NewPoisson starts the process at time 0 (the first arrival is at 0).
func NewPoisson(seed uint64, rate, tickSeconds float64) *Poisson {
	return &Poisson{rng: rand.New(rand.NewPCG(seed, streamArr)), rate: rate, tick: tickSeconds, t: -1}
}

// Next returns the next arrival tick.
func (p *Poisson) Next() sim.Tick {
	if p.t < 0 {
		p.t = 0
	} else {
		p.t += p.rng.ExpFloat64() / p.rate
	}
	return sim.Tick(math.Ceil(p.t/p.tick - 1e-9))
}

// Rate returns the rate in jobs per second.
func (p *Poisson) Rate() float64 { return p.rate }

// mixIndex spreads a job index over 64 bits (SplitMix64's finaliser).
func mixIndex(i int) uint64 {
	x := uint64(i) + 0x9e3779b97f4a7c15
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
