package sim

import (
	"errors"
	"fmt"
	"math"
)

// Config is everything a run depends on besides its jobs. A run is a pure
// function of (Config, jobs): the same inputs give the same Result.
type Config struct {
	Cluster *Cluster
	// Users are the applications jobs belong to (Job.User indexes them).
	Users []User
	// Policy decides placements; it is called once per distinct timestamp
	// at which something changed.
	Policy Policy
	// Seed drives the duration noise and State.Rand.
	Seed uint64
	// TickSeconds is the length of a tick in seconds (0: 1), for policies
	// whose parameters are in seconds (State.Ticks).
	TickSeconds float64
	// Noise is σ of the lognormal duration noise (0: actual = estimate).
	Noise float64
	// NoiseMedian draws factors of median 1 instead of mean 1.
	NoiseMedian bool
	// Misestimate, when on, shows policies estimates that differ from
	// the input durations, which are then the truth (SIMULATE.md §2.1).
	Misestimate Misestimate
	// OrdinalOffset is added to job ordinals in the noise counter, so a
	// job replayed alone (as the only job of a run) keeps the actual
	// durations it has as job OrdinalOffset of the full run.
	OrdinalOffset JobID
	// Until, when positive, stops the run after the last Round at or
	// before it; unfinished jobs are reported without a finish.
	Until Tick
	// Check asserts the invariants of SIMULATE.md §7.1 after every Round
	// and makes Planner errors panic; tests always set it.
	Check bool
	// Observers are told of arrivals, task starts and ends and job
	// completions, after the policy (if the policy is an Observer too).
	Observers []Observer
	// SeriesPoints bounds the points of each time series (0: 2000).
	SeriesPoints int
	// JainWindows are the window lengths of Jain's index, in ticks
	// (nil: none).
	JainWindows []Tick
	// Progress, when set, is called every ProgressEvery events (0: 65536)
	// with the current time and the jobs finished so far.
	Progress      func(now Tick, finished int)
	ProgressEvery int
}

// Errors of a run.
var (
	// ErrStalled: the queue emptied with runnable tasks left, i.e. the
	// policy withheld work without setting a timer.
	ErrStalled = errors.New("sim: policy stalled")
	// ErrOrder: the job source yielded a job arriving before its
	// predecessor.
	ErrOrder = errors.New("sim: jobs out of arrival order")
)

const defaultSeriesPoints = 2000

func (c *Config) validate() error {
	cl := c.Cluster
	if cl == nil || len(cl.Resources) == 0 {
		return errors.New("sim: the cluster has no resources")
	}
	if len(cl.Machines) == 0 {
		return errors.New("sim: the cluster has no machines")
	}
	if c.Policy == nil {
		return errors.New("sim: no policy")
	}
	if len(c.Users) == 0 {
		return errors.New("sim: no users")
	}
	D := len(cl.Resources)
	for i := range cl.Machines {
		m := &cl.Machines[i]
		if len(m.Cap) != D {
			return fmt.Errorf("sim: machine %s has %d capacities for %d resources", m.Name, len(m.Cap), D)
		}
		for _, v := range m.Cap {
			if v < 0 {
				return fmt.Errorf("sim: machine %s has a negative capacity", m.Name)
			}
		}
		if cl.Nodes != nil && (m.Node < 0 || int(m.Node) >= len(cl.Nodes)) {
			return fmt.Errorf("sim: container %s has no node", m.Name)
		}
	}
	if cl.Overbook != nil {
		if len(cl.Overbook) != D {
			return fmt.Errorf("sim: %d overbook factors for %d resources", len(cl.Overbook), D)
		}
		for d, f := range cl.Overbook {
			if !(f >= 1) || math.IsInf(f, 0) {
				return fmt.Errorf("sim: overbook factor %v of %s is not ≥ 1", f, cl.Resources[d])
			}
		}
	}
	for u := range c.Users {
		if c.Users[u].Weight <= 0 {
			return fmt.Errorf("sim: user %s has weight %d, want > 0", c.Users[u].Name, c.Users[u].Weight)
		}
	}
	if !(c.Noise >= 0) || math.IsInf(c.Noise, 0) {
		return fmt.Errorf("sim: noise σ = %v, want a finite number ≥ 0", c.Noise)
	}
	if c.Misestimate.On() {
		return c.Misestimate.validate()
	}
	return nil
}
