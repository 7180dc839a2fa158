package reports

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestFormatNumber(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{1.5, "1.5"},
		{3, "3"},
		{1.0 / 3, "0.3333"},
		{2.0 / 3, "0.6667"}, // rounded, not truncated
		{0.00004, "0"},      // below four decimals
		{-0.00004, "0"},     // never "-0"
		{-2.25, "-2.25"},
		{137438953472, "137438953472"}, // 128 GiB in bytes: no exponent
		{1e21, "1000000000000000000000"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "+Inf"},
	} {
		if got := FormatNumber(tc.x); got != tc.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", tc.x, got, tc.want)
		}
	}
}

func TestFormatPercent(t *testing.T) {
	for _, tc := range []struct {
		frac float64
		want string
	}{
		{0.75, "75%"},
		{1, "100%"},
		{0, "0%"},
		{1.0 / 3, "33.33%"},
		{4.0 / 7, "57.14%"}, // 57.142857…
		{0.00001, "0%"},
		{math.NaN(), "NaN"},
	} {
		if got := FormatPercent(tc.frac); got != tc.want {
			t.Errorf("FormatPercent(%v) = %q, want %q", tc.frac, got, tc.want)
		}
	}
}

func TestFormatFloat(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{1.0 / 3, "0.3333333333333333"},
		{0.1, "0.1"},
		{3, "3"},
		{math.Copysign(0, -1), "0"},
		{1e-7, "0.0000001"},
		{math.Inf(-1), "-Inf"},
	} {
		if got := FormatFloat(tc.x); got != tc.want {
			t.Errorf("FormatFloat(%v) = %q, want %q", tc.x, got, tc.want)
		}
	}
}

// sample is a small table with a missing value, a percentage and a cell
// that needs sanitising in text views.
func sample() Table {
	t := Table{
		Title:  "Pods",
		Header: []string{"name", "cpu", "share"},
		Align:  []Align{AlignLeft, AlignRight, AlignRight},
	}
	t.AddRow(TextCell("web"), NumberCell(0.5), PercentCell(0.25))
	t.AddRow(TextCell("batch\tjob"), MissingCell("-"), PercentCell(1.0/3))
	return t
}

func TestRenderTerminal(t *testing.T) {
	var buf bytes.Buffer
	tb := sample()
	if err := tb.Render(&buf, true); err != nil {
		t.Fatal(err)
	}
	// Upper-case headers, numbers right-aligned, three blanks between
	// columns, no borders and no trailing blanks.
	want := "Pods\n" +
		"NAME        CPU    SHARE\n" +
		"web         0.5      25%\n" +
		"batch job     -   33.33%\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestRenderPipe(t *testing.T) {
	var buf bytes.Buffer
	tb := sample()
	if err := tb.Render(&buf, false); err != nil {
		t.Fatal(err)
	}
	want := "# Pods\n" +
		"name\tcpu\tshare\n" +
		"web\t0.5\t25%\n" +
		"batch job\t-\t33.33%\n"
	if buf.String() != want {
		t.Errorf("got %q\nwant %q", buf.String(), want)
	}
}

func TestRenderEmptyTable(t *testing.T) {
	tb := Table{Header: []string{"a", "b"}}
	for _, terminal := range []bool{true, false} {
		var buf bytes.Buffer
		if err := tb.Render(&buf, terminal); err != nil {
			t.Fatal(err)
		}
		want := "a\tb\n"
		if terminal {
			want = "A   B\n"
		}
		if buf.String() != want {
			t.Errorf("terminal=%v: got %q, want %q", terminal, buf.String(), want)
		}
	}
}

func TestWriteCSV(t *testing.T) {
	var buf bytes.Buffer
	tb := sample()
	tb.AddRow(TextCell(`say "hi", then`), IntCell(2), BoolCell(true))
	if err := tb.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	// Full precision, fractions not percentages, missing values empty,
	// quoting by encoding/csv, tabs kept.
	want := "name,cpu,share\n" +
		"web,0.5,0.25\n" +
		"batch\tjob,,0.3333333333333333\n" +
		"\"say \"\"hi\"\", then\",2,true\n"
	if buf.String() != want {
		t.Errorf("got %q\nwant %q", buf.String(), want)
	}
}

func TestTableUntypedRows(t *testing.T) {
	tb := Table{Header: []string{"k", "v"}, Align: []Align{AlignLeft, AlignRight}, Rows: [][]string{{"a", "1.25"}, {"b", "n/a"}}}
	tb.AddRow(TextCell("c"), NumberCell(2))
	if len(tb.Values) != len(tb.Rows) {
		t.Fatalf("Values has %d rows, Rows %d", len(tb.Values), len(tb.Rows))
	}
	// Text in a right-aligned column reads as a number when it is one.
	for _, tc := range []struct {
		i    int
		want any
	}{{0, 1.25}, {1, "n/a"}, {2, 2.0}} {
		if got := tb.value(tc.i, 1); got != tc.want {
			t.Errorf("value(%d, 1) = %#v, want %#v", tc.i, got, tc.want)
		}
	}
}

func TestTableMalformed(t *testing.T) {
	ragged := Table{Title: "r", Header: []string{"a", "b"}, Rows: [][]string{{"x"}}}
	if err := ragged.Render(&bytes.Buffer{}, false); err == nil || !strings.Contains(err.Error(), "row 1 has 1 cells") {
		t.Errorf("ragged row: err = %v", err)
	}
	if err := ragged.WriteCSV(&bytes.Buffer{}); err == nil {
		t.Error("ragged row: WriteCSV succeeded")
	}
	defer func() {
		if recover() == nil {
			t.Error("AddRow with the wrong number of cells did not panic")
		}
	}()
	tb := Table{Header: []string{"a", "b"}}
	tb.AddRow(TextCell("only one"))
}

func TestQuantityCell(t *testing.T) {
	cases := []struct {
		res  string
		x    float64
		text string
	}{
		{"memory", 137438953472, "128Gi"}, // 128 × 2^30
		{"memory", 1610612736, "1.5Gi"},   // 1.5 × 2^30
		{"memory", 1000, "1000"},          // under 1Ki: plain
		{"ephemeral-storage", 2048, "2Ki"},
		{"cpu", 65536, "65536"}, // not a byte resource
		{"memory", 1536.5, "1.5005Ki"},
		{"memory", 3 << 40, "3Ti"},
		{"memory", -2048, "-2Ki"}, // a negative waste
	}
	for _, tc := range cases {
		c := QuantityCell(tc.res, tc.x)
		if c.Text != tc.text || c.Value != tc.x {
			t.Errorf("QuantityCell(%q, %v) = %q/%v, want %q", tc.res, tc.x, c.Text, c.Value, tc.text)
		}
	}
}
