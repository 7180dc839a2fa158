package pipeline

import (
	"fmt"
	"math"
	"slices"

	"github.com/capplan/capplan/binpack/xsize"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// checkShapesDoc re-verifies a ShapeCatalog against the X-Size problem
// rebuilt from the inputs (K, cost function and weighting from the
// document): the catalog's shapes, read back into the problem's exact
// integer units, pass checkCatalog (at most K shapes, each fits a node
// type, every request fits its shape, which fits a node type its
// application may use); every assignment is the request's cheapest
// covering shape (dominating, on a usable node type) and the cost is
// Σ weight × cost(shape)
// (xsize.Evaluate, to a relative 1e-9); the lower bound is at most the
// cost.
func checkShapesDoc(c *datasets.Cluster, d *datasets.Demand, doc *plan.ShapeCatalog) (string, error) {
	cost, err := xsize.ParseCost(doc.CostFunction)
	if err != nil {
		return "", fmt.Errorf("%s: costFunction: %w", PlanShapesFile, err)
	}
	si, err := newShapeInput(c, d, doc.K, cost, doc.WeightBy == "duration")
	if err != nil {
		return "", err
	}
	p := si.Problem
	what := fmt.Sprintf("%s %s %s and each fits a node type; assignments and cost re-evaluated",
		plural.Count(len(doc.Shapes), "shape"), plural.Verb(len(doc.Shapes), "holds its", "hold their"), plural.Count(len(p.Requests), "request class"))
	if !slices.Equal(doc.Resources, p.Dims) {
		return what, fmt.Errorf("%s: resources %v, the inputs give %v", PlanShapesFile, doc.Resources, p.Dims)
	}
	sol := &xsize.Solution{}
	index := map[string]int{}
	for s, sh := range doc.Shapes {
		vec, err := si.exactVector(sh.Size)
		if err != nil {
			return what, fmt.Errorf("%s: shapes[%d] (%s): %w", PlanShapesFile, s, sh.Name, err)
		}
		sol.Shapes = append(sol.Shapes, vec)
		index[sh.Name] = s
	}
	if len(doc.Assignments) != len(p.Requests) {
		return what, fmt.Errorf("%s assigns %d request classes, the demand has %d", PlanShapesFile, len(doc.Assignments), len(p.Requests))
	}
	for r, a := range doc.Assignments {
		field := fmt.Sprintf("%s: assignments[%d] (%s)", PlanShapesFile, r, a.Application)
		k, ok := index[a.Shape]
		if !ok {
			return what, fmt.Errorf("%s: shape %q is not in the catalog", field, a.Shape)
		}
		req, err := si.exactVector(a.Request)
		cl := si.Classes[r]
		if err != nil || !slices.Equal(req, p.Requests[r].Size) || a.Application != cl.Application || a.Count != cl.Count {
			return what, fmt.Errorf("%s: the request is not the demand's request class %d (%s × %d)", field, r, cl.Application, cl.Count)
		}
		sol.Assign = append(sol.Assign, k)
	}
	if err := checkCatalog(p, sol); err != nil {
		return what, fmt.Errorf("%s: %w", PlanShapesFile, err)
	}
	assign, total, err := xsize.Evaluate(p, sol.Shapes)
	if err != nil {
		return what, fmt.Errorf("%s: %w", PlanShapesFile, err)
	}
	for r := range assign {
		if assign[r] != sol.Assign[r] && shapeCost(p, sol.Shapes[assign[r]]) < shapeCost(p, sol.Shapes[sol.Assign[r]]) {
			return what, fmt.Errorf("%s: assignments[%d] uses %s, but %s also holds the request and costs less", PlanShapesFile, r, doc.Shapes[sol.Assign[r]].Name, doc.Shapes[assign[r]].Name)
		}
	}
	if math.Abs(total-doc.Cost) > 1e-9*math.Max(1, total) {
		return what, fmt.Errorf("%s: cost %v, the shapes' re-evaluated cost is %v", PlanShapesFile, doc.Cost, total)
	}
	if doc.LowerBound > doc.Cost*(1+1e-9) {
		return what, fmt.Errorf("%s: lowerBound %v exceeds the cost %v", PlanShapesFile, doc.LowerBound, doc.Cost)
	}
	return what, nil
}

// exactVector reads a document's size (base units, by resource) back into
// the problem's exact integer units: every value must be a whole number
// of units (to a relative 1e-9 of float rounding) and name a dimension.
func (si *shapeInput) exactVector(size map[string]float64) ([]float64, error) {
	dims := si.Problem.Dims
	vec := make([]float64, len(dims))
	for r, v := range size {
		j := slices.Index(dims, r)
		if j < 0 {
			return nil, fmt.Errorf("resource %q is not a dimension of the problem %v", r, dims)
		}
		x := v * si.Units[j]
		w := math.Round(x)
		if math.IsNaN(x) || w < 0 || math.Abs(x-w) > 1e-9*math.Max(1, w) {
			return nil, fmt.Errorf("%s %v is not a whole number of units of %v", r, v, 1/si.Units[j])
		}
		vec[j] = w
	}
	return vec, nil
}
