package flow

// network is the bipartite flow network of a CMMF instance over classes:
// source → class (the class's allowance), class → type (unbounded),
// type → sink (the type's machine count, scaled).
type network struct {
	g          *Graph
	src, sink  int
	classArc   []int   // arc source → class c
	typeArc    []int   // arc type t → sink
	edgeArc    [][]int // edgeArc[c][k]: arc class c → its k-th type
	nClasses   int
	typeCounts []int64
}

func (n *network) classNode(c int) int { return 2 + c }
func (n *network) typeNode(t int) int  { return 2 + n.nClasses + t }

// newNetwork builds the network for the given classes (each a type list)
// and type counts, with zero capacities on source and sink arcs.
func newNetwork(typeLists [][]int, typeCounts []int64) *network {
	n := &network{nClasses: len(typeLists), typeCounts: typeCounts, src: 0, sink: 1}
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
			n.edgeArc[c][k] = n.g.AddArc(n.classNode(c), n.typeNode(t), Inf)
		}
	}
	return n
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
