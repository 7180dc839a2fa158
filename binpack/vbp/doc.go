// Package vbp solves offline d-dimensional vector bin packing: pack integer
// item vectors into the fewest identical bins so that, in every bin and every
// dimension, the item sizes sum to at most the bin capacity.
//
// It computes lower bounds (bounds.go), runs constructive heuristics
// (first-fit decreasing, Panigrahy et al.'s dot-product and L2 bin-centric
// rules, node-at-a-time knapsack filling), improves the best packings by
// emptying bins (improve.go), an exact one-bin-fewer attempt on small
// instances (search_exact.go) and the consistent neighbourhood search
// (search*.go), and verifies every packing independently with Check.
// Solve ties these together.
//
// SolveMixed sizes with several node types and costs (variable-sized vector
// bin packing, each item restricted to the types it may use): the cheapest
// mix of nodes, with a lower bound from an LP relaxation and an integer
// covering bound (MixedLowerBound), checked by CheckMixed. Each of its
// constructions (mixed_greedy, mixed_bestfit, mixed_partition) and moves
// (mixed_polish, mixed_merge, mixed_empty, mixed_split, mixed_improve)
// has its own file and gets its weights, item order and work budget as
// arguments.
//
// Solve and SolveMixed stop after Options.MaxWork work units (a default
// when 0), so without the opt-in Options.TimeLimit their results are the
// same on any machine.
//
// It may import binpack (Fits), binpack/internal/work (the work budget)
// and gonum (the LP bound's simplex). It reads no files: the benchmark's
// .vbp and summary files are parsed by datasets/vbpfile, which its
// dataset tests (package vbp_test) use.
package vbp
