package dag_test

import (
	"fmt"

	"github.com/capplan/capplan/dag"
)

// A map stage of four tasks, a reduce stage of two behind a barrier, on
// two machines of 4 cores: Graphene's preferred schedule, its precedence
// order and its gap to the lower bounds.
func ExampleGraphene() {
	b := dag.NewBuilder("wordcount", []string{"cpu"}, 1)
	m, r := b.Stage("map"), b.Stage("reduce")
	for i := 0; i < 4; i++ {
		b.AddTask(fmt.Sprintf("map[%d]", i), m, 10, []float64{2})
	}
	for i := 0; i < 2; i++ {
		b.AddTask(fmt.Sprintf("reduce[%d]", i), r, 5, []float64{4})
	}
	b.Connect(m, r, dag.Barrier)
	d, err := b.Build()
	if err != nil {
		panic(err)
	}
	machines := [][]float64{{4}, {4}}
	s, err := dag.Graphene(d, machines, dag.Options{})
	if err != nil {
		panic(err)
	}
	a := dag.Assess(d, machines, s)
	fmt.Println("makespan", a.Makespan, "bound", a.Bounds.Best, "violations", len(a.Violations))
	for _, v := range s.Order() {
		fmt.Printf("%s@%d/m%d ", d.Tasks[v].ID, s.Start[v], s.Machine[v])
	}
	fmt.Println()
	// Output:
	// makespan 15 bound 15 violations 0
	// map[0]@0/m0 map[1]@0/m0 map[2]@0/m1 map[3]@0/m1 reduce[0]@10/m0 reduce[1]@10/m1
}

// Best on a PSPLIB-style project: one machine with two resources.
func ExampleBest() {
	b := dag.NewBuilder("project", []string{"R1", "R2"}, 1)
	a := b.AddTask("a", -1, 3, []float64{4, 1})
	c := b.AddTask("b", -1, 2, []float64{2, 2})
	e := b.AddTask("c", -1, 4, []float64{1, 3})
	b.AddEdge(a, e)
	b.AddEdge(c, e)
	d, err := b.Build()
	if err != nil {
		panic(err)
	}
	r, err := dag.Best(d, [][]float64{{5, 3}}, dag.Options{Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Makespan, r.Optimal, r.Bounds.CP)
	// Output: 9 true 7
}
