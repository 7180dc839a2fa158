package vbpfile

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Known is one row of a *_summary_known.csv file: a lower bound LB and the
// proven optimum OPT (-1 when unknown) of instance Name (file name without
// ".vbp").
type Known struct {
	Name    string
	LB, OPT int
}

// summaryColumns are the columns ParseSummary needs, in the order it
// reports a missing one.
var summaryColumns = []string{"instance_name", "LB", "OPT"}

// ParseSummary reads a tab-separated summary file whose header names at
// least the columns instance_name, LB and OPT (other columns are ignored;
// blank lines are skipped). Rows are returned in file order. Bad input
// gives a *ParseError naming name and the line. Cost O(input size).
func ParseSummary(name string, r io.Reader) ([]Known, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	line := 0
	col := map[string]int{}
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
				h = strings.TrimSpace(h)
				if _, dup := col[h]; !dup {
					col[h] = i
				}
			}
			for _, h := range summaryColumns {
				if _, ok := col[h]; !ok {
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
		return nil, &ParseError{name, line + 1, err.Error()}
	}
	if header {
		return nil, &ParseError{name, line, "empty summary"}
	}
	return out, nil
}
