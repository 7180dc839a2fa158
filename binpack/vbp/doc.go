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
package vbp
