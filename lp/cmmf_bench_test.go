package lp

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/capplan/capplan/flow"
)

// benchSize is one benchmark instance shape.
type benchSize struct {
	users, types int
}

// benchMaxCount is the largest machine count of a type in benchmark
// instances (counts are uniform in 1..benchMaxCount).
const benchMaxCount = 200

// Sizes per backend: the dense pure-Go simplex costs O(m³) per pivot, so
// it gets small instances only; CLP gets the target size, 500×50.
var benchSizes = map[string][]benchSize{
	BackendSimplex: {{10, 5}, {30, 8}},
	BackendCLP:     {{50, 10}, {200, 20}, {500, 50}},
}

// paperSizes are the (small) sizes on which CMMFPaper, one LP per active
// user per round, is benchmarked against CMMF.
var paperSizes = map[string][]benchSize{
	BackendSimplex: {{10, 5}},
	BackendCLP:     {{50, 10}},
}

// BenchmarkCMMF times CMMF per backend on seeded random instances (see
// randomProblem), built outside the timed loop, and reports LPs per solve.
func BenchmarkCMMF(b *testing.B) {
	benchCMMF(b, CMMF, benchSizes)
}

// BenchmarkCMMFPaper times CMMFPaper, the paper's one-LP-per-user
// saturation test, on small sizes, for comparison with BenchmarkCMMF.
func BenchmarkCMMFPaper(b *testing.B) {
	benchCMMF(b, CMMFPaper, paperSizes)
}

func benchCMMF(b *testing.B, alg func(*flow.Problem, Solver) (*CMMFResult, error), sizes map[string][]benchSize) {
	for _, backend := range Backends() {
		for _, sz := range sizes[backend] {
			name := fmt.Sprintf("%s/users=%d-types=%d", backend, sz.users, sz.types)
			b.Run(name, func(b *testing.B) {
				// Seed from the size, so each instance is reproducible.
				rng := rand.New(rand.NewPCG(uint64(sz.users), uint64(sz.types)))
				p := randomProblem(rng, sz.users, sz.types, benchMaxCount)
				var res *CMMFResult
				for b.Loop() {
					// A fresh solver per solve: no warm start carries
					// over from the previous iteration.
					s, err := NewSolver(backend)
					if err != nil {
						b.Fatal(err)
					}
					res, err = alg(p, s)
					if err != nil {
						b.Fatal(err)
					}
				}
				if slices.Contains(res.Round, 0) {
					b.Fatal("a user never froze")
				}
				b.ReportMetric(float64(res.LPs), "LPs/op")
				b.ReportMetric(float64(res.Rounds), "rounds/op")
			})
		}
	}
}
