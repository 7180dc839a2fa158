package pipeline

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/capplan/capplan/plan"
)

// The sharding contract, shared by Sweep, DAGSchedule, DAGBounds and
// DAGCheck: a run's items (sweep cells, DAG jobs) are split into N
// deterministic slices balanced by an estimated cost, shard i processes
// slice i and writes a plan.Part, and Merge combines the N parts into the
// document the unsharded run writes.

// Environment variables that name a shard (--shard-from-env).
const (
	// EnvJobCompletionIndex is set by Kubernetes in the pods of an Indexed
	// Job: the completion index 0 … completions−1.
	EnvJobCompletionIndex = "JOB_COMPLETION_INDEX"
	// EnvShards gives the shard count where the environment does not
	// (Kubernetes).
	EnvShards = "CAPPLAN_SHARDS"
	// EnvSlurmArrayTaskID, EnvSlurmArrayTaskCount and EnvSlurmArrayTaskMin
	// are set by Slurm in the tasks of a job array (--array=0-(N-1)).
	EnvSlurmArrayTaskID    = "SLURM_ARRAY_TASK_ID"
	EnvSlurmArrayTaskCount = "SLURM_ARRAY_TASK_COUNT"
	EnvSlurmArrayTaskMin   = "SLURM_ARRAY_TASK_MIN"
)

// MaxShards bounds the shard count (Kubernetes caps an Indexed Job's
// completions at 100,000 when it has a per-index backoff limit).
const MaxShards = 100_000

// ParseShard reads the --shard flag: "INDEX/COUNT" with 0 ≤ INDEX < COUNT.
func ParseShard(s string) (plan.Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil {
		return plan.Shard{}, optionErrorf("invalid --shard %q: want INDEX/COUNT, such as 0/8 for the first of 8 shards", s)
	}
	return checkShard("--shard "+s, plan.Shard{Index: i, Count: n})
}

// checkShard checks 0 ≤ index < count ≤ MaxShards; what names the source
// in messages.
func checkShard(what string, sh plan.Shard) (plan.Shard, error) {
	switch {
	case sh.Count < 1:
		return plan.Shard{}, optionErrorf("invalid %s: the shard count must be at least 1", what)
	case sh.Count > MaxShards:
		return plan.Shard{}, optionErrorf("invalid %s: at most %d shards", what, MaxShards)
	case sh.Index < 0 || sh.Index >= sh.Count:
		return plan.Shard{}, optionErrorf("invalid %s: the shard index must lie in 0 … %d (indices count from 0)", what, sh.Count-1)
	}
	return sh, nil
}

// ShardFromEnv reads the shard from the environment (--shard-from-env),
// through getenv:
//   - JOB_COMPLETION_INDEX (a Kubernetes Indexed Job), with the count from
//     shards when positive (--shards), else from CAPPLAN_SHARDS;
//   - else SLURM_ARRAY_TASK_ID (a Slurm job array), with the count from
//     shards, else SLURM_ARRAY_TASK_COUNT; the array must start at 0.
func ShardFromEnv(getenv func(string) string, shards int) (plan.Shard, error) {
	count := func(envName string) (int, error) {
		if shards > 0 {
			return shards, nil
		}
		v := getenv(envName)
		if v == "" {
			return 0, optionErrorf("--shard-from-env: the shard count is not known: give --shards N or set %s", envName)
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, optionErrorf("--shard-from-env: %s=%q is not a whole number", envName, v)
		}
		return n, nil
	}
	index := func(envName string) (int, error) {
		v := getenv(envName)
		i, err := strconv.Atoi(v)
		if err != nil {
			return 0, optionErrorf("--shard-from-env: %s=%q is not a whole number", envName, v)
		}
		return i, nil
	}
	switch {
	case getenv(EnvJobCompletionIndex) != "":
		i, err := index(EnvJobCompletionIndex)
		if err != nil {
			return plan.Shard{}, err
		}
		n, err := count(EnvShards)
		if err != nil {
			return plan.Shard{}, err
		}
		return checkShard(fmt.Sprintf("shard %d/%d from %s", i, n, EnvJobCompletionIndex), plan.Shard{Index: i, Count: n})
	case getenv(EnvSlurmArrayTaskID) != "":
		i, err := index(EnvSlurmArrayTaskID)
		if err != nil {
			return plan.Shard{}, err
		}
		if m := getenv(EnvSlurmArrayTaskMin); m != "" && m != "0" {
			return plan.Shard{}, optionErrorf("--shard-from-env: the Slurm array starts at %s=%s; it must start at 0 (--array=0-N)", EnvSlurmArrayTaskMin, m)
		}
		n, err := count(EnvSlurmArrayTaskCount)
		if err != nil {
			return plan.Shard{}, err
		}
		return checkShard(fmt.Sprintf("shard %d/%d from %s", i, n, EnvSlurmArrayTaskID), plan.Shard{Index: i, Count: n})
	}
	return plan.Shard{}, optionErrorf("--shard-from-env: neither %s (Kubernetes Indexed Job) nor %s (Slurm job array) is set; outside those, use --shard INDEX/COUNT",
		EnvJobCompletionIndex, EnvSlurmArrayTaskID)
}

// shardPlan is the split of a run's items into shards.
type shardPlan struct {
	// owner[k] is the shard of item k.
	owner []int
	// loads[s] is the summed estimated cost of shard s.
	loads []int64
	total int64
}

// splitLPT splits items with estimated costs (≥ 0) into n shards by the
// LPT rule (longest processing time first; Graham 1969): items in order of
// decreasing cost, ties broken by tie (a total order on item indices), each
// given to the shard with the least load so far, the lowest-numbered on
// ties. It is deterministic, and its most loaded shard carries at most
// (4/3 − 1/(3n)) times the optimum and at most the mean plus the largest
// single cost. Cost O(m log m + m log n) for m items.
func splitLPT(costs []int64, n int, tie func(a, b int) int) shardPlan {
	order := make([]int, len(costs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(costs[b], costs[a]); c != 0 {
			return c
		}
		return tie(a, b)
	})
	p := shardPlan{owner: make([]int, len(costs)), loads: make([]int64, n)}
	h := newLoadHeap(n)
	for _, k := range order {
		s := h.min()
		p.owner[k] = s
		p.loads[s] += costs[k]
		p.total += costs[k]
		h.setMin(p.loads[s])
	}
	return p
}

// slice returns the ascending indices of the items of shard s.
func (p shardPlan) slice(s int) []int {
	out := []int{}
	for k, o := range p.owner {
		if o == s {
			out = append(out, k)
		}
	}
	return out
}

// cost summarises the plan for shard s's Part.
func (p shardPlan) cost(s int, unit string) plan.PartCost {
	c := plan.PartCost{Unit: unit, Slice: p.loads[s], Total: p.total}
	if p.total > 0 {
		c.MaxOverMean = float64(slices.Max(p.loads)) * float64(len(p.loads)) / float64(p.total)
	}
	return c
}

// loadHeap is a binary min-heap of shards by (load, index).
type loadHeap struct {
	load  []int64
	shard []int
}

func newLoadHeap(n int) *loadHeap {
	h := &loadHeap{load: make([]int64, n), shard: make([]int, n)}
	for i := range n {
		h.shard[i] = i // all loads 0: index order is a heap
	}
	return h
}

func (h *loadHeap) less(i, j int) bool {
	return h.load[i] < h.load[j] || (h.load[i] == h.load[j] && h.shard[i] < h.shard[j])
}

// min returns the shard with the least load (lowest index on ties).
func (h *loadHeap) min() int { return h.shard[0] }

// setMin sets the load of the top shard and restores the heap.
func (h *loadHeap) setMin(load int64) {
	h.load[0] = load
	n := len(h.load)
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && h.less(l, m) {
			m = l
		}
		if r < n && h.less(r, m) {
			m = r
		}
		if m == i {
			return
		}
		h.load[i], h.load[m] = h.load[m], h.load[i]
		h.shard[i], h.shard[m] = h.shard[m], h.shard[i]
		i = m
	}
}
