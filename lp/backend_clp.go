//go:build clp

package lp

// clpBuilt reports whether the clp backend is compiled in.
const clpBuilt = true

func newCLP() (Solver, error) { return NewCLP(), nil }
