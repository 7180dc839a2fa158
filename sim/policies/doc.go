// Package policies holds the simulator's online scheduling policies
// (SIMULATE.md §3), one per file, and Registry: a name → constructor map
// whose constructors parse typed parameters (`--param P.k=v`).
//
// Baselines: fifo and fifo-strict, capacity (YARN-like queues), drf
// (weighted, progressive filling), sjf, srtf, tetris and tetrisfair
// (alignment with an SRTF blend and a fairness knob), cp (critical path
// first), and Graphene's baselines by name (tez, tez-cp, tez-tetris).
// The seeds' online schedulers: carbyne (carbyne*.go: shares, stage-wave
// packs, latest-start plans, leftover) and graphene (graphene*.go: the
// offline preferred orders, built ahead of a run by Prepare, and the
// matcher). Later policies (choosy, xschedule) register themselves the
// same way, each in its own file.
//
// It imports sim, dag (Graphene's offline builder) and the standard
// library only.
package policies
