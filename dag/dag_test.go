package dag

import (
	"errors"
	"slices"
	"testing"
)

// chainBuilder returns a builder with one resource and single-task stages
// named by ids, with the given edges (pairs of ids).
func buildIDs(t *testing.T, ids []string, edges [][2]string) (*DAG, error) {
	t.Helper()
	b := NewBuilder("test", []string{"cpu"}, 1)
	idx := map[string]int{}
	for _, id := range ids {
		idx[id] = b.AddTask(id, -1, 1, []float64{1})
	}
	for _, e := range edges {
		b.AddEdge(idx[e[0]], idx[e[1]])
	}
	return b.Build()
}

func TestCycleError(t *testing.T) {
	tests := []struct {
		name  string
		ids   []string
		edges [][2]string
		want  []string // nil: no cycle
	}{
		{"acyclic", []string{"a", "b", "c"}, [][2]string{{"a", "b"}, {"b", "c"}, {"a", "c"}}, nil},
		{"self loop", []string{"a", "b"}, [][2]string{{"a", "b"}, {"b", "b"}}, []string{"b", "b"}},
		{"two", []string{"a", "b"}, [][2]string{{"a", "b"}, {"b", "a"}}, []string{"a", "b", "a"}},
		// x feeds the cycle b -> c -> d -> b but is not on it.
		{"three behind a tail", []string{"x", "b", "c", "d"},
			[][2]string{{"x", "b"}, {"b", "c"}, {"c", "d"}, {"d", "b"}}, []string{"b", "c", "d", "b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := buildIDs(t, tc.ids, tc.edges)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				checkTopo(t, d)
				return
			}
			var ce *CycleError
			if !errors.As(err, &ce) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("got %v, want a *CycleError", err)
			}
			// The cycle may start anywhere: rotate to the wanted start.
			got := ce.Cycle[:len(ce.Cycle)-1]
			k := slices.Index(got, tc.want[0])
			if k < 0 || ce.Cycle[0] != ce.Cycle[len(ce.Cycle)-1] {
				t.Fatalf("cycle %v, want %v", ce.Cycle, tc.want)
			}
			rot := append(append(slices.Clone(got[k:]), got[:k]...), tc.want[0])
			if !slices.Equal(rot, tc.want) {
				t.Fatalf("cycle %v, want %v", ce.Cycle, tc.want)
			}
		})
	}
}

func checkTopo(t *testing.T, d *DAG) {
	t.Helper()
	pos := make([]int, d.N())
	if len(d.Topo()) != d.N() {
		t.Fatalf("topo has %d of %d tasks", len(d.Topo()), d.N())
	}
	for k, v := range d.Topo() {
		pos[v] = k
	}
	for v := 0; v < d.N(); v++ {
		for _, p := range d.Preds(v) {
			if pos[p] >= pos[v] {
				t.Fatalf("topo puts %d before its predecessor %d", v, p)
			}
		}
	}
}

func TestInputErrors(t *testing.T) {
	b := NewBuilder("bad", []string{"cpu"}, 1)
	b.AddTask("a", -1, -3, []float64{1})
	b.AddTask("a", -1, 1, []float64{-1})
	b.Stage("empty")
	_, err := b.Build()
	var ie *InputError
	if !errors.As(err, &ie) || !errors.Is(err, ErrInvalid) {
		t.Fatalf("got %v, want *InputError", err)
	}
	// negative duration, negative demand, duplicate id, empty stage
	if len(ie.Problems) != 4 {
		t.Fatalf("problems %q, want 4", ie.Problems)
	}
}

func TestStageEdges(t *testing.T) {
	b := NewBuilder("stages", []string{"cpu"}, 1)
	m, r, w, x := b.Stage("map"), b.Stage("reduce"), b.Stage("write"), b.Stage("extra")
	for i := 0; i < 3; i++ {
		b.AddTask("m"+string(rune('0'+i)), m, 2, []float64{1})
		b.AddTask("r"+string(rune('0'+i)), r, 2, []float64{1})
	}
	for i := 0; i < 3; i++ {
		b.AddTask("w"+string(rune('0'+i)), w, 1, []float64{1})
	}
	b.AddTask("x0", x, 1, []float64{1})
	b.AddTask("x1", x, 1, []float64{1})
	b.Connect(m, r, Barrier)
	b.Connect(r, w, OneToOne)
	b.Connect(r, w, OneToOne) // repeats merge
	b.AddEdge(b.Tasks()-2, 0) // x0 -> m0 only: partial, covers neither side fully
	d, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	want := []StageEdge{
		{From: m, To: r, Kind: Barrier, Links: 9, CoversTo: true, CoversFrom: true},
		{From: r, To: w, Kind: OneToOne, Links: 3, CoversTo: true, CoversFrom: true},
		{From: x, To: m, Kind: Partial, Links: 1},
	}
	if !slices.Equal(d.StageEdges, want) {
		t.Fatalf("stage edges\n got %+v\nwant %+v", d.StageEdges, want)
	}
	if d.Edges() != 9+3+1 {
		t.Fatalf("edges %d, want 13", d.Edges())
	}
	if d.StageTopo() == nil {
		t.Fatal("stage graph should be a DAG")
	}
	checkTopo(t, d)
	rv := d.Reverse()
	checkTopo(t, rv)
	for v := 0; v < d.N(); v++ {
		if !slices.Equal(rv.Succs(v), d.Preds(v)) || !slices.Equal(rv.Preds(v), d.Succs(v)) {
			t.Fatalf("reverse of task %d differs", v)
		}
	}
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }
