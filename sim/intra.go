package sim

import "fmt"

// Intra is the order of the tasks inside a job (SIMULATE.md §3.0): each
// runnable group is a FIFO in this order, a job's groups are ordered by
// their heads, and ties go to the stage, then the task index.
type Intra uint8

const (
	// IntraBFS is Tez's breadth-first order: stage depth, then stage, then
	// task (Carbyne §5.1).
	IntraBFS Intra = iota
	// IntraCP orders by bottom level descending: the longest estimated
	// path from the task to a sink, the task included.
	IntraCP
	// IntraID orders by task index.
	IntraID
	// IntraRank orders by Job.Rank (a preferred order, e.g. Graphene's);
	// jobs without ranks use the task index.
	IntraRank
)

var intraNames = []string{"bfs", "cp", "id", "rank"}

func (o Intra) String() string {
	if int(o) < len(intraNames) {
		return intraNames[o]
	}
	return fmt.Sprintf("Intra(%d)", o)
}

// IntraByName returns the order with the given name (bfs, cp, id, rank).
func IntraByName(name string) (Intra, bool) {
	for i, n := range intraNames {
		if n == name {
			return Intra(i), true
		}
	}
	return 0, false
}

// IntraNames returns the names IntraByName accepts.
func IntraNames() []string { return append([]string(nil), intraNames...) }
