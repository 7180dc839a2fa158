package pipeline

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/capplan/capplan/sim"
)

// ParseMisestimate reads `--misestimate a:b[:stage|task]` (SIMULATE.md
// §2.1): policies see truth × (1+X) with X ~ U[a, b], one draw per task
// (the default) or per stage; −1 < a ≤ b. "" is off.
func ParseMisestimate(s string) (sim.Misestimate, error) {
	if s == "" {
		return sim.Misestimate{}, nil
	}
	parts := strings.Split(s, ":")
	bad := fmt.Errorf("invalid --misestimate %q: want a:b[:stage|task] with −1 < a ≤ b, such as -0.5:0.5", s)
	if len(parts) < 2 || len(parts) > 3 {
		return sim.Misestimate{}, bad
	}
	lo, err1 := strconv.ParseFloat(parts[0], 64)
	hi, err2 := strconv.ParseFloat(parts[1], 64)
	if err1 != nil || err2 != nil || !(lo > -1) || !(hi >= lo) || hi > 1e6 {
		return sim.Misestimate{}, bad
	}
	m := sim.Misestimate{Lo: lo, Hi: hi}
	if len(parts) == 3 {
		switch parts[2] {
		case "stage":
			m.PerStage = true
		case "task":
		default:
			return sim.Misestimate{}, bad
		}
	}
	return m, nil
}

// FormatMisestimate renders m as the flag reads it ("" when off).
func FormatMisestimate(m sim.Misestimate) string {
	if !m.On() {
		return ""
	}
	mode := "task"
	if m.PerStage {
		mode = "stage"
	}
	return strconv.FormatFloat(m.Lo, 'g', -1, 64) + ":" + strconv.FormatFloat(m.Hi, 'g', -1, 64) + ":" + mode
}
