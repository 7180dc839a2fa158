package vbpfile

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/capplan/capplan/binpack/vbp"
)

// ParseError reports malformed input: the file name, the 1-based line and
// what was wrong there.
type ParseError struct {
	Name string
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("vbp: %s:%d: %s", e.Name, e.Line, e.Msg)
}

// maxLine caps one input line (16 MiB): a longer line is an error, never
// an unbounded allocation.
const maxLine = 16 << 20

// MaxItems caps the number of individual items (Σ counts) of an instance:
// the solvers expand every copy, so a larger count is refused with a
// clear error instead of exhausting memory. The public benchmark's largest
// instances have a few thousand items.
const MaxItems = 1 << 22

// maxDim caps the dimension count, which sizes every vector allocated
// before the items are read.
const maxDim = 1 << 16

type token struct {
	v    int64
	line int
}

// tokens splits r into integer tokens, remembering each token's line, and
// returns the number of the last line read.
func tokens(name string, r io.Reader) ([]token, int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	var out []token
	line := 0
	for sc.Scan() {
		line++
		for _, f := range strings.Fields(sc.Text()) {
			v, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return nil, line, &ParseError{name, line, fmt.Sprintf("not an integer: %q", f)}
			}
			out = append(out, token{v, line})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, line, &ParseError{name, line + 1, err.Error()}
	}
	return out, line, nil
}

// Parse reads a .vbp (VPSolver) instance:
//
//	d
//	c_1 ... c_d
//	m
//	w_1 ... w_d q      (m lines: item sizes and multiplicity q)
//
// Tokens are whitespace separated; line breaks are not significant except
// for error positions. Capacities must be positive and multiplicities
// non-negative. Sizes may be zero or negative: 77 of the 120
// Caprara-triplet files of the public set contain negative coordinates
// (the generator's third item of a triplet can undershoot), and the
// capacity constraint Σ ≤ c is still well defined. Any malformed or
// trailing input, more than MaxItems items, or a capacity, size or total
// size Σ count·|size| of a dimension beyond vbp.MaxTotal (where int64
// arithmetic could overflow), gives a *ParseError naming name and the
// line. Sizes larger than the capacity are accepted here and rejected by
// vbp.Solve.
// The instance's Name is name. Cost O(input size).
func Parse(name string, r io.Reader) (*vbp.Instance, error) {
	toks, last, err := tokens(name, r)
	if err != nil {
		return nil, err
	}
	pos := 0
	next := func(what string, min int64) (int64, error) {
		if pos >= len(toks) {
			return 0, &ParseError{name, last, "unexpected end of input, want " + what}
		}
		t := toks[pos]
		pos++
		if t.v < min {
			return 0, &ParseError{name, t.line, fmt.Sprintf("%s = %d, want ≥ %d", what, t.v, min)}
		}
		return t.v, nil
	}
	d, err := next("dimension count", 1)
	if err != nil {
		return nil, err
	}
	if d > maxDim {
		return nil, &ParseError{name, toks[0].line, fmt.Sprintf("dimension count %d too large (at most %d)", d, maxDim)}
	}
	inst := &vbp.Instance{Name: name, Capacity: make([]int64, d)}
	for k := range inst.Capacity {
		if inst.Capacity[k], err = next(fmt.Sprintf("capacity[%d]", k), 1); err != nil {
			return nil, err
		}
		if inst.Capacity[k] > vbp.MaxTotal {
			return nil, &ParseError{name, toks[pos-1].line, fmt.Sprintf("capacity[%d] = %d is larger than %d, the largest amount capplan packs exactly", k, inst.Capacity[k], int64(vbp.MaxTotal))}
		}
	}
	m, err := next("item type count", 0)
	if err != nil {
		return nil, err
	}
	if m > int64(len(toks)) { // guards the allocation below on garbage input
		return nil, &ParseError{name, toks[pos-1].line, fmt.Sprintf("item type count %d exceeds the input", m)}
	}
	inst.Items = make([]vbp.Item, m)
	var total int64            // Σ counts so far
	volume := make([]int64, d) // Σ count·|size| per dimension so far, ≤ vbp.MaxTotal
	for i := range inst.Items {
		sz := make([]int64, d)
		for k := range sz {
			if sz[k], err = next(fmt.Sprintf("item %d size[%d]", i, k), -vbp.MaxTotal); err != nil {
				return nil, err
			}
			if sz[k] > vbp.MaxTotal {
				return nil, &ParseError{name, toks[pos-1].line, fmt.Sprintf("item %d size[%d] = %d is larger than %d, the largest amount capplan packs exactly", i, k, sz[k], int64(vbp.MaxTotal))}
			}
		}
		q, err := next(fmt.Sprintf("item %d count", i), 0)
		if err != nil {
			return nil, err
		}
		if q > MaxItems-total {
			return nil, &ParseError{name, toks[pos-1].line, fmt.Sprintf("item %d count %d brings the items to more than %d", i, q, MaxItems)}
		}
		total += q
		for k, v := range sz {
			mag := max(v, -v)
			if mag > 0 && q > (vbp.MaxTotal-volume[k])/mag {
				return nil, &ParseError{name, toks[pos-1].line, fmt.Sprintf("item %d brings the total size in dimension %d to more than %d, the largest amount capplan packs exactly", i, k, int64(vbp.MaxTotal))}
			}
			volume[k] += q * mag
		}
		inst.Items[i] = vbp.Item{Size: sz, Count: int(q)}
	}
	if pos < len(toks) {
		return nil, &ParseError{name, toks[pos].line, "trailing data after last item"}
	}
	return inst, nil
}
