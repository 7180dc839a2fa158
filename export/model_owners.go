package export

import (
	"fmt"
	"math/big"

	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// findOwners records the nodes of each type and which application, if
// any, each node is planned for alone: from the FairShare's per-node
// assignment, else from an ownership PackingPlan (node groups map to
// machine types through MachineType.Groups), and a whole machine type when
// the shares give all of it to one application.
func (m *model) findOwners(pack *plan.PackingPlan) {
	appIndex := map[string]int{}
	for u, a := range m.apps {
		appIndex[a.name] = u
	}
	typeIndex := map[string]int{}
	for t, ty := range m.types {
		typeIndex[ty.name] = t
	}
	for t := range m.types {
		var sole = -1
		for u, a := range m.apps {
			if a.byType[t].Sign() == 0 {
				continue
			}
			if sole >= 0 {
				sole = -2
				break
			}
			sole = u
		}
		if sole >= 0 && m.apps[sole].byType[t].Cmp(big.NewRat(m.types[t].count, 1)) == 0 {
			m.types[t].owner = sole
		}
	}
	switch {
	case len(m.doc.Nodes) > 0:
		for _, n := range m.doc.Nodes {
			t, ok := typeIndex[n.Type]
			if !ok {
				continue
			}
			m.types[t].nodes = append(m.types[t].nodes, n.Node)
			if len(n.Users) == 1 && n.Users[0].Fraction == 1 {
				if u, ok := appIndex[n.Users[0].Application]; ok {
					m.nodeOwner[n.Node] = u
				}
			}
		}
	case pack != nil && pack.Mode == "ownership":
		groupType := map[string]int{}
		for t, mt := range m.doc.MachineTypes {
			for _, g := range mt.Groups {
				if _, dup := groupType[g]; dup {
					groupType[g] = -1 // a group split over types: ambiguous
				} else {
					groupType[g] = t
				}
			}
		}
		for _, n := range pack.Nodes {
			t, ok := groupType[n.Type]
			if !ok || t < 0 {
				continue
			}
			m.types[t].nodes = append(m.types[t].nodes, n.Name)
			if u, ok := soleOwner(n, appIndex); ok {
				m.nodeOwner[n.Name] = u
			}
		}
	}
	for t := range m.types {
		ty := &m.types[t]
		if ty.nodes != nil && int64(len(ty.nodes)) != ty.count {
			m.warnings = append(m.warnings, fmt.Sprintf("machine type %s: the plan names %d of its %s; node labels are written for those only", ty.name, len(ty.nodes), plural.Count(ty.count, "node")))
		}
		if ty.owner >= 0 {
			for _, n := range ty.nodes {
				m.nodeOwner[n] = ty.owner
			}
		}
	}
}

// soleOwner returns the application all containers of node n belong to.
func soleOwner(n plan.PackedNode, appIndex map[string]int) (int, bool) {
	if len(n.Containers) == 0 {
		return 0, false
	}
	owner := n.Containers[0].Owner
	for _, c := range n.Containers[1:] {
		if c.Owner != owner {
			return 0, false
		}
	}
	u, ok := appIndex[owner]
	return u, ok
}
