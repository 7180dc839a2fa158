package datasets

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/labels"
)

// TestCoalescePaperExamples checks eligibility and coalescing on the
// examples of Ghodsi et al., EuroSys'13 (testdata/fig*, sec5*), against the
// constraint sets the paper states.
func TestCoalescePaperExamples(t *testing.T) {
	cases := []struct {
		fixture string
		sets    [][]int    // the paper's constraint set of each user (machine numbers)
		types   [][]string // expected types: the groups of their nodes
	}{
		// Figure 1: c1={m1,m4}, c2={m3,m4}, c3={m2,m3,m4,m6,m7}, c4={m5..m10}.
		{"fig1", [][]int{{1, 4}, {3, 4}, {2, 3, 4, 6, 7}, {5, 6, 7, 8, 9, 10}},
			[][]string{{"m1"}, {"m2"}, {"m3"}, {"m4"}, {"m5", "m8", "m9", "m10"}, {"m6", "m7"}}},
		// Figure 3: u1 on m1..m3, u2 on all ten.
		{"fig3", [][]int{{1, 2, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
			[][]string{{"m1", "m2", "m3"}, {"m4", "m5", "m6", "m7", "m8", "m9", "m10"}}},
		// §5: c1={m1,m2}, c2={m2..m5}.
		{"sec5", [][]int{{1, 2}, {2, 3, 4, 5}},
			[][]string{{"m1"}, {"m2"}, {"m3", "m4", "m5"}}},
		// Figure 5: c1={m1,m2}, c2={m2..m5}, c3={m5..m9}.
		{"fig5", [][]int{{1, 2}, {2, 3, 4, 5}, {5, 6, 7, 8, 9}},
			[][]string{{"m1"}, {"m2"}, {"m3", "m4"}, {"m5"}, {"m6", "m7", "m8", "m9"}}},
	}
	for _, tc := range cases {
		t.Run(tc.fixture, func(t *testing.T) {
			c := mustCluster(t, tc.fixture+"-cluster.yaml", readFixture(t, tc.fixture+"-cluster.yaml"))
			d := mustDemand(t, tc.fixture+"-demand.yaml", readFixture(t, tc.fixture+"-demand.yaml"))
			inst, err := Coalesce(c, d)
			if err != nil {
				t.Fatal(err)
			}
			var groups [][]string
			for _, mt := range inst.Types {
				groups = append(groups, mt.Groups)
			}
			if !slices.EqualFunc(groups, tc.types, slices.Equal) {
				t.Errorf("types = %v, want %v", groups, tc.types)
			}
			for u, set := range tc.sets {
				app := inst.Applications[u]
				// The eligible machine count is the size of the paper's set
				// (Figure 1: 2, 2, 5, 6).
				if app.Machines != int64(len(set)) || app.Weight != 1 {
					t.Errorf("%s: %d machines, weight %d; want %d, 1", app.Name, app.Machines, app.Weight, len(set))
				}
				var got []int
				for _, ti := range app.Types {
					for _, g := range inst.Types[ti].Groups {
						var m int
						fmt.Sscanf(g, "m%d", &m)
						got = append(got, m)
					}
				}
				slices.Sort(got)
				if !slices.Equal(got, set) {
					t.Errorf("%s may use %v, the paper says %v", app.Name, got, set)
				}
			}
			checkInstance(t, c, d, inst)
		})
	}
}

// checkInstance checks an Instance against brute-force eligibility
// computed node by node with Quantity.Cmp (not milli-values): nodes of a
// type share capacity and eligible set, distinct types differ, counts add
// up, and each application's types are exactly the ones it may use.
func checkInstance(t *testing.T, c *Cluster, d *Demand, inst *Instance) {
	t.Helper()
	nodes := c.Nodes()
	byName := map[string]Node{}
	for _, n := range nodes {
		byName[n.Name] = n
	}
	eligible := func(n Node) string {
		var b strings.Builder
		for _, a := range d.Applications {
			ok := a.Selector.Matches(labels.Set(n.Labels))
			for r, q := range a.MinCapacity {
				i := slices.Index(c.Resources, r)
				ok = ok && i >= 0 && n.Capacity[i].Cmp(q) >= 0
			}
			if ok {
				b.WriteByte('1')
			} else {
				b.WriteByte('0')
			}
		}
		return b.String()
	}
	seen := map[string]int{}
	var total int64
	var order []string
	for ti, mt := range inst.Types {
		if mt.Count != int64(len(mt.Nodes)) || mt.Count == 0 {
			t.Fatalf("type %s: count %d, %d nodes", mt.Name, mt.Count, len(mt.Nodes))
		}
		total += mt.Count
		key := ""
		common := maps.Clone(byName[mt.Nodes[0]].Labels)
		for _, name := range mt.Nodes {
			n := byName[name]
			k := fmt.Sprint(n.Capacity.Milli()) + "/" + eligible(n)
			if key == "" {
				key = k
			} else if k != key {
				t.Errorf("type %s mixes %s and %s", mt.Name, key, k)
			}
			maps.DeleteFunc(common, func(l, v string) bool { return n.Labels[l] != v })
			order = append(order, name)
		}
		if !maps.Equal(common, mt.Labels) {
			t.Errorf("type %s labels %v, want the common %v", mt.Name, mt.Labels, common)
		}
		if j, dup := seen[key]; dup {
			t.Errorf("types %d and %d are the same class %s", j, ti, key)
		}
		seen[key] = ti
		for a := range d.Applications {
			want := key[strings.Index(key, "/")+1:][a] == '1'
			if got := slices.Contains(inst.Applications[a].Types, ti); got != want {
				t.Errorf("application %s on type %s: %v, want %v", d.Applications[a].Name, mt.Name, got, want)
			}
		}
	}
	if total != int64(len(nodes)) {
		t.Errorf("types hold %d nodes, the cluster %d", total, len(nodes))
	}
	// Every node appears once; types are ordered by their first node.
	once := map[string]bool{}
	for _, name := range order {
		if once[name] {
			t.Errorf("node %s in two types", name)
		}
		once[name] = true
	}
	firsts := make([]int, len(inst.Types))
	pos := map[string]int{}
	for i, n := range nodes {
		pos[n.Name] = i
	}
	for i, mt := range inst.Types {
		firsts[i] = pos[mt.Nodes[0]]
	}
	if !slices.IsSorted(firsts) {
		t.Errorf("types not ordered by first node: %v", firsts)
	}
	for _, a := range inst.Applications {
		var m int64
		for _, ti := range a.Types {
			m += inst.Types[ti].Count
		}
		if m != a.Machines || !slices.IsSorted(a.Types) || m == 0 {
			t.Errorf("application %s: machines %d, types %v", a.Name, a.Machines, a.Types)
		}
	}
}

func TestCoalesceNamesAndRacks(t *testing.T) {
	c := mustCluster(t, "c.yaml", []byte(clusterHead+`nodes:
  - {name: std, count: 6, racks: [r1, r2, r3], labels: {zone: a}, capacity: {cpu: 8}}
  - {name: std-2, count: 2, labels: {zone: b}, capacity: {cpu: 8}}
  - {name: big, count: 1, labels: {zone: a}, capacity: {cpu: 8, memory: 1Gi}}
`))
	d := mustDemand(t, "d.yaml", []byte(demandHead+`- {name: r1-only, selector: "rack=r1"}
- {name: zone-a, selector: "zone=a"}
- {name: anywhere, weight: 0.5}
`))
	inst, err := Coalesce(c, d)
	if err != nil {
		t.Fatal(err)
	}
	// std's r1 nodes (std-0, std-3) form "std"; its r2 and r3 nodes share
	// capacity and eligibility, "std-2". The group std-2 then finds its
	// name taken and becomes "std-2-2". big differs by memory.
	want := []struct {
		name   string
		nodes  []string
		labels string
	}{
		{"std", []string{"std-0", "std-3"}, "rack=r1,zone=a"},
		{"std-2", []string{"std-1", "std-2", "std-4", "std-5"}, "zone=a"},
		{"std-2-2", []string{"std-2-0", "std-2-1"}, "zone=b"},
		{"big", []string{"big-0"}, "zone=a"},
	}
	if len(inst.Types) != len(want) {
		t.Fatalf("got %d types, want %d", len(inst.Types), len(want))
	}
	for i, w := range want {
		mt := inst.Types[i]
		if mt.Name != w.name || !slices.Equal(mt.Nodes, w.nodes) || labelsText(mt.Labels) != w.labels {
			t.Errorf("type %d = %s %v %s, want %s %v %s", i, mt.Name, mt.Nodes, labelsText(mt.Labels), w.name, w.nodes, w.labels)
		}
	}
	// Weights 1, 1, 0.5 become 2, 2, 1.
	for i, w := range []int64{2, 2, 1} {
		if inst.Applications[i].Weight != w {
			t.Errorf("application %d weight %d, want %d", i, inst.Applications[i].Weight, w)
		}
	}
	checkInstance(t, c, d, inst)
}

func TestCoalesceIneligible(t *testing.T) {
	c := mustCluster(t, "c.yaml", []byte(checkCluster))
	d := mustDemand(t, "d.yaml", []byte(demandHead+`- {name: ok}
- {name: nowhere, selector: "zone=z"}
- {name: too-big, minCapacity: {memory: 2Ti}}
- {name: odd, minCapacity: {tpu: 1}, requests: [{shape: {fpga: 1}, count: 1}]}
`))
	inst, err := Coalesce(c, d)
	if inst != nil {
		t.Errorf("got an instance despite ineligible applications")
	}
	// Request shapes do not matter to coalescing; minCapacity does.
	checkProblems(t, err, "d.yaml", []wantProblem{
		{"applications[1].selector", `application "nowhere" can run on no node`},
		{"applications[2].minCapacity", `application "too-big" can run on no node: no node has enough memory (needs 2Ti, largest is 512Gi)`},
		{"applications[3].minCapacity.tpu", "not declared"},
	})
}

func TestCoalesceWeightsTooLarge(t *testing.T) {
	c := mustCluster(t, "c.yaml", []byte(checkCluster))
	d := mustDemand(t, "d.yaml", []byte(demandHead+"- {name: a, weight: 1e12}\n- {name: b, weight: 0.001}\n"))
	if _, err := Coalesce(c, d); !errors.Is(err, ErrWeightsTooLarge) {
		t.Errorf("got %v, want ErrWeightsTooLarge", err)
	}
}
