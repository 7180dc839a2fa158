package dags

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/capplan/capplan/dag"
	"github.com/capplan/capplan/datasets"
)

// ProGen describes single-mode RCPSP projects as PSPLIB's generator
// ProGen made them (Kolisch, Sprecher & Drexl, "Characterization and
// generation of a general class of resource-constrained project
// scheduling problems", Management Science 41(10), 1995), for the project
// sizes PSPLIB ships without their instances here (J90, J120): what
// capplan's schedules and bounds do on such projects can be measured
// without the files.
//
// The fixed parameters are those of every PSPLIB single-mode set, checked
// against J30 and J60 (TestProGenLikePSPLIB): a dummy source with 3 start
// activities and a dummy sink with 3 finish activities; at most 3
// successors and 3 predecessors per activity; no redundant arc; durations
// and requests uniform on 1..10; Resources renewable resources.
type ProGen struct {
	Jobs      int     // non-dummy activities: 30, 60, 90 or 120 in PSPLIB
	Resources int     // renewable resources (PSPLIB: 4)
	NC        float64 // network complexity: arcs per activity, dummies and their arcs included
	RF        float64 // resource factor: the fraction of the resources each activity requests
	RS        float64 // resource strength: where capacity sits between the least feasible and the unconstrained peak
}

// ProGenSet returns the parameter combinations of a PSPLIB single-mode
// set of n activities in its file order (P = 1, 2, …: NC slowest, RS
// fastest): NC ∈ {1.5, 1.8, 2.1}, RF ∈ {0.25, 0.5, 0.75, 1}, and RS ∈ {0.2,
// 0.5, 0.7, 1} for J30, J60 and J90 or {0.1, 0.2, 0.3, 0.4, 0.5} for J120.
func ProGenSet(n int) []ProGen {
	rs := []float64{0.2, 0.5, 0.7, 1}
	if n >= 120 {
		rs = []float64{0.1, 0.2, 0.3, 0.4, 0.5}
	}
	var out []ProGen
	for _, nc := range []float64{1.5, 1.8, 2.1} {
		for _, rf := range []float64{0.25, 0.5, 0.75, 1} {
			for _, s := range rs {
				out = append(out, ProGen{Jobs: n, Resources: 4, NC: nc, RF: rf, RS: s})
			}
		}
	}
	return out
}

// progenMaxJobs bounds the projects Generate makes: each arc added at
// random checks every candidate pair, O(n⁴) in all (17 ms at 120
// activities, 0.6 s at 300).
const progenMaxJobs = 500

// progenMaxDegree is PSPLIB's bound on an activity's successors and
// predecessors, and its number of start and finish activities.
const progenMaxDegree = 3

// Generate returns the project of these parameters for a seed, named
// name: the network first (every non-start activity given a predecessor
// and every non-finish one a successor, then arcs added at random until
// NC is reached or no arc can be added), then durations and requests,
// then capacities R_k = K_min + round(RS·(K_max − K_min)), K_min the
// largest request for resource k and K_max its peak use in the
// earliest-start schedule (ProGen's resource strength).
//
// From 60 activities up the networks reach NC; at 30 activities and NC
// 1.8 or 2.1 about one in five saturates a few arcs short (no arc left
// that keeps the network non-redundant), where ProGen's own reach NC: its
// arc order is not published in enough detail to copy.
func (p ProGen) Generate(name string, seed uint64) (*PSPLIB, error) {
	if p.Jobs < 2*progenMaxDegree || p.Jobs > progenMaxJobs || p.Resources < 1 || p.Resources > 64 ||
		p.NC <= 0 || p.RF <= 0 || p.RF > 1 || p.RS < 0 || p.RS > 1 {
		return nil, fmt.Errorf("progen: parameters out of range: %+v (want 6 ≤ jobs ≤ %d, 1 ≤ resources ≤ 64, NC > 0, RF in (0, 1], RS in [0, 1])", p, progenMaxJobs)
	}
	rng := rand.New(rand.NewPCG(seed, uint64(p.Jobs)))
	succ := progenNetwork(rng, p.Jobs, p.NC)
	n, K := p.Jobs, p.Resources
	dur := make([]int64, n)
	dem := make([][]float64, n)
	use := max(1, int(math.Round(p.RF*float64(K))))
	for j := range dur {
		dur[j] = 1 + rng.Int64N(10)
		dem[j] = make([]float64, K)
		for _, k := range rng.Perm(K)[:use] {
			dem[j][k] = float64(1 + rng.IntN(10))
		}
	}
	// earliest starts (activities are numbered in a topological order)
	es := make([]int64, n)
	var mpm int64
	for j := range n {
		for _, s := range succ[j] {
			es[s] = max(es[s], es[j]+dur[j])
		}
		mpm = max(mpm, es[j]+dur[j])
	}
	caps := make([]float64, K)
	for k := range caps {
		var kmin float64
		load := make([]float64, mpm+1)
		for j := range n {
			kmin = max(kmin, dem[j][k])
			for t := es[j]; t < es[j]+dur[j]; t++ {
				load[t] += dem[j][k]
			}
		}
		var kmax float64
		for _, l := range load {
			kmax = max(kmax, l)
		}
		caps[k] = kmin + math.Round(p.RS*(kmax-kmin))
	}
	res := make([]string, K)
	for k := range res {
		res[k] = "R" + strconv.Itoa(k+1)
	}
	b := dag.NewBuilder(name, res, 1)
	var horizon int64
	for j := range n {
		b.AddTask(strconv.Itoa(j+2), -1, dur[j], dem[j]) // PSPLIB numbers: the source is 1
		horizon += dur[j]
	}
	for j := range n {
		for _, s := range succ[j] {
			b.AddEdge(j, s)
		}
	}
	d, err := b.Build()
	if err != nil {
		return nil, err
	}
	return &PSPLIB{DAG: d, Capacity: caps, Horizon: horizon, MPM: mpm}, nil
}

// progenNetwork returns the successors of n activities numbered in
// topological order: activities 0–2 start (the source's successors), the
// last three finish (the sink's predecessors); arcs among activities
// number about nc·(n+2) less the source's and sink's 3 each, none
// redundant, at most 3 in and out of each activity.
func progenNetwork(rng *rand.Rand, n int, nc float64) [][]int {
	g := newArcSet(n)
	start := func(j int) bool { return j < progenMaxDegree }
	finish := func(j int) bool { return j >= n-progenMaxDegree }
	// every non-start activity gets a predecessor, every non-finish one a
	// successor: each from the candidates that keep the network
	// non-redundant, by a uniform draw
	pick := func(cands []int) int { return cands[rng.IntN(len(cands))] }
	for j := progenMaxDegree; j < n; j++ {
		var cands []int
		for i := range j {
			if !finish(i) && g.ok(i, j) {
				cands = append(cands, i)
			}
		}
		if len(cands) > 0 {
			g.add(pick(cands), j)
		}
	}
	for i := n - progenMaxDegree - 1; i >= 0; i-- {
		if len(g.succ[i]) > 0 {
			continue
		}
		var cands []int
		for j := i + 1; j < n; j++ {
			if !start(j) && g.ok(i, j) {
				cands = append(cands, j)
			}
		}
		if len(cands) > 0 {
			g.add(i, pick(cands))
		}
	}
	// then arcs drawn uniformly from those that may be added, until NC
	target := int(math.Round(nc*float64(n+2))) - 2*progenMaxDegree
	var cands [][2]int
	for g.arcs < target {
		cands = cands[:0]
		for i := range n - progenMaxDegree {
			for j := max(i+1, progenMaxDegree); j < n; j++ {
				if g.ok(i, j) {
					cands = append(cands, [2]int{i, j})
				}
			}
		}
		if len(cands) == 0 {
			break // saturated: no arc keeps the network non-redundant
		}
		a := cands[rng.IntN(len(cands))]
		g.add(a[0], a[1])
	}
	return g.succ
}

// arcSet is a project network under construction with its transitive
// closure (reach[i] has bit j when j follows i), so that redundancy is
// checked exactly.
type arcSet struct {
	succ, pred [][]int
	reach      [][]uint64
	arcs       int
}

func newArcSet(n int) *arcSet {
	g := &arcSet{succ: make([][]int, n), pred: make([][]int, n), reach: make([][]uint64, n)}
	for i := range g.reach {
		g.reach[i] = make([]uint64, (n+63)/64)
	}
	return g
}

func (g *arcSet) follows(i, j int) bool { return g.reach[i][j/64]&(1<<(j%64)) != 0 }

// ok reports whether arc i → j (i < j) may be added: both ends have room,
// j does not already follow i, and no arc a → b becomes redundant (a = i
// or i follows a, and b = j or b follows j).
func (g *arcSet) ok(i, j int) bool {
	if len(g.succ[i]) >= progenMaxDegree || len(g.pred[j]) >= progenMaxDegree || g.follows(i, j) {
		return false
	}
	for a := 0; a <= i; a++ {
		if a != i && !g.follows(a, i) {
			continue
		}
		for _, b := range g.succ[a] {
			if b == j || g.follows(j, b) {
				return false
			}
		}
	}
	return true
}

// add adds arc i → j and updates the closure: every activity that is i or
// precedes it now reaches j and all that follows j.
func (g *arcSet) add(i, j int) {
	g.succ[i] = append(g.succ[i], j)
	g.pred[j] = append(g.pred[j], i)
	g.arcs++
	for a := 0; a <= i; a++ {
		if a != i && !g.follows(a, i) {
			continue
		}
		r := g.reach[a]
		r[j/64] |= 1 << (j % 64)
		for w, x := range g.reach[j] {
			r[w] |= x
		}
	}
}

// WriteProGenSet writes per projects of each parameter combination of the
// PSPLIB-like set of n activities into dir as .sm files named as PSPLIB
// names its own (j120<P>_<I>.sm for n = 120), project I of combination P
// from seed 1000·P + I, and returns the names in order. If any of them
// exists, it writes nothing.
func WriteProGenSet(dir string, n, per int) ([]string, error) {
	if per < 1 {
		return nil, fmt.Errorf("progen: %d projects per combination; want at least 1", per)
	}
	files := make(map[string][]byte)
	var names []string
	for pi, p := range ProGenSet(n) {
		for i := 1; i <= per; i++ {
			name := fmt.Sprintf("j%d%d_%d", n, pi+1, i)
			inst, err := p.Generate(name, uint64(1000*(pi+1)+i))
			if err != nil {
				return nil, err
			}
			var buf bytes.Buffer
			if err := WritePSPLIB(&buf, inst); err != nil {
				return nil, err
			}
			files[name+".sm"] = buf.Bytes()
			names = append(names, name+".sm")
		}
	}
	return names, datasets.WriteNewFiles(dir, files)
}
