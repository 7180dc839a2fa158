// Package flow computes exact constrained max-min fair (CMMF) shares of
// machines under placement constraints, by integer max-flow.
//
// The model and algorithms follow Ghodsi et al., "Choosy: Max-Min Fair
// Sharing for Datacenter Jobs with Constraints", EuroSys 2013 (§4–5), with
// the exact flow formulation of the project's ALGORITHMS.md §5: every
// fairness and tightness decision is taken on integers (levels are rationals
// p/q and capacities are scaled by q), so no tolerance ever decides a freeze.
//
// It is an algorithm package: it imports only the standard library, reads
// no file and prints nothing. The pipeline builds its Problem from the
// inputs (pipeline.CMMFProblem).
package flow
