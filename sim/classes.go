package sim

import (
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/labels"
)

// Class is a set of machines with identical capacity, labels and slot
// limit: eligibility is decided once per class (SIMULATE.md §1.1).
type Class struct {
	// Machines in id order.
	Machines []MachineID
	// Cap, Labels and Slots are those of every machine of the class.
	Cap    Vec
	Labels map[string]string
	Slots  int32
	// NodeCap is the capacity a constraint's MinCapacity is checked
	// against: Cap, or in container mode the capacity of the node the
	// class's containers are cut from. A Demand's minCapacity admits
	// "only nodes at least this large", and X-Select packs an
	// application's containers on such nodes only; checked against the
	// container sizes it would bar an application from the very
	// containers the plan gave it.
	NodeCap Vec
}

// eligibilityCap returns the capacity MinCapacity is checked against for
// machine m (Class.NodeCap).
func eligibilityCap(m *Machine, nodes []Node) Vec {
	if nodes != nil && m.Node >= 0 && int(m.Node) < len(nodes) {
		return nodes[m.Node].Cap
	}
	return m.Cap
}

// buildClasses groups the machines into classes numbered by first
// machine; nodes are the cluster's nodes in container mode (else nil).
func buildClasses(ms []Machine, nodes []Node) ([]Class, []ClassID) {
	byKey := map[string]ClassID{}
	classOf := make([]ClassID, len(ms))
	var classes []Class
	var key []byte // reused: a lookup by string(key) does not allocate
	var names []string
	for i := range ms {
		m := &ms[i]
		key = key[:0]
		for _, v := range m.Cap {
			key = appendInt(key, v)
			key = append(key, ',')
		}
		key = append(key, '|')
		nodeCap := eligibilityCap(m, nodes)
		for _, v := range nodeCap {
			key = appendInt(key, v)
			key = append(key, ',')
		}
		key = append(key, '|')
		key = appendInt(key, int64(m.Slots))
		key = append(key, '|')
		names = names[:0]
		for k := range m.Labels { // sorted below
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			key = append(key, k...)
			key = append(key, 0)
			key = append(key, m.Labels[k]...)
			key = append(key, 0)
		}
		c, ok := byKey[string(key)]
		if !ok {
			c = ClassID(len(classes))
			byKey[string(key)] = c
			classes = append(classes, Class{Cap: m.Cap, Labels: m.Labels, Slots: m.Slots, NodeCap: nodeCap})
		}
		classes[c].Machines = append(classes[c].Machines, MachineID(i))
		classOf[i] = c
	}
	return classes, classOf
}

// eligibility caches, per combination of constraints, the classes that
// satisfy all of them.
type eligibility struct {
	classes []Class
	words   int
	cache   map[string]*ClassSet
	all     *ClassSet
}

func newEligibility(classes []Class) *eligibility {
	e := &eligibility{classes: classes, words: (len(classes) + 63) / 64, cache: map[string]*ClassSet{}}
	bits := make([]uint64, e.words)
	for c := range classes {
		bits[c/64] |= 1 << (c % 64)
	}
	e.all = newClassSet(bits)
	return e
}

// admits reports whether class c satisfies constraint k.
func (e *eligibility) admits(c int, k Constraint) bool {
	cl := &e.classes[c]
	for d, v := range k.MinCapacity {
		if cl.NodeCap[d] < v {
			return false
		}
	}
	return k.Selector == nil || k.Selector.Matches(labels.Set(cl.Labels))
}

// of returns the classes satisfying every constraint of ks.
func (e *eligibility) of(ks ...Constraint) *ClassSet {
	none := true
	for _, k := range ks {
		none = none && k.empty()
	}
	if none { // the common case: no constraint at all
		return e.all
	}
	var b strings.Builder
	for i, k := range ks {
		if i > 0 {
			b.WriteByte(0)
		}
		if !k.empty() {
			b.WriteString(k.key())
		}
	}
	key := b.String()
	if s, ok := e.cache[key]; ok {
		return s
	}
	bits := make([]uint64, e.words)
	for c := range e.classes {
		ok := true
		for _, k := range ks {
			if !k.empty() && !e.admits(c, k) {
				ok = false
				break
			}
		}
		if ok {
			bits[c/64] |= 1 << (c % 64)
		}
	}
	s := newClassSet(bits)
	e.cache[key] = s
	return s
}
