package dag

// Induced returns the sub-DAG on the given tasks (their edges among
// themselves, their stages restricted to them) and, for each of its tasks,
// the index of the task in d. Task IDs and stage names are kept.
func (d *DAG) Induced(tasks []int) (*DAG, []int) {
	b := NewBuilder(d.Name, d.Resources, d.Unit)
	at := make(map[int]int, len(tasks))
	stage := map[int]int{}
	orig := make([]int, 0, len(tasks))
	for _, v := range tasks {
		t := &d.Tasks[v]
		s, ok := stage[t.Stage]
		if !ok {
			s = b.Stage(d.Stages[t.Stage].Name)
			stage[t.Stage] = s
		}
		at[v] = b.AddTask(t.ID, s, t.Duration, t.Demand)
		orig = append(orig, v)
	}
	for _, v := range tasks {
		for _, c := range d.Succs(v) {
			if w, ok := at[c]; ok {
				b.AddEdge(at[v], w)
			}
		}
	}
	sub, err := b.Build()
	if err != nil {
		panic("dag: internal: induced sub-DAG of a valid DAG failed to build: " + err.Error())
	}
	return sub, orig
}
