package dag

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalid is wrapped by every *InputError.
var ErrInvalid = errors.New("dag: invalid input")

// ErrTooLarge is returned when expanding an input would exceed a size limit
// (tasks or task edges).
var ErrTooLarge = errors.New("dag: input too large")

// ErrNoFit is wrapped by *NoFitError.
var ErrNoFit = errors.New("dag: task fits no machine")

// maxProblemsShown bounds the problems an error message lists.
const maxProblemsShown = 8

// InputError lists every problem found in one input.
type InputError struct {
	// Source names the input (file or job name).
	Source string
	// Problems, each a human-readable sentence (with a line number when
	// the input has lines).
	Problems []string
}

func (e *InputError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "dag: %s: ", e.Source)
	for i, p := range e.Problems {
		if i == maxProblemsShown {
			fmt.Fprintf(&b, "; and %d more", len(e.Problems)-i)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p)
	}
	return b.String()
}

// Unwrap returns ErrInvalid.
func (e *InputError) Unwrap() error { return ErrInvalid }

// maxCycleShown bounds the task IDs a cycle message lists.
const maxCycleShown = 12

// CycleError reports a dependency cycle. Cycle lists task IDs in
// dependency order with the first repeated at the end: [a b a] reads
// "b runs after a and a runs after b".
type CycleError struct {
	Source string
	Cycle  []string
}

func (e *CycleError) Error() string {
	c := e.Cycle
	if len(c) > maxCycleShown {
		c = append(append(append([]string{}, c[:maxCycleShown-2]...), "..."), c[len(c)-2:]...)
	}
	return fmt.Sprintf("dag: %s: cycle: %s", e.Source, strings.Join(c, " -> "))
}

// Unwrap returns ErrInvalid.
func (e *CycleError) Unwrap() error { return ErrInvalid }

// Shortfall is one resource in which a task exceeds a machine.
type Shortfall struct {
	Resource string
	Demand   float64
	// Capacity is the largest capacity of any machine in this resource.
	Capacity float64
}

// NoFitError lists the tasks that fit no machine on their own, so no
// schedule exists.
type NoFitError struct {
	// Tasks are task IDs, with the shortfalls against the machine that
	// comes closest (fewest shortfalls, then lowest index).
	Tasks      []string
	Shortfalls [][]Shortfall
}

func (e *NoFitError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "dag: %d task(s) fit no machine:", len(e.Tasks))
	for i, t := range e.Tasks {
		if i == maxProblemsShown {
			fmt.Fprintf(&b, " and %d more", len(e.Tasks)-i)
			break
		}
		fmt.Fprintf(&b, " %s (", t)
		for j, s := range e.Shortfalls[i] {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %g > %g", s.Resource, s.Demand, s.Capacity)
		}
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap returns ErrNoFit.
func (e *NoFitError) Unwrap() error { return ErrNoFit }
