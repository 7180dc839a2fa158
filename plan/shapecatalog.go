package plan

// KindShapeCatalog is the kind of a ShapeCatalog document.
const KindShapeCatalog = "ShapeCatalog"

// ShapeCatalog is the document `capplan shapes` writes: K container shapes
// that every forecast request fits, chosen to minimise the resources the
// requests occupy in their best-fitting shapes (X-Flex's X-Size), with the
// quality evidence: the cost, the best lower bound known and their ratio,
// and the ε of the approximation.
type ShapeCatalog struct {
	Header
	// Resources are the catalog's dimensions, in order.
	Resources []string `json:"resources"`
	// Scale is the cluster's aggregate capacity per dimension: costs are
	// in units of it (a request's cost is the sum over dimensions of its
	// shape's share of the cluster).
	Scale map[string]float64 `json:"scale"`
	// K is the number of shapes asked for; Method the algorithm used
	// (ptas, exact, local, maxdp) and CostFunction "sum" or "max".
	K            int    `json:"k"`
	Method       string `json:"method"`
	CostFunction string `json:"costFunction"`
	// WeightBy is "count" or "duration" (count × mean duration).
	WeightBy string `json:"weightBy"`
	// Shapes are the catalog, cheapest first.
	Shapes []Shape `json:"shapes"`
	// Assignments map every request class to its cheapest dominating shape.
	Assignments []Assignment `json:"assignments"`
	// Cost is Σ weight × cost(shape) over the requests; LowerBound the best
	// lower bound on the optimum known; Ratio = Cost/LowerBound.
	Cost       float64 `json:"cost"`
	LowerBound float64 `json:"lowerBound"`
	Ratio      float64 `json:"ratio"`
	// Epsilon is the ε of the PTAS step that produced the catalog (0 for
	// exact methods); Optimal is true when the catalog is proven optimal.
	Epsilon float64 `json:"epsilon"`
	Optimal bool    `json:"optimal"`
	// Rounding is the granularity shapes were rounded up to, per dimension.
	Rounding map[string]float64 `json:"rounding,omitempty"`
	// Waste totals allocated minus requested per dimension, over all
	// requests (weighted by count).
	Waste []Waste `json:"waste"`
	// Steps is the PTAS outer-loop history.
	Steps []ShapeStep `json:"steps,omitempty"`
	// Search records the work budget and time limit of ptas and local.
	Search *Search `json:"search,omitempty"`
}

// Shape is one container shape of a catalog.
type Shape struct {
	Name string             `json:"name"`
	Size map[string]float64 `json:"size"`
	// Cost is the shape's normalised size (sum or max of its shares of the
	// cluster).
	Cost float64 `json:"cost"`
	// Requests counts the requests assigned to it; Classes the request
	// classes.
	Requests float64 `json:"requests"`
	Classes  int     `json:"classes"`
	// Fits names the machine types (node groups) the shape fits in.
	Fits []string `json:"fits"`
	// Waste is allocated minus requested per dimension for this shape's
	// requests.
	Waste []Waste `json:"waste"`
}

// Assignment maps one request class to its shape.
type Assignment struct {
	Application string             `json:"application"`
	Request     map[string]float64 `json:"request"`
	Count       int64              `json:"count"`
	Duration    float64            `json:"duration,omitempty"`
	Shape       string             `json:"shape"`
}

// Waste is allocated minus requested in one dimension: absolute (base
// units) and as a percentage of what was requested.
type Waste struct {
	Resource  string  `json:"resource"`
	Requested float64 `json:"requested"`
	Allocated float64 `json:"allocated"`
	Wasted    float64 `json:"wasted"`
	Percent   float64 `json:"percent"`
}

// ShapeStep is one step of the PTAS's decreasing-ε loop. Timings are not
// recorded (documents are byte-identical across runs); --stats prints them.
type ShapeStep struct {
	Epsilon float64 `json:"epsilon"`
	Rays    int     `json:"rays"`
	States  int64   `json:"states"`
	Cost    float64 `json:"cost"`
	Outcome string  `json:"outcome"`
}
