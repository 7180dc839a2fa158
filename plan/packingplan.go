package plan

// KindPackingPlan is the kind of a PackingPlan document.
const KindPackingPlan = "PackingPlan"

// PackingPlan is the document `capplan pack` writes: a vector packing of
// containers into nodes. In sizing mode (--min-nodes) it holds the fewest
// nodes found for the forecast with a lower bound on that number; in
// ownership mode (X-Select) the multiplier λ of the forecast mix that was
// packed and its upper bound.
type PackingPlan struct {
	Header
	// Mode is "sizing" or "ownership".
	Mode string `json:"mode"`
	// Resources are the dimensions of every size, in order; for .vbp
	// inputs they are d0, d1, ... in the file's order.
	Resources []string `json:"resources"`
	// NodeCapacity is the capacity of the node type used for sizing.
	NodeCapacity map[string]float64 `json:"nodeCapacity,omitempty"`
	// Method names the heuristic whose packing was best.
	Method string `json:"method"`
	// Nodes lists every node used and its containers.
	Nodes []PackedNode `json:"nodes"`
	// Sizing mode: the nodes used and the best lower bound on the minimum,
	// with each bound's value; Optimal when they are equal.
	NodesUsed  int            `json:"nodesUsed,omitempty"`
	LowerBound int            `json:"lowerBound,omitempty"`
	Bounds     map[string]int `json:"bounds,omitempty"`
	Optimal    bool           `json:"optimal"`
	// Ownership mode: the multiplier packed and its upper bound.
	Lambda           float64 `json:"lambda"`
	LambdaUpperBound float64 `json:"lambdaUpperBound"`
	// Unplaced lists containers that could not be placed, with the reason.
	Unplaced []UnplacedContainer `json:"unplaced"`
	// Stranded is the capacity left unused on the nodes used, per
	// dimension (base units), and as a percentage of their capacity.
	Stranded []Stranded `json:"stranded"`
}

// PackedNode is one node of a plan and the containers placed on it.
type PackedNode struct {
	Name       string            `json:"name"`
	Containers []PackedContainer `json:"containers"`
}

// PackedContainer is one container: its shape (name), owner and size.
type PackedContainer struct {
	Shape string             `json:"shape"`
	Owner string             `json:"owner"`
	Size  map[string]float64 `json:"size"`
}

// UnplacedContainer is a container the plan could not place.
type UnplacedContainer struct {
	Shape  string `json:"shape"`
	Owner  string `json:"owner"`
	Reason string `json:"reason"`
}

// Stranded is the unused capacity of one dimension over the nodes used.
type Stranded struct {
	Resource string  `json:"resource"`
	Capacity float64 `json:"capacity"`
	Used     float64 `json:"used"`
	Unused   float64 `json:"unused"`
	Percent  float64 `json:"percent"`
}
