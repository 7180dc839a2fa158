// Package dags reads job DAGs into the dag model: capplan Workload jobs
// (stage- or task-level, barrier and one-to-one edges), PSPLIB single-mode
// RCPSP .sm files and their result tables, and Alibaba cluster-trace-v2018
// batch_task rows. It also expands a Cluster into per-node capacity
// vectors for the dag schedulers, makes PSPLIB-like projects the way
// PSPLIB's generator ProGen made its sets (ProGen: for the J90 and J120
// sizes whose files are not shipped) and writes projects as .sm files.
//
// It may import datasets (the input model) and dag (the model it builds);
// nothing imports it but the pipeline, the CLI and tests.
package dags
