// Package sim is capplan's discrete-event cluster simulator core
// (SIMULATE.md §1): int64 ticks, an event queue ordered by (time, kind,
// ids) (a radix heap over times, queue.go: the queue is monotone), one
// scheduling Round per distinct timestamp, a free-capacity index
// per machine class, placement constraints, preemption, suspension,
// migration, container mode, per-device fit of GPUs, counter-based
// duration noise, invariant checks and metrics. Policies (sub-package policies) read a State and act
// through a Planner; they never see actual durations. Observers are told
// of arrivals, finishes, starts and ends, and RoundObservers sample the
// state after every Round.
//
// A run is a pure function of its Config and JobSource: the same inputs
// give the same Result at any GOMAXPROCS.
//
// sim is an algorithm package: it reads no files, prints nothing and
// imports no input format and no command-line library. It may import the
// standard library, the dag model, binpack (shortfalls) and
// k8s.io/apimachinery/pkg/labels (selectors).
package sim
