package dag

import "slices"

// Tetris is the multi-resource packer baseline (Grandl et al., SIGCOMM
// 2014, as used in Graphene §2.2 and §7; ALGORITHMS §4.3 and §6.1): a
// work-conserving list scheduler that, whenever a machine has free
// capacity, starts the runnable task (all predecessors finished) of the
// highest alignment
//
//	score(t, m) = Σ_r (d_{t,r}/cap_{m,r}) · (free_{m,r}/cap_{m,r})
//
// among those that fit, machine by machine in index order, until none
// fits. Ties go to the lower task index. The score's −ε·srpt term ranks
// jobs against each other; within one DAG it is the same for every task,
// so it is omitted. Tetris ignores the DAG beyond runnability. Tasks of a
// stage with equal demands are scored once per scan. It returns a
// *NoFitError when some task fits no machine.
func Tetris(d *DAG, machines [][]float64) (*Schedule, error) {
	if err := CheckFit(d, machines); err != nil {
		return nil, err
	}
	return tetris(d, machines), nil
}

func tetris(d *DAG, machines [][]float64) *Schedule {
	e := newEngine(d, machines)
	// ready[s] holds the runnable tasks of stage s, ascending; live lists
	// the stages with runnable tasks.
	ready := make([][]int, len(d.Stages))
	var live []int
	add := func(v int) {
		s := d.Tasks[v].Stage
		if len(ready[s]) == 0 {
			live = append(live, s)
		}
		i, _ := slices.BinarySearch(ready[s], v)
		ready[s] = slices.Insert(ready[s], i, v)
	}
	for v, n := range e.ready.left {
		if n == 0 {
			add(v)
		}
	}
	for {
		for m := range machines {
			for {
				best, bv := -1.0, -1
				for _, s := range live {
					prev := -1
					for _, v := range ready[s] {
						if prev >= 0 && slices.Equal(d.Tasks[prev].Demand, d.Tasks[v].Demand) {
							continue // same score as an earlier task of the stage
						}
						prev = v
						if a := e.align(v, m); a > best || a == best && a >= 0 && v < bv {
							best, bv = a, v
						}
					}
				}
				if bv < 0 {
					break
				}
				e.start(bv, m)
				s := d.Tasks[bv].Stage
				ready[s] = slices.DeleteFunc(ready[s], func(x int) bool { return x == bv })
				if len(ready[s]) == 0 {
					live = slices.DeleteFunc(live, func(x int) bool { return x == s })
				}
			}
		}
		if !e.advance(add) {
			break
		}
	}
	if len(live) > 0 {
		panic("dag: internal: runnable tasks left with nothing running")
	}
	return e.s
}
