package suggest

import "strings"

// MaxDistance is the largest edit distance at which an unknown name is
// taken for a typo of a known one; the distance must also be under a third
// of the longer name, so that "gpu" is not taken for "cpu".
const MaxDistance = 2

// maxCandidates bounds the names Closest compares against, so that a file
// with many unknown references to many names stays fast.
const maxCandidates = 200

// Closest returns the known name nearest to name (case-insensitive edit
// distance at most MaxDistance and under a third of the longer name; ties
// to the earlier), and false when none is that close.
func Closest(name string, known []string) (string, bool) {
	best, bestD := "", MaxDistance+1
	for i, k := range known {
		if i == maxCandidates {
			break
		}
		if len(name)-len(k) > MaxDistance || len(k)-len(name) > MaxDistance {
			continue // the distance is at least the difference in length
		}
		d := EditDistance(strings.ToLower(name), strings.ToLower(k))
		if d < bestD && 3*d < max(len(name), len(k)) {
			best, bestD = k, d
		}
	}
	return best, best != ""
}

// EditDistance is the optimal-string-alignment distance between a and b,
// in bytes: insertions, deletions, substitutions and transpositions of
// adjacent bytes each cost 1.
func EditDistance(a, b string) int {
	rows := make([][]int, len(a)+1)
	for i := range rows {
		rows[i] = make([]int, len(b)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, rows[i-2][j-2]+1)
			}
			rows[i][j] = d
		}
	}
	return rows[len(a)][len(b)]
}
