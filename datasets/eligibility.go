package datasets

import (
	"encoding/binary"
	"maps"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"
)

// profile is a set of nodes with identical labels, capacity and taints:
// the nodes of one rack of one node group (or of the whole group, without
// racks), or the members of a kubectl node group with equal labels.
type profile struct {
	group  int
	labels map[string]string
	milli  []int64
}

// need is one minCapacity entry of an application: resource index and
// milli-value.
type need struct {
	res    int
	milli  int64
	format resource.Format // of the input, for messages
}

// matching evaluates which applications may run on which nodes, once per
// profile rather than once per node.
type matching struct {
	c        *Cluster
	d        *Demand
	resIndex map[string]int
	profiles []profile
	// rackSlot[g][k] is the profile of node i of group g, k = i mod
	// len(Racks) (k = 0 without racks).
	rackSlot [][]int
	// needs[a] is application a's minCapacity; undeclared[a] marks one that
	// names a resource the cluster does not declare (it fits no node).
	needs      [][]need
	undeclared []bool
	// eligible[p] is the bitset of the applications that may run on
	// profile p.
	eligible [][]uint64
}

// newMatching computes eligibility: an application may run on a node when
// its selector matches the node's labels (rack included), it tolerates the
// node's NoSchedule and NoExecute taints, and the node has at least its
// minCapacity of every resource named, compared exactly in milli-units.
func newMatching(c *Cluster, d *Demand) *matching {
	m := &matching{c: c, d: d, resIndex: make(map[string]int, len(c.Resources))}
	for i, r := range c.Resources {
		m.resIndex[r] = i
	}
	m.needs = make([][]need, len(d.Applications))
	m.undeclared = make([]bool, len(d.Applications))
	for a := range d.Applications {
		app := &d.Applications[a]
		for _, r := range sortedKeys(app.MinCapacity) {
			j, ok := m.resIndex[r]
			if !ok {
				m.undeclared[a] = true
				continue
			}
			q := app.MinCapacity[r]
			milli, _ := Milli(q)
			m.needs[a] = append(m.needs[a], need{j, milli, q.Format})
		}
	}
	m.rackSlot = make([][]int, len(c.Groups))
	for g := range c.Groups {
		grp := &c.Groups[g]
		milli := grp.Capacity.Milli()
		byKey := map[string]int{}
		slots := max(1, len(grp.Racks))
		if grp.Members != nil {
			slots = grp.Count
		}
		m.rackSlot[g] = make([]int, slots)
		for k := 0; k < slots; k++ {
			var key string
			var l map[string]string
			if grp.Members != nil {
				l = grp.Members[k].Labels
				key = labels.Set(l).String()
			} else {
				key = grp.NodeRack(k)
				l = grp.nodeLabels(key)
			}
			p, ok := byKey[key]
			if !ok {
				p = len(m.profiles)
				byKey[key] = p
				m.profiles = append(m.profiles, profile{group: g, labels: l, milli: milli})
			}
			m.rackSlot[g][k] = p
		}
	}
	words := (len(d.Applications) + 63) / 64
	m.eligible = make([][]uint64, len(m.profiles))
	for p := range m.profiles {
		bits := make([]uint64, words)
		for a := range d.Applications {
			if m.fits(p, a) {
				bits[a/64] |= 1 << (a % 64)
			}
		}
		m.eligible[p] = bits
	}
	return m
}

// profileOf returns the profile of node i of group g.
func (m *matching) profileOf(g, i int) int {
	slots := m.rackSlot[g]
	return slots[i%len(slots)]
}

func (m *matching) selects(p, a int) bool {
	return m.d.Applications[a].selector().Matches(labels.Set(m.profiles[p].labels))
}

func (m *matching) fits(p, a int) bool {
	if m.undeclared[a] || !m.selects(p, a) || !m.tolerated(p, a) {
		return false
	}
	for _, n := range m.needs[a] {
		if m.profiles[p].milli[n.res] < n.milli {
			return false
		}
	}
	return true
}

// tolerated reports whether application a tolerates every NoSchedule and
// NoExecute taint of profile p's nodes.
func (m *matching) tolerated(p, a int) bool {
	return tolerates(m.d.Applications[a].Tolerations, m.c.Groups[m.profiles[p].group].Taints)
}

func (m *matching) isEligible(p, a int) bool {
	return m.eligible[p][a/64]&(1<<(a%64)) != 0
}

// anyEligible reports whether application a may run on some node.
func (m *matching) anyEligible(a int) bool {
	for p := range m.profiles {
		if m.isEligible(p, a) {
			return true
		}
	}
	return false
}

// typeKey identifies a machine type: capacity and eligible applications.
func (m *matching) typeKey(p int) string {
	b := make([]byte, 0, 8*(len(m.profiles[p].milli)+len(m.eligible[p])))
	for _, v := range m.profiles[p].milli {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	for _, w := range m.eligible[p] {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	return string(b)
}

// selector returns the application's selector, Everything when unset.
func (a *Application) selector() labels.Selector {
	if a.Selector == nil {
		return labels.Everything()
	}
	return a.Selector
}

// commonLabels returns the labels present with the same value in both.
func commonLabels(a, b map[string]string) map[string]string {
	out := maps.Clone(a)
	for k, v := range out {
		if w, ok := b[k]; !ok || w != v {
			delete(out, k)
		}
	}
	return out
}
