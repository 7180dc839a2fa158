//go:build clp

package lp

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/capplan/capplan/flow"
)

func TestZZStress(t *testing.T) {
	for _, be := range []string{"clp", "simplex"} {
		rng := rand.New(rand.NewPCG(99, 1))
		lps, plps, n := 0, 0, 0
		for i := range 3000 {
			p := randomProblem(rng, 1+rng.IntN(9), 1+rng.IntN(6), 1+rng.Int64N(40))
			if rng.IntN(4) == 0 {
				p.Users = append(p.Users, flow.User{Weight: 2, Demand: flow.Unbounded})
			}
			level, round := oracleCMMF(p)
			want := make([]float64, len(level))
			for u, l := range level {
				want[u], _ = l.Float64()
			}
			s, _ := NewSolver(be)
			res, err := CMMF(p, s)
			if err != nil {
				t.Fatalf("%s %d: %v %+v", be, i, err, *p)
			}
			pres, err := CMMFPaper(p, s)
			if err != nil {
				t.Fatalf("%s %d paper: %v %+v", be, i, err, *p)
			}
			lps += res.LPs
			plps += pres.LPs
			n++
			if d := diffFloats(want, res.Level, cmmfTol); d != "" || fmt.Sprint(round) != fmt.Sprint(res.Round) {
				t.Errorf("%s %d: %s %v %v %+v", be, i, d, round, res.Round, *p)
			}
			if d := diffFloats(want, pres.Level, cmmfTol); d != "" || fmt.Sprint(round) != fmt.Sprint(pres.Round) {
				t.Errorf("%s %d paper: %s %v %v", be, i, d, round, pres.Round)
			}
			checkAlloc(t, p, res)
		}
		t.Logf("%s: avg LPs %.2f paper %.2f", be, float64(lps)/float64(n), float64(plps)/float64(n))
	}
}
