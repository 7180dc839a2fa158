package reports

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// NumberFormat is how a cell's number shows in the bundle report (xlsx
// number format and HTML text alike). No format shows more than four
// decimals.
type NumberFormat int

const (
	// ShowText is text as it is.
	ShowText NumberFormat = iota
	// ShowInteger rounds to a whole number with thousands separators.
	ShowInteger
	// ShowDecimal2 shows two decimals with thousands separators.
	ShowDecimal2
	// ShowDecimal4 shows four decimals with thousands separators.
	ShowDecimal4
	// ShowPercent shows a fraction as a percentage with two decimals.
	ShowPercent
	// ShowYesNo shows a boolean as yes or no.
	ShowYesNo
	// ShowScientific shows four significant digits in scientific
	// notation (small normalised costs such as 1.909E-04).
	ShowScientific
)

// excelFormat is the xlsx number format code of f ("" for text).
func (f NumberFormat) excelFormat() string {
	switch f {
	case ShowInteger:
		return "#,##0"
	case ShowDecimal2:
		return "#,##0.00"
	case ShowDecimal4:
		return "#,##0.0000"
	case ShowPercent:
		return "0.00%"
	case ShowScientific:
		return "0.000E+00"
	}
	return ""
}

// Text formats v as the format shows it: 12345.678 → "12,346",
// "12,345.68" or "12,345.6780"; 0.1234 → "12.34%"; true → "yes".
func (f NumberFormat) Text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		if x {
			return "yes"
		}
		return "no"
	}
	n, ok := number(v)
	if !ok {
		return fmt.Sprint(v)
	}
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return strconv.FormatFloat(n, 'g', -1, 64)
	}
	switch f {
	case ShowInteger:
		return groupThousands(strconv.FormatFloat(n, 'f', 0, 64))
	case ShowDecimal2:
		return groupThousands(strconv.FormatFloat(n, 'f', 2, 64))
	case ShowDecimal4:
		return groupThousands(strconv.FormatFloat(n, 'f', 4, 64))
	case ShowPercent:
		return strconv.FormatFloat(n*100, 'f', 2, 64) + "%"
	case ShowScientific:
		return strconv.FormatFloat(n, 'E', 3, 64)
	}
	return FormatNumber(n)
}

// number returns v as a float64 when it is a number.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

// groupThousands inserts commas into the integer part of a decimal.
func groupThousands(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		return sign + b.String() + "." + frac
	}
	return sign + b.String()
}

// Column is one column of a step table: its header, with the unit in
// parentheses ("memory (GiB)"), and its format.
type Column struct {
	Header string
	Format NumberFormat
}

// FormattedCell is a value with its own format, overriding its column's (for
// key/value tables whose rows differ in kind).
type FormattedCell struct {
	Value  any
	Format NumberFormat
}

// StepTable is one table of the bundle report: a sheet of report.xlsx and
// a table of report.html. Row values are string, float64, int, int64,
// bool, nil (empty) or FormattedCell.
type StepTable struct {
	// Sheet is the sheet name (at most 31 characters); Title the heading.
	Sheet string
	Title string
	// Note, optional, says how to read the table.
	Note    string
	Columns []Column
	Rows    [][]any
}

// cell returns the value and format of cell (i, j).
func (t *StepTable) cell(i, j int) (any, NumberFormat) {
	v := t.Rows[i][j]
	if c, ok := v.(FormattedCell); ok {
		return c.Value, c.Format
	}
	return v, t.Columns[j].Format
}
