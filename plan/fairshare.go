package plan

// KindFairShare is the kind of a FairShare document.
const KindFairShare = "FairShare"

// FairShare is the document `capplan fairshare` writes: constrained max-min
// fair shares of machines, with the evidence that they are optimal.
type FairShare struct {
	Header
	// Method is "flow" or "lp".
	Method string `json:"method"`
	// Integral is true when machines were allocated whole.
	Integral bool `json:"integral"`
	// Resources is the cluster's dimension order.
	Resources []string `json:"resources"`
	// MachineTypes are the coalesced machine types, in a stable order.
	MachineTypes []MachineType `json:"machineTypes"`
	// Shares has one entry per application, in input order.
	Shares []Share `json:"shares"`
	// Certificate is the optimality evidence, checked before writing.
	Certificate Certificate `json:"certificate"`
	// Summary aggregates the result for reports.
	Summary Summary `json:"summary"`
	// Nodes is the node-by-node assignment (only with --per-node).
	Nodes []NodeAssignment `json:"nodes,omitempty"`
	// ForecastCap states the rule capping shares at the forecast, when
	// it was applied (absent with --no-forecast-cap).
	ForecastCap string `json:"forecastCap,omitempty"`
}

// MachineType is a class of identical nodes.
type MachineType struct {
	Name     string             `json:"name"`
	Count    int64              `json:"count"`
	Capacity map[string]float64 `json:"capacity"`
	Labels   map[string]string  `json:"labels,omitempty"`
	// Groups names the node groups (or kubectl nodes' groups) it came from.
	Groups []string `json:"groups"`
}

// Share is one application's fair share.
type Share struct {
	Application string `json:"application"`
	// Weight is the weight as given in the demand; levels are computed on
	// the exactly scaled integer weights, which preserve its ratios.
	Weight float64 `json:"weight"`
	// MaxMachines is the demand cap, absent when unbounded.
	MaxMachines *int64 `json:"maxMachines,omitempty"`
	// Machines is the allocated amount; MachinesExact the same as a
	// reduced fraction "p/q" (or an integer).
	Machines      float64 `json:"machines"`
	MachinesExact string  `json:"machinesExact"`
	// Level is Machines/Weight, the quantity max-min fairness equalises.
	Level      float64 `json:"level"`
	LevelExact string  `json:"levelExact"`
	// EligibleMachines counts the machines the application may use, and
	// Fraction = Machines / EligibleMachines.
	EligibleMachines int64   `json:"eligibleMachines"`
	Fraction         float64 `json:"fraction"`
	// Round is the progressive-filling round in which the application
	// saturated (1-based); DemandCapped marks saturation by its own cap.
	Round        int  `json:"round"`
	DemandCapped bool `json:"demandCapped"`
	// ByType gives the machines allocated per machine type name (omitting
	// zeros).
	ByType map[string]float64 `json:"byType"`
	// Independent is the share under the paper's independent-allocation
	// baseline (each machine split equally among the users that may use it),
	// for comparison.
	Independent float64 `json:"independent"`
	// Amounts is the share in each resource of the cluster: Σ over machine
	// types of its machines there × the type's capacity (base units:
	// cores, bytes, devices), omitting zeros.
	Amounts map[string]float64 `json:"amounts"`
	// Forecast is what the application's requests ask for in each resource
	// (Σ count × shape, base units); absent without requests.
	Forecast map[string]float64 `json:"forecast,omitempty"`
	// ForecastMachines is the most machines its forecast fills (the total
	// forecast cap) and ForecastByType the cap on each machine type it may
	// use; absent when the share is not capped at the forecast.
	ForecastMachines *int64           `json:"forecastMachines,omitempty"`
	ForecastByType   map[string]int64 `json:"forecastByType,omitempty"`
}

// Certificate is the optimality evidence of a FairShare.
//
// For divisible shares (Kind "tightSets") the Pieces are nested tight sets:
// levels strictly increase, each piece's applications use only machine types
// of pieces up to its own, and each piece's types are fully allocated to
// its own applications (or the piece is demand-capped). Together these
// prove leximin optimality. For integral shares (Kind "exchange") the
// Pieces still record the fractional structure, and Exchange states that no
// single-machine exchange along an alternating path, and no use of idle
// capacity, raises the sorted level vector.
type Certificate struct {
	Kind     string  `json:"kind"`
	Verified bool    `json:"verified"`
	Pieces   []Piece `json:"pieces"`
	// LPMaxRelDiff, for --method lp, is the largest relative difference
	// between the iterative LP's shares and the exact flow shares.
	LPMaxRelDiff *float64 `json:"lpMaxRelDiff,omitempty"`
}

// Piece is one tight set of the certificate.
type Piece struct {
	Round        int      `json:"round"`
	Level        float64  `json:"level"`
	LevelExact   string   `json:"levelExact"`
	Applications []string `json:"applications"`
	MachineTypes []string `json:"machineTypes"`
	// Machines is the capacity of MachineTypes; Allocated what the piece's
	// applications receive in total.
	Machines  int64   `json:"machines"`
	Allocated float64 `json:"allocated"`
	// DemandCapped marks a piece of applications stopped by their caps.
	DemandCapped bool `json:"demandCapped,omitempty"`
}

// Summary aggregates a FairShare for reports.
type Summary struct {
	Applications   int     `json:"applications"`
	MachineTypes   int     `json:"machineTypes"`
	Machines       int64   `json:"machines"`
	Allocated      float64 `json:"allocated"`
	Idle           float64 `json:"idle"`
	Rounds         int     `json:"rounds"`
	MinLevel       float64 `json:"minLevel"`
	IndependentMin float64 `json:"independentMinLevel"`
}

// NodeAssignment lists the applications running on one concrete node, with
// the fraction of the node each receives (1 for whole machines).
type NodeAssignment struct {
	Node  string      `json:"node"`
	Type  string      `json:"type"`
	Users []NodeShare `json:"applications"`
}

// NodeShare is one application's part of a node.
type NodeShare struct {
	Application string  `json:"application"`
	Fraction    float64 `json:"fraction"`
}
