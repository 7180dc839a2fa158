package sim

import (
	"fmt"
	"math/bits"
)

// Tick is simulated time: a whole number of ticks since time 0. The tick
// length in seconds is the caller's choice (Config.TickSeconds records it).
type Tick int64

// MachineID indexes Cluster.Machines.
type MachineID int32

// NoMachine is the MachineID of "no machine".
const NoMachine MachineID = -1

// JobID is a job's ordinal: its position in arrival order (arrival, then
// input order). It breaks every tie between jobs.
type JobID int32

// UserID indexes Config.Users: a user is a Demand application (a job's
// group or queue).
type UserID int32

// NoUser is the UserID of "no user".
const NoUser UserID = -1

// ClassID indexes the machine classes: machines with identical capacity,
// labels and limits, numbered in order of their first machine.
type ClassID int32

// TaskRef names one task: its job and its index in the job (stages in
// order, tasks of a stage consecutively).
type TaskRef struct {
	Job  JobID
	Task int32
}

func (t TaskRef) String() string { return fmt.Sprintf("job %d task %d", t.Job, t.Task) }

// GroupRef names a runnable group: the runnable tasks of one stage of one
// job (Graphene's bundling, SIMULATE.md §1.3).
type GroupRef struct {
	Job   JobID
	Stage int32
}

// Vec is an amount of every resource, one entry per Cluster.Resources
// dimension, in whole quanta (see Quanta).
type Vec []int64

// Dominates reports whether a ≥ b in every dimension (a can hold b).
func (a Vec) Dominates(b Vec) bool {
	for d, x := range b {
		if x > a[d] {
			return false
		}
	}
	return true
}

// ClassSet is a set of machine classes, as a bitset plus the sorted list
// of its members. Sets are shared and read-only.
type ClassSet struct {
	bits []uint64
	list []ClassID
}

// Has reports whether c is in the set.
func (s *ClassSet) Has(c ClassID) bool {
	w := int(c) >> 6
	return w < len(s.bits) && s.bits[w]&(1<<(uint(c)&63)) != 0
}

// List returns the classes in increasing order. Do not modify.
func (s *ClassSet) List() []ClassID { return s.list }

// Len returns the number of classes in the set.
func (s *ClassSet) Len() int { return len(s.list) }

func newClassSet(bitsIn []uint64) *ClassSet {
	s := &ClassSet{bits: bitsIn}
	for w, x := range bitsIn {
		for x != 0 {
			b := bits.TrailingZeros64(x)
			s.list = append(s.list, ClassID(w*64+b))
			x &= x - 1
		}
	}
	return s
}
