package lp

import (
	"fmt"
	"math"
)

// depTol is the relative size below which a row, after elimination against
// the rows kept before it, counts as a linear combination of them: its
// largest remaining entry is at most depTol times its largest original
// entry.
const depTol = 1e-10

// colMap recovers a model variable from standard-form columns:
//
//	x = base + sign·y[pos] − y[neg]
//
// with pos or neg = −1 when absent.
type colMap struct {
	base float64
	sign float64
	pos  int
	neg  int
}

// stdForm is a Model converted to the standard form
//
//	minimise cᵀy (+ a constant)  s.t.  A y = b,  y ≥ 0,  b ≥ 0.
type stdForm struct {
	c    []float64
	a    [][]float64 // dense rows of A
	b    []float64
	vars []colMap
	// structural is the number of structural columns; slack columns follow.
	structural int
}

// toStdForm converts m by the usual reductions (Bertsimas & Tsitsiklis,
// "Introduction to Linear Optimization", §1.1): a fixed variable becomes a
// constant; a variable with a finite lower bound is shifted, y = x − lo,
// and a finite upper bound becomes the row y + s = hi − lo; a variable
// bounded only above is mirrored, y = hi − x; a free variable is split,
// x = y⁺ − y⁻. A ≤ row gains a slack +s, a ≥ row a surplus −s, and every
// row is negated if needed so that b ≥ 0. Inactive rows (infinite
// right-hand side) are left out. Slack columns come last. The error wraps
// ErrInfeasible when a variable's bounds cross.
func toStdForm(m *Model) (*stdForm, error) {
	sf := &stdForm{vars: make([]colMap, len(m.lo))}
	n := 0
	var ubRows []int // variables whose upper bound becomes a row
	for j := range m.lo {
		lo, hi := m.lo[j], m.hi[j]
		cm := colMap{pos: -1, neg: -1, sign: 1}
		switch {
		case lo > hi:
			return nil, fmt.Errorf("%w: variable %d has bounds [%v, %v]", ErrInfeasible, j, lo, hi)
		case lo == hi:
			cm.base = lo
		case !math.IsInf(lo, -1):
			cm.base, cm.pos = lo, n
			n++
			if !math.IsInf(hi, 1) {
				ubRows = append(ubRows, j)
			}
		case !math.IsInf(hi, 1):
			cm.base, cm.sign, cm.pos = hi, -1, n
			n++
		default:
			cm.pos, cm.neg = n, n+1
			n += 2
		}
		sf.vars[j] = cm
	}
	sf.structural = n
	slacks := len(ubRows)
	for _, r := range m.rows {
		if !math.IsInf(r.rhs, 0) && r.sense != EQ {
			slacks++
		}
	}
	n += slacks
	rows := len(ubRows)
	for _, r := range m.rows {
		if !math.IsInf(r.rhs, 0) {
			rows++
		}
	}
	if int64(rows)*int64(n) > MaxSimplexCells { // refused before the dense rows are allocated
		return nil, &TooLargeError{Rows: rows, Cols: n}
	}
	next := sf.structural // next slack column

	sf.c = make([]float64, n)
	sgn := 1.0
	if m.max {
		sgn = -1
	}
	for j, cj := range m.obj {
		cj *= sgn
		cm := sf.vars[j]
		if cm.pos >= 0 {
			sf.c[cm.pos] += cj * cm.sign
		}
		if cm.neg >= 0 {
			sf.c[cm.neg] -= cj
		}
	}

	addRow := func(a []float64, b float64) {
		if b < 0 {
			for k := range a {
				a[k] = -a[k]
			}
			b = -b
		}
		sf.a = append(sf.a, a)
		sf.b = append(sf.b, b)
	}
	for _, j := range ubRows {
		a := make([]float64, n)
		a[sf.vars[j].pos] = 1
		a[next] = 1
		next++
		addRow(a, m.hi[j]-m.lo[j])
	}
	for _, r := range m.rows {
		if math.IsInf(r.rhs, 0) {
			continue
		}
		a := make([]float64, n)
		b := r.rhs
		for _, t := range r.terms {
			cm := sf.vars[t.Var]
			b -= t.Coef * cm.base
			if cm.pos >= 0 {
				a[cm.pos] += t.Coef * cm.sign
			}
			if cm.neg >= 0 {
				a[cm.neg] -= t.Coef
			}
		}
		switch r.sense {
		case LE:
			a[next] = 1
			next++
		case GE:
			a[next] = -1
			next++
		}
		addRow(a, b)
	}
	return sf, nil
}

// independentRows returns the indices of a maximal set of linearly
// independent rows of [A | b], in order, dropping each row that is (to
// depTol) a combination of earlier kept rows. The error wraps ErrInfeasible
// when a dropped row's right-hand side disagrees with that combination, so
// that A y = b has no solution at all. It runs Gaussian elimination with
// the largest remaining entry of each new row as its pivot: O(m²n).
func independentRows(a [][]float64, b []float64) ([]int, error) {
	type pivotRow struct {
		a   []float64
		b   float64
		col int
	}
	var basis []pivotRow
	var keep []int
	for i, ai := range a {
		r := append([]float64(nil), ai...)
		rb := b[i]
		scale := 0.0               // magnitude of the row's coefficients
		bscale := math.Abs(rb) + 1 // magnitude of the right-hand sides combined
		for _, v := range ai {
			scale = math.Max(scale, math.Abs(v))
		}
		for _, p := range basis {
			f := r[p.col] / p.a[p.col]
			if f == 0 {
				continue
			}
			for k, v := range p.a {
				r[k] -= f * v
			}
			r[p.col] = 0
			rb -= f * p.b
			bscale = math.Max(bscale, math.Abs(f*p.b))
		}
		col, big := -1, 0.0
		for k, v := range r {
			if math.Abs(v) > big {
				col, big = k, math.Abs(v)
			}
		}
		if big <= depTol*scale {
			if math.Abs(rb) > depTol*bscale {
				return nil, fmt.Errorf("%w: equality rows are inconsistent", ErrInfeasible)
			}
			continue
		}
		basis = append(basis, pivotRow{a: r, b: rb, col: col})
		keep = append(keep, i)
	}
	return keep, nil
}
