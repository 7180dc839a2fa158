package xselect

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// line builds a one-dimensional problem: nodes of the given capacities,
// shapes of the given sizes, apps apps (equal shares, a mix of 1 of every
// shape, eligible everywhere).
func line(caps, sizes []float64, apps int) *Problem {
	p := &Problem{Dims: []string{"cpu"}}
	for _, c := range caps {
		p.Nodes = append(p.Nodes, Node{Capacity: []float64{c}})
	}
	for _, s := range sizes {
		p.Shapes = append(p.Shapes, []float64{s})
	}
	for range apps {
		mix := make([]float64, len(sizes))
		for k := range mix {
			mix[k] = 1
		}
		p.Apps = append(p.Apps, App{Share: 1 / float64(apps), Mix: mix})
	}
	return p
}

// state builds a packing of p with the given containers per node and
// pooled (owner, shape) containers; every placement must be valid.
func state(t *testing.T, p *Problem, nodes [][]Container, pool []Container) (*packing, *improver) {
	t.Helper()
	in := newInstance(p)
	pk := newPacking(in)
	for n, cs := range nodes {
		for _, c := range cs {
			pk.addPool(c.Owner, c.Shape, 1)
			pk.put(n, c.Owner, c.Shape)
		}
		if !pk.valid(n) {
			t.Fatalf("node %d: invalid start %v", n, cs)
		}
	}
	for _, c := range pool {
		pk.addPool(c.Owner, c.Shape, 1)
	}
	pk.forget()
	im := &improver{pk: pk, budget: 1 << 30, left: 1 << 30, stop: 1 << 30, room: make([]float64, pk.in.nd), rng: rand.New(rand.NewPCG(1, 2)), fill: newFiller(pk, DefaultKnapsackNodes)}
	return pk, im
}

// checkState verifies pk against Check and its bookkeeping against a
// recount.
func checkState(t *testing.T, pk *packing) {
	t.Helper()
	if err := Check(pk.in.p, &Plan{Nodes: pk.nodes}); err != nil {
		t.Fatal(err)
	}
	for n, cs := range pk.nodes {
		for d := range pk.in.nd {
			used := 0.0
			for _, c := range cs {
				used += pk.in.p.Shapes[c.Shape][d]
			}
			if math.Abs(pk.free[n][d]-(pk.in.p.Nodes[n].Capacity[d]-used)) > 1e-9 {
				t.Fatalf("node %d dim %d: free %v, recount %v", n, d, pk.free[n][d], pk.in.p.Nodes[n].Capacity[d]-used)
			}
		}
		for a := range pk.in.na {
			c := 0
			for _, x := range cs {
				if x.Owner == a {
					c++
				}
			}
			if pk.onNode(n, a) != c {
				t.Fatalf("node %d app %d: onNode %d, recount %d", n, a, pk.onNode(n, a), c)
			}
		}
	}
}

// TestSwap: node 0 (cap 5) holds 1+1+2 and the pool a 3; nothing else has
// room. Swap 1-for-1 sends the first container whose removal leaves
// room, the 2 (2 < 3), back to the pool: W drops from 3 to 2.
func TestSwap(t *testing.T) {
	p := line([]float64{5}, []float64{1, 2, 3}, 1)
	pk, im := state(t, p, [][]Container{{{0, 0}, {0, 0}, {1, 0}}}, []Container{{2, 0}})
	w := pk.poolVolume()
	if im.insert(0, 2) {
		t.Fatal("insert placed the 3")
	}
	if !im.swap(0, 2) {
		t.Fatal("swap failed")
	}
	checkState(t, pk)
	if pk.pool[0][2] != 0 || pk.pool[0][1] != 1 || pk.poolVolume() >= w {
		t.Fatalf("pool %v, W %v → %v", pk.pool, w, pk.poolVolume())
	}
	// Cap 4 holding 1+1+2, a 3 pooled: one 1 or both 1s free at most 2;
	// the 2 with a 1 frees 3 but weighs 3, not less. No swap may happen.
	p = line([]float64{4}, []float64{1, 2, 3}, 1)
	pk, im = state(t, p, [][]Container{{{0, 0}, {0, 0}, {1, 0}}}, []Container{{2, 0}})
	if im.swap(0, 2) {
		t.Fatalf("swap removed as much as it placed: %v", pk.nodes)
	}
	// 1-for-2: cap 7 holding 2+2+2 (free 1), a 5 pooled: one 2 out
	// leaves free 3 < 5, two (4 < 5) leave free 5.
	p = line([]float64{7}, []float64{2, 5}, 1)
	pk, im = state(t, p, [][]Container{{{0, 0}, {0, 0}, {0, 0}}}, []Container{{1, 0}})
	if !im.swap(0, 1) {
		t.Fatal("1-for-2 swap failed")
	}
	checkState(t, pk)
	if pk.pool[0][0] != 2 || pk.pool[0][1] != 0 {
		t.Fatalf("pool after 1-for-2 %v", pk.pool)
	}
}

// TestEject: node 0 (cap 4) holds a 2 and a 1 (free 1); node 1 (cap 2)
// is empty; the pool holds a 3 only node 0 can take. Moving the 1 to
// node 1 is not enough (free 2), moving the 2 is: W drops by 3.
func TestEject(t *testing.T) {
	p := line([]float64{4, 2}, []float64{1, 2, 3}, 1)
	pk, im := state(t, p, [][]Container{{{1, 0}, {0, 0}}, {}}, []Container{{2, 0}})
	if im.insert(0, 2) {
		t.Fatal("insert placed the 3")
	}
	if !im.eject(0, 2) {
		t.Fatal("eject failed")
	}
	checkState(t, pk)
	if pk.poolN != 0 || len(pk.nodes[1]) != 1 || pk.nodes[1][0].Shape != 1 {
		t.Fatalf("nodes %v pool %v", pk.nodes, pk.pool)
	}
}

// TestPull: app 0 needs app 1, which has nothing pooled; node 0 (cap 2)
// holds two containers of app 1 and is full, node 1 is empty. Pull frees
// one app-1 container (node 0 keeps the other, and no app-0 container
// there needs it) and starts node 1 with both.
func TestPull(t *testing.T) {
	p := line([]float64{2, 4}, []float64{1}, 2)
	p.Colocate = [][2]int{{0, 1}}
	pk, im := state(t, p, [][]Container{{{0, 1}, {0, 1}}, {}}, []Container{{0, 0}})
	if im.insert(0, 0) {
		t.Fatal("insert placed app 0 without its partner")
	}
	if !im.pull(0, 0) {
		t.Fatal("pull failed")
	}
	checkState(t, pk)
	if pk.poolN != 0 || pk.onNode(1, 0) != 1 || pk.onNode(1, 1) != 1 || pk.onNode(0, 1) != 1 {
		t.Fatalf("nodes %v pool %v", pk.nodes, pk.pool)
	}
	// If node 0 holds app 0 with its only app-1 container, that one may
	// not leave: pull must fail and leave everything as it was.
	pk, im = state(t, p, [][]Container{{{0, 1}, {0, 0}}, {}}, []Container{{0, 0}})
	before := pk.clone(pk.in)
	if im.pull(0, 0) {
		t.Fatal("pull took the partner app 0 depends on")
	}
	if !reflect.DeepEqual(before.nodes, pk.nodes) || !reflect.DeepEqual(before.pool, pk.pool) {
		t.Fatal("failed pull changed the packing")
	}
}

// TestRepackPair: two 10-cpu nodes hold 4+4 and 3+3+3, the pool 5+5.
// The best split of {5,5,4,4,3,3,3} puts 5+5 on one node and 4+3+3 on
// the other (20 packed, W = 4+3 = 7); a single swap reaches only 19.
func TestRepackPair(t *testing.T) {
	p := line([]float64{10, 10}, []float64{3, 4, 5}, 1)
	pk, im := state(t, p, [][]Container{{{1, 0}, {1, 0}}, {{0, 0}, {0, 0}, {0, 0}}}, []Container{{2, 0}, {2, 0}})
	if !im.repack(0, 2) {
		t.Fatal("repack failed")
	}
	checkState(t, pk)
	packed := 0.0
	for _, cs := range pk.nodes {
		for _, c := range cs {
			packed += p.Shapes[c.Shape][0]
		}
	}
	if packed != 20 {
		t.Fatalf("repack packed %v of 20: %v", packed, pk.nodes)
	}
}

// TestRepackRules: the repack respects exlocation and colocation. Two
// 6-cpu nodes; app 0 (size 3) and app 1 (size 3) are exlocated; app 2
// (size 1) needs app 1. Node 0 holds 0+0 (full), node 1 holds app 1's 3
// and app 2's 1 (free 2); the pool holds one more app-0 3 and app 2's 1.
// No valid split packs more than 13 (node 0: 3+3 of app 0; node 1: 3 of
// app 1 + two 1s of app 2), which is what the nodes hold plus the pooled
// 1, so repack must add exactly that 1, never mix apps 0 and 1.
func TestRepackRules(t *testing.T) {
	p := &Problem{
		Dims:   []string{"cpu"},
		Nodes:  []Node{{Capacity: []float64{6}}, {Capacity: []float64{6}}},
		Shapes: [][]float64{{3}, {1}},
		Apps: []App{
			{Share: 0.3, Mix: []float64{1, 0}},
			{Share: 0.3, Mix: []float64{1, 0}},
			{Share: 0.3, Mix: []float64{0, 1}},
		},
		Colocate: [][2]int{{2, 1}},
		Exlocate: [][2]int{{0, 1}},
	}
	pk, im := state(t, p, [][]Container{{{0, 0}, {0, 0}}, {{0, 1}, {1, 2}}}, []Container{{0, 0}, {1, 2}})
	if !im.repack(2, 1) {
		t.Fatal("repack failed")
	}
	checkState(t, pk)
	if pk.pool[0][0] != 1 || pk.pool[2][1] != 0 {
		t.Fatalf("pool %v nodes %v", pk.pool, pk.nodes)
	}
}

// TestPerturbNeverWorse: perturbations on a congested random instance
// never raise W, keep the packing valid, and are reproducible from the
// generator state.
func TestPerturbNeverWorse(t *testing.T) {
	p := generateRules(3, 60, 900)
	in := newInstance(p)
	s := &searcher{full: in, in: in}
	s.base = newPacking(in)
	pk := s.start(s.snap(lambdaUpper(in)))
	greedy(pk, DefaultKnapsackNodes)
	twin := pk.clone(in)
	run := func(pk *packing) *packing {
		im := &improver{pk: pk, budget: 1 << 30, left: 1 << 30, stop: 1 << 30, room: make([]float64, pk.in.nd), rng: rand.New(rand.NewPCG(9, 9)), fill: newFiller(pk, DefaultKnapsackNodes)}
		for range 40 {
			w := pk.poolVolume()
			im.perturb()
			pk.forget()
			if pk.poolVolume() > w+1e-12 {
				t.Fatalf("perturb raised W %v → %v", w, pk.poolVolume())
			}
			checkState(t, pk)
		}
		return pk
	}
	a, b := run(pk), run(twin)
	if !reflect.DeepEqual(a.nodes, b.nodes) || !reflect.DeepEqual(a.pool, b.pool) {
		t.Fatal("perturbation not reproducible")
	}
}

// TestUndo: random put/take sequences rolled back restore the packing
// exactly, node order included.
func TestUndo(t *testing.T) {
	p := generateRules(4, 30, 400)
	in := newInstance(p)
	rng := rand.New(rand.NewPCG(5, 5))
	pk := newPacking(in)
	for a := range in.na {
		for k := range in.nk {
			pk.addPool(a, k, 3)
		}
	}
	greedy(pk, DefaultKnapsackNodes)
	pk.forget()
	for range 50 {
		before := pk.clone(in)
		m := pk.mark()
		for range 20 {
			n := rng.IntN(in.nn)
			if len(pk.nodes[n]) > 0 && rng.IntN(2) == 0 {
				pk.take(n, rng.IntN(len(pk.nodes[n])))
			} else {
				a, k := rng.IntN(in.na), rng.IntN(in.nk)
				if pk.pool[a][k] > 0 {
					pk.put(n, a, k)
				}
			}
		}
		pk.undo(m)
		if !reflect.DeepEqual(before.nodes, pk.nodes) || !reflect.DeepEqual(before.pool, pk.pool) ||
			!reflect.DeepEqual(before.cnt, pk.cnt) || before.poolN != pk.poolN || !reflect.DeepEqual(before.poolA, pk.poolA) {
			t.Fatal("undo did not restore the packing")
		}
		for n := range pk.free {
			for d := range pk.free[n] {
				if math.Abs(before.free[n][d]-pk.free[n][d]) > 1e-9 {
					t.Fatal("undo did not restore free space")
				}
			}
		}
	}
}

// TestGreedyValid: greedy keeps every node valid by construction (no
// repair pass), on instances with every kind of rule, and its pool
// accounting matches a recount.
func TestGreedyValid(t *testing.T) {
	for seed := uint64(20); seed < 40; seed++ {
		p := generateRules(seed, 40, 600)
		in := newInstance(p)
		s := &searcher{full: in, in: in}
		s.base = newPacking(in)
		lam := s.snap(lambdaUpper(in))
		pk := s.start(lam)
		greedy(pk, DefaultKnapsackNodes)
		checkState(t, pk)
		for a, row := range s.counts(lam) {
			for k, c := range row {
				if pk.cnt[a][k]+pk.pool[a][k] != c {
					t.Fatalf("seed %d app %d shape %d: packed %d + pooled %d != required %d", seed, a, k, pk.cnt[a][k], pk.pool[a][k], c)
				}
			}
		}
	}
}
