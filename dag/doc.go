// Package dag builds compact preferred schedules for one job DAG on a given
// set of machines, and measures them against lower bounds: the task-level
// DAG model and its builder, an independent schedule checker, lower bounds
// (critical path, TWork, NewLB, energy, node packing, bin), a per-machine
// resource-time space, list-scheduling baselines (BFS, CP, Random, Tetris,
// Coffman–Graham, StripPart), the RCPSP toolbox (priority rules, serial and
// parallel schedule generation, sampling, forward–backward improvement, a
// genetic algorithm with two-point and peak crossover), Graphene's offline
// builder (Grandl et al., OSDI 2016, §4), the destructive lower bounds
// (propagation with energetic reasoning and shaving over the resources and
// redundant clique resources, stage-level energy, the Brucker–Knust LP test
// by column generation, exact search, search with nogood learning;
// AllBounds) and Best, which combines them under a deterministic work budget
// and names the bound that proves a schedule optimal.
//
// Times are whole ticks (int64); DAG.Unit gives the seconds per tick, so
// precedence and capacity checks are exact in time. Demands are float64
// per resource, compared with the named tolerance CapTol.
//
// dag is an algorithm package: it reads no files and imports no input
// format (the readers of Workload documents, PSPLIB .sm files and Alibaba
// batch_task rows are in datasets/dags) and no command-line library. It
// may import the standard library and the lp package (the LP bound's
// solver) only.
package dag
