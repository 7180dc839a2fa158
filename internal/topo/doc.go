// Package topo orders the nodes of a directed graph topologically and
// finds its dependency cycles. It is the one home of cycle detection: the
// DAG builder (dag) and the workload validator (datasets) both call it.
// It imports the standard library only.
package topo
