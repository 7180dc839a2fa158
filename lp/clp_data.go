//go:build clp

package lp

/*
#include <Clp_C_Interface.h>
*/
import "C"

import (
	"fmt"
	"math"
	"unsafe"
)

// clpData is a model's bounds, row sides and objective in CLP's form.
type clpData struct {
	colLo, colUp, rowLo, rowUp, obj []float64
	sense                           float64
}

// emptyLines marks the columns and rows of m without coefficients.
func emptyLines(m *Model) (col, row []bool) {
	col = make([]bool, len(m.lo))
	for j := range col {
		col[j] = true
	}
	row = make([]bool, len(m.rows))
	for i, r := range m.rows {
		row[i] = len(r.terms) == 0
		for _, t := range r.terms {
			col[t.Var] = false
		}
	}
	return col, row
}

// data converts m's bounds, row sides and objective to CLP's arrays. An
// empty column is fixed at the bound its cost prefers (fixed[j]); ray
// reports that this bound is infinite. An empty row is sent free, after
// checking that 0 satisfies it; the error wraps ErrInfeasible if not, or if
// some variable's bounds cross.
func (s *CLP) data(m *Model) (d clpData, fixed []float64, ray bool, err error) {
	clip := func(v float64) float64 { return math.Max(-clpInf, math.Min(clpInf, v)) }
	n := len(m.lo)
	d.sense = 1
	if m.max {
		d.sense = -1
	}
	d.colLo, d.colUp, d.obj = make([]float64, n), make([]float64, n), make([]float64, n)
	fixed = make([]float64, n)
	for j := range n {
		lo, hi := m.lo[j], m.hi[j]
		if lo > hi {
			return d, nil, false, fmt.Errorf("%w: variable %d has bounds [%v, %v]", ErrInfeasible, j, lo, hi)
		}
		if !s.emptyCol[j] {
			d.colLo[j], d.colUp[j], d.obj[j] = clip(lo), clip(hi), m.obj[j]
			continue
		}
		v := math.Min(math.Max(0, lo), hi)
		switch cost := d.sense * m.obj[j]; {
		case cost > 0:
			v = lo
		case cost < 0:
			v = hi
		}
		ray = ray || math.IsInf(v, 0)
		fixed[j] = v
		d.colLo[j], d.colUp[j] = 0, 0
	}
	rows := len(m.rows)
	d.rowLo, d.rowUp = make([]float64, rows), make([]float64, rows)
	for i, r := range m.rows {
		d.rowLo[i], d.rowUp[i] = -clpInf, clpInf
		if s.emptyRow[i] {
			if (r.sense != GE && r.rhs < 0) || (r.sense != LE && r.rhs > 0) {
				return d, nil, false, fmt.Errorf("%w: empty row %d reads 0 %v %v", ErrInfeasible, i, r.sense, r.rhs)
			}
			continue
		}
		switch r.sense {
		case LE:
			d.rowUp[i] = clip(r.rhs)
		case GE:
			d.rowLo[i] = clip(r.rhs)
		case EQ:
			d.rowLo[i], d.rowUp[i] = r.rhs, r.rhs
		}
	}
	return d, fixed, ray, nil
}

// dp returns a C view of s (nil for an empty slice); CLP copies the data.
func dp(s []float64) *C.double {
	if len(s) == 0 {
		return nil
	}
	return (*C.double)(unsafe.Pointer(&s[0]))
}
