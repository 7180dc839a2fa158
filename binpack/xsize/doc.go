// Package xsize chooses a catalog of K container shapes for a forecast of
// resource requests: X-Flex's X-Size (Wolf et al., Middleware 2014, §2.2),
// the container selection problem of Nagarajan et al. (APPROX 2015).
//
// Every request must fit (be dominated by) at least one shape, every shape
// must fit some node type, and each request runs in its cheapest fitting
// shape. The objective is Σ w·cost(shape), with cost the sum (SumCost) or the
// maximum (MaxCost) of the shape's dimensions normalised by the cluster's
// aggregate capacity (binpack.ShapeCost). Solvers: PTAS (rays, snapping and
// an exact DP on the rays, ALGORITHMS.md §1.4), MaxDP (exact for MaxCost,
// §1.3), Exact (brute force over the candidate grid, §1.2) and LocalSearch
// (large inputs). Evaluate, LowerBound, Round and Stats are shared by all
// of them. PTAS and LocalSearch stop after MaxWork work units (a default
// when 0); TimeLimit is an opt-in wall-clock bound.
//
// The package is pure: no I/O, no printing, deterministic for given inputs
// without a TimeLimit. It may import binpack (fit tests, shape cost,
// cheapest shape) and binpack/internal/work.
package xsize
