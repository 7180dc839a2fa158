package flow

// network is the bipartite flow network of a CMMF instance over classes:
// source → class (the class's allowance), class → type (the class's cap on
// that type, scaled, or unbounded), type → sink (the type's machine count,
// scaled).
type network struct {
	g          *Graph
	src, sink  int
	classArc   []int     // arc source → class c
	typeArc    []int     // arc type t → sink
	edgeArc    [][]int   // edgeArc[c][k]: arc class c → its k-th type
	edgeCap    [][]int64 // edgeCap[c][k]: its unscaled cap, or Unbounded
	nClasses   int
	typeCounts []int64
}

func (n *network) classNode(c int) int { return 2 + c }
func (n *network) typeNode(t int) int  { return 2 + n.nClasses + t }

// newNetwork builds the network for the given classes (each a type list
// with its caps, caps[c] nil for none) and type counts, with zero
// capacities on source and sink arcs and the caps unscaled on the edges
// (setEdgeScale scales them).
func newNetwork(typeLists [][]int, caps [][]int64, typeCounts []int64) *network {
	n := &network{nClasses: len(typeLists), typeCounts: typeCounts, src: 0, sink: 1, edgeCap: caps}
	if n.edgeCap == nil {
		n.edgeCap = make([][]int64, len(typeLists))
	}
	n.g = NewGraph(2 + len(typeLists) + len(typeCounts))
	n.typeArc = make([]int, len(typeCounts))
	for t := range typeCounts {
		n.typeArc[t] = n.g.AddArc(n.typeNode(t), n.sink, 0)
	}
	n.classArc = make([]int, len(typeLists))
	n.edgeArc = make([][]int, len(typeLists))
	for c, ts := range typeLists {
		n.classArc[c] = n.g.AddArc(n.src, n.classNode(c), 0)
		n.edgeArc[c] = make([]int, len(ts))
		for k, t := range ts {
			n.edgeArc[c][k] = n.g.AddArc(n.classNode(c), n.typeNode(t), n.edgeCapacity(c, k, 1))
		}
	}
	return n
}

// edgeCapacity is the capacity of edge k of class c at scale q: q times its
// cap, or Inf.
func (n *network) edgeCapacity(c, k int, q int64) int64 {
	if n.edgeCap[c] == nil || n.edgeCap[c][k] == Unbounded {
		return Inf
	}
	return mustMul(q, n.edgeCap[c][k])
}

// setEdgeScale sets every capped edge to q times its cap.
func (n *network) setEdgeScale(q int64) {
	for c, arcs := range n.edgeArc {
		if n.edgeCap[c] == nil {
			continue
		}
		for k, a := range arcs {
			n.g.SetCap(a, n.edgeCapacity(c, k, q))
		}
	}
}

// totalWeightTimesCapacity checks that every scaled capacity the exact
// algorithms build (at most Σw·Σc) fits in int64 with room for sums.
func checkScale(p *Problem) error {
	var w, c int64
	for _, u := range p.Users {
		w += u.Weight
		if w > 1<<40 {
			return ErrOverflow
		}
	}
	for _, k := range p.Types {
		c += k
		if c > 1<<40 {
			return ErrOverflow
		}
	}
	if prod, ok := mul(w, c); !ok || prod > 1<<61 {
		return ErrOverflow
	}
	return nil
}
