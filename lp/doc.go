// Package lp is a small linear-programming modelling API with two
// interchangeable backends, a pure-Go simplex over gonum (for small models)
// and COIN-OR CLP through cgo (build tag clp), and the iterative-LP
// computation of weighted constrained max-min fair (CMMF) shares of Ghodsi
// et al., "Choosy", EuroSys 2013, §5.1 (Algorithm 1).
package lp
