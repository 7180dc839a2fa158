// Command benchtables prints capplan's quality and speed tables (`make
// bench`): CMMF solve times on generated instances for every method and
// the agreement between methods, whole-process runs of the capplan binary
// with their peak memory, X-Size quality against the exact optimum and
// speed, X-Select ownership packing, DAG schedulers on PSPLIB and the
// Alibaba sample, vector bin packing on the Mommessin sets, and the peak
// memory of `capplan dag schedule` on big Alibaba inputs at the default
// limits (the README example and a 1-million-row file), and the
// simulator's tables against the papers' targets (sim.go, online.go,
// constraints.go; X-Flex's Table 1 in xflex.go, whose targets
// TestXFlexTable1 asserts). Inputs come
// from seeded generators and the shared datasets (testdatasets.Dir), so
// the tables are reproducible up to the machine's speed.
//
// Rows that run a whole command go through the pipeline functions the CLI
// calls (pipeline.Shapes, pipeline.Pack); tables of one algorithm alone
// (flow against LP timing, scheduler comparisons, packing heuristics) call
// the algorithm packages directly. It may import everything but cobra.
package main
