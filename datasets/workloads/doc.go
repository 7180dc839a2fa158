// Package workloads turns inputs into simulator workloads: clusters and
// users (from capplan Cluster and Demand documents), jobs from Workload
// documents, Alibaba v2018 batch_task traces and PSPLIB projects (through
// the datasets/dags readers and the dag model), and the seeded streaming
// generators of SIMULATE.md §2.3 (fb, googlelike) with Poisson arrivals at
// a target load. Generators are sim.JobSources: a million-task workload
// never sits in memory at once, and every job is a pure function of
// (seed, parameters, job index).
//
// It may import datasets, datasets/dags, dag and sim; only the pipeline,
// the CLI, benchmarks and tests import it.
package workloads
