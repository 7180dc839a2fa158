// Package vbp solves offline d-dimensional vector bin packing: pack integer
// item vectors into the fewest identical bins so that, in every bin and every
// dimension, the item sizes sum to at most the bin capacity.
//
// It reads the VPSolver .vbp format used by the public benchmark of
// Mommessin et al. (Panigrahy and Triplet sets), computes lower bounds,
// runs constructive heuristics (first-fit decreasing, Panigrahy et al.'s
// dot-product and L2 bin-centric rules, node-at-a-time knapsack filling),
// improves the best packings by emptying bins and by a pool-based tabu
// search, and verifies every packing independently with Check.
//
// SolveMixed sizes with several node types and costs (variable-sized vector
// bin packing, each item restricted to the types it may use): the cheapest
// mix of nodes, with a lower bound from an LP relaxation and an integer
// covering bound (MixedLowerBound), checked by CheckMixed.
package vbp
