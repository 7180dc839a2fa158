// Package par is capplan's one home for running independent work items on
// several goroutines: For calls a function for every index of a range, in
// increasing index order, and reports the failure of the lowest index, so
// results and errors never depend on scheduling.
//
// It imports only the standard library; the pipeline, the algorithm
// packages and the bench tables use it.
package par
