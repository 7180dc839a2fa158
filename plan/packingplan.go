package plan

// KindPackingPlan is the kind of a PackingPlan document.
const KindPackingPlan = "PackingPlan"

// PackingPlan is the document `capplan pack` writes: a vector packing of
// containers into nodes. In sizing mode (--min-nodes) it holds the fewest
// nodes found for the forecast with a lower bound on that number (or, with
// several node types, the cheapest mix and a lower bound on its cost); in
// ownership mode (X-Select) the multiplier λ of the forecast mix that was
// packed, its upper bound, and every owner's target and achieved share.
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
	// Sizing with several node types: the cost of the mix, its lower
	// bound, and the nodes bought per type.
	Cost           float64            `json:"cost,omitempty"`
	CostLowerBound float64            `json:"costLowerBound,omitempty"`
	CostBounds     map[string]float64 `json:"costBounds,omitempty"`
	NodeTypes      []NodeTypeUse      `json:"nodeTypes,omitempty"`
	// Ownership mode: the multiplier packed and its upper bound (λ = 1
	// packs as much normalised volume as the whole forecast, split by the
	// owners' shares; see SharesFrom).
	Lambda           float64 `json:"lambda"`
	LambdaUpperBound float64 `json:"lambdaUpperBound"`
	// SharesFrom says where the owners' target shares come from: fair
	// (CMMF fair shares), weights or forecast.
	SharesFrom string `json:"sharesFrom,omitempty"`
	// Owners compares each owner's packed containers and share with its
	// target (ownership mode).
	Owners []OwnerResult `json:"owners,omitempty"`
	// Skipped lists demand applications the ownership plan leaves out.
	Skipped []SkippedApplication `json:"skipped,omitempty"`
	// Incremental mode (--from): the nodes whose containers changed, the
	// most that were allowed to, and previous-plan nodes the cluster no
	// longer has.
	Incremental  bool     `json:"incremental,omitempty"`
	Changed      []string `json:"changed,omitempty"`
	MutableLimit int      `json:"mutableLimit,omitempty"`
	GoneNodes    []string `json:"goneNodes,omitempty"`
	// Unplaced lists containers that could not be placed, with the reason.
	Unplaced []UnplacedContainer `json:"unplaced"`
	// Stranded is the capacity left unused on the nodes used, per
	// dimension (base units), and as a percentage of their capacity.
	Stranded []Stranded `json:"stranded"`
	// Search records the work budget and time limit of the X-Select
	// search (ownership mode).
	Search *Search `json:"search,omitempty"`
}

// PackedNode is one node of a plan and the containers placed on it.
type PackedNode struct {
	Name string `json:"name"`
	// Type is the node type (sizing with several types) or node group
	// (ownership); Capacity the node's capacity when nodes differ.
	Type       string             `json:"type,omitempty"`
	Capacity   map[string]float64 `json:"capacity,omitempty"`
	Containers []PackedContainer  `json:"containers"`
}

// NodeTypeUse is one node type of a mixed sizing: its capacity, cost per
// node, and how many nodes the plan buys.
type NodeTypeUse struct {
	Name     string             `json:"name"`
	Capacity map[string]float64 `json:"capacity"`
	Cost     float64            `json:"cost"`
	Nodes    int                `json:"nodes"`
}

// OwnerResult is one owner (application) of an ownership plan.
type OwnerResult struct {
	Application string `json:"application"`
	// Forecast counts the forecast requests mapped to the catalog's
	// shapes; Required the containers of the required set at λ; Packed
	// the containers in the plan (required plus top-up).
	Forecast int64 `json:"forecast"`
	Required int   `json:"required"`
	Packed   int   `json:"packed"`
	// ChargedSize is the packed normalised volume (Σ over containers and
	// dimensions of size / cluster total); Size the packed amount of each
	// resource.
	ChargedSize float64            `json:"chargedSize"`
	Size        map[string]float64 `json:"size"`
	// TargetShare is the owner's share σ; AchievedShare its fraction of
	// the packed charged size; Deviation their difference.
	TargetShare   float64 `json:"targetShare"`
	AchievedShare float64 `json:"achievedShare"`
	Deviation     float64 `json:"deviation"`
	// Incremental mode: containers on nodes kept from the previous plan,
	// and those beyond the required set (over target on kept nodes
	// alone).
	Frozen  int `json:"frozen,omitempty"`
	Surplus int `json:"surplus,omitempty"`
}

// PackedContainer is one container: its shape (name), owner and size.
type PackedContainer struct {
	Shape string             `json:"shape"`
	Owner string             `json:"owner"`
	Size  map[string]float64 `json:"size"`
}

// UnplacedContainer is a container (or Count identical ones) the plan
// could not place. In ownership mode these are the containers of the next
// multiplier step above λ that are missing, and the requests no catalog
// shape holds (Shape empty, Request set).
type UnplacedContainer struct {
	Shape   string             `json:"shape"`
	Owner   string             `json:"owner"`
	Reason  string             `json:"reason"`
	Count   int64              `json:"count,omitempty"`
	Request map[string]float64 `json:"request,omitempty"`
}

// Stranded is the unused capacity of one dimension over the nodes used.
type Stranded struct {
	Resource string  `json:"resource"`
	Capacity float64 `json:"capacity"`
	Used     float64 `json:"used"`
	Unused   float64 `json:"unused"`
	Percent  float64 `json:"percent"`
}
