// Package plan defines capplan's plan documents: the versioned JSON schemas
// (apiVersion capplan/v1; kinds FairShare, ShapeCatalog, PackingPlan,
// DAGSchedule, DAGBounds, DAGCheck, SimulationResult, SimulationSet,
// SimulationSweep, and Part, the share of one shard of a sharded run) that
// record a job's inputs with their
// digests, its flags and seed, the result and its quality evidence (and,
// for heuristic searches, the work budget and time limit they ran under,
// Search). Every view (tables, CSV, workbooks, exports) is rendered from
// these documents, never by re-running an algorithm.
//
// It owns the schemas, their decoding with errors that name the file, line
// and field (DecodeDocument), their validation as inputs of later jobs
// (CheckCatalogDocument), the checks and merges of shards' parts
// (CheckParts, MergeDAGSchedule, …) and small pure helpers on documents
// (MachineName, Summarize). The pipeline builds documents; plan never solves anything.
//
// It imports only the standard library and internal/inputerr: no solver
// (flow, lp, binpack, dag, sim) and no input package (datasets).
package plan
