//go:build clp

package lp

import (
	"github.com/capplan/capplan/flow"
	"errors"
	"math/rand/v2"
	"testing"
)

func TestZZCompare(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	c := NewCLP()
	bad := 0
	for k := range 3000 {
		a, b, cc, sense := randomLP(rng)
		pm := primalModel(a, b, cc, sense)
		s1, e1 := Simplex{}.Solve(pm)
		s2, e2 := c.Solve(pm)
		st := func(s *Solution, e error) string {
			if e != nil {
				if errors.Is(e, ErrNumeric) { return "numeric" }
				return s.Status.String()
			}
			return "optimal"
		}
		if st(s1, e1) != st(s2, e2) {
			bad++
			if bad < 6 {
				t.Logf("instance %d: simplex %s clp %s %v A=%v b=%v c=%v sense=%v", k, st(s1, e1), st(s2, e2), e2, a, b, cc, sense)
			}
		}
	}
	t.Logf("bad %d", bad)
}

func TestZZOne(t *testing.T) {
	pm := primalModel([][]float64{{1, 0, 0, -5, -2}}, []float64{-1}, []float64{1, 4, 0, 6, 2}, []Sense{LE})
	s, err := NewCLP().Solve(pm)
	t.Log(s, err)
}

func TestZZ143(t *testing.T) {
	p := &flow.Problem{Types: []int64{2, 6, 5}, Users: []flow.User{{Weight: 2, Demand: -1, Types: []int{1}}, {Weight: 3, Demand: 1, Types: []int{0, 1, 2}}, {Weight: 2, Demand: 6, Types: []int{0, 1}}, {Weight: 1, Demand: 1, Types: []int{0}}}}
	l, r := oracleCMMF(p)
	t.Log(l, r)
	res, err := CMMF(p, NewCLP())
	t.Log(res, err)
	res, err = CMMF(p, Simplex{})
	t.Log(res, err)
}
