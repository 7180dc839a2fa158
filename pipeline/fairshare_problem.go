package pipeline

import (
	"math"

	"github.com/capplan/capplan/datasets"
	"github.com/capplan/capplan/flow"
)

// CMMFProblem turns a coalesced instance into a flow.Problem: one type per
// machine type, one user per application (in the same orders), each with
// its maxMachines as demand. With d (the demand inst was coalesced from),
// every application with requests is also capped at its forecast
// (forecastCaps).
func CMMFProblem(inst *datasets.Instance, d *datasets.Demand) *flow.Problem {
	p := &flow.Problem{
		Types: make([]int64, len(inst.Types)),
		Users: make([]flow.User, len(inst.Applications)),
	}
	for t, mt := range inst.Types {
		p.Types[t] = mt.Count
	}
	for u, app := range inst.Applications {
		demand := flow.Unbounded
		if app.MaxMachines > 0 {
			demand = app.MaxMachines
		}
		user := flow.User{Weight: app.Weight, Demand: demand, Types: app.Types}
		if d != nil {
			if caps, total, ok := forecastCaps(inst, &d.Applications[u], app.Types); ok {
				user.TypeCaps = caps
				if demand == flow.Unbounded || total < demand {
					user.Demand = total
				}
			}
		}
		p.Users[u] = user
	}
	return p
}

// forecastCaps turns application app's forecast (its request classes k,
// n_k requests of shape s_k) into machine caps, exactly in milli-units:
//
//   - on a machine type t of capacity C_t, one machine holds m_{k,t} =
//     min_r ⌊C_{t,r} / s_{k,r}⌋ requests of class k (over the resources the
//     shape names), so its requests that fit t need c_{a,t} = Σ_{k: m_{k,t}
//     ≥ 1} ⌈n_k / m_{k,t}⌉ machines of t, each class packed alone: the cap
//     on type t. A machine of t beyond it would hold none of the forecast
//     even if the whole forecast ran on t;
//   - in all, the forecast needs at most Σ_k max_{t ∈ types, m_{k,t} ≥ 1}
//     ⌈n_k / m_{k,t}⌉ machines, each class on the type that needs most
//     machines for it: the total cap (the application's demand, or less
//     when maxMachines is lower).
//
// So an application never receives more machines of a type than its
// forecast fills there, nor more machines than its forecast fills on the
// machines it may use; what it leaves goes to the others by the same
// max-min fairness (the caps are arcs of the flow network, so the shares
// stay exact and flow.Verify still certifies them). ok is false for an
// application without requests, which is not capped. Sums saturate at
// maxForecastMachines.
func forecastCaps(inst *datasets.Instance, app *datasets.Application, types []int) (caps []int64, total int64, ok bool) {
	if len(app.Requests) == 0 {
		return nil, 0, false
	}
	res := make(map[string]int, len(inst.Resources))
	for i, r := range inst.Resources {
		res[r] = i
	}
	caps = make([]int64, len(types))
	for _, rq := range app.Requests {
		worst := int64(0)
		for k, t := range types {
			per := perMachine(inst.Types[t].Capacity, rq, res)
			if per == 0 {
				continue
			}
			need := ceilDiv(rq.Count, per)
			caps[k] = satAdd(caps[k], need)
			worst = max(worst, need)
		}
		total = satAdd(total, worst)
	}
	return caps, total, true
}

// maxForecastMachines bounds forecast sums: far above any cluster
// (datasets.MaxNodes), far below int64 overflow.
const maxForecastMachines = math.MaxInt64 / 4

func satAdd(a, b int64) int64 { return min(a+b, maxForecastMachines) }

func ceilDiv(a, b int64) int64 { return a/b + min(a%b, 1) }

// perMachine returns how many requests of rq one machine of the given
// capacity holds, compared exactly in milli-units (0 when it holds none).
func perMachine(capacity datasets.Vector, rq datasets.Request, res map[string]int) int64 {
	per := int64(math.MaxInt64)
	for r, q := range rq.Shape {
		need, _ := datasets.Milli(q)
		if need <= 0 {
			continue
		}
		have, _ := datasets.Milli(capacity[res[r]])
		per = min(per, have/need)
	}
	if per == math.MaxInt64 {
		return 0 // a shape of zeros holds nothing to plan
	}
	return per
}
