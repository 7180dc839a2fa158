package lp

import (
	"fmt"
	"strings"
)

// Backend names accepted by NewSolver.
const (
	// BackendSimplex is the pure-Go backend (Simplex).
	BackendSimplex = "simplex"
	// BackendCLP is the COIN-OR CLP backend, compiled only with the clp
	// build tag.
	BackendCLP = "clp"
)

// Backends returns the names of the backends compiled into this binary,
// the default first.
func Backends() []string {
	if clpBuilt {
		return []string{BackendCLP, BackendSimplex}
	}
	return []string{BackendSimplex}
}

// NewSolver returns a new Solver for the named backend. An unknown name
// gets an error listing the valid ones; "clp" in a binary built without the
// clp tag gets an error saying how to rebuild.
func NewSolver(name string) (Solver, error) {
	switch name {
	case BackendSimplex:
		return Simplex{}, nil
	case BackendCLP:
		return newCLP()
	}
	return nil, fmt.Errorf("lp: unknown backend %q (valid: %s)", name, strings.Join([]string{BackendSimplex, BackendCLP}, ", "))
}

// Default returns a new Solver for the best compiled backend: clp when built
// with the clp tag, simplex otherwise.
func Default() Solver {
	s, err := NewSolver(Backends()[0])
	if err != nil {
		// Backends lists only compiled backends, whose constructors do not fail.
		panic(err)
	}
	return s
}
