package datasets

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/capplan/capplan/internal/inputerr"
)

// maxIntegerDigits bounds the length of an integer literal, so that exact
// parsing stays cheap on hostile input; every integer the model holds fits
// in an int64 (19 digits).
const maxIntegerDigits = 40

// parseRat returns the value of a number literal (the decoder has checked
// its JSON syntax) as a big.Rat. Integer literals are exact at any size. A
// literal with a fraction or an exponent is read as the shortest decimal
// that round-trips its float64, the precision YAML numbers have anyway, so
// that YAML and JSON inputs mean the same and values with up to 15
// significant digits stay exact.
func parseRat(n json.Number) (*big.Rat, bool) {
	s := n.String()
	if !strings.ContainsAny(s, ".eE") {
		if len(s) > maxIntegerDigits {
			return nil, false
		}
		return new(big.Rat).SetString(s)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, false
	}
	return new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
}

// checkInteger converts n to an int64 in [lo, hi], reporting at path.
func checkInteger(ps *inputerr.List, path string, n json.Number, lo, hi int64) (int64, bool) {
	r, ok := parseRat(n)
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		ps.Add(path, "must be a whole number, got %s", clip(n.String()))
		return 0, false
	}
	v := r.Num().Int64()
	if v < lo || v > hi {
		ps.Add(path, "must be %s, got %d", rangeText(lo, hi), v)
		return 0, false
	}
	return v, true
}

// rangeText describes [lo, hi] for messages, leaving out a bound at the
// limit of int64.
func rangeText(lo, hi int64) string {
	switch {
	case hi == math.MaxInt64:
		return "at least " + strconv.FormatInt(lo, 10)
	default:
		return "between " + strconv.FormatInt(lo, 10) + " and " + strconv.FormatInt(hi, 10)
	}
}

// checkFloat converts n to a finite float64 ≥ 0 (> 0 unless zeroOK); unit
// names what it counts in messages (" seconds", or "").
func checkFloat(ps *inputerr.List, path string, n json.Number, zeroOK bool, unit string) (float64, bool) {
	f, err := strconv.ParseFloat(n.String(), 64)
	switch {
	case err != nil || math.IsInf(f, 0) || math.IsNaN(f):
		ps.Add(path, "number %s is out of range", clip(n.String()))
		return 0, false
	case f < 0 || (f == 0 && !zeroOK):
		if zeroOK {
			ps.Add(path, "must be ≥ 0%s, got %s", unit, n)
		} else {
			ps.Add(path, "must be > 0%s, got %s", unit, n)
		}
		return 0, false
	}
	return f, true
}
