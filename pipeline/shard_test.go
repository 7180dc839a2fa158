package pipeline

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/capplan/capplan/plan"
)

func TestParseShard(t *testing.T) {
	cases := []struct {
		in   string
		want plan.Shard
		ok   bool
	}{
		{"0/1", plan.Shard{Index: 0, Count: 1}, true},
		{"7/8", plan.Shard{Index: 7, Count: 8}, true},
		{" 2 / 3 ", plan.Shard{Index: 2, Count: 3}, true},
		{"3/2", plan.Shard{}, false},  // index beyond the count
		{"2/2", plan.Shard{}, false},  // indices count from 0
		{"0/0", plan.Shard{}, false},  // no shards
		{"-1/4", plan.Shard{}, false}, // negative index
		{"1", plan.Shard{}, false},
		{"a/b", plan.Shard{}, false},
		{"", plan.Shard{}, false},
		{"0/100001", plan.Shard{}, false}, // over MaxShards
	}
	for _, tc := range cases {
		got, err := ParseShard(tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("ParseShard(%q): err %v, want ok=%v", tc.in, err, tc.ok)
			continue
		}
		if err != nil && !IsOptionError(err) {
			t.Errorf("ParseShard(%q): %v is not an option (usage) error", tc.in, err)
		}
		if got != tc.want {
			t.Errorf("ParseShard(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestShardFromEnv(t *testing.T) {
	cases := []struct {
		name   string
		env    map[string]string
		shards int
		want   plan.Shard
		ok     bool
	}{
		{"kubernetes", map[string]string{EnvJobCompletionIndex: "3", EnvShards: "8"}, 0, plan.Shard{Index: 3, Count: 8}, true},
		{"kubernetes count from the flag", map[string]string{EnvJobCompletionIndex: "0", EnvShards: "8"}, 4, plan.Shard{Index: 0, Count: 4}, true},
		{"kubernetes without a count", map[string]string{EnvJobCompletionIndex: "1"}, 0, plan.Shard{}, false},
		{"kubernetes index beyond the count", map[string]string{EnvJobCompletionIndex: "8", EnvShards: "8"}, 0, plan.Shard{}, false},
		{"kubernetes bad index", map[string]string{EnvJobCompletionIndex: "x", EnvShards: "8"}, 0, plan.Shard{}, false},
		{"slurm", map[string]string{EnvSlurmArrayTaskID: "5", EnvSlurmArrayTaskCount: "6", EnvSlurmArrayTaskMin: "0"}, 0, plan.Shard{Index: 5, Count: 6}, true},
		{"slurm array from 1", map[string]string{EnvSlurmArrayTaskID: "1", EnvSlurmArrayTaskCount: "6", EnvSlurmArrayTaskMin: "1"}, 0, plan.Shard{}, false},
		{"slurm without a count", map[string]string{EnvSlurmArrayTaskID: "1"}, 0, plan.Shard{}, false},
		{"kubernetes wins over slurm", map[string]string{EnvJobCompletionIndex: "1", EnvShards: "2", EnvSlurmArrayTaskID: "0", EnvSlurmArrayTaskCount: "9"}, 0, plan.Shard{Index: 1, Count: 2}, true},
		{"neither", map[string]string{}, 8, plan.Shard{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ShardFromEnv(func(k string) string { return tc.env[k] }, tc.shards)
			if (err == nil) != tc.ok {
				t.Fatalf("err %v, want ok=%v", err, tc.ok)
			}
			if err != nil && !IsOptionError(err) {
				t.Errorf("%v is not an option (usage) error", err)
			}
			if got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestSplitLPTHand follows the LPT rule by hand on costs 5, 4, 3, 3, 3 in
// 2 shards: 5 → shard 0 (5), 4 → 1 (4), 3 → 1 (7), 3 → 0 (8), 3 → 1
// (10). The optimum is 9 (5+4 | 3+3+3): LPT is within Graham's bound
// (4/3 − 1/6)·9 = 10.5.
func TestSplitLPTHand(t *testing.T) {
	p := splitLPT([]int64{5, 4, 3, 3, 3}, 2, cmp.Compare[int])
	if want := []int{0, 1, 1, 0, 1}; !slices.Equal(p.owner, want) {
		t.Errorf("owners %v, want %v", p.owner, want)
	}
	if want := []int64{8, 10}; !slices.Equal(p.loads, want) {
		t.Errorf("loads %v, want %v", p.loads, want)
	}
	if got, want := p.slice(1), []int{1, 2, 4}; !slices.Equal(got, want) {
		t.Errorf("slice 1 = %v, want %v", got, want)
	}
	c := p.cost(1, costUnit)
	if c.Slice != 10 || c.Total != 18 || c.MaxOverMean != 10.0/9 {
		t.Errorf("cost %+v, want slice 10 of 18, max/mean 10/9", c)
	}
}

// TestSplitLPTBounds checks random splits against a brute-force optimum:
// every item in exactly one shard, the most loaded shard within Graham's
// bound (4/3 − 1/(3N))·OPT and within the mean plus the largest item, and
// the same split whatever the order the costs are listed in (ties broken
// by the tie order).
func TestSplitLPTBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		m, n := 1+rng.IntN(9), 1+rng.IntN(3)
		costs := make([]int64, m)
		for i := range costs {
			costs[i] = int64(rng.IntN(20))
		}
		p := splitLPT(costs, n, cmp.Compare[int])
		var total, biggest int64
		for _, c := range costs {
			total += c
			biggest = max(biggest, c)
		}
		var sum int64
		for _, l := range p.loads {
			sum += l
		}
		if sum != total || len(p.owner) != m {
			t.Fatalf("trial %d: loads %v do not add up to %d", trial, p.loads, total)
		}
		worst := slices.Max(p.loads)
		opt := bruteForceMakespan(costs, n)
		// worst ≤ (4/3 − 1/(3n))·opt, in integers: 3n·worst ≤ (4n − 1)·opt.
		if 3*int64(n)*worst > (4*int64(n)-1)*opt {
			t.Errorf("trial %d: costs %v in %d shards: LPT %d exceeds Graham's bound on the optimum %d", trial, costs, n, worst, opt)
		}
		if int64(n)*worst > total+int64(n)*biggest {
			t.Errorf("trial %d: LPT %d exceeds the mean %d/%d plus the largest item %d", trial, worst, total, n, biggest)
		}
	}
}

// bruteForceMakespan returns the least possible largest load over every
// assignment of costs to n shards.
func bruteForceMakespan(costs []int64, n int) int64 {
	loads := make([]int64, n)
	best := int64(1) << 62
	var rec func(i int)
	rec = func(i int) {
		if i == len(costs) {
			best = min(best, slices.Max(loads))
			return
		}
		for s := range n {
			loads[s] += costs[i]
			rec(i + 1)
			loads[s] -= costs[i]
		}
	}
	rec(0)
	return best
}

// TestSplitLPTDeterministic checks that a split depends only on the costs
// and the tie order: splitting again, or with the items listed in another
// order and the tie order following them, gives every item the same shard.
func TestSplitLPTDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	costs := make([]int64, 500)
	keys := make([]int, len(costs))
	for i := range costs {
		costs[i] = int64(rng.IntN(5)) // many ties
		keys[i] = rng.Int()
	}
	tie := func(a, b int) int { return cmp.Compare(keys[a], keys[b]) }
	p := splitLPT(costs, 7, tie)
	perm := rng.Perm(len(costs))
	pc := make([]int64, len(costs))
	pk := make([]int, len(costs))
	for i, j := range perm {
		pc[i], pk[i] = costs[j], keys[j]
	}
	q := splitLPT(pc, 7, func(a, b int) int { return cmp.Compare(pk[a], pk[b]) })
	for i, j := range perm {
		if q.owner[i] != p.owner[j] {
			t.Fatalf("item %d: shard %d listed in one order, %d in another", j, p.owner[j], q.owner[i])
		}
	}
}
