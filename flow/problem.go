package flow

import (
	"errors"
	"fmt"
)

// Unbounded is the Demand of a user without a demand cap.
const Unbounded int64 = -1

// Problem is a CMMF instance over coalesced machine types: all machines of a
// type are identical and interchangeable, so only their count matters.
type Problem struct {
	// Types holds c_t, the number of machines of each type (> 0).
	Types []int64
	// Users are the applications sharing the machines.
	Users []User
	// Floors, when non-nil, gives every user a lower bound x_u ≥ Floors[u]
	// on its machines (len = len(Users)): machines it keeps whatever the
	// others get, such as the tasks it runs when nothing may be preempted
	// (SIMULATE.md §3.5's CMMF comparators). The floors must be realisable
	// together on the users' types and within their demands. Only Integral
	// accepts floors: it then maximises the sorted levels lexicographically
	// over the allocations that respect them, by the weighted greedy started
	// at x = Floors (Algorithm C). The set {x ∈ P : x ≥ a} of a polymatroid
	// P translated by a ∈ P is again a polymatroid, and the objective is
	// separable in the increments, so the greedy stays exact
	// (Federgruen & Groenevelt 1986).
	Floors []int64
}

// User is one application of a CMMF instance.
type User struct {
	// Weight w_u > 0: the user's entitlement relative to others.
	Weight int64
	// Demand d_u caps the machines the user can use; Unbounded for none.
	Demand int64
	// Types lists the indices of the machine types the user may run on,
	// strictly increasing. An empty list gives the user nothing.
	Types []int
	// TypeCaps, when not nil, caps the machines the user may receive of
	// each of its types (parallel to Types; Unbounded for no cap): the
	// arc user → type of the flow network gets that capacity. A forecast
	// makes such caps: on a type the user can use no more machines than
	// its whole forecast fills there.
	TypeCaps []int64
}

// typeCap returns user u's cap on its k-th type (Unbounded when none).
func (u *User) typeCap(k int) int64 {
	if u.TypeCaps == nil {
		return Unbounded
	}
	return u.TypeCaps[k]
}

// capped reports whether the user has a cap on some type.
func (u *User) capped() bool {
	for _, c := range u.TypeCaps {
		if c != Unbounded {
			return true
		}
	}
	return false
}

// reach returns the most machines the user could receive from the types
// alone: Σ_k min(c_t, cap_k).
func (u *User) reach(types []int64) int64 {
	var r int64
	for k, t := range u.Types {
		c := types[t]
		if e := u.typeCap(k); e != Unbounded {
			c = min(c, e)
		}
		r += c
	}
	return r
}

// ErrInvalid is returned (wrapped) for a Problem that violates its contract.
var ErrInvalid = errors.New("flow: invalid problem")

// ErrFloors is returned (wrapped) when a Problem's floors cannot all be
// met at once, or floors are given to Divisible.
var ErrFloors = errors.New("flow: floors cannot be met")

// Validate checks the Problem's contract: positive counts and weights,
// demands ≥ 0 or Unbounded, type lists strictly increasing and in range,
// and type caps (if any) one per type, each ≥ 0 or Unbounded.
func (p *Problem) Validate() error {
	for t, c := range p.Types {
		if c <= 0 {
			return fmt.Errorf("%w: type %d has count %d, want > 0", ErrInvalid, t, c)
		}
	}
	if p.Floors != nil && len(p.Floors) != len(p.Users) {
		return fmt.Errorf("%w: %d floors for %d users", ErrInvalid, len(p.Floors), len(p.Users))
	}
	for i, u := range p.Users {
		if p.Floors != nil {
			if f := p.Floors[i]; f < 0 || u.Demand != Unbounded && f > u.Demand {
				return fmt.Errorf("%w: user %d has floor %d outside [0, demand %d]", ErrInvalid, i, f, u.Demand)
			}
		}
		if u.Weight <= 0 {
			return fmt.Errorf("%w: user %d has weight %d, want > 0", ErrInvalid, i, u.Weight)
		}
		if u.Demand < 0 && u.Demand != Unbounded {
			return fmt.Errorf("%w: user %d has demand %d", ErrInvalid, i, u.Demand)
		}
		for k, t := range u.Types {
			if t < 0 || t >= len(p.Types) {
				return fmt.Errorf("%w: user %d names type %d of %d", ErrInvalid, i, t, len(p.Types))
			}
			if k > 0 && u.Types[k-1] >= t {
				return fmt.Errorf("%w: user %d types not strictly increasing", ErrInvalid, i)
			}
		}
		if u.TypeCaps != nil && len(u.TypeCaps) != len(u.Types) {
			return fmt.Errorf("%w: user %d has %d type caps for %d types", ErrInvalid, i, len(u.TypeCaps), len(u.Types))
		}
		for _, c := range u.TypeCaps {
			if c < 0 && c != Unbounded {
				return fmt.Errorf("%w: user %d has type cap %d", ErrInvalid, i, c)
			}
		}
	}
	return nil
}
