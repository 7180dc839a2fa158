package pipeline

import (
	"fmt"
	"math/big"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/flow"
	"github.com/capplan/capplan/plan"
)

// newFairShare builds the FairShare document for an exact flow result,
// verifying its certificate (flow.Verify); a result that fails
// verification is an internal error and is returned as such. With perNode,
// machines are also assigned to concrete nodes.
func newFairShare(h plan.Header, d *datasets.Demand, inst *datasets.Instance, p *flow.Problem, res *flow.Result, method string, perNode bool) (*plan.FairShare, error) {
	if err := flow.Verify(p, res); err != nil {
		return nil, fmt.Errorf("internal error: result failed verification: %w", err)
	}
	h.APIVersion, h.Kind = plan.APIVersion, plan.KindFairShare
	doc := &plan.FairShare{
		Header:    h,
		Method:    method,
		Integral:  res.Integral,
		Resources: inst.Resources,
	}
	for _, mt := range inst.Types {
		capacity := map[string]float64{}
		for i, r := range inst.Resources {
			if v := datasets.Base(mt.Capacity[i]); v != 0 {
				capacity[r] = v
			}
		}
		doc.MachineTypes = append(doc.MachineTypes, plan.MachineType{
			Name: mt.Name, Count: mt.Count, Capacity: capacity, Labels: mt.Labels, Groups: mt.Groups,
		})
	}
	// Levels are reported per unit of the weights as written: the solver's
	// integer weights are the written ones times one common factor.
	scale := new(big.Rat).Quo(big.NewRat(inst.Applications[0].Weight, 1), d.Applications[0].Weight)
	indep := flow.Independent(p)
	var total int64
	for _, c := range p.Types {
		total += c
	}
	allocated := new(big.Rat)
	minLevel, indepMin := -1.0, -1.0
	for u, app := range inst.Applications {
		s := plan.Share{
			Application:      app.Name,
			Weight:           ratFloat(d.Applications[u].Weight),
			Machines:         res.Amount[u].Float64(),
			MachinesExact:    res.Amount[u].String(),
			Level:            ratFloat(scaleLevel(res.Level[u], scale)),
			LevelExact:       scaleLevel(res.Level[u], scale).RatString(),
			EligibleMachines: app.Machines,
			Round:            res.Round[u],
			DemandCapped:     res.Capped[u] || atTypeCaps(p.Users[u], res.Alloc[u]),
			ByType:           map[string]float64{},
			Independent:      indep[u],
		}
		if app.MaxMachines > 0 {
			m := app.MaxMachines
			s.MaxMachines = &m
		}
		if app.Machines > 0 {
			s.Fraction = s.Machines / float64(app.Machines)
			if minLevel < 0 || s.Level < minLevel {
				minLevel = s.Level
			}
			il := indep[u] / s.Weight
			if indepMin < 0 || il < indepMin {
				indepMin = il
			}
		}
		for k, t := range p.Users[u].Types {
			if a := res.Alloc[u][k]; a.Num != 0 {
				s.ByType[inst.Types[t].Name] = a.Float64()
			}
		}
		s.Amounts = shareAmounts(inst, p.Users[u].Types, res.Alloc[u])
		s.Forecast = forecastAmounts(inst.Resources, &d.Applications[u])
		if p.Users[u].TypeCaps != nil {
			caps, total, _ := forecastCaps(inst, &d.Applications[u], app.Types)
			s.ForecastMachines = &total
			s.ForecastByType = map[string]int64{}
			for k, t := range app.Types {
				s.ForecastByType[inst.Types[t].Name] = caps[k]
			}
			doc.ForecastCap = ForecastCapRule
		}
		allocated.Add(allocated, res.Amount[u].Big())
		doc.Shares = append(doc.Shares, s)
	}
	alloc, _ := allocated.Float64()
	doc.Summary = plan.Summary{
		Applications:   len(inst.Applications),
		MachineTypes:   len(inst.Types),
		Machines:       total,
		Allocated:      alloc,
		Idle:           float64(total) - alloc,
		Rounds:         res.Rounds,
		MinLevel:       max(minLevel, 0),
		IndependentMin: max(indepMin, 0),
	}
	doc.Certificate = certificate(inst, p, res, scale)
	if perNode {
		doc.Nodes = assignNodes(inst, p, res)
	}
	return doc, nil
}

// atTypeCaps reports whether a user with type caps holds its cap on every
// type it may use: stopped by its own (forecast) caps.
func atTypeCaps(user flow.User, alloc []flow.Rat) bool {
	if user.TypeCaps == nil || len(user.Types) == 0 {
		return false
	}
	for k, c := range user.TypeCaps {
		if c == flow.Unbounded || alloc[k].Cmp(flow.Int(c)) < 0 {
			return false
		}
	}
	return true
}

// ForecastCapRule states, in FairShare documents, how shares are capped at
// the forecast (forecastCaps).
const ForecastCapRule = "each application with requests is capped at its forecast: on a machine type, at the machines of that type " +
	"its requests that fit there need (each request class packed alone: ⌈count / requests per machine⌉); in all, at the machines " +
	"its forecast needs with each request class on the type that needs most machines for it (and at maxMachines); " +
	"what it leaves goes to the others by the same max-min fairness"

// shareAmounts returns an allocation in each resource: Σ_k alloc[k] ×
// capacity of type types[k], exact until the final float (base units),
// omitting zeros.
func shareAmounts(inst *datasets.Instance, types []int, alloc []flow.Rat) map[string]float64 {
	out := map[string]float64{}
	for r, name := range inst.Resources {
		sum := new(big.Rat)
		for k, t := range types {
			milli, _ := datasets.Milli(inst.Types[t].Capacity[r])
			sum.Add(sum, new(big.Rat).Mul(alloc[k].Big(), big.NewRat(milli, 1000)))
		}
		if sum.Sign() != 0 {
			out[name] = ratFloat(sum)
		}
	}
	return out
}

// forecastAmounts returns what an application's requests ask for in each
// resource (Σ count × shape, base units), or nil without requests.
func forecastAmounts(resources []string, app *datasets.Application) map[string]float64 {
	if len(app.Requests) == 0 {
		return nil
	}
	out := map[string]float64{}
	for _, name := range resources {
		sum := new(big.Rat)
		for _, rq := range app.Requests {
			if q, ok := rq.Shape[name]; ok {
				milli, _ := datasets.Milli(q)
				sum.Add(sum, new(big.Rat).Mul(big.NewRat(rq.Count, 1), big.NewRat(milli, 1000)))
			}
		}
		if sum.Sign() != 0 {
			out[name] = ratFloat(sum)
		}
	}
	return out
}

func certificate(inst *datasets.Instance, p *flow.Problem, res *flow.Result, scale *big.Rat) plan.Certificate {
	c := plan.Certificate{Kind: "tightSets", Verified: true}
	if res.Integral {
		c.Kind = "exchange"
	}
	for _, pc := range res.Pieces {
		// A piece that exhausts no machine type holds users stopped by
		// their forecast caps on every type they may use (flow: blocked by
		// their type caps): it is capped like a demand-capped piece.
		capped := pc.Capped || len(pc.Types) == 0
		piece := plan.Piece{
			Round:        pc.Round,
			Level:        ratFloat(scaleLevel(pc.Level, scale)),
			LevelExact:   scaleLevel(pc.Level, scale).RatString(),
			DemandCapped: capped,
		}
		// Allocated: for a tight piece, everything allocated on its types
		// (equal to Machines: that is the certificate's claim); for a
		// capped piece, its users' amounts.
		alloc := new(big.Rat)
		for _, u := range pc.Users {
			piece.Applications = append(piece.Applications, inst.Applications[u].Name)
			if capped {
				alloc.Add(alloc, res.Amount[u].Big())
			}
		}
		inPiece := map[int]bool{}
		for _, t := range pc.Types {
			piece.MachineTypes = append(piece.MachineTypes, inst.Types[t].Name)
			piece.Machines += inst.Types[t].Count
			inPiece[t] = true
		}
		var onTypes float64
		for u := range res.Alloc {
			for k, t := range p.Users[u].Types {
				if inPiece[t] {
					onTypes += res.Alloc[u][k].Float64()
				}
			}
		}
		if !capped {
			alloc.SetFloat64(onTypes)
		}
		piece.Allocated, _ = alloc.Float64()
		c.Pieces = append(c.Pieces, piece)
	}
	return c
}

// assignNodes lays each type's per-application amounts onto its concrete
// nodes in order (north-west corner rule, exact): a node is shared only
// where a fractional amount crosses a node boundary, so with whole
// machines every node has at most one application.
func assignNodes(inst *datasets.Instance, p *flow.Problem, res *flow.Result) []plan.NodeAssignment {
	type part struct {
		user   int
		amount *big.Rat
	}
	perType := make([][]part, len(inst.Types))
	for u := range p.Users {
		for k, t := range p.Users[u].Types {
			if a := res.Alloc[u][k]; a.Num != 0 {
				perType[t] = append(perType[t], part{u, a.Big()})
			}
		}
	}
	var out []plan.NodeAssignment
	one := big.NewRat(1, 1)
	for t, mt := range inst.Types {
		parts := perType[t]
		i := 0
		for _, node := range mt.Nodes {
			na := plan.NodeAssignment{Node: node, Type: mt.Name, Users: []plan.NodeShare{}}
			room := new(big.Rat).Set(one)
			for room.Sign() > 0 && i < len(parts) {
				take := parts[i].amount
				if take.Cmp(room) > 0 {
					take = room
				}
				f, _ := take.Float64()
				na.Users = append(na.Users, plan.NodeShare{Application: inst.Applications[parts[i].user].Name, Fraction: f})
				parts[i].amount = new(big.Rat).Sub(parts[i].amount, take)
				room = new(big.Rat).Sub(room, take)
				if parts[i].amount.Sign() == 0 {
					i++
				}
			}
			out = append(out, na)
		}
	}
	return out
}

func ratFloat(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

// scaleLevel converts a level per integer weight unit into a level per
// written weight unit.
func scaleLevel(l flow.Rat, scale *big.Rat) *big.Rat {
	return new(big.Rat).Mul(l.Big(), scale)
}
