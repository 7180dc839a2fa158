package sim

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestEventHeapOrder pops random events in (at, kind, a, b, ver) order.
// The packed key and the branch-free comparison must order like the
// tuple.
func TestEventHeapOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h eventHeap
	var all []event
	for i := 0; i < 5000; i++ {
		e := mkEvent(Tick(rng.IntN(50)), uint8(rng.IntN(4)), int32(rng.IntN(20)), int32(rng.IntN(20)), uint32(rng.IntN(3)))
		if rng.IntN(4) == 0 { // full ranges: the comparison's borrows cross every word
			e = mkEvent(Tick(rng.Int64N(1<<40)), uint8(rng.IntN(4)), rng.Int32(), rng.Int32(), rng.Uint32())
			if rng.IntN(2) == 0 {
				e.at = Tick(rng.IntN(50))
			}
		}
		all = append(all, e)
		h.push(e)
		if rng.IntN(3) == 0 { // interleave pops
			got := h.pop()
			idx := slices.IndexFunc(all, func(x event) bool { return x == got })
			for _, x := range all {
				if x.less(&got) {
					t.Fatalf("popped %+v while %+v is smaller", got, x)
				}
			}
			all = slices.Delete(all, idx, idx+1)
		}
	}
	slices.SortFunc(all, func(x, y event) int {
		for _, c := range [][2]int64{{int64(x.at), int64(y.at)}, {int64(x.kind()), int64(y.kind())}, {int64(x.a()), int64(y.a())},
			{int64(x.b()), int64(y.b())}, {int64(x.ver), int64(y.ver)}} {
			if c[0] != c[1] {
				if c[0] < c[1] {
					return -1
				}
				return 1
			}
		}
		return 0
	})
	for i, want := range all {
		if got := h.pop(); got != want {
			t.Fatalf("pop %d = %+v, want %+v", i, got, want)
		}
	}
}

// TestFreeIndex compares FirstFit, ForEachFit, MaxFree, MaxScore and
// BestAligned with brute force under random updates, hidden machines and
// slots, for node widths of 4, 8 and 12 values (the padded demand of the
// last one does not fit the stack buffer).
func TestFreeIndex(t *testing.T) {
	cases := []struct {
		D    int
		slot bool
	}{{3, true}, {4, false}, {5, true}, {9, false}}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("D=%d,slot=%v", tc.D, tc.slot), func(t *testing.T) { testFreeIndex(t, tc.D, tc.slot) })
	}
}

func testFreeIndex(t *testing.T, D int, slot bool) {
	rng := rand.New(rand.NewPCG(3, uint64(D)))
	const M = 37
	vec := func(n int) Vec {
		v := make(Vec, D)
		for d := range v {
			v[d] = int64(rng.IntN(n))
		}
		return v
	}
	class := make([]ClassID, M)
	for m := range class {
		class[m] = ClassID(rng.IntN(3))
	}
	caps := []Vec{vec(12), vec(12), vec(30)}
	caps[1][0] = 0 // a dimension the class lacks: Align skips it
	x := newFreeIndex(D, slot, class, caps)
	free := make([]Vec, M)
	slots := make([]int64, M)
	hidden := make([]bool, M)
	// a few recurring demands exercise BestAligned's kept trees; bursts
	// of updates overflow its ring of changes
	common := []Vec{vec(4), vec(4), vec(4), vec(4)}
	for step := 0; step < 20000; step++ {
		updates := 1
		if rng.IntN(50) == 0 {
			updates = 40
		}
		for range updates {
			m := rng.IntN(M)
			free[m] = vec(10)
			slots[m] = int64(rng.IntN(3))
			if !slot {
				slots[m] = 1
			}
			hidden[m] = rng.IntN(8) == 0
			x.set(MachineID(m), free[m], slots[m], hidden[m])
		}
		r := vec(8)
		if rng.IntN(2) == 0 {
			r = common[rng.IntN(len(common))]
		}
		c := ClassID(rng.IntN(3))
		var want []MachineID
		maxFree := make(Vec, D)
		for d := range maxFree {
			maxFree[d] = unfit
		}
		for k := 0; k < M; k++ {
			if class[k] != c || free[k] == nil || hidden[k] {
				continue
			}
			for d := range maxFree {
				maxFree[d] = max(maxFree[d], free[k][d])
			}
			if slots[k] >= 1 && free[k].Dominates(r) {
				want = append(want, MachineID(k))
			}
		}
		if got := x.MaxFree(c); !slices.Equal(got, maxFree) {
			t.Fatalf("step %d: MaxFree(%d) = %v, want %v", step, c, got, maxFree)
		}
		first := NoMachine
		if len(want) > 0 {
			first = want[0]
		}
		if got := x.FirstFit(c, r); got != first {
			t.Fatalf("step %d: FirstFit(%d, %v) = %d, want %d", step, c, r, got, first)
		}
		var got []MachineID
		x.ForEachFit(c, r, func(m MachineID) bool { got = append(got, m); return true })
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: ForEachFit = %v, want %v", step, got, want)
		}
		wts := make([]float64, D)
		for d := range wts {
			wts[d] = rng.Float64()
		}
		score := func(f Vec) float64 {
			var v float64
			for d := range wts {
				v += wts[d] * float64(f[d])
			}
			return v
		}
		bestM, bestV := NoMachine, 0.0
		for _, k := range want {
			if v := score(free[k]); bestM == NoMachine || v > bestV {
				bestM, bestV = k, v
			}
		}
		if m, v := x.MaxScore(c, r, score); m != bestM || (m != NoMachine && v != bestV) {
			t.Fatalf("step %d: MaxScore = %d (%v), want %d (%v)", step, m, v, bestM, bestV)
		}
		bestM, bestV = NoMachine, 0.0
		for _, k := range want {
			if v := Align(r, free[k], caps[c]); bestM == NoMachine || v > bestV {
				bestM, bestV = k, v
			}
		}
		if m, v := x.BestAligned(c, r); m != bestM || (m != NoMachine && v != bestV) {
			t.Fatalf("step %d: BestAligned(%d, %v) = %d (%v), want %d (%v)", step, c, r, m, v, bestM, bestV)
		}
		if x.Holds(c, r) != (len(want) > 0) && len(want) > 0 {
			t.Fatalf("step %d: Holds false with a fitting machine", step)
		}
		// A round's pattern: place r on first fits, the index falling
		// under FirstFit's cursor, asking now and then for a larger
		// demand (which the cursor serves too) or a smaller one.
		for range rng.IntN(4) {
			ask := r
			if rng.IntN(3) == 0 {
				ask = slices.Clone(r)
				d := rng.IntN(D)
				ask[d] = max(ask[d]+int64(rng.IntN(3))-1, 0)
			}
			want := NoMachine
			for k := 0; k < M; k++ {
				if class[k] == c && free[k] != nil && !hidden[k] && slots[k] >= 1 && free[k].Dominates(ask) {
					want = MachineID(k)
					break
				}
			}
			if got := x.FirstFit(c, ask); got != want {
				t.Fatalf("step %d: FirstFit(%d, %v) after placements = %d, want %d", step, c, ask, got, want)
			}
			if want == NoMachine {
				break
			}
			for d := range free[want] {
				free[want][d] -= ask[d]
			}
			slots[want] -= int64(b2i(slot))
			x.set(want, free[want], slots[want], hidden[want])
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestShareComparisons checks the exact comparisons against math/big.
func TestShareComparisons(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 20000; i++ {
		v := func() int64 { return rng.Int64N(1 << 40) }
		a, b, c, d, e, f := v(), v(), v(), v(), v(), v()
		want := new(big.Int).Mul(new(big.Int).Mul(big.NewInt(a), big.NewInt(b)), big.NewInt(c)).Cmp(
			new(big.Int).Mul(new(big.Int).Mul(big.NewInt(d), big.NewInt(e)), big.NewInt(f)))
		if got := mul3cmp(a, b, c, d, e, f); got != want {
			t.Fatalf("mul3cmp(%d,%d,%d,%d,%d,%d) = %d, want %d", a, b, c, d, e, f, got, want)
		}
	}
	C := Vec{9, 18}
	// A ⟨3, 12⟩: Dom = 12/18 = 2/3; B ⟨6, 2⟩: Dom = 6/9 = 2/3: equal.
	if c := CompareShares(Vec{3, 12}, 1, Vec{6, 2}, 1, C); c != 0 {
		t.Errorf("CompareShares of equal 2/3 shares = %d", c)
	}
	// weight 2 halves A's weighted share: 1/3 < 2/3.
	if c := CompareShares(Vec{3, 12}, 2, Vec{6, 2}, 1, C); c != -1 {
		t.Errorf("CompareShares with weight 2 = %d, want -1", c)
	}
	// ShareAtMost: Dom(⟨3, 12⟩) = 2/3 ≤ 2/3 but not ≤ 1/2.
	if !ShareAtMost(Vec{3, 12}, C, 2, 3) || ShareAtMost(Vec{3, 12}, C, 1, 2) {
		t.Error("ShareAtMost wrong at 2/3")
	}
}

// TestQuanta checks the quantum choice of SIMULATE.md §1.1.
func TestQuanta(t *testing.T) {
	cases := []struct {
		name   string
		values []float64
		want   int64 // milli-units
	}{
		{"whole cores", []float64{2, 32, 0.0}, 1000},
		{"tenths", []float64{0.5, 2}, 100},
		{"millicores", []float64{0.25, 0.001}, 1},
		{"bytes in MiB", []float64{4 << 30, 64 << 30, 512 << 20}, 1 << 20 * 1000},
		{"bytes not MiB", []float64{4 << 30, 1000}, 1000},
		{"finer than milli", []float64{1e-4}, 1},
	}
	for _, c := range cases {
		b := NewQuantaBuilder(1)
		for _, v := range c.values {
			b.Add(0, v)
		}
		if got := b.Quanta()[0]; got != c.want {
			t.Errorf("%s: quantum %d milli, want %d", c.name, got, c.want)
		}
	}
	q := Quanta{1000}
	// 1e-4 cores is finer than the quantum: demands round up, capacities down.
	if q.Demand(0, 1.0001) != 2 || q.Capacity(0, 1.9999) != 1 {
		t.Errorf("rounding: demand %d, capacity %d", q.Demand(0, 1.0001), q.Capacity(0, 1.9999))
	}
}

// TestNoise checks that actual durations are counter-based (the same for a
// (job, task) whatever the order of draws), at least 1 tick, and of mean
// about 1 (mean form) or median about 1 (median form).
func TestNoise(t *testing.T) {
	n := newNoise(7, 0.5, false)
	a := n.actual(3, 4, 1000)
	n.actual(9, 9, 1000)
	if b := n.actual(3, 4, 1000); a != b {
		t.Fatalf("noise not counter-based: %d then %d", a, b)
	}
	if n.actual(1, 1, 1) < 1 {
		t.Fatal("actual below 1 tick")
	}
	const N = 40000
	var sum float64
	var below int
	for i := int32(0); i < N; i++ {
		x := n.actual(JobID(i/100), i%100, 1_000_000)
		sum += float64(x)
		if x < 1_000_000 {
			below++
		}
	}
	// E[exp(σZ − σ²/2)] = 1; the standard error of the mean of N draws is
	// √(e^{σ²}−1)/√N ≈ 0.0027 for σ = 0.5, so 1% is over 3 standard errors.
	if m := sum / N / 1e6; m < 0.99 || m > 1.01 {
		t.Errorf("mean factor %.4f, want 1 ± 0.01", m)
	}
	med := newNoise(7, 0.5, true)
	below = 0
	for i := int32(0); i < N; i++ {
		if med.actual(JobID(i/100), i%100, 1_000_000) < 1_000_000 {
			below++
		}
	}
	// median form: half the draws fall below the estimate (± 1%).
	if f := float64(below) / N; f < 0.49 || f > 0.51 {
		t.Errorf("median form: %.3f of draws below the estimate, want 0.5", f)
	}
}

// TestEventQueueOrder drives the radix queue as the engine does (advance
// to the next time, drain it, push only at or after it, pushes at the
// current time during a drain included) beside the 4-ary heap, which
// TestEventHeapOrder checks against a sort: every pop must return the
// heap's least event.
func TestEventQueueOrder(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 3))
		var q eventQueue
		var h eventHeap
		pushed := 0
		push := func(now Tick) {
			span := []int64{1, 4, 1 << 10, 1 << 40}[rng.IntN(4)]
			e := mkEvent(now+Tick(rng.Int64N(span)), uint8(rng.IntN(4)), int32(rng.IntN(30)), int32(rng.IntN(30)), uint32(rng.IntN(3)))
			e.slot = rng.Uint32()
			q.push(e)
			h.push(e)
			pushed++
		}
		for range 50 {
			push(0)
		}
		popped := 0
		for q.len() > 0 {
			now := q.next()
			if now != h.min().at {
				t.Fatalf("seed %d: next time %d, heap's %d", seed, now, h.min().at)
			}
			for q.pending() {
				got, want := q.pop(), h.pop()
				if got != want {
					t.Fatalf("seed %d: pop %d = %+v, want %+v", seed, popped, got, want)
				}
				popped++
				if pushed < 3000 {
					for range rng.IntN(3) {
						push(now)
					}
				}
			}
			if h.len() > 0 && h.min().at == now {
				t.Fatalf("seed %d: time %d drained with %+v left", seed, now, h.min())
			}
		}
		if popped != pushed || h.len() != 0 {
			t.Fatalf("seed %d: popped %d of %d events", seed, popped, pushed)
		}
	}
}
