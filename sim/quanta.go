package sim

import "math"

// Quanta is the size of one unit of each resource dimension, in thousandths
// of the dimension's base unit (millicores, millibytes). SIMULATE.md §1.1:
// each dimension's quantum is the coarsest of 1 MiB, 1, 10⁻¹, 10⁻² and
// 10⁻³ base units that holds every value exactly; when none does, values
// are taken at 10⁻³, demands rounded up and capacities down, so that every
// fit decision stays exact and never optimistic.
type Quanta []int64

// quantumCandidates in milli-units, coarsest first: 1 MiB, 1, 0.1, 0.01,
// 0.001 base units.
var quantumCandidates = []int64{1 << 20 * 1000, 1000, 100, 10, 1}

// milliTol is the relative tolerance under which a float64 amount counts
// as a whole number of thousandths (it absorbs decimal-to-binary rounding
// of inputs such as 0.1).
const milliTol = 1e-9

// toMilli returns x·1000 rounded to the nearest integer and whether that is
// exact within milliTol.
func toMilli(x float64) (int64, bool) {
	m := x * 1000
	r := math.Round(m)
	return int64(r), math.Abs(m-r) <= milliTol*math.Max(1, math.Abs(m))
}

// QuantaBuilder collects the amounts of each dimension and chooses Quanta.
type QuantaBuilder struct {
	gcd   []int64 // gcd of the milli-values seen (0: none yet)
	inexa []bool  // some value is not a whole number of milli-units
}

// NewQuantaBuilder starts a builder for dims dimensions.
func NewQuantaBuilder(dims int) *QuantaBuilder {
	return &QuantaBuilder{gcd: make([]int64, dims), inexa: make([]bool, dims)}
}

// Add records an amount of dimension d in base units (≥ 0).
func (b *QuantaBuilder) Add(d int, base float64) {
	m, ok := toMilli(base)
	if !ok {
		b.inexa[d] = true
		return
	}
	b.AddMilli(d, m)
}

// AddMilli records an amount of dimension d in exact milli-units (≥ 0).
func (b *QuantaBuilder) AddMilli(d int, milli int64) {
	b.gcd[d] = gcd64(b.gcd[d], milli)
}

// Quanta returns, per dimension, the coarsest candidate dividing every
// amount added (1 milli-unit when some amount was inexact).
func (b *QuantaBuilder) Quanta() Quanta {
	q := make(Quanta, len(b.gcd))
	for d, g := range b.gcd {
		q[d] = 1
		if b.inexa[d] {
			continue
		}
		for _, c := range quantumCandidates {
			if g%c == 0 { // g = 0 (all zero) takes the coarsest
				q[d] = c
				break
			}
		}
	}
	return q
}

// Base returns the quantum of dimension d in base units.
func (q Quanta) Base(d int) float64 { return float64(q[d]) / 1000 }

// BaseAll returns every quantum in base units.
func (q Quanta) BaseAll() []float64 {
	out := make([]float64, len(q))
	for d := range q {
		out[d] = q.Base(d)
	}
	return out
}

// Demand converts a demand of dimension d in base units to quanta,
// rounding up.
func (q Quanta) Demand(d int, base float64) int64 {
	m, ok := toMilli(base)
	if !ok {
		m = int64(math.Ceil(base * 1000))
	}
	return ceilDiv(m, q[d])
}

// Capacity converts a capacity of dimension d in base units to quanta,
// rounding down.
func (q Quanta) Capacity(d int, base float64) int64 {
	m, ok := toMilli(base)
	if !ok {
		m = int64(math.Floor(base * 1000))
	}
	return m / q[d]
}

// DemandMilli converts an exact milli-value to quanta, rounding up.
func (q Quanta) DemandMilli(d int, milli int64) int64 { return ceilDiv(milli, q[d]) }

// CapacityMilli converts an exact milli-value to quanta, rounding down.
func (q Quanta) CapacityMilli(d int, milli int64) int64 { return milli / q[d] }

// ToBase converts an amount of dimension d in quanta to base units.
func (q Quanta) ToBase(d int, v int64) float64 { return float64(v) * q.Base(d) }

func ceilDiv(a, b int64) int64 {
	if a <= 0 {
		return a / b
	}
	return (a + b - 1) / b
}

func gcd64(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
