// Package pipeline is capplan's waist: one function per job, each taking
// typed options and returning the finished plan document with its quality
// evidence. Every job follows the same road,
//
//	load inputs (datasets) → build the problem → solve (flow, lp, binpack/…, dag)
//	→ check the result independently → build the document (plan)
//
// and both the CLI (cmd/capplan) and the bench tables (cmd/benchtables)
// call these functions, so nothing is computed twice.
//
// Jobs: FairShare (CMMF shares), Shapes (X-Size catalog), Pack (X-Select
// ownership packing), Size (min-nodes sizing, one node type or a mix),
// DAGSchedule, DAGBounds and DAGCheck, Simulate and Sweep (simulator runs
// and parameter sweeps over them); Plan chains the planning jobs into the
// documents of a plan bundle (`capplan plan`), ending with the simulated
// check of its ownership packing (PlanSimulate), and CheckPlan re-verifies
// a written bundle from its inputs with the independent checkers (and
// re-runs the deterministic simulation).
//
// Sharding (shard.go): Sweep and the DAG jobs run one deterministic slice
// of their items with a shard (DAGSchedulePart, DAGBoundsPart,
// DAGCheckPart, SweepOptions.Shard), balanced by estimated cost
// (shard_cost.go), and return a plan.Part; Merge combines the parts of
// all shards into the document of the unsharded run.
//
// pipelinetest (a sub-package, imported only by tests) computes the
// example's documents with these functions once per test binary.
//
// Functions here never print: progress goes to optional callbacks in the
// options. Options that do not suit the input return an *OptionError (a
// usage error for the CLI); a result that fails its independent check is
// an internal error and no document is returned.
//
// It may import the algorithm packages (flow, lp, binpack/..., dag),
// datasets (all input formats), plan (documents) and internal helpers; it
// imports no CLI library and no view (reports, export).
package pipeline
