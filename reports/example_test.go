package reports_test

import (
	"fmt"
	"os"

	"github.com/capplan/capplan/reports"
)

// A table rendered for a pipe: stable tab-separated lines, header first.
// On a terminal (Render(os.Stdout, true)) the same table is aligned, with
// upper-case headers.
func ExampleTable_Render() {
	t := reports.Table{
		Title:  "Shares",
		Header: []string{"application", "machines", "fraction"},
		Align:  []reports.Align{reports.AlignLeft, reports.AlignRight, reports.AlignRight},
	}
	t.AddRow(reports.TextCell("spark"), reports.NumberCell(1.5), reports.PercentCell(0.75))
	t.AddRow(reports.TextCell("batch"), reports.NumberCell(4), reports.PercentCell(4.0/7))
	if err := t.Render(os.Stdout, false); err != nil {
		fmt.Println(err)
	}
	// Output:
	// # Shares
	// application	machines	fraction
	// spark	1.5	75%
	// batch	4	57.14%
}

func ExampleFormatNumber() {
	fmt.Println(reports.FormatNumber(1.5), reports.FormatNumber(3), reports.FormatNumber(1.0/3))
	// Output: 1.5 3 0.3333
}
