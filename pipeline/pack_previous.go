package pipeline

import (
	"fmt"

	"github.com/capplan/capplan/binpack/xselect"
	"github.com/capplan/capplan/plan"
)

// previousPlan maps a previous ownership PackingPlan onto this problem for
// incremental mode: the containers of each node, by node name. Nodes of the
// previous plan that the cluster no longer has are returned in gone (their
// containers are lost). A shape or owner the current catalog or demand does
// not know is an error naming the plan file: an incremental run cannot keep
// a container it cannot describe (run without --from instead).
func (in *ownershipInput) previousPlan(name string, prev *plan.PackingPlan) (from [][]xselect.Container, gone []string, err error) {
	if prev.Mode != "ownership" {
		return nil, nil, fmt.Errorf("%s: mode is %q: --from needs an ownership plan (capplan pack --shapes)", name, prev.Mode)
	}
	nodeIdx := make(map[string]int, len(in.NodeNames))
	for n, s := range in.NodeNames {
		nodeIdx[s] = n
	}
	shapeIdx := map[string]int{}
	for k, s := range in.ShapeNames {
		shapeIdx[s] = k
	}
	appIdx := map[string]int{}
	for a, info := range in.Apps {
		appIdx[info.Name] = a
	}
	from = make([][]xselect.Container, len(in.NodeNames))
	for i, node := range prev.Nodes {
		n, ok := nodeIdx[node.Name]
		if !ok {
			gone = append(gone, node.Name)
			continue
		}
		if from[n] != nil {
			return nil, nil, fmt.Errorf("%s: nodes[%d]: node %s appears twice", name, i, node.Name)
		}
		from[n] = make([]xselect.Container, 0, len(node.Containers))
		for j, c := range node.Containers {
			k, ok := shapeIdx[c.Shape]
			if !ok {
				return nil, nil, fmt.Errorf("%s: nodes[%d].containers[%d]: shape %q is not in the catalog", name, i, j, c.Shape)
			}
			a, ok := appIdx[c.Owner]
			if !ok {
				return nil, nil, fmt.Errorf("%s: nodes[%d].containers[%d]: owner %q is not an application with containers to pack", name, i, j, c.Owner)
			}
			from[n] = append(from[n], xselect.Container{Shape: k, Owner: a})
		}
	}
	for n := range from {
		if from[n] == nil {
			from[n] = []xselect.Container{}
		}
	}
	return from, gone, nil
}
