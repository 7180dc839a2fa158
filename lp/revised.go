package lp

import "math"

// Revised is a bounded revised primal simplex for column generation:
//
//	minimise cᵀx  subject to  A·x = b,  x ≥ 0,  with b ≥ 0,
//
// started from the basis of the m unit columns NewRevised creates (one
// per row, with the caller's costs: slack or artificial variables), so
// the start is feasible and no phase 1 is needed. Columns are added
// between solves (AddColumn); the last basis is kept, so each Solve
// starts warm. It keeps the basis inverse B⁻¹ dense (m×m), updates it
// by one elimination per pivot (O(m²)) and rebuilds it from the basis
// columns every refactorEvery pivots (O(m³), less on the sparse bases of
// column generation) to bound rounding drift; the simplex multipliers
// are updated with each pivot (O(m)) and recomputed with B⁻¹. Work
// counts the multiply-adds done, rows and eliminations skipped for zeros
// not counted.
// Pricing is Dantzig's most negative reduced cost, switching to Bland's
// least index after degenerateRun pivots without progress so that the
// method cannot cycle. Every Solve has a work cap, so a caller's budget
// holds whatever the model (gonum's simplex has none); the caller must
// treat the result of a capped solve as a candidate, not an optimum.
//
// Reference: Chvátal, Linear Programming (1983), ch. 7 (revised simplex)
// and ch. 3 (Bland's rule); Dantzig & Wolfe's column generation as used
// by Brucker & Knust (EJOR 127, 2000).
type Revised struct {
	m     int
	b     []float64
	cols  []sparseCol
	cost  []float64
	basis []int     // basis[r]: the column basic in row r
	inB   []int     // inB[j]: the row where column j is basic, or −1
	binv  []float64 // B⁻¹, row-major m×m
	xb    []float64 // basic values B⁻¹b
	since int       // pivots since the last refactorisation
	work  int64
}

type sparseCol struct {
	idx []int
	val []float64
}

// RevisedStatus is how a Revised.Solve ended.
type RevisedStatus int

const (
	// RevisedOptimal: no column prices out (to the tolerance).
	RevisedOptimal RevisedStatus = iota
	// RevisedCapped: the work cap stopped the solve at a feasible basis.
	RevisedCapped
	// RevisedUnbounded: a column improves without limit.
	RevisedUnbounded
	// RevisedNumeric: the basis became singular to working precision.
	RevisedNumeric
)

const (
	revisedTol     = 1e-9  // reduced costs and pivots below this are zero
	refactorEvery  = 64    // pivots between rebuilds of B⁻¹
	degenerateRun  = 50    // degenerate pivots before Bland's rule
	revisedPivotTo = 1e-11 // smallest pivot element accepted in the ratio test
)

// NewRevised returns the model with rows A·x = b (b ≥ 0, panics
// otherwise) and m unit columns, column r having a 1 in row r and cost
// unitCost[r]; they are columns 0…m−1 and the starting basis.
func NewRevised(b, unitCost []float64) *Revised {
	m := len(b)
	if len(unitCost) != m {
		panic("lp: NewRevised: unitCost and b differ in length")
	}
	r := &Revised{m: m, b: append([]float64(nil), b...), basis: make([]int, m), binv: make([]float64, m*m),
		xb: append([]float64(nil), b...)}
	for i := 0; i < m; i++ {
		if !(b[i] >= 0) {
			panic("lp: NewRevised: b must be non-negative")
		}
		r.cols = append(r.cols, sparseCol{idx: []int{i}, val: []float64{1}})
		r.cost = append(r.cost, unitCost[i])
		r.inB = append(r.inB, i)
		r.basis[i] = i
		r.binv[i*m+i] = 1
	}
	return r
}

// AddColumn adds a column (entries val at rows idx, cost c), non-basic at
// zero, and returns its index.
func (r *Revised) AddColumn(idx []int, val []float64, c float64) int {
	r.cols = append(r.cols, sparseCol{idx: append([]int(nil), idx...), val: append([]float64(nil), val...)})
	r.cost = append(r.cost, c)
	r.inB = append(r.inB, -1)
	return len(r.cols) - 1
}

// NumColumns returns the number of columns, the unit ones included.
func (r *Revised) NumColumns() int { return len(r.cols) }

// Work returns the elementary steps spent so far (multiply-adds of the
// pricing, the updates and the refactorisations).
func (r *Revised) Work() int64 { return r.work }

// Objective returns cᵀx at the current basis.
func (r *Revised) Objective() float64 {
	var v float64
	for row, j := range r.basis {
		v += r.cost[j] * r.xb[row]
	}
	return v
}

// X returns the value of column j at the current basis.
func (r *Revised) X(j int) float64 {
	if row := r.inB[j]; row >= 0 {
		return r.xb[row]
	}
	return 0
}

// Duals returns y = c_Bᵀ B⁻¹, the simplex multipliers of the rows: at an
// optimum every column has c_j − yᵀA_j ≥ 0.
func (r *Revised) Duals() []float64 {
	y := make([]float64, r.m)
	r.duals(y)
	return y
}

// duals sets y = c_Bᵀ B⁻¹, summing the rows of B⁻¹ whose basic column
// has a cost.
func (r *Revised) duals(y []float64) {
	m := r.m
	clear(y)
	for row, j := range r.basis {
		c := r.cost[j]
		if c == 0 {
			continue
		}
		for k, v := range r.binv[row*m : (row+1)*m] {
			y[k] += c * v
		}
		r.work += int64(m)
	}
	r.work += int64(m)
}

// Solve pivots until no column prices out, the work spent in this call
// passes maxWork, or trouble; the basis stays primal feasible throughout.
func (r *Revised) Solve(maxWork int64) RevisedStatus {
	m := r.m
	start := r.work
	degenerate := 0
	d := make([]float64, m) // entering column in the basis: B⁻¹A_q
	// y, the simplex multipliers, is updated with each pivot (O(m)) and
	// recomputed after each refactorisation.
	y := make([]float64, m)
	r.duals(y)
	for {
		if r.work-start > maxWork {
			return RevisedCapped
		}
		bland := degenerate >= degenerateRun
		q, best := -1, -revisedTol
		for j, c := range r.cols {
			if r.inB[j] >= 0 {
				continue
			}
			rc := r.cost[j]
			for x, i := range c.idx {
				rc -= y[i] * c.val[x]
			}
			r.work += int64(len(c.idx)) + 1
			if rc < best {
				q, best = j, rc
				if bland {
					break
				}
			}
		}
		if q < 0 {
			return RevisedOptimal
		}
		// d = B⁻¹ A_q.
		clear(d)
		c := r.cols[q]
		for row := 0; row < m; row++ {
			var s float64
			for x, i := range c.idx {
				s += r.binv[row*m+i] * c.val[x]
			}
			d[row] = s
		}
		r.work += int64(m * len(c.idx))
		// Ratio test: the least x_B/d over d > 0; ties by the least
		// basic column index (Bland) when in Bland's mode, else by the
		// largest pivot.
		leave := -1
		var ratio float64
		for row := 0; row < m; row++ {
			if d[row] <= revisedPivotTo {
				continue
			}
			t := max(0, r.xb[row]) / d[row]
			switch {
			case leave < 0 || t < ratio-revisedTol:
				leave, ratio = row, t
			case t <= ratio+revisedTol:
				if bland && r.basis[row] < r.basis[leave] || !bland && d[row] > d[leave] {
					leave, ratio = row, min(ratio, t)
				}
			}
		}
		if leave < 0 {
			return RevisedUnbounded
		}
		if ratio <= revisedTol {
			degenerate++
		} else {
			degenerate = 0
		}
		r.pivot(q, leave, d, ratio)
		// y' = y + rc_q·(row leave of the new B⁻¹): the entering
		// column's reduced cost becomes zero and the others' basic
		// columns keep theirs.
		for k, v := range r.binv[leave*m : (leave+1)*m] {
			y[k] += best * v
		}
		r.work += int64(m)
		if r.since >= refactorEvery {
			if !r.refactor() {
				return RevisedNumeric
			}
			r.duals(y)
		}
	}
}

// pivot brings column q into the basis at row leave, d = B⁻¹A_q, moving
// by step t.
func (r *Revised) pivot(q, leave int, d []float64, t float64) {
	m := r.m
	for row := 0; row < m; row++ {
		if row != leave {
			r.xb[row] = max(0, r.xb[row]-t*d[row])
		}
	}
	r.xb[leave] = t
	piv := d[leave]
	lr := r.binv[leave*m : (leave+1)*m]
	for k := range lr {
		lr[k] /= piv
	}
	r.work += int64(m)
	for row := 0; row < m; row++ {
		if row == leave || d[row] == 0 {
			continue
		}
		f := d[row]
		rr := r.binv[row*m : (row+1)*m]
		for k, v := range lr {
			rr[k] -= f * v
		}
		r.work += int64(m)
	}
	r.inB[r.basis[leave]] = -1
	r.basis[leave] = q
	r.inB[q] = leave
	r.since++
}

// refactor rebuilds B⁻¹ from the basis columns by Gauss–Jordan
// elimination with partial pivoting, and x_B = B⁻¹b. It returns false
// when the basis is singular to working precision.
func (r *Revised) refactor() bool {
	m := r.m
	r.since = 0
	a := make([]float64, m*m) // B, then eliminated to I
	inv := make([]float64, m*m)
	for row, j := range r.basis {
		c := r.cols[j]
		for x, i := range c.idx {
			a[i*m+row] = c.val[x]
		}
		inv[row*m+row] = 1
	}
	for col := 0; col < m; col++ {
		p := col
		for row := col + 1; row < m; row++ {
			if math.Abs(a[row*m+col]) > math.Abs(a[p*m+col]) {
				p = row
			}
		}
		if math.Abs(a[p*m+col]) < revisedPivotTo {
			return false
		}
		if p != col {
			for k := 0; k < m; k++ {
				a[p*m+k], a[col*m+k] = a[col*m+k], a[p*m+k]
				inv[p*m+k], inv[col*m+k] = inv[col*m+k], inv[p*m+k]
			}
		}
		piv := a[col*m+col]
		for k := 0; k < m; k++ {
			a[col*m+k] /= piv
			inv[col*m+k] /= piv
		}
		r.work += int64(3 * m) // the pivot search and the scaling
		for row := 0; row < m; row++ {
			if row == col || a[row*m+col] == 0 {
				continue
			}
			f := a[row*m+col]
			for k := 0; k < m; k++ {
				a[row*m+k] -= f * a[col*m+k]
				inv[row*m+k] -= f * inv[col*m+k]
			}
			r.work += int64(2 * m)
		}
	}
	r.work += int64(m * m) // x_B = B⁻¹b below (filling B is not counted)
	r.binv = inv
	for row := 0; row < m; row++ {
		var s float64
		for k := 0; k < m; k++ {
			s += inv[row*m+k] * r.b[k]
		}
		r.xb[row] = max(0, s)
	}
	return true
}
