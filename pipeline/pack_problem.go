package pipeline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/capplan/capplan/binpack"
	"github.com/capplan/capplan/binpack/xselect"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/flow"
	"github.com/capplan/capplan/plan"
)

// ownershipInput is the X-Select problem of a cluster, a demand and a shape
// catalog, with the names needed to write its plan.
//
// Containers are the catalog's shapes. Every request class of the demand is
// mapped to its cheapest dominating shape that fits a machine type its
// application may use (catalog cost, then catalog order), as X-Size
// assigns them; n_{a,k} counts application a's requests mapped to shape k. Application a's mix per unit λ is
//
//	m_{a,k} = σ_a · V · n_{a,k} / V_a
//
// (ALGORITHMS §2.2: the shares fix the proportions between applications,
// the forecast those within one), where V_a = Σ_k n_{a,k}|c_k| is a's
// forecast volume, V = Σ_a V_a, and |c_k| = Σ_d c_{k,d}/T_d the shape's
// normalised volume (T_d the cluster's total capacity in dimension d). So λ
// = 1 packs as much volume as the whole forecast, split by the shares; with
// SharesForecast it is the forecast itself.
type ownershipInput struct {
	Problem *xselect.Problem
	// Resources are the dimensions (the cluster's resources, in order).
	Resources []string
	// NodeNames, NodeGroups and ShapeNames name the Problem's nodes and
	// shapes; Apps describes each Problem.Apps entry.
	NodeNames  []string
	NodeGroups []string
	ShapeNames []string
	Apps       []ownerInfo
	// SharesFrom is one of plan.ShareSources.
	SharesFrom string
	// Uncovered lists request classes that no catalog shape holds.
	Uncovered []plan.UnplacedContainer
	// Skipped lists demand applications left out, with the reason.
	Skipped []plan.SkippedApplication
	// totals is T_d.
	totals []float64
}

// ownerInfo describes one application of an ownership problem.
type ownerInfo struct {
	Name string
	// Forecast counts the requests mapped to each shape (n_{a,k}).
	Forecast []int64
	// Volume is the forecast's normalised volume V_a.
	Volume float64
}

// newOwnershipInput builds the X-Select problem: one node per cluster node
// (in cluster order) with its eligibility from inst (a Coalesce of c and d),
// the catalog's shapes, and one application per demand application that
// has requests some shape holds, with its share (from shares, one of
// plan.ShareSources), mix, maxPerNode, colocateWith and exlocateWith. The catalog
// must have passed plan.CheckCatalogDocument.
func newOwnershipInput(c *datasets.Cluster, d *datasets.Demand, inst *datasets.Instance, cat *plan.ShapeCatalog, shares string) (*ownershipInput, error) {
	if !slices.Contains(plan.ShareSources, shares) {
		return nil, fmt.Errorf("pipeline: unknown share source %q (want one of %s)", shares, strings.Join(plan.ShareSources, ", "))
	}
	in := &ownershipInput{Resources: c.Resources, SharesFrom: shares}
	nd := len(c.Resources)
	p := &xselect.Problem{Dims: c.Resources}

	// Nodes, their machine types and the totals T_d.
	typeOf := map[string]int{}
	for t, mt := range inst.Types {
		for _, n := range mt.Nodes {
			typeOf[n] = t
		}
	}
	in.totals = make([]float64, nd)
	nodeType := make([]int, 0, c.NumNodes())
	for _, n := range c.Nodes() {
		capacity := make([]float64, nd)
		for i, q := range n.Capacity {
			capacity[i] = datasets.Base(q)
			in.totals[i] += capacity[i]
		}
		p.Nodes = append(p.Nodes, xselect.Node{Name: n.Name, Capacity: capacity})
		in.NodeNames = append(in.NodeNames, n.Name)
		in.NodeGroups = append(in.NodeGroups, n.Group)
		nodeType = append(nodeType, typeOf[n.Name])
	}
	vol := in.volume

	// Machine type capacities, for which shapes each application may use.
	typeCapacity := make([][]float64, len(inst.Types))
	for t, mt := range inst.Types {
		typeCapacity[t] = make([]float64, nd)
		for i, q := range mt.Capacity {
			typeCapacity[t][i] = datasets.Base(q)
		}
	}

	// Shapes, in catalog order.
	shapeCost := make([]float64, len(cat.Shapes))
	shapeVol := make([]float64, len(cat.Shapes))
	for k, s := range cat.Shapes {
		size := make([]float64, nd)
		for r, v := range s.Size {
			size[slices.Index(c.Resources, r)] = v
		}
		p.Shapes = append(p.Shapes, size)
		in.ShapeNames = append(in.ShapeNames, s.Name)
		shapeCost[k], shapeVol[k] = s.Cost, vol(size)
	}
	// Applications: forecast per shape, eligibility.
	index := make([]int, len(d.Applications)) // demand app → problem app, -1 if skipped
	for a := range d.Applications {
		app := &d.Applications[a]
		index[a] = -1
		info := ownerInfo{Name: app.Name, Forecast: make([]int64, len(p.Shapes))}
		any := false
		// usable[k]: shape k fits a machine type the application may use.
		usable := make([]bool, len(p.Shapes))
		for k, size := range p.Shapes {
			for _, t := range inst.Applications[a].Types {
				usable[k] = usable[k] || binpack.Dominates(typeCapacity[t], size)
			}
		}
		for _, rq := range app.Requests {
			need := make([]float64, nd)
			for r, q := range rq.Shape {
				i := slices.Index(c.Resources, r)
				if i < 0 {
					return nil, fmt.Errorf("%s: application %s: request resource %q is not a resource of the cluster %s", d.Source, app.Name, r, c.Source)
				}
				need[i] = datasets.Base(q)
			}
			k := binpack.CheapestAllowed(need, p.Shapes, shapeCost, func(k int) bool { return usable[k] })
			if k < 0 {
				reason := "no catalog shape that fits a machine type it may use holds the request"
				if j := binpack.Cheapest(need, p.Shapes, shapeCost); j >= 0 {
					reason += fmt.Sprintf(" (shape %s does, but fits none of its machine types)", in.ShapeNames[j])
				} else {
					j, short := binpack.Closest(p.Shapes, need)
					reason = "no catalog shape holds the request: " + describeShortfall(c.Resources, short, "shape "+in.ShapeNames[j])
				}
				in.Uncovered = append(in.Uncovered, plan.UnplacedContainer{
					Owner: app.Name, Count: rq.Count, Request: sizeMap(c.Resources, need), Reason: reason,
				})
				continue
			}
			info.Forecast[k] += rq.Count
			any = true
		}
		if !any {
			reason := "no requests"
			if len(app.Requests) > 0 {
				reason = "no catalog shape holds any of its requests"
			}
			in.Skipped = append(in.Skipped, plan.SkippedApplication{Application: app.Name, Reason: reason})
			continue
		}
		for k, n := range info.Forecast {
			info.Volume += float64(n) * shapeVol[k]
		}
		var eligible []int
		if len(inst.Applications[a].Types) < len(inst.Types) {
			ok := make([]bool, len(inst.Types))
			for _, t := range inst.Applications[a].Types {
				ok[t] = true
			}
			eligible = []int{}
			for n, t := range nodeType {
				if ok[t] {
					eligible = append(eligible, n)
				}
			}
		}
		index[a] = len(p.Apps)
		p.Apps = append(p.Apps, xselect.App{Name: app.Name, Eligible: eligible, MaxPerNode: int(app.MaxPerNode)})
		in.Apps = append(in.Apps, info)
	}
	if len(p.Apps) == 0 {
		return nil, fmt.Errorf("%s: no application has requests that a shape of the catalog holds", d.Source)
	}

	// Shares σ_a (normalised over the applications packed) and mixes.
	raw := make([]float64, len(p.Apps))
	switch shares {
	case plan.SharesForecast:
		for i, info := range in.Apps {
			raw[i] = info.Volume
		}
	case plan.SharesWeights:
		for a, app := range d.Applications {
			if i := index[a]; i >= 0 {
				w, _ := app.Weight.Float64()
				raw[i] = w
			}
		}
	case plan.SharesFair:
		fp := CMMFProblem(inst, d)
		res, err := flow.Solve(fp, false)
		if err != nil {
			return nil, fmt.Errorf("pipeline: fair shares: %w", err)
		}
		typeVol := make([]float64, len(inst.Types))
		for t, mt := range inst.Types {
			v := make([]float64, nd)
			for i, q := range mt.Capacity {
				v[i] = datasets.Base(q)
			}
			typeVol[t] = vol(v)
		}
		for a := range d.Applications {
			i := index[a]
			if i < 0 {
				continue
			}
			for j, t := range fp.Users[a].Types {
				raw[i] += res.Alloc[a][j].Float64() * typeVol[t]
			}
		}
	}
	sum := 0.0
	for _, r := range raw {
		sum += r
	}
	total := 0.0
	for _, info := range in.Apps {
		total += info.Volume
	}
	for i := range p.Apps {
		if raw[i] <= 0 {
			return nil, fmt.Errorf("pipeline: application %s has a zero %s share", p.Apps[i].Name, shares)
		}
		s := raw[i] / sum
		p.Apps[i].Share = s
		p.Apps[i].Mix = make([]float64, len(p.Shapes))
		for k, n := range in.Apps[i].Forecast {
			if shares == plan.SharesForecast {
				p.Apps[i].Mix[k] = float64(n)
			} else {
				p.Apps[i].Mix[k] = s * total * float64(n) / in.Apps[i].Volume
			}
		}
	}
	// Shares must not sum above 1 by rounding.
	if s := sumShares(p.Apps); s > 1 {
		for i := range p.Apps {
			p.Apps[i].Share /= s
		}
	}

	// Placement rules between packed applications.
	for a, app := range d.Applications {
		i := index[a]
		if i < 0 {
			continue
		}
		for _, other := range app.ColocateWith {
			j := index[indexOfApp(d, other)]
			if j < 0 {
				return nil, fmt.Errorf("%s: application %s must be colocated with %s, which has no containers to pack", d.Source, app.Name, other)
			}
			p.Colocate = append(p.Colocate, [2]int{i, j})
		}
		for _, other := range app.ExlocateWith {
			if j := index[indexOfApp(d, other)]; j >= 0 {
				p.Exlocate = append(p.Exlocate, [2]int{i, j})
			}
		}
	}
	in.Problem = p
	return in, nil
}

func sumShares(apps []xselect.App) float64 {
	s := 0.0
	for _, a := range apps {
		s += a.Share
	}
	return s
}

func indexOfApp(d *datasets.Demand, name string) int {
	for a := range d.Applications {
		if d.Applications[a].Name == name {
			return a
		}
	}
	panic("pipeline: unknown application " + name + " (the demand loader checks names)")
}

// sizeMap returns v as a map from resource name, leaving out zeros.
func sizeMap(dims []string, v []float64) map[string]float64 {
	m := make(map[string]float64, len(dims))
	for i, x := range v {
		if x != 0 {
			m[dims[i]] = x
		}
	}
	return m
}

// describeShortfall says which dimensions fall short on what: "cpu: needs
// 64, node gpu-0 has 48; memory: ...".
func describeShortfall(dims []string, short []binpack.Shortfall, what string) string {
	parts := make([]string, len(short))
	for i, s := range short {
		parts[i] = fmt.Sprintf("%s needs %s, %s has %s", dims[s.Dim], formatAmount(dims[s.Dim], s.Need), what, formatAmount(dims[s.Dim], s.Have))
	}
	return strings.Join(parts, "; ")
}

// formatAmount prints an amount in base units, with binary suffixes for
// memory-like resources.
func formatAmount(dim string, v float64) string {
	if strings.Contains(strings.ToLower(dim), "mem") && v >= 1<<20 {
		for _, u := range []struct {
			s string
			f float64
		}{{"Ti", 1 << 40}, {"Gi", 1 << 30}, {"Mi", 1 << 20}} {
			if v >= u.f {
				return fmt.Sprintf("%.4g%s", v/u.f, u.s)
			}
		}
	}
	return fmt.Sprintf("%.6g", v)
}

// volume returns the normalised volume Σ_d v_d/T_d of a size vector in the
// problem's dimensions.
func (in *ownershipInput) volume(v []float64) float64 {
	s := 0.0
	for i, x := range v {
		if in.totals[i] > 0 {
			s += x / in.totals[i]
		}
	}
	return s
}
