package inputerr

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestProblemString(t *testing.T) {
	for _, tc := range []struct {
		p    Problem
		want string
	}{
		{Problem{File: "c.yaml", Path: "nodes[0].count", Msg: "missing"}, "c.yaml: nodes[0].count: missing"},
		{Problem{File: "c.yaml", Msg: "file is empty"}, "c.yaml: file is empty"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.p, got, tc.want)
		}
	}
}

func TestListCollects(t *testing.T) {
	l := &List{File: "d.yaml"}
	if l.Err() != nil || l.Len() != 0 {
		t.Fatal("empty list reports an error")
	}
	l.Add("applications[1].weight", "must be positive, got %d", -2)
	l.Add("", "no applications")
	err := l.Err()
	var e *Error
	if !errors.As(err, &e) || l.Len() != 2 || len(e.Problems) != 2 {
		t.Fatalf("err %v, len %d", err, l.Len())
	}
	if !errors.Is(err, ErrInvalid) {
		t.Error("an *Error does not wrap ErrInvalid")
	}
	want := "d.yaml: applications[1].weight: must be positive, got -2\nd.yaml: no applications"
	if err.Error() != want {
		t.Errorf("got %q, want %q", err.Error(), want)
	}
}

// 30 problems print maxShown = 20 lines and a 21st saying 10 more; the
// list itself keeps all 30.
func TestErrorShortens(t *testing.T) {
	l := &List{File: "f"}
	for i := range 30 {
		l.Add(fmt.Sprintf("x[%d]", i), "bad")
	}
	var e *Error
	errors.As(l.Err(), &e)
	lines := strings.Split(e.Error(), "\n")
	if len(lines) != 21 || lines[20] != "... and 10 more" || len(e.Problems) != 30 {
		t.Errorf("%d lines, last %q, %d problems", len(lines), lines[len(lines)-1], len(e.Problems))
	}
	if (&Error{}).Error() != "invalid input" {
		t.Error("empty error message")
	}
}

func TestLineCol(t *testing.T) {
	data := []byte("ab\ncd\n\nef")
	for _, tc := range []struct {
		off       int64
		line, col int
		comment   string
	}{
		{0, 1, 1, "first byte"},
		{2, 1, 3, "the newline ending line 1"},
		{3, 2, 1, "first byte after it"},
		{6, 3, 1, "empty line 3"},
		{8, 4, 2, "f"},
		{9, 4, 3, "end of data"},
		{99, 4, 3, "clamped to the end"},
		{-5, 1, 1, "clamped to the start"},
	} {
		l, c := LineCol(data, tc.off)
		if l != tc.line || c != tc.col || Line(data, tc.off) != tc.line {
			t.Errorf("%s (offset %d): %d:%d, want %d:%d", tc.comment, tc.off, l, c, tc.line, tc.col)
		}
	}
	if AtLine(12) != "line 12" {
		t.Error(AtLine(12))
	}
}
