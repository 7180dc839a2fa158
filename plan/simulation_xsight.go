package plan

// SimXSight holds X-Flex's X-Sight views of a run in container mode
// [SEED xflex §2.1; SIMULATE.md §4.2]: how every application's owned
// containers are used over time, the sharing imbalance of every pair of
// applications, and snapshots of the nodes' containers.
type SimXSight struct {
	Apps      []SimXApp      `json:"apps"`
	Pairs     []SimXPair     `json:"pairs"`
	Snapshots []SimXSnapshot `json:"snapshots"`
}

// SimXApp is view 1 for one application: per time bucket (starting at T,
// seconds), the mean charge of its own containers it uses (OwnUsed), of
// its own containers others use (Lent) and of others' containers it uses
// (Borrowed), each as a fraction of the charge of the containers it owns
// (OwnUsed + Lent ≤ 1; Borrowed may exceed it).
type SimXApp struct {
	App        string    `json:"app"`
	Containers int       `json:"containers"`
	Charge     float64   `json:"charge"`
	Step       float64   `json:"step"`
	T          []float64 `json:"t"`
	OwnUsed    []float64 `json:"ownUsed"`
	Lent       []float64 `json:"lent"`
	Borrowed   []float64 `json:"borrowed"`
}

// SimXPair is view 2 for applications A and B: the sharing imbalance
// S_AB(t) (normalised size × seconds; > 0 means A owes B) at every change
// of its slope, exact and linear in between; the bound Δ_AB; and the
// seconds spent beyond ±Δ.
type SimXPair struct {
	A      string    `json:"a"`
	B      string    `json:"b"`
	Bound  float64   `json:"bound"`
	T      []float64 `json:"t"`
	Share  []float64 `json:"share"`
	Beyond float64   `json:"beyond"`
}

// SimXSnapshot is view 3 at time T (seconds): every node's containers,
// their owners and who runs on them.
type SimXSnapshot struct {
	T     float64    `json:"t"`
	Nodes []SimXNode `json:"nodes"`
}

// SimXNode is one node of a snapshot, its containers in plan order.
type SimXNode struct {
	Name       string          `json:"name"`
	Containers []SimXContainer `json:"containers"`
}

// SimXContainer is one container of a snapshot: its owner, size and, when
// a task runs on it, the task's application (User) and job.
type SimXContainer struct {
	Owner string `json:"owner"`
	// Shape is the container's shape in the packing plan ("am" for an
	// application master's).
	Shape string             `json:"shape,omitempty"`
	Size  map[string]float64 `json:"size"`
	User  string             `json:"user,omitempty"`
	Job   string             `json:"job,omitempty"`
}

// SimOffline is what an offline packing plan (`capplan pack`) allocates of
// the simulated cluster, per resource: the level the simulated allocation
// over time is compared with (W-OPENB, SIMULATE.md §5).
type SimOffline struct {
	Plan      string             `json:"plan"`
	Mode      string             `json:"mode"`
	Allocated map[string]float64 `json:"allocated"`
}
