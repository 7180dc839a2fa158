package plural

import "testing"

func TestCount(t *testing.T) {
	cases := []struct {
		n    int
		noun string
		want string
	}{
		{0, "pod", "0 pods"},
		{1, "pod", "1 pod"},
		{2, "pod", "2 pods"},
		{1, "process", "1 process"},
		{2, "process", "2 processes"},
		{3, "box", "3 boxes"},
		{2, "batch", "2 batches"},
		{2, "policy", "2 policies"},
		{2, "day", "2 days"}, // vowel + y
		{2, "machine type", "2 machine types"},
		{-1, "node", "-1 nodes"},
	}
	for _, tc := range cases {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
	if got := With(int64(1), "child", "children"); got != "1 child" {
		t.Errorf("With(1) = %q", got)
	}
	if got := With(int64(4), "child", "children"); got != "4 children" {
		t.Errorf("With(4) = %q", got)
	}
}
