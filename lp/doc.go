// Package lp is a small linear-programming modelling API with two
// interchangeable backends, a pure-Go simplex over gonum (for small models)
// and COIN-OR CLP through cgo (build tag clp), and the iterative-LP
// computation of weighted constrained max-min fair (CMMF) shares of Ghodsi
// et al., "Choosy", EuroSys 2013, §5.1 (Algorithm 1). SafeSimplex is the
// one place that calls gonum's simplex, turning its panics into errors.
// Revised is a bounded revised primal simplex with a work cap for column
// generation (the DAG package's LP bound): columns arrive between solves
// and the basis stays warm.
//
// It is an algorithm package: it reads no file, prints nothing and imports
// no input format, document or CLI library. It may import gonum and flow
// (whose Problem it solves).
package lp
