package plan

import (
	"fmt"
	"math"
)

// SimOwnership is the simulated check of an ownership plan (`capplan plan`,
// container mode): did every application get the share of the cluster
// the plan gave it — the containers it owns — whenever it had work
// waiting? At every time t an application u holds the containers its
// running tasks occupy; it is below its plan at t when it has runnable
// tasks that no container took and holds less than (1 − Tolerance) × its
// planned share. An application that holds less only because it asks for
// less is not below its plan, and one that borrows beyond its share is
// not penalised.
//
// Shares are fractions of the containers' total charge, the charge of a
// container being X-Flex's Σ_d size_d/R_d (R the cluster's capacity) —
// the unit of the PackingPlan's owner shares [SEED xflex §2]. Times are
// seconds.
type SimOwnership struct {
	// Tolerance is the relative shortfall below its planned share an
	// application may show while it waits (0.1: it must hold at least
	// 90% of its planned share).
	Tolerance float64 `json:"tolerance"`
	// Start and Step place the buckets of every application's Share
	// series: bucket i covers [Start + i·Step, Start + (i+1)·Step).
	Start float64       `json:"start"`
	Step  float64       `json:"step"`
	Apps  []SimOwnedApp `json:"apps"`
}

// SimOwnedApp is one application of the simulated check, in the order of
// the simulation's users (the demand's applications).
type SimOwnedApp struct {
	Application string `json:"application"`
	// Containers counts the containers it owns; PlannedShare is their
	// share of the containers' charge.
	Containers   int     `json:"containers"`
	PlannedShare float64 `json:"plannedShare"`
	// Active is the time it had an arrived, unfinished job; Waiting the
	// time it had runnable tasks no container took; Below the time it
	// waited below its plan (see SimOwnership). Below ≤ Waiting ≤ Active.
	Active  float64 `json:"active"`
	Waiting float64 `json:"waiting"`
	Below   float64 `json:"below"`
	// BelowFraction is Below / Active (0 when never active), and
	// BelowMostly says Below > Active/2, decided in exact ticks: the plan
	// did not hold for this application for most of its run.
	BelowFraction float64 `json:"belowFraction"`
	BelowMostly   bool    `json:"belowMostly"`
	// MeanShare is the share it held, averaged over its active time.
	MeanShare float64 `json:"meanShare"`
	// ShortfallRMSE is √(1/Active ∫ δ(t)² dt) over its active time, with
	// δ(t) = max(0, PlannedShare − share held at t) while it waits and 0
	// otherwise: the root mean square of how far below its planned share
	// the application was when it wanted more.
	ShortfallRMSE float64 `json:"shortfallRMSE"`
	// Share is the mean share held in each bucket of the series.
	Share []float64 `json:"share"`
}

// ownershipTol is the tolerance, in seconds relative to the larger time,
// of the orderings Below ≤ Waiting ≤ Active (times are tick multiples
// converted to seconds).
const ownershipTol = 1e-9

// validate checks what readers of the section rely on: a tolerance in
// [0, 1), finite non-negative numbers, Below ≤ Waiting ≤ Active, the
// fraction Below/Active and BelowMostly consistent with the times.
func (o *SimOwnership) validate() error {
	if !(o.Tolerance >= 0 && o.Tolerance < 1) {
		return fmt.Errorf("ownership.tolerance %v: want a number in [0, 1)", o.Tolerance)
	}
	for i, a := range o.Apps {
		at := fmt.Sprintf("ownership.apps[%d] (%s)", i, a.Application)
		for _, v := range []struct {
			name string
			x    float64
		}{{"plannedShare", a.PlannedShare}, {"active", a.Active}, {"waiting", a.Waiting}, {"below", a.Below},
			{"belowFraction", a.BelowFraction}, {"meanShare", a.MeanShare}, {"shortfallRMSE", a.ShortfallRMSE}} {
			if math.IsNaN(v.x) || math.IsInf(v.x, 0) || v.x < 0 {
				return fmt.Errorf("%s.%s: want a finite number ≥ 0, got %v", at, v.name, v.x)
			}
		}
		slack := ownershipTol * math.Max(1, a.Active)
		switch {
		case a.Below > a.Waiting+slack || a.Waiting > a.Active+slack:
			return fmt.Errorf("%s: below %v, waiting %v and active %v seconds: want below ≤ waiting ≤ active", at, a.Below, a.Waiting, a.Active)
		case a.Active > 0 && math.Abs(a.BelowFraction-a.Below/a.Active) > ownershipTol:
			return fmt.Errorf("%s.belowFraction %v ≠ below %v / active %v", at, a.BelowFraction, a.Below, a.Active)
		case a.BelowMostly && a.Below < a.Active/2-slack, !a.BelowMostly && a.Below > a.Active/2+slack:
			return fmt.Errorf("%s.belowMostly %v disagrees with below %v of active %v seconds", at, a.BelowMostly, a.Below, a.Active)
		}
	}
	return nil
}
