package dag

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// Options tune the schedulers. The zero value is usable; every choice is
// deterministic given Seed, on any machine and any number of cores, except
// that a binding TimeLimit makes Best's result depend on machine speed
// (Result.TimeLimitHit says when it did).
type Options struct {
	// Seed drives every random choice (the Random rule, sampling, Best).
	Seed uint64
	// Workers bounds the goroutines evaluating Graphene's candidate sets
	// (0: runtime.GOMAXPROCS). Results do not depend on it.
	Workers int
	// MaxWork bounds Best's total work, in the work units of
	// DefaultMaxWork (0: SearchWork on DAGs of at most 120 tasks, else
	// max(DefaultMaxWork, minPasses schedule passes)).
	MaxWork int64
	// TimeLimit, when positive, also stops Best after this wall-clock
	// time (opt-in; 0 is no limit).
	TimeLimit time.Duration
	// MaxCandidates bounds the troublesome sets Graphene evaluates
	// (0: DefaultMaxCandidates).
	MaxCandidates int
	// MaxTroubleFraction prunes troublesome sets T with |T| > fraction·N
	// (0: DefaultMaxTroubleFraction).
	MaxTroubleFraction float64
}

// method is one named scheduler.
type method struct {
	doc string
	run func(d *DAG, machines [][]float64, o Options) *Schedule
}

// methods maps names to schedulers; each assumes CheckFit passed.
var methods = map[string]method{
	"bfs":       {"work-conserving list scheduler in breadth-first stage order (Tez)", ruleParallel(BFS)},
	"cp":        {"work-conserving list scheduler by critical path (CPSched)", ruleParallel(CP)},
	"random":    {"work-conserving list scheduler in a random order from the seed", ruleParallel(Random)},
	"tetris":    {"Tetris packer: best alignment among runnable tasks", func(d *DAG, ms [][]float64, _ Options) *Schedule { return tetris(d, ms) }},
	"cg":        {"work-conserving list scheduler by Coffman–Graham label", cgParallel},
	"graphene":  {"Graphene: troublesome tasks first, then dead-end-free subset orders", graphene},
	"strippart": {"StripPart level partition", func(d *DAG, ms [][]float64, _ Options) *Schedule { s, _ := StripPart(d, ms); return s }},
}

func init() {
	for _, r := range []Rule{LFT, LST, MSLK, MTS, MIS, GRPW, LPT, SPT} {
		methods["ssgs-"+r.String()] = method{"serial SGS with the " + strings.ToUpper(r.String()) + " rule", ruleSerial(r)}
		methods["psgs-"+r.String()] = method{"parallel SGS with the " + strings.ToUpper(r.String()) + " rule", ruleParallel(r)}
	}
	for _, r := range []Rule{LFT, MTS} {
		methods["bssgs-"+r.String()] = method{"backward serial SGS with the " + strings.ToUpper(r.String()) + " rule on the reversed DAG", ruleBackward(r, false)}
		methods["bpsgs-"+r.String()] = method{"backward parallel SGS with the " + strings.ToUpper(r.String()) + " rule on the reversed DAG", ruleBackward(r, true)}
	}
}

func ruleBackward(r Rule, parallel bool) func(*DAG, [][]float64, Options) *Schedule {
	return func(d *DAG, ms [][]float64, o Options) *Schedule { return backwardSGS(d, ms, r, parallel, o.Seed) }
}

func ruleParallel(r Rule) func(*DAG, [][]float64, Options) *Schedule {
	return func(d *DAG, ms [][]float64, o Options) *Schedule {
		return newEngine(d, ms).run(Priority(d, r, 0, rand.New(rand.NewPCG(o.Seed, 1))))
	}
}

func ruleSerial(r Rule) func(*DAG, [][]float64, Options) *Schedule {
	return func(d *DAG, ms [][]float64, o Options) *Schedule {
		return serialSGS(d, NewSpace(ms), Priority(d, r, 0, rand.New(rand.NewPCG(o.Seed, 1))))
	}
}

func cgParallel(d *DAG, ms [][]float64, _ Options) *Schedule {
	labels := CoffmanGrahamLabels(d)
	prio := make([]float64, len(labels))
	for i, l := range labels {
		prio[i] = -float64(l)
	}
	return newEngine(d, ms).run(prio)
}

// Methods returns the scheduler names Run accepts, sorted.
func Methods() []string {
	names := make([]string, 0, len(methods))
	for n := range methods {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// MethodDoc returns a one-line description of a scheduler.
func MethodDoc(name string) string { return methods[name].doc }

// Run schedules d on machines with the named scheduler (see Methods). An
// unknown name is an error listing the valid ones; a task that fits no
// machine is a *NoFitError.
func Run(name string, d *DAG, machines [][]float64, o Options) (*Schedule, error) {
	m, ok := methods[name]
	if !ok {
		return nil, fmt.Errorf("dag: unknown method %q (valid: %s)", name, strings.Join(Methods(), ", "))
	}
	if err := CheckFit(d, machines); err != nil {
		return nil, err
	}
	return m.run(d, machines, o), nil
}
