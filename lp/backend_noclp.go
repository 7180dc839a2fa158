//go:build !clp

package lp

import "errors"

// clpBuilt reports whether the clp backend is compiled in.
const clpBuilt = false

func newCLP() (Solver, error) {
	return nil, errors.New("lp: backend clp not built in; rebuild with -tags clp")
}
