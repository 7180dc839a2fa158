package pipeline

import (
	"fmt"
	"math"

	"github.com/capplan/capplan/binpack/xselect"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/internal/plural"
	"github.com/capplan/capplan/plan"
)

// checkOwnershipDoc re-verifies an ownership PackingPlan against the
// X-Select problem rebuilt from the inputs and the bundle's catalog
// (newOwnershipInput, with the document's share source): every node is a
// node of the cluster and every container a catalog shape of a packed
// application with the shape's size; xselect.Check (capacity, eligibility,
// maxPerNode, colocation, exlocation, independent of the packer); the
// plan holds the required set ⌊λ·m_{a,k}⌋ of every application and shape;
// λ is at most the recomputed fluid upper bound, which the document
// reports; each owner's target share is the recomputed one and its packed
// count the plan's.
func checkOwnershipDoc(c *datasets.Cluster, d *datasets.Demand, cat *plan.ShapeCatalog, doc *plan.PackingPlan) (string, error) {
	if cat == nil {
		return "", fmt.Errorf("%s: the bundle has no shape catalog to rebuild the ownership problem from", PlanPackingFile)
	}
	inst, err := datasets.Coalesce(c, d)
	if err != nil {
		return "", err
	}
	oi, err := newOwnershipInput(c, d, inst, cat, doc.SharesFrom)
	if err != nil {
		return "", err
	}
	p := oi.Problem
	n := 0
	for _, node := range doc.Nodes {
		n += len(node.Containers)
	}
	what := fmt.Sprintf("%s on %s %s xselect.Check (capacity, eligibility, placement rules); the required set at λ = %.4g is packed and λ ≤ its upper bound",
		plural.Count(n, "container"), plural.Count(len(doc.Nodes), "node"), plural.Verb(n, "passes", "pass"), doc.Lambda)
	from, gone, err := oi.previousPlan(PlanPackingFile, doc)
	if err != nil {
		return what, err
	}
	if len(gone) > 0 {
		return what, fmt.Errorf("%s: node %s is not a node of the cluster", PlanPackingFile, gone[0])
	}
	shapeOf := map[string][]float64{}
	for k, name := range oi.ShapeNames {
		shapeOf[name] = p.Shapes[k]
	}
	for i, node := range doc.Nodes {
		for j, ct := range node.Containers {
			for r, dim := range oi.Resources {
				if ct.Size[dim] != shapeOf[ct.Shape][r] {
					return what, fmt.Errorf("%s: nodes[%d].containers[%d]: %s %v is not the %v of shape %s", PlanPackingFile, i, j, dim, ct.Size[dim], shapeOf[ct.Shape][r], ct.Shape)
				}
			}
		}
	}
	if err := xselect.Check(p, &xselect.Plan{Nodes: from}); err != nil {
		return what, fmt.Errorf("%s: %w", PlanPackingFile, err)
	}
	count := make([][]int, len(p.Apps))
	for a := range count {
		count[a] = make([]int, len(p.Shapes))
	}
	for _, cs := range from {
		for _, ct := range cs {
			count[ct.Owner][ct.Shape]++
		}
	}
	if len(doc.Owners) != len(p.Apps) {
		return what, fmt.Errorf("%s lists %d owners, the problem has %d", PlanPackingFile, len(doc.Owners), len(p.Apps))
	}
	for a, app := range p.Apps {
		ow := doc.Owners[a]
		packed := 0
		for k, m := range app.Mix {
			if need := xselect.Count(doc.Lambda, m); count[a][k] < need {
				return what, fmt.Errorf("%s: %s has %d containers of shape %s, λ = %v requires %d", PlanPackingFile, app.Name, count[a][k], oi.ShapeNames[k], doc.Lambda, need)
			}
			packed += count[a][k]
		}
		switch {
		case ow.Application != app.Name:
			return what, fmt.Errorf("%s: owners[%d] is %s, the problem's application %d is %s", PlanPackingFile, a, ow.Application, a, app.Name)
		case ow.Packed != packed:
			return what, fmt.Errorf("%s: owners[%d] (%s) reports %d containers packed, the nodes hold %d", PlanPackingFile, a, app.Name, ow.Packed, packed)
		case math.Abs(ow.TargetShare-app.Share) > 1e-9:
			return what, fmt.Errorf("%s: owners[%d] (%s) has target share %v, the recomputed share is %v", PlanPackingFile, a, app.Name, ow.TargetShare, app.Share)
		}
	}
	upper := xselect.LambdaUpper(p)
	if math.IsInf(upper, 1) {
		upper = 0 // the document writes an unbounded λ as 0 (JSON has no infinity)
	}
	if math.Abs(upper-doc.LambdaUpperBound) > 1e-9*math.Max(1, upper) {
		return what, fmt.Errorf("%s: lambdaUpperBound %v, the recomputed fluid bound is %v", PlanPackingFile, doc.LambdaUpperBound, upper)
	}
	if upper > 0 && doc.Lambda > upper*(1+1e-9) {
		return what, fmt.Errorf("%s: λ = %v exceeds its upper bound %v", PlanPackingFile, doc.Lambda, upper)
	}
	return what, nil
}
