package pipeline

import (
	"testing"

	"github.com/capplan/capplan/sim"
)

func TestParseMisestimate(t *testing.T) {
	cases := []struct {
		in   string
		want sim.Misestimate
		ok   bool
	}{
		{"", sim.Misestimate{}, true},
		{"-0.5:0.5", sim.Misestimate{Lo: -0.5, Hi: 0.5}, true},
		{"-0.75:-0.5:stage", sim.Misestimate{Lo: -0.75, Hi: -0.5, PerStage: true}, true},
		{"0:0.3:task", sim.Misestimate{Hi: 0.3}, true},
		{"-1:0", sim.Misestimate{}, false},       // factor 1+X would reach 0
		{"0.5:0.2", sim.Misestimate{}, false},    // a > b
		{"0.5", sim.Misestimate{}, false},        // one bound
		{"0:1:job", sim.Misestimate{}, false},    // unknown mode
		{"x:1", sim.Misestimate{}, false},        // not a number
		{"0:1:task:x", sim.Misestimate{}, false}, // too many parts
	}
	for _, c := range cases {
		got, err := ParseMisestimate(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseMisestimate(%q) = %+v, %v; want %+v ok=%v", c.in, got, err, c.want, c.ok)
		}
		if c.ok && c.in != "" {
			back, err := ParseMisestimate(FormatMisestimate(got))
			if err != nil || back != got {
				t.Errorf("round trip of %q: %+v, %v", c.in, back, err)
			}
		}
	}
}
