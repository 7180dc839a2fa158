package datasets

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with an input.
type Problem struct {
	// File is the name the input was loaded under (a path, or the name
	// given to a Parse function).
	File string
	// Path locates the problem: a field path such as
	// `nodes[2].capacity.cpu`, "line 12" for a syntax error, or empty when
	// the problem concerns the whole file.
	Path string
	// Msg says what is wrong and, where it can, how to fix it.
	Msg string
}

// String formats the problem as "FILE: PATH: MSG" (or "FILE: MSG" without
// a path).
func (p Problem) String() string {
	if p.Path == "" {
		return p.File + ": " + p.Msg
	}
	return p.File + ": " + p.Path + ": " + p.Msg
}

// maxShownProblems bounds the lines ValidationError.Error prints; Problems
// always keeps every problem.
const maxShownProblems = 20

// ValidationError is the error of every loader and cross-check in this
// package when the input is wrong. It lists all the problems found, in
// input order.
type ValidationError struct {
	Problems []Problem
}

// Error prints one problem per line, "FILE: PATH: MSG", and ends with
// "... and N more" after maxShownProblems lines.
func (e *ValidationError) Error() string {
	if len(e.Problems) == 0 {
		return "datasets: invalid input"
	}
	var b strings.Builder
	for i, p := range e.Problems {
		if i == maxShownProblems {
			fmt.Fprintf(&b, "\n... and %d more", len(e.Problems)-i)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// problems collects the problems of one file.
type problems struct {
	file string
	list []Problem
}

func (ps *problems) add(path, format string, args ...any) {
	ps.list = append(ps.list, Problem{File: ps.file, Path: path, Msg: fmt.Sprintf(format, args...)})
}

// err returns the collected problems as a *ValidationError, or nil when
// there are none.
func (ps *problems) err() error {
	if len(ps.list) == 0 {
		return nil
	}
	return &ValidationError{Problems: ps.list}
}
