package reports

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/capplan/capplan/plan"
)

func TestWriteFairShareTextGolden(t *testing.T) {
	for _, tc := range []struct {
		name     string
		terminal bool
		golden   string
	}{
		{"terminal", true, "fairshare_terminal.txt"},
		{"pipe", false, "fairshare_pipe.tsv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteFairShareText(&buf, choosyFigure1(), tc.terminal); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.golden, buf.Bytes())
		})
	}
}

func TestWriteFairShareCSVGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteFairShareCSV(&buf, choosyFigure1()); err != nil {
		t.Fatal(err)
	}
	golden(t, "fairshare_shares.csv", buf.Bytes())

	buf.Reset()
	if err := WriteFairShareNodesCSV(&buf, choosyFigure1()); err != nil {
		t.Fatal(err)
	}
	golden(t, "fairshare_nodes.csv", buf.Bytes())
}

func TestFairShareSharesRow(t *testing.T) {
	// The shares table is what people read first; pin batch's row:
	// 4 machines of 7 eligible = 57.14%, independent 3×½+4 = 5.5.
	tb := FairShareSharesTable(choosyFigure1())
	got := strings.Join(tb.Rows[3], "|")
	want := "batch|1|-|4|4|7|57.14%|3|5.5"
	if got != want {
		t.Errorf("batch row = %q, want %q", got, want)
	}
	// spark's cap is typed; presto's absent cap is a missing value.
	if v := tb.Values[0][2]; v != int64(2) {
		t.Errorf("spark max machines value = %#v, want int64(2)", v)
	}
	if v := tb.Values[1][2]; v != nil {
		t.Errorf("presto max machines value = %#v, want nil", v)
	}
}

func TestFairShareAllocationTable(t *testing.T) {
	tb := FairShareAllocationTable(choosyFigure1())
	if got, want := len(tb.Header), 1+10+1; got != want {
		t.Fatalf("header has %d columns, want %d (application, m1..m10, total)", got, want)
	}
	// presto: ¼ of m1 and m2, all of m3, nothing elsewhere; total 1.5.
	got := strings.Join(tb.Rows[1], " ")
	want := "presto 0.25 0.25 1 0 0 0 0 0 0 0 1.5"
	if got != want {
		t.Errorf("presto row = %q, want %q", got, want)
	}
}

func TestFairShareSummary(t *testing.T) {
	integral := choosyFigure1()
	integral.Integral = true
	integral.Certificate.Kind = "exchange"
	integral.Summary.Rounds = 1

	unverified := choosyFigure1()
	unverified.Certificate.Verified = false
	unverified.Method = "lp"
	unverified.Summary.Allocated = 9.5
	unverified.Summary.Idle = 0.5

	for _, tc := range []struct {
		name string
		doc  *plan.FairShare
		want string
	}{
		{"divisible", choosyFigure1(), "flow, divisible: 4 applications on 10 machines (10 types), 10 allocated, 0 idle; 3 rounds; certificate tightSets verified"},
		{"integral", integral, "flow, integral: 4 applications on 10 machines (10 types), 10 allocated, 0 idle; 1 round; certificate exchange verified"},
		{"unverified", unverified, "lp, divisible: 4 applications on 10 machines (10 types), 9.5 allocated, 0.5 idle; 3 rounds; certificate tightSets NOT verified"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := FairShareSummary(tc.doc); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestFairShareNodesMissing(t *testing.T) {
	doc := choosyFigure1()
	doc.Nodes = nil
	if err := WriteFairShareNodesCSV(&bytes.Buffer{}, doc); !errors.Is(err, ErrNoNodes) {
		t.Errorf("err = %v, want ErrNoNodes", err)
	}
	if _, err := FairShareNodesTable(doc); !errors.Is(err, ErrNoNodes) {
		t.Errorf("table err = %v, want ErrNoNodes", err)
	}
}

func TestFairShareIdleNode(t *testing.T) {
	doc := choosyFigure1()
	doc.Nodes = append(doc.Nodes, plan.NodeAssignment{Node: "m10-1", Type: "m10"})
	var buf bytes.Buffer
	if err := WriteFairShareNodesCSV(&buf, doc); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(buf.String(), "\nm10-1,m10,,\n") {
		t.Errorf("idle node should end the CSV with empty application and fraction:\n%s", buf.String())
	}
}

func TestFairShareBadDocument(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(*plan.FairShare)
	}{
		{"unknown byType", func(d *plan.FairShare) { d.Shares[0].ByType["m99"] = 1 }},
		{"duplicate type", func(d *plan.FairShare) { d.MachineTypes[1].Name = "m1" }},
		{"duplicate application", func(d *plan.FairShare) { d.Shares[1].Application = "spark" }},
		{"unknown piece type", func(d *plan.FairShare) { d.Certificate.Pieces[0].MachineTypes = []string{"x"} }},
		{"unknown node type", func(d *plan.FairShare) { d.Nodes[0].Type = "x" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := choosyFigure1()
			tc.mutate(doc)
			if err := WriteFairShareText(&bytes.Buffer{}, doc, false); !errors.Is(err, ErrBadDocument) {
				t.Errorf("text: err = %v, want ErrBadDocument", err)
			}
			if err := WriteFairShareCSV(&bytes.Buffer{}, doc); !errors.Is(err, ErrBadDocument) {
				t.Errorf("csv: err = %v, want ErrBadDocument", err)
			}
			if _, err := FairShareWorkbook(doc); !errors.Is(err, ErrBadDocument) {
				t.Errorf("workbook: err = %v, want ErrBadDocument", err)
			}
		})
	}
}

func TestFairShareSummaryTable(t *testing.T) {
	doc := choosyFigure1()
	seed := int64(42)
	doc.Seed = &seed
	tb := FairShareSummaryTable(doc)
	got := map[string]any{}
	for i, r := range tb.Rows {
		got[r[0]] = tb.Values[i][1]
	}
	for key, want := range map[string]any{
		"method":                "flow",
		"integral":              false,
		"applications":          int64(4),
		"allocated":             10.0,
		"independent min level": 1.0,
		"certificate verified":  true,
		"input cluster":         "examples/choosy-fig1/cluster.yaml",
		"input demand sha256":   doc.Inputs[1].SHA256,
		"seed":                  int64(42),
		"flag per-node":         "true",
		"generator":             "capplan v0.1.0",
		"machines":              int64(10),
		"rounds":                int64(3),
		"certificate":           "tightSets",
		"input cluster sha256":  doc.Inputs[0].SHA256,
		"flag method":           "flow",
		"min level":             1.5,
		"idle":                  0.0,
		"kind":                  "FairShare",
		"machine types":         int64(10),
		"allocation":            "divisible",
		"apiVersion":            "capplan/v1",
		"input demand":          "examples/choosy-fig1/demand.yaml",
	} {
		if got[key] != want {
			t.Errorf("%s = %#v, want %#v", key, got[key], want)
		}
	}
	if _, ok := got["exchange checks"]; ok {
		t.Error("divisible document should have no exchange checks row")
	}
}
