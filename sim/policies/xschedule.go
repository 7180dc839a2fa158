package policies

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/capplan/capplan/sim"
)

// XScheduleParams are the parameters of xschedule. Per-application values
// are written "VALUE" (every application) or "APP=VALUE,APP=VALUE" (the
// others take the default).
type XScheduleParams struct {
	// Sched is each application's scheduler: fifo, fair or flex.
	Sched string
	// Request is each application's request type: ownedonly, ownedfirst or
	// nonowned.
	Request string
	// Bound is δ for the applications whose Demand gives no sharing bound,
	// in normalised container size × seconds.
	Bound float64
	// Pairs overrides Δ for pairs: "A/B=v,…".
	Pairs string
	// Grace is G, the seconds a preempted task has before it is killed.
	Grace float64
	// Fitness eliminates containers with NormSum(size) > Fitness·NormSum(r).
	Fitness float64
	// TTLCap is the TTL (seconds) that earns the full borrowing bonus.
	TTLCap float64
	// AM is how many of its own containers each application's AM holds for
	// the whole run: those labelled shape=am first (containers of shape
	// "am" in the packing plan), then the first in plan order.
	AM    int
	Intra sim.Intra
}

func (p *XScheduleParams) bind(b *binder) {
	b.add("sched", p.Sched, "per-application scheduler: fifo, fair or flex (VALUE or APP=VALUE,…)", func(v string) error {
		_, _, err := perApp(v, []string{"fifo", "fair", "flex"})
		if err == nil {
			p.Sched = v
		}
		return err
	})
	b.add("request", p.Request, "per-application request type: ownedonly, ownedfirst or nonowned (VALUE or APP=VALUE,…)", func(v string) error {
		_, _, err := perApp(v, []string{"ownedonly", "ownedfirst", "nonowned"})
		if err == nil {
			p.Request = v
		}
		return err
	})
	b.number("bound", &p.Bound, 0, 1e12, "sharing bound δ of applications whose demand gives none (normalised size × s)")
	b.add("pairs", p.Pairs, "pair bounds Δ overriding min(δ_A, δ_B): A/B=v,…", func(v string) error {
		if _, err := parsePairs(v); err != nil {
			return err
		}
		p.Pairs = v
		return nil
	})
	b.number("grace", &p.Grace, 0, 1e9, "grace period G in seconds before a preempted task is killed")
	b.number("fitness", &p.Fitness, 1, 1e9, "largest container size (NormSum) as a multiple of the request's")
	b.number("ttlcap", &p.TTLCap, 1e-9, 1e12, "seconds of time-to-live that earn the full borrowing bonus")
	b.add("am", strconv.Itoa(p.AM), "containers each application's AM holds for the whole run", func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("want a whole number ≥ 0")
		}
		p.AM = n
		return nil
	})
	b.intra(&p.Intra)
}

// perApp parses "VALUE" or "APP=VALUE,…" with values from valid.
func perApp(v string, valid []string) (def string, byApp map[string]string, err error) {
	ok := func(x string) error {
		for _, w := range valid {
			if x == w {
				return nil
			}
		}
		return fmt.Errorf("want one of %s", strings.Join(valid, ", "))
	}
	if !strings.Contains(v, "=") {
		return v, nil, ok(v)
	}
	byApp = map[string]string{}
	for _, kv := range strings.Split(v, ",") {
		k, x, found := strings.Cut(kv, "=")
		if !found || k == "" {
			return "", nil, fmt.Errorf("want VALUE or APP=VALUE,…")
		}
		if err := ok(x); err != nil {
			return "", nil, fmt.Errorf("%s: %w", k, err)
		}
		byApp[k] = x
	}
	return "", byApp, nil
}

// pairBound is one Δ override of the pairs parameter.
type pairBound struct {
	a, b  string
	bound float64
}

// parsePairs parses "A/B=v,…".
func parsePairs(v string) ([]pairBound, error) {
	var out []pairBound
	if v == "" {
		return out, nil
	}
	for _, kv := range strings.Split(v, ",") {
		k, x, ok1 := strings.Cut(kv, "=")
		a, b, ok2 := strings.Cut(k, "/")
		f, err := strconv.ParseFloat(x, 64)
		if !ok1 || !ok2 || a == "" || b == "" || err != nil || f < 0 {
			return nil, fmt.Errorf("want A/B=BOUND,… with BOUND ≥ 0")
		}
		out = append(out, pairBound{a, b, f})
	}
	return out, nil
}

// Request types [SEED xflex §2.1].
type xRequest uint8

const (
	ownedOnly xRequest = iota
	ownedFirst
	nonOwned
)

// Application schedulers [DERIVED; SIMULATE.md §3.6].
type xSched uint8

const (
	schedFIFO xSched = iota
	schedFair
	schedFlex
)

// xApp is one application as X-Schedule sees it.
type xApp struct {
	sched xSched
	req   xRequest
	alone bool
	delta *big.Rat // δ_a in charge × ticks
	jobs  []sim.JobID
}

// xschedule is X-Flex's online scheduler [SEED xflex §2, §2.1;
// SIMULATE.md §3.6], in container mode: every machine is a container of
// the X-Select packing plan with an owner.
//
// Each Round, applications go by ascending net debt Σ_b share_{a→b}(now)
// (ties: id), each issuing its runnable tasks as requests in its own
// scheduler's order (fifo: arrival; fair: the job with the fewest running
// tasks; flex: the job with the least remaining work, malleable shortest
// remaining first [SEED xflex §3]):
//
//  1. OwnedOnly and OwnedFirst requests take the best free container the
//     application owns: among those that hold the request, the highest
//     fit NormSum(r)/NormSum(size), eliminating containers larger than
//     fitness × the request.
//  2. Open OwnedFirst and NonOwned requests take the best free container
//     of another sharing application o, the fit plus
//     min(TTL, cap)/cap where TTL = (Δ_ao − share_{a→o})/(slope_{a→o} +
//     charge) estimates how long the loan can last before o may take it
//     back (+∞ when the slope would not grow the debt).
//  3. Requests still open preempt, each container claimed once:
//     type 1 (OwnedOnly, OwnedFirst) a container of its own lent to u;
//     type 2 (OwnedFirst, NonOwned) another's container used by u ≠ a;
//     either only when share_{u→a}(now) ≥ Δ_au. The victim is killed
//     after the grace period G (unless it ends first) and its container
//     is then held for a, which places its next request there.
//
// Sharing is accounted exactly (big.Rat, in charge × ticks): each pair's
// lastShare, lastSlope and lastCalcTime are re-based whenever a container
// of one is taken or released by the other, so share(now) = lastShare +
// lastSlope·(now − lastCalcTime) is the integral of the charges. Charging
// is by container size: Σ_d size_d/R_d per second. Garbo applications
// (sharing alone) run on and lend only their own containers. AM
// containers (param am) are held for the whole run and never used.
type xschedule struct {
	p     XScheduleParams
	ready bool
	apps  []xApp
	tps   int64 // ticks per second

	owner  []sim.UserID // per container
	user   []sim.UserID // per container: the application running on it
	charge []*big.Rat   // per container: Σ_d size_d/R_d per tick
	chargF []float64
	held   []bool // AM containers

	pairs  []xPair // U×U, used for a < b
	deltaP []*big.Rat

	claims   map[sim.MachineID]sim.UserID // pending preemptions
	claimed  []int                        // per application
	reserved []sim.MachineID              // containers held for a claimant
	failed   map[sim.GroupRef]uint32
	pass     uint32
	order    []sim.UserID
	free     [][]sim.MachineID // per owner, this Round
	stats    map[string]int64
}

func init() {
	def := XScheduleParams{Sched: "fifo", Request: "ownedfirst", Grace: 10, Fitness: 2, TTLCap: 600}
	register(typed("xschedule", "X-Flex online scheduler: owned containers of a packing plan, pairwise sharing bounds, preemption after a grace period",
		def, (*XScheduleParams).bind, func(p XScheduleParams) sim.Policy { return &xschedule{p: p} }))
}

func (x *xschedule) Name() string { return "xschedule" }

func (x *xschedule) Traits() sim.Traits { return sim.Traits{Intra: x.p.Intra} }

// AMHolders returns, per container, the application whose AM holds it
// (NoUser when none), for X-Sight's snapshots.
func (x *xschedule) AMHolders(s *sim.State) []sim.UserID {
	out := make([]sim.UserID, s.NumMachines())
	for i := range out {
		out[i] = sim.NoUser
		if x.ready && x.held[i] {
			out[i] = x.owner[i]
		}
	}
	return out
}

// PolicyStats implements sim.StatsPolicy.
func (x *xschedule) PolicyStats() map[string]int64 { return x.stats }

// CheckCluster reports whether X-Schedule can run on c with these users:
// container mode with owners, and parameters that name existing
// applications.
func (x *xschedule) CheckCluster(c *sim.Cluster, users []sim.User) error {
	if !c.ContainerMode() {
		return fmt.Errorf("xschedule needs container mode: give a packing plan (--packing plan.json)")
	}
	owned := make([]int, len(users))
	for _, m := range c.Machines {
		if m.Owner < 0 || int(m.Owner) >= len(users) {
			return fmt.Errorf("xschedule: container %s has no owner", m.Name)
		}
		owned[m.Owner]++
	}
	names := map[string]bool{}
	for _, u := range users {
		names[u.Name] = true
	}
	for _, v := range []string{x.p.Sched, x.p.Request} {
		_, byApp, _ := perApp(v, []string{"fifo", "fair", "flex", "ownedonly", "ownedfirst", "nonowned"})
		for _, a := range appNames(byApp) {
			if !names[a] {
				return fmt.Errorf("xschedule: parameter names application %q, which is not among the users", a)
			}
		}
	}
	pairs, _ := parsePairs(x.p.Pairs)
	for _, pb := range pairs {
		if !names[pb.a] || !names[pb.b] || pb.a == pb.b {
			return fmt.Errorf("xschedule: pairs names %s/%s, not two of the users", pb.a, pb.b)
		}
	}
	reqDef, reqBy, _ := perApp(x.p.Request, []string{"ownedonly", "ownedfirst", "nonowned"})
	lenders := 0 // sharing applications that own containers
	for u, n := range owned {
		if n > 0 && !users[u].Sharing.Alone {
			lenders++
		}
	}
	for u := range users {
		req, ok := reqBy[users[u].Name]
		if !ok {
			req = reqDef
		}
		mine := 0
		if owned[u] > 0 && !users[u].Sharing.Alone {
			mine = 1
		}
		switch {
		case req == "nonowned" && users[u].Sharing.Alone:
			return fmt.Errorf("xschedule: application %s is alone (Garbo) but its requests are nonowned: it could never run", users[u].Name)
		case req == "nonowned" && lenders-mine == 0:
			return fmt.Errorf("xschedule: application %s asks for nonowned containers, but no other application lends any", users[u].Name)
		}
	}
	for u, n := range owned {
		if x.p.AM > 0 && n <= x.p.AM && n > 0 {
			return fmt.Errorf("xschedule: application %s owns %d containers, all taken by its AM (am=%d)", users[u].Name, n, x.p.AM)
		}
	}
	return nil
}

// appNames returns the keys of m in order.
func appNames(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
