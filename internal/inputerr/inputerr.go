package inputerr

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrInvalid is wrapped by every *Error: errors.Is(err, ErrInvalid) tells
// bad input from the other failures of a command.
var ErrInvalid = errors.New("invalid input")

// Problem is one thing wrong with an input.
type Problem struct {
	// File is the name the input was loaded under (a path, or the name
	// given to a parse function).
	File string
	// Path locates the problem: a field path such as
	// `nodes[2].capacity.cpu`, "line 12" for a syntax error (see AtLine),
	// or empty when the problem concerns the whole file.
	Path string
	// Msg says what is wrong and, where it can, how to fix it.
	Msg string
}

// String formats the problem as "FILE: PATH: MSG" (or "FILE: MSG" without
// a path), FILE as FileName gives it.
func (p Problem) String() string {
	if p.Path == "" {
		return FileName(p.File) + ": " + p.Msg
	}
	return FileName(p.File) + ": " + p.Path + ": " + p.Msg
}

// Stdin is the path that names standard input on every command line.
const Stdin = "-"

// FileName is how messages name an input given by path: the path itself,
// or "standard input" for Stdin.
func FileName(path string) string {
	if path == Stdin {
		return "standard input"
	}
	return path
}

// maxShown bounds the lines Error.Error prints; Problems always keeps every
// problem.
const maxShown = 20

// Error is the error of a reader that found its input wrong. It lists all
// the problems found, in input order.
type Error struct {
	Problems []Problem
}

// Error prints one problem per line, "FILE: PATH: MSG", and ends with
// "... and N more" after maxShown lines.
func (e *Error) Error() string {
	if len(e.Problems) == 0 {
		return "invalid input"
	}
	var b strings.Builder
	for i, p := range e.Problems {
		if i == maxShown {
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

// Unwrap returns ErrInvalid.
func (e *Error) Unwrap() error { return ErrInvalid }

// List collects the problems of one input file while a reader walks it.
// The zero value with File set is ready to use.
type List struct {
	// File names the input in every problem added.
	File     string
	problems []Problem
}

// Add records a problem at path (see Problem.Path), its message formatted
// from format and args as by fmt.Sprintf.
func (l *List) Add(path, format string, args ...any) {
	l.problems = append(l.problems, Problem{File: l.File, Path: path, Msg: fmt.Sprintf(format, args...)})
}

// Len returns the number of problems recorded so far: a reader compares
// it before and after reading a part to tell whether that part was sound.
func (l *List) Len() int { return len(l.problems) }

// Err returns the problems recorded as an *Error, or nil when there are
// none.
func (l *List) Err() error {
	if len(l.problems) == 0 {
		return nil
	}
	return &Error{Problems: l.problems}
}

// Line returns the 1-based line of byte offset off in data; an offset
// outside data is clamped to it.
func Line(data []byte, off int64) int {
	line, _ := LineCol(data, off)
	return line
}

// LineCol returns the 1-based line and column (in bytes) of byte offset
// off in data; an offset outside data is clamped to it. Offset 0 is line 1,
// column 1; the byte after a newline starts the next line at column 1.
func LineCol(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = 1 + bytes.Count(before, []byte{'\n'})
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// AtLine returns the Problem.Path of a problem on line n: "line n".
func AtLine(n int) string { return "line " + strconv.Itoa(n) }
