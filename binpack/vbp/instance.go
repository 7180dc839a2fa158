package vbp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Item is one item type of an instance: its size per dimension and how many
// identical copies must be packed.
type Item struct {
	Size  []int64
	Count int
}

// Instance is a vector bin packing instance: identical bins of capacity
// Capacity (one entry per dimension) and item types Items.
//
// Items are numbered by expanding the types in order: type 0's copies
// first, then type 1's, and so on (see Sizes). Packings refer to these
// expanded indices.
type Instance struct {
	Name     string
	Capacity []int64
	Items    []Item
}

// NumItems returns Σ Count, the number of individual items.
func (inst *Instance) NumItems() int {
	n := 0
	for _, it := range inst.Items {
		n += it.Count
	}
	return n
}

// Sizes returns the size vector of every individual item, types expanded by
// their counts. The slices alias the Item.Size slices.
func (inst *Instance) Sizes() [][]int64 {
	out := make([][]int64, 0, inst.NumItems())
	for _, it := range inst.Items {
		for c := 0; c < it.Count; c++ {
			out = append(out, it.Size)
		}
	}
	return out
}

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

type token struct {
	v    int64
	line int
}

// tokens splits r into integer tokens, remembering each token's line.
func tokens(name string, r io.Reader) ([]token, int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
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
		return nil, line, &ParseError{name, line, err.Error()}
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
// for error positions. Capacities must be positive, sizes non-negative
// and multiplicities non-negative. Sizes may be zero or even negative: 77
// of the 120 Caprara-triplet files of the public set contain negative
// coordinates (the generator's third item of a triplet can undershoot), and
// the capacity constraint Σ ≤ c is still well defined. Any malformed or trailing input gives a *ParseError naming
// name and the line. Sizes larger than the capacity are accepted here and
// rejected by Solve. Cost O(input size).
func Parse(name string, r io.Reader) (*Instance, error) {
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
	const maxDim = 1 << 16 // guards allocation on garbage input
	if d > maxDim {
		return nil, &ParseError{name, toks[0].line, fmt.Sprintf("dimension count %d too large", d)}
	}
	inst := &Instance{Name: name, Capacity: make([]int64, d)}
	for k := range inst.Capacity {
		if inst.Capacity[k], err = next(fmt.Sprintf("capacity[%d]", k), 1); err != nil {
			return nil, err
		}
	}
	m, err := next("item type count", 0)
	if err != nil {
		return nil, err
	}
	if m > int64(len(toks)) {
		return nil, &ParseError{name, toks[pos-1].line, fmt.Sprintf("item type count %d exceeds input", m)}
	}
	inst.Items = make([]Item, m)
	for i := range inst.Items {
		sz := make([]int64, d)
		for k := range sz {
			if sz[k], err = next(fmt.Sprintf("item %d size[%d]", i, k), math.MinInt64); err != nil {
				return nil, err
			}
		}
		q, err := next(fmt.Sprintf("item %d count", i), 0)
		if err != nil {
			return nil, err
		}
		inst.Items[i] = Item{Size: sz, Count: int(q)}
	}
	if pos < len(toks) {
		return nil, &ParseError{name, toks[pos].line, "trailing data after last item"}
	}
	return inst, nil
}

// Known is one row of a *_summary_known.csv file: a lower bound LB and the
// proven optimum OPT (-1 when unknown) of instance Name (file name without
// ".vbp").
type Known struct {
	Name    string
	LB, OPT int
}

// ParseSummary reads a tab-separated summary file whose header names at
// least the columns instance_name, LB and OPT (other columns are ignored).
// Rows are returned in file order. Bad input gives a *ParseError.
func ParseSummary(name string, r io.Reader) ([]Known, error) {
	sc := bufio.NewScanner(r)
	line := 0
	col := map[string]int{"instance_name": -1, "LB": -1, "OPT": -1}
	var out []Known
	header := true
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		f := strings.Split(text, "\t")
		if header {
			for i, h := range f {
				if _, ok := col[strings.TrimSpace(h)]; ok {
					col[strings.TrimSpace(h)] = i
				}
			}
			for _, h := range []string{"instance_name", "LB", "OPT"} {
				if col[h] < 0 {
					return nil, &ParseError{name, line, "header lacks column " + h}
				}
			}
			header = false
			continue
		}
		get := func(h string) (string, error) {
			if col[h] >= len(f) {
				return "", &ParseError{name, line, "missing column " + h}
			}
			return strings.TrimSpace(f[col[h]]), nil
		}
		var k Known
		var err error
		if k.Name, err = get("instance_name"); err != nil {
			return nil, err
		}
		for _, h := range []string{"LB", "OPT"} {
			s, err := get(h)
			if err != nil {
				return nil, err
			}
			v, err := strconv.Atoi(s)
			if err != nil {
				return nil, &ParseError{name, line, fmt.Sprintf("%s: not an integer: %q", h, s)}
			}
			if h == "LB" {
				k.LB = v
			} else {
				k.OPT = v
			}
		}
		out = append(out, k)
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{name, line, err.Error()}
	}
	if header {
		return nil, &ParseError{name, line, "empty summary"}
	}
	return out, nil
}

// ErrInvalid is wrapped by errors about an instance that cannot be packed
// or is inconsistent (dimension mismatch, item larger than a bin).
var ErrInvalid = errors.New("vbp: invalid instance")
