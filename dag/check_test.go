package dag

import (
	"slices"
	"testing"
)

// diamond: a -> {b, c} -> d, durations 2, 3, 1, 2, one resource, demands
// 2, 2, 2, 1.
func diamond(t testing.TB) *DAG {
	t.Helper()
	b := NewBuilder("diamond", []string{"cpu"}, 1)
	a := b.AddTask("a", -1, 2, []float64{2})
	bb := b.AddTask("b", -1, 3, []float64{2})
	c := b.AddTask("c", -1, 1, []float64{2})
	d := b.AddTask("d", -1, 2, []float64{1})
	b.AddEdge(a, bb)
	b.AddEdge(a, c)
	b.AddEdge(bb, d)
	b.AddEdge(c, d)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func sched(start []int64, dur []int64, machine []int) *Schedule {
	s := NewSchedule(len(start))
	for i := range start {
		s.Start[i], s.End[i], s.Machine[i] = start[i], start[i]+dur[i], machine[i]
	}
	return s
}

func TestCheck(t *testing.T) {
	d := diamond(t)
	dur := []int64{2, 3, 1, 2}
	tests := []struct {
		name     string
		machines [][]float64
		s        *Schedule
		want     []Violation
	}{
		// b and c side by side on one machine of capacity 4: 2 + 2 = 4 fits.
		{"feasible", [][]float64{{4}}, sched([]int64{0, 2, 2, 5}, dur, []int{0, 0, 0, 0}), nil},
		// d starts at 4 while b runs until 5.
		{"precedence", [][]float64{{4}}, sched([]int64{0, 2, 2, 4}, dur, []int{0, 0, 0, 0}),
			[]Violation{{Kind: Precedence, Task: "d", Pred: "b", Time: 4, Until: 5}}},
		// capacity 3: b and c overlap on [2,3) with usage 4 > 3.
		{"capacity", [][]float64{{3}}, sched([]int64{0, 2, 2, 5}, dur, []int{0, 0, 0, 0}),
			[]Violation{{Kind: Capacity, Task: "c", Machine: 0, Time: 2, Until: 3, Resource: "cpu", Used: 4, Capacity: 3}}},
		// on two machines of capacity 3 the same times are fine.
		{"two machines", [][]float64{{3}, {3}}, sched([]int64{0, 2, 2, 5}, dur, []int{0, 0, 1, 0}), nil},
		// touching intervals [0,2) and [2,5) do not overlap.
		{"touching", [][]float64{{2}}, sched([]int64{0, 2, 5, 6}, dur, []int{0, 0, 0, 0}), nil},
		{"duration and machine", [][]float64{{4}}, &Schedule{Start: []int64{0, 2, 2, 5}, End: []int64{2, 5, 4, 7}, Machine: []int{0, 0, 7, 0}},
			[]Violation{{Kind: Duration, Task: "c", Machine: 7, Time: 2, Until: 4}, {Kind: BadMachine, Task: "c", Machine: 7}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Check(d, tc.machines, tc.s)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("violations\n got %v\nwant %v", got, tc.want)
			}
		})
	}
}
