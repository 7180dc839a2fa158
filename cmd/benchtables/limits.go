package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/capplan/capplan/reports"
)

// limitsRows is the size of the production-size batch_task file of the
// limits table: about 18 shifted copies of the 55,875-row sample.
const limitsRows = 1_000_000

// limitsTables prints the peak RSS and wall time of `capplan dag schedule`
// on big Alibaba inputs at the default limits (issue 11: every documented
// command under 2 GB, or a clean stop at --max-memory naming the flag):
// the README example on the v2018 sample and the same command on a
// 1-million-row batch_task file made of shifted copies of the sample
// (writeAlibabaCopies, in a temporary directory, deleted afterwards). A
// run that stops at --max-memory is a row too, with its message. quick
// leaves the 1-million-row file out.
func limitsTables(quick bool) error {
	sample := filepath.Join(sharedDatasets, "alibaba-v2018", "batch_task_dag_sample_hliangzhao.csv")
	if _, err := os.Stat(sample); err != nil {
		fmt.Printf("Limits table skipped: %v\n\n", err)
		return nil
	}
	bin, dir, err := buildCapplan("capplan-limits-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	t := reports.Table{Title: "Big inputs at the default limits (--max-memory 1536Mi, --max-tasks 5000, --max-edges 200000): capplan dag schedule FILE --machines 2 --method graphene --compare bfs,cp,tetris --xlsx x.xlsx -o x.json",
		Header: []string{"INPUT", "ROWS", "WALL TIME", "PEAK RSS", "OUTCOME"},
		Align:  []reports.Align{reports.AlignLeft, reports.AlignRight, reports.AlignRight, reports.AlignRight, reports.AlignLeft}}
	inputs := []limitsInput{{"alibaba-v2018 sample (README)", sample, 55_875}}
	if !quick {
		big := filepath.Join(dir, "batch_task_1m.csv")
		if err := writeAlibabaCopies(sample, big, limitsRows); err != nil {
			return err
		}
		inputs = append(inputs, limitsInput{"1M rows (18 shifted copies)", big, limitsRows})
	}
	for _, in := range inputs {
		wall, rss, err := runCapplan(bin, "dag", "schedule", in.path, "--machines", "2", "--method", "graphene", "--compare", "bfs,cp,tetris",
			"--xlsx", filepath.Join(dir, "x.xlsx"), "-o", filepath.Join(dir, "x.json"))
		outcome := "scheduled"
		switch {
		case err != nil && strings.Contains(err.Error(), "--max-memory"):
			outcome = "stopped cleanly: " + strings.ReplaceAll(firstLine(err.Error(), "--max-memory"), in.path, filepath.Base(in.path))
		case err != nil:
			return err
		}
		t.Rows = append(t.Rows, []string{in.name, fmt.Sprint(in.rows), wall.Round(10 * time.Millisecond).String(), mib(uint64(rss)), outcome})
	}
	return render(t)
}

// limitsInput is one input of the limits table.
type limitsInput struct {
	name, path string
	rows       int
}

// firstLine returns the line of s that contains sub (s itself when none
// does), trimmed of the "capplan: " prefix.
func firstLine(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return strings.TrimPrefix(strings.TrimSpace(l), "capplan: ")
		}
	}
	return s
}
