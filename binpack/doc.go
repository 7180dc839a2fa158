// Package binpack is the home of the resource-vector concepts shared by
// capplan's packing and container-shape algorithms:
//
//   - Fits (load + size ≤ capacity, exact, int64 or float64 vectors) is the
//     one fit test; Dominates and FirstFit are its capacity-only forms;
//   - Shortfalls and Closest say which dimensions a request lacks and by
//     how much, so that a rejection can be explained;
//   - Cost and ShapeCost price a container shape in normalised units, and
//     Cheapest picks a request's cheapest dominating shape.
//
// A resource vector lists one amount per resource dimension, in the order
// of the cluster's dimension names, in real units (milli-cores, bytes,
// GPUs) or in a benchmark's integers. Every fit decision compares those
// exact values; nothing here normalises, and tolerances, where a packer
// needs one, enter as a (negative) load.
//
// Sub-packages: xsize (X-Size container shape catalogs), xselect (X-Select
// ownership packing), vbp (vector bin packing for cluster sizing, one node
// type or a priced mix) and internal/work (the work budget they share).
//
// It imports only the standard library. Every binpack package may import
// it; it reads no files and prints nothing, nor does any sub-package.
package binpack
