package dag

import "slices"

// deriveStages computes StageEdges, their kinds and coverage flags, the
// per-stage edge lists and the stage topological order, from the task
// edges. Cost O(N + E log E).
func (d *DAG) deriveStages() {
	ns := len(d.Stages)
	// pos[i] is the position of task i within its stage.
	pos := make([]int, d.N())
	for _, s := range d.Stages {
		for k, t := range s.Tasks {
			pos[t] = k
		}
	}
	type key struct{ from, to int }
	at := map[key]int{}
	intra := false
	aligned := []bool{} // per stage edge: every link pairs equal positions so far
	for u := 0; u < d.N(); u++ {
		su := d.Tasks[u].Stage
		lastStage, e := -1, -1 // successors of one stage are usually adjacent
		for _, v := range d.Succs(u) {
			sv := d.Tasks[v].Stage
			if su == sv {
				intra = true
				continue
			}
			if sv == lastStage {
				d.StageEdges[e].Links++
				if pos[u] != pos[v] {
					aligned[e] = false
				}
				continue
			}
			k := key{su, sv}
			var ok bool
			e, ok = at[k]
			lastStage = sv
			if !ok {
				e = len(d.StageEdges)
				at[k] = e
				d.StageEdges = append(d.StageEdges, StageEdge{From: su, To: sv})
				aligned = append(aligned, true)
			}
			d.StageEdges[e].Links++
			if pos[u] != pos[v] {
				aligned[e] = false
			}
		}
	}
	// Coverage: count, per stage edge, the distinct child tasks with a
	// parent in From and the distinct parent tasks with a child in To.
	toCount := make([]int, len(d.StageEdges))
	fromCount := make([]int, len(d.StageEdges))
	seen := make([]int, len(d.StageEdges)) // last task that counted, +1
	count := func(row func(int) []int, counts []int, flip bool) {
		clear(seen)
		for x := 0; x < d.N(); x++ {
			sx, last := d.Tasks[x].Stage, -1
			for _, y := range row(x) {
				sy := d.Tasks[y].Stage
				if sy == sx || sy == last {
					continue
				}
				last = sy
				k := key{sy, sx}
				if flip {
					k = key{sx, sy}
				}
				if e := at[k]; seen[e] != x+1 {
					seen[e] = x + 1
					counts[e]++
				}
			}
		}
	}
	count(d.Preds, toCount, false)
	count(d.Succs, fromCount, true)
	for e := range d.StageEdges {
		se := &d.StageEdges[e]
		nf, nt := len(d.Stages[se.From].Tasks), len(d.Stages[se.To].Tasks)
		se.CoversTo = toCount[e] == nt
		se.CoversFrom = fromCount[e] == nf
		switch {
		case se.Links == nf*nt:
			se.Kind = Barrier
		case nf == nt && se.Links == nf && aligned[e]:
			se.Kind = OneToOne
		default:
			se.Kind = Partial
		}
	}
	// Sort the stage edges by (From, To) and index them per stage.
	slices.SortFunc(d.StageEdges, func(a, b StageEdge) int {
		if a.From != b.From {
			return a.From - b.From
		}
		return a.To - b.To
	})
	d.stageIn = make([][]int, ns)
	d.stageOut = make([][]int, ns)
	for e, se := range d.StageEdges {
		d.stageOut[se.From] = append(d.stageOut[se.From], e)
		d.stageIn[se.To] = append(d.stageIn[se.To], e)
	}
	if !intra {
		d.stageTopo = stageOrder(d)
	}
}

// stageOrder returns a topological order of the stage graph, or nil if it
// has a cycle.
func stageOrder(d *DAG) []int {
	ns := len(d.Stages)
	indeg := make([]int, ns)
	for _, se := range d.StageEdges {
		indeg[se.To]++
	}
	order := make([]int, 0, ns)
	for s := 0; s < ns; s++ {
		if indeg[s] == 0 {
			order = append(order, s)
		}
	}
	for h := 0; h < len(order); h++ {
		for _, e := range d.stageOut[order[h]] {
			t := d.StageEdges[e].To
			if indeg[t]--; indeg[t] == 0 {
				order = append(order, t)
			}
		}
	}
	if len(order) < ns {
		return nil
	}
	return order
}
