package plan

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/capplan/capplan/binpack"
	"github.com/capplan/capplan/binpack/xselect"
	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/flow"
)

// Where ownership shares come from (`capplan pack --shares`).
const (
	// SharesFair uses the exact CMMF fair shares (divisible, weighted,
	// placement-aware): each application's machines per machine type,
	// turned into normalised volume. Applications keep the share they can
	// reach under their constraints, so λ is not held down by an
	// application entitled to more than its eligible nodes hold.
	SharesFair = "fair"
	// SharesWeights normalises the demand weights.
	SharesWeights = "weights"
	// SharesForecast gives each application its share of the forecast
	// volume, so that λ = 1 is exactly the forecast.
	SharesForecast = "forecast"
)

// ShareSources lists the accepted --shares values.
var ShareSources = []string{SharesFair, SharesWeights, SharesForecast}

// ErrCatalog is wrapped by errors about a shape catalog that does not suit
// the cluster or is malformed.
var ErrCatalog = errors.New("plan: unusable shape catalog")

// OwnershipInput is the X-Select problem of a cluster, a demand and a shape
// catalog, with the names needed to write its plan.
//
// Containers are the catalog's shapes. Every request class of the demand is
// mapped to its cheapest dominating shape (catalog cost, then catalog
// order), as X-Size assigns them; n_{a,k} counts application a's requests
// mapped to shape k. Application a's mix per unit λ is
//
//	m_{a,k} = σ_a · V · n_{a,k} / V_a
//
// (ALGORITHMS §2.2: the shares fix the proportions between applications,
// the forecast those within one), where V_a = Σ_k n_{a,k}|c_k| is a's
// forecast volume, V = Σ_a V_a, and |c_k| = Σ_d c_{k,d}/T_d the shape's
// normalised volume (T_d the cluster's total capacity in dimension d). So λ
// = 1 packs as much volume as the whole forecast, split by the shares; with
// SharesForecast it is the forecast itself.
type OwnershipInput struct {
	Problem *xselect.Problem
	// Resources are the dimensions (the cluster's resources, in order).
	Resources []string
	// NodeNames, NodeGroups and ShapeNames name the Problem's nodes and
	// shapes; Apps describes each Problem.Apps entry.
	NodeNames  []string
	NodeGroups []string
	ShapeNames []string
	Apps       []OwnerInfo
	// SharesFrom is one of ShareSources.
	SharesFrom string
	// Uncovered lists request classes that no catalog shape holds.
	Uncovered []UnplacedContainer
	// Skipped lists demand applications left out, with the reason.
	Skipped []SkippedApplication
	// totals is T_d.
	totals []float64
}

// OwnerInfo describes one application of an ownership problem.
type OwnerInfo struct {
	Name string
	// Forecast counts the requests mapped to each shape (n_{a,k}).
	Forecast []int64
	// Volume is the forecast's normalised volume V_a.
	Volume float64
}

// SkippedApplication is a demand application an ownership plan leaves out.
type SkippedApplication struct {
	Application string `json:"application"`
	Reason      string `json:"reason"`
}

// CheckCatalogDocument validates a decoded ShapeCatalog for use as the
// shapes of an ownership packing: at least one shape, unique non-empty
// names, finite non-negative sizes in resources of the cluster.
func CheckCatalogDocument(name string, cat *ShapeCatalog, resources []string) error {
	if len(cat.Shapes) == 0 {
		return fmt.Errorf("%w: %s: shapes: the catalog has no shapes", ErrCatalog, name)
	}
	seen := map[string]int{}
	for i, s := range cat.Shapes {
		at := fmt.Sprintf("%s: shapes[%d]", name, i)
		if s.Name == "" {
			return fmt.Errorf("%w: %s.name: missing", ErrCatalog, at)
		}
		if j, dup := seen[s.Name]; dup {
			return fmt.Errorf("%w: %s.name: duplicate shape name %q (first used by shapes[%d])", ErrCatalog, at, s.Name, j)
		}
		seen[s.Name] = i
		if len(s.Size) == 0 {
			return fmt.Errorf("%w: %s.size: empty", ErrCatalog, at)
		}
		for r, v := range s.Size {
			if indexOf(resources, r) < 0 {
				return fmt.Errorf("%w: %s.size.%s: the cluster has no resource %q (resources: %s)", ErrCatalog, at, r, r, strings.Join(resources, ", "))
			}
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: %s.size.%s: must be a finite number ≥ 0, got %v", ErrCatalog, at, r, v)
			}
		}
		if math.IsNaN(s.Cost) || math.IsInf(s.Cost, 0) || s.Cost < 0 {
			return fmt.Errorf("%w: %s.cost: must be a finite number ≥ 0, got %v", ErrCatalog, at, s.Cost)
		}
	}
	return nil
}

// NewOwnershipInput builds the X-Select problem: one node per cluster node
// (in cluster order) with its eligibility from inst (a Coalesce of c and d),
// the catalog's shapes, and one application per demand application that
// has requests some shape holds, with its share (from shares, one of
// ShareSources), mix, maxPerNode, colocateWith and exlocateWith. The catalog
// must have passed CheckCatalogDocument.
func NewOwnershipInput(c *datasets.Cluster, d *datasets.Demand, inst *datasets.Instance, cat *ShapeCatalog, shares string) (*OwnershipInput, error) {
	if indexOf(ShareSources, shares) < 0 {
		return nil, fmt.Errorf("plan: unknown share source %q (want one of %s)", shares, strings.Join(ShareSources, ", "))
	}
	in := &OwnershipInput{Resources: c.Resources, SharesFrom: shares}
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
	vol := in.Volume

	// Shapes, in catalog order.
	shapeCost := make([]float64, len(cat.Shapes))
	shapeVol := make([]float64, len(cat.Shapes))
	for k, s := range cat.Shapes {
		size := make([]float64, nd)
		for r, v := range s.Size {
			size[indexOf(c.Resources, r)] = v
		}
		p.Shapes = append(p.Shapes, size)
		in.ShapeNames = append(in.ShapeNames, s.Name)
		shapeCost[k], shapeVol[k] = s.Cost, vol(size)
	}
	// Shapes by cost, for the cheapest dominating one.
	byCost := make([]int, len(p.Shapes))
	for k := range byCost {
		byCost[k] = k
	}
	sort.SliceStable(byCost, func(i, j int) bool { return shapeCost[byCost[i]] < shapeCost[byCost[j]] })

	// Applications: forecast per shape, eligibility.
	index := make([]int, len(d.Applications)) // demand app → problem app, -1 if skipped
	for a := range d.Applications {
		app := &d.Applications[a]
		index[a] = -1
		info := OwnerInfo{Name: app.Name, Forecast: make([]int64, len(p.Shapes))}
		any := false
		for _, rq := range app.Requests {
			need := make([]float64, nd)
			for r, q := range rq.Shape {
				i := indexOf(c.Resources, r)
				if i < 0 {
					return nil, fmt.Errorf("%s: application %s: request resource %q is not a resource of the cluster %s", d.Source, app.Name, r, c.Source)
				}
				need[i] = datasets.Base(q)
			}
			k := -1
			for _, j := range byCost {
				if binpack.Dominates(p.Shapes[j], need) {
					k = j
					break
				}
			}
			if k < 0 {
				j, short := binpack.Closest(p.Shapes, need)
				in.Uncovered = append(in.Uncovered, UnplacedContainer{
					Owner: app.Name, Count: rq.Count, Request: sizeMap(c.Resources, need),
					Reason: "no catalog shape holds the request: " + describeShortfall(c.Resources, short, "shape "+in.ShapeNames[j]),
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
			in.Skipped = append(in.Skipped, SkippedApplication{Application: app.Name, Reason: reason})
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
	case SharesForecast:
		for i, info := range in.Apps {
			raw[i] = info.Volume
		}
	case SharesWeights:
		for a, app := range d.Applications {
			if i := index[a]; i >= 0 {
				w, _ := app.Weight.Float64()
				raw[i] = w
			}
		}
	case SharesFair:
		fp := CMMFProblem(inst)
		res, err := flow.Solve(fp, false)
		if err != nil {
			return nil, fmt.Errorf("plan: fair shares: %w", err)
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
			return nil, fmt.Errorf("plan: application %s has a zero %s share", p.Apps[i].Name, shares)
		}
		s := raw[i] / sum
		p.Apps[i].Share = s
		p.Apps[i].Mix = make([]float64, len(p.Shapes))
		for k, n := range in.Apps[i].Forecast {
			if shares == SharesForecast {
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
	panic("plan: unknown application " + name + " (the demand loader checks names)")
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

// Volume returns the normalised volume Σ_d v_d/T_d of a size vector in the
// problem's dimensions.
func (in *OwnershipInput) Volume(v []float64) float64 {
	s := 0.0
	for i, x := range v {
		if in.totals[i] > 0 {
			s += x / in.totals[i]
		}
	}
	return s
}

// PreviousPlan maps a previous ownership PackingPlan onto this problem for
// incremental mode: the containers of each node, by node name. Nodes of the
// previous plan that the cluster no longer has are returned in gone (their
// containers are lost). A shape or owner the current catalog or demand does
// not know is an error naming the plan file: an incremental run cannot keep
// a container it cannot describe (run without --from instead).
func (in *OwnershipInput) PreviousPlan(name string, prev *PackingPlan) (from [][]xselect.Container, gone []string, err error) {
	if prev.Mode != "ownership" {
		return nil, nil, fmt.Errorf("%s: mode is %q: --from needs an ownership plan (capplan pack --shapes)", name, prev.Mode)
	}
	nodeIdx := make(map[string]int, len(in.NodeNames))
	for n, s := range in.NodeNames {
		nodeIdx[s] = n
	}
	shapeIdx := map[string]int{}
	for k, s := range in.ShapeNames {
		shapeIdx[s] = k
	}
	appIdx := map[string]int{}
	for a, info := range in.Apps {
		appIdx[info.Name] = a
	}
	from = make([][]xselect.Container, len(in.NodeNames))
	for i, node := range prev.Nodes {
		n, ok := nodeIdx[node.Name]
		if !ok {
			gone = append(gone, node.Name)
			continue
		}
		if from[n] != nil {
			return nil, nil, fmt.Errorf("%s: nodes[%d]: node %s appears twice", name, i, node.Name)
		}
		from[n] = make([]xselect.Container, 0, len(node.Containers))
		for j, c := range node.Containers {
			k, ok := shapeIdx[c.Shape]
			if !ok {
				return nil, nil, fmt.Errorf("%s: nodes[%d].containers[%d]: shape %q is not in the catalog", name, i, j, c.Shape)
			}
			a, ok := appIdx[c.Owner]
			if !ok {
				return nil, nil, fmt.Errorf("%s: nodes[%d].containers[%d]: owner %q is not an application with containers to pack", name, i, j, c.Owner)
			}
			from[n] = append(from[n], xselect.Container{Shape: k, Owner: a})
		}
	}
	for n := range from {
		if from[n] == nil {
			from[n] = []xselect.Container{}
		}
	}
	return from, gone, nil
}

// NewOwnershipPlan builds the ownership-mode PackingPlan of an X-Select
// plan: every node with containers (cluster order; containers by shape,
// then owner), λ and its bound, per owner the required, packed and
// charged size with target and achieved shares, the unplaced containers
// grouped by (shape, owner, reason) with the requests no shape holds, and
// the stranded capacity over the whole cluster. gone lists previous-plan
// nodes the cluster no longer has (incremental mode).
func NewOwnershipPlan(h Header, in *OwnershipInput, xp *xselect.Plan, incremental bool, gone []string) *PackingPlan {
	h.APIVersion, h.Kind = APIVersion, KindPackingPlan
	p := in.Problem
	nd := len(in.Resources)
	doc := &PackingPlan{
		Header:           h,
		Mode:             "ownership",
		Resources:        in.Resources,
		Method:           "x-select",
		Nodes:            []PackedNode{},
		Lambda:           xp.Lambda,
		LambdaUpperBound: xp.LambdaUpper,
		SharesFrom:       in.SharesFrom,
		Skipped:          in.Skipped,
		Incremental:      incremental,
		GoneNodes:        gone,
		Unplaced:         []UnplacedContainer{},
	}
	if math.IsInf(doc.LambdaUpperBound, 1) { // JSON has no infinity; cannot happen with a non-empty mix
		doc.LambdaUpperBound = 0
	}
	owners := make([]OwnerResult, len(p.Apps))
	for a, app := range p.Apps {
		o := &owners[a]
		o.Application, o.TargetShare, o.Size = app.Name, app.Share, map[string]float64{}
		for _, n := range in.Apps[a].Forecast {
			o.Forecast += n
		}
		r := xp.Apps[a]
		o.Required, o.Packed, o.Frozen, o.Surplus = r.Required, r.Packed, r.Frozen, r.Surplus
	}
	used := make([]float64, nd)
	capacity := make([]float64, nd)
	totalVol := 0.0
	for n, cs := range xp.Nodes {
		for i, v := range p.Nodes[n].Capacity {
			capacity[i] += v
		}
		if len(cs) == 0 {
			continue
		}
		cs = append([]xselect.Container(nil), cs...)
		sort.SliceStable(cs, func(i, j int) bool {
			if cs[i].Shape != cs[j].Shape {
				return cs[i].Shape < cs[j].Shape
			}
			return cs[i].Owner < cs[j].Owner
		})
		node := PackedNode{Name: in.NodeNames[n], Type: in.NodeGroups[n], Capacity: sizeMap(in.Resources, p.Nodes[n].Capacity),
			Containers: make([]PackedContainer, len(cs))}
		for i, c := range cs {
			size := p.Shapes[c.Shape]
			node.Containers[i] = PackedContainer{Shape: in.ShapeNames[c.Shape], Owner: p.Apps[c.Owner].Name, Size: sizeMap(in.Resources, size)}
			v := in.Volume(size)
			owners[c.Owner].ChargedSize += v
			totalVol += v
			for d, x := range size {
				used[d] += x
				if x != 0 {
					owners[c.Owner].Size[in.Resources[d]] += x
				}
			}
		}
		doc.Nodes = append(doc.Nodes, node)
	}
	doc.NodesUsed = len(doc.Nodes)
	for a := range owners {
		if totalVol > 0 {
			owners[a].AchievedShare = owners[a].ChargedSize / totalVol
		}
		owners[a].Deviation = owners[a].AchievedShare - owners[a].TargetShare
	}
	doc.Owners = owners
	for _, n := range xp.Changed {
		doc.Changed = append(doc.Changed, in.NodeNames[n])
	}
	doc.MutableLimit = xp.MutableLimit

	// Unplaced: group equal (shape, owner, reason), in first-seen order.
	group := map[[3]string]int{}
	for _, u := range xp.Unplaced {
		reason := u.Reason
		if u.Reason == xselect.ReasonNoEligibleNode {
			reason += ": " + in.largestEligibleShortfall(u.Owner, u.Shape)
		}
		key := [3]string{in.ShapeNames[u.Shape], p.Apps[u.Owner].Name, reason}
		if i, ok := group[key]; ok {
			doc.Unplaced[i].Count++
			continue
		}
		group[key] = len(doc.Unplaced)
		doc.Unplaced = append(doc.Unplaced, UnplacedContainer{Shape: key[0], Owner: key[1], Reason: key[2], Count: 1})
	}
	doc.Unplaced = append(doc.Unplaced, in.Uncovered...)

	for d, r := range in.Resources {
		s := Stranded{Resource: r, Capacity: capacity[d], Used: used[d], Unused: capacity[d] - used[d]}
		if capacity[d] > 0 {
			s.Percent = 100 * s.Unused / capacity[d]
		}
		doc.Stranded = append(doc.Stranded, s)
	}
	return doc
}

// largestEligibleShortfall describes why shape k fits no eligible node of
// application a: the shortfalls on the eligible node closest to holding it.
func (in *OwnershipInput) largestEligibleShortfall(a, k int) string {
	p := in.Problem
	nodes := p.Apps[a].Eligible
	if nodes == nil {
		nodes = make([]int, len(p.Nodes))
		for n := range nodes {
			nodes[n] = n
		}
	}
	if len(nodes) == 0 {
		return "the application may run on no node"
	}
	caps := make([][]float64, len(nodes))
	for i, n := range nodes {
		caps[i] = p.Nodes[n].Capacity
	}
	i, short := binpack.Closest(caps, p.Shapes[k])
	if len(short) == 0 { // fits when empty: the rules rule it out
		return "placement rules (maxPerNode, colocateWith, exlocateWith) rule out every node that could hold it"
	}
	return describeShortfall(in.Resources, short, "node "+in.NodeNames[nodes[i]])
}
