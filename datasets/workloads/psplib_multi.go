package workloads

import (
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/capplan/capplan/datasets/dags"
	"github.com/capplan/capplan/sim"
)

// PSPLIBMulti builds W-PSP, a multi-job workload from PSPLIB projects
// [DERIVED: the project's own machine is too small to share, so]:
//
//   - each project is one job: its activities are the tasks (one
//     single-task stage each), its precedence relations the DAG, its
//     periods ticks of tickSeconds;
//   - the cluster has n identical machines holding, in each renewable
//     resource R1…Rk, the largest availability of any project, so every
//     task fits and a project alone on one machine has at least its own
//     capacity;
//   - jobs belong to users users (u0…) by FNV-1a of the project name;
//   - every job arrives at 0: set arrivals with PoissonArrivals.
//
// Projects must share their resource names (PSPLIB's R1…R4 do); names
// name the jobs, in the order of projects.
func PSPLIBMulti(projects []*dags.PSPLIB, names []string, n, users int, tickSeconds float64) (*sim.Cluster, []sim.User, []sim.Job, error) {
	if len(projects) == 0 || n < 1 || users < 1 || len(names) != len(projects) {
		return nil, nil, nil, fmt.Errorf("workloads: PSPLIBMulti needs projects, as many names, machines ≥ 1 and users ≥ 1")
	}
	res := projects[0].DAG.Resources
	capv := make([]float64, len(res))
	b := sim.NewQuantaBuilder(len(res))
	for i, p := range projects {
		if !slices.Equal(p.DAG.Resources, res) {
			return nil, nil, nil, fmt.Errorf("workloads: project %s has resources %v, the first has %v", names[i], p.DAG.Resources, res)
		}
		for k, x := range p.Capacity {
			capv[k] = max(capv[k], x)
			b.Add(k, x)
		}
		for _, t := range p.DAG.Tasks {
			for k, x := range t.Demand {
				b.Add(k, x)
			}
		}
	}
	q := b.Quanta()
	c := Uniform(res, q, capv, n, "psp")
	us := numberedUsers(users)
	conv := &sim.DAGConversion{Resources: res, Quanta: q, TickSeconds: tickSeconds}
	jobs := make([]sim.Job, len(projects))
	for i, p := range projects {
		h := fnv.New32a()
		h.Write([]byte(names[i]))
		j, _, err := conv.Job(p.DAG, sim.UserID(h.Sum32()%uint32(users)), 0)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("workloads: project %s: %w", names[i], err)
		}
		j.Name = names[i]
		jobs[i] = j
	}
	return c, us, jobs, nil
}

// StageDepth returns the number of stages on the longest chain of a job's
// stage links and cross-stage task edges (1 for a job without any).
func StageDepth(j *sim.Job) int {
	first := make([]int32, len(j.Stages)+1)
	for s := range j.Stages {
		first[s+1] = first[s] + j.Stages[s].Tasks
	}
	stageOf := func(t int32) int {
		s, _ := slices.BinarySearch(first, t+1)
		return s - 1
	}
	type arc struct{ a, b int }
	var arcs []arc
	for _, l := range j.Links {
		arcs = append(arcs, arc{int(l.From), int(l.To)})
	}
	for _, e := range j.Edges {
		if a, b := stageOf(e.From), stageOf(e.To); a != b {
			arcs = append(arcs, arc{a, b})
		}
	}
	depth := make([]int, len(j.Stages))
	// Bellman-Ford style relaxation: at most S rounds on an acyclic graph
	for round := 0; round < len(j.Stages); round++ {
		changed := false
		for _, x := range arcs {
			if depth[x.b] < depth[x.a]+1 {
				depth[x.b], changed = depth[x.a]+1, true
			}
		}
		if !changed {
			break
		}
	}
	best := 0
	for _, d := range depth {
		best = max(best, d)
	}
	return best + 1
}
