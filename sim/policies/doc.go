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
// matcher). Constraints and ownership: choosy (online constrained max-min
// fairness) and its exact comparators cmmf-restricted, cmmf-migrate and
// cmmf-preempt; xschedule (X-Flex on a packing plan's owned containers)
// and drf-am (DRF with job-level application masters, its comparator).
// Later policies register themselves the same way, each in its own file.
//
// It imports sim, flow (the comparators' exact CMMF solver), dag
// (Graphene's offline builder) and the standard library only.
package policies
