package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/capplan/capplan/internal/testdatasets"
)

// documentedLine is one command line of the documentation, as a user would
// type it.
type documentedLine struct {
	where string // README.md:LINE, or the command whose --help shows it
	line  string
}

// readmeLines extracts the capplan command lines of a Markdown file: in
// ```sh blocks every line that starts with "capplan " (with its
// continuation lines ending in \) and every one-line loop over capplan
// ("for i in 0 1; do capplan ... $i/2 ...; done"), and in other code
// blocks the lines of a shown terminal session, "$ capplan ...".
func readmeLines(t *testing.T, path string) []documentedLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []documentedLine
	sc := bufio.NewScanner(f)
	inBlock, sh := false, false
	n := 0
	var cont *documentedLine
	for sc.Scan() {
		n++
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			inBlock = !inBlock
			sh = inBlock && strings.TrimPrefix(trimmed, "```") == "sh"
			continue
		case !inBlock:
			continue
		case cont != nil:
			cont.line += " " + strings.TrimSuffix(trimmed, `\`)
			if !strings.HasSuffix(trimmed, `\`) {
				out = append(out, *cont)
				cont = nil
			}
			continue
		}
		cmd := ""
		switch {
		case sh && strings.HasPrefix(trimmed, "capplan "):
			cmd = trimmed
		case sh && strings.HasPrefix(trimmed, "for ") && strings.Contains(trimmed, "; do capplan "):
			cmd = trimmed
		case !sh && strings.HasPrefix(trimmed, "$ capplan "):
			cmd = strings.TrimPrefix(trimmed, "$ ")
		}
		if cmd == "" {
			continue
		}
		l := documentedLine{where: filepath.Base(path) + ":" + itoa(n), line: strings.TrimSuffix(cmd, `\`)}
		if strings.HasSuffix(cmd, `\`) {
			cont = &l
			continue
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// helpLines extracts the capplan lines of every command's --help examples.
func helpLines(cmd *cobra.Command) []documentedLine {
	var out []documentedLine
	for _, ln := range strings.Split(cmd.Example, "\n") {
		if l := strings.TrimSpace(ln); strings.HasPrefix(l, "capplan ") {
			out = append(out, documentedLine{where: cmd.CommandPath() + " --help", line: l})
		}
	}
	for _, sub := range cmd.Commands() {
		out = append(out, helpLines(sub)...)
	}
	return out
}

// documentedExitCodes are the lines that demonstrate a failure, with the
// exit code the README documents for them.
var documentedExitCodes = map[string]int{
	// A bundle whose sizing has no feasible mix: written with a warning.
	"capplan plan -c cluster.yaml -d demand.yaml -w workload.yaml --size std=1,highmem=3.5 -o bundle/": exitWarnings,
	// The simulated check's hand case: fifo keeps A below its plan, a
	// warning (the README: "exit code 3 for the warning").
	"capplan plan -c docs/plancheck/cluster.yaml -d docs/plancheck/demand.yaml -w docs/plancheck/workload.yaml  -k 1 --simulate fifo,xschedule --simulate-baseline none -o pc/": exitWarnings,
	// The validate example shows the problems of two broken files.
	"capplan validate datasets/testdata/bad-cluster.yaml datasets/testdata/bad-demand.yaml": exitFailure,
}

// undocumentedData are lines that need data the project cannot ship, each
// with the reason; they are not run. (None at present: every input of the
// documentation is an example file, a test file of the repository or a
// public data set under ../shared/datasets.)
var undocumentedData = map[string]string{}

// linkedRepoDirs are the folders of the repository the documentation's
// command lines read (the example and test files, the README's worked
// inputs under docs/); the test links them into its fresh clone and
// requires that no line writes into them.
var linkedRepoDirs = []string{"datasets", "docs"}

// treeState is every file under dir with its size and modification time,
// to see that a run wrote nothing there.
func treeState(t *testing.T, dir string) map[string]string {
	t.Helper()
	state := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		state[path] = info.Mode().String() + " " + itoa(int(info.Size())) + " " + info.ModTime().String()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// TestDocumentedCommands (issue 12, item 7): every capplan command line of
// README.md and of every command's --help examples runs as written, in
// order, in a directory laid out like a fresh clone (the repository's
// datasets/ and docs/ folders, ../shared/datasets beside it) with capplan
// on the PATH, and exits 0 — or with the code the README documents for the
// line — without writing into the repository's folders.
func TestDocumentedCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every documented command line")
	}
	shared := testdatasets.Need(t, "psplib")
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "capplan"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	clone := filepath.Join(tmp, "capplan")
	for _, dir := range []string{clone, filepath.Join(tmp, "shared")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{filepath.Join(tmp, "shared", "datasets"): filepath.Dir(shared)}
	before := map[string]map[string]string{}
	for _, dir := range linkedRepoDirs {
		links[filepath.Join(clone, dir)] = filepath.Join(repo, dir)
		before[dir] = treeState(t, filepath.Join(repo, dir))
	}
	for link, target := range links {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	lines := readmeLines(t, filepath.Join(repo, "README.md"))
	root, _ := newRootCmd(newIOStreams())
	lines = append(lines, helpLines(root)...)
	if len(lines) < 40 {
		t.Fatalf("found only %d command lines", len(lines))
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	start := time.Now()
	var cpu time.Duration
	ran := map[string]string{}
	for _, l := range lines {
		if reason, ok := undocumentedData[l.line]; ok {
			t.Logf("%s: skipped (%s): %s", l.where, reason, l.line)
			continue
		}
		if first, ok := ran[l.line]; ok {
			t.Logf("%s: run above as written (%s): %s", l.where, first, l.line)
			continue
		}
		ran[l.line] = l.where
		cmd := exec.Command("sh", "-c", l.line)
		cmd.Dir, cmd.Env = clone, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		t0 := time.Now()
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", l.where, err)
		}
		took := time.Since(t0)
		if cmd.ProcessState != nil {
			cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		if want := documentedExitCodes[l.line]; code != want {
			t.Errorf("%s: exit %d, want %d: %s\n%s", l.where, code, want, l.line, clipText(out.String()))
		}
		if took > 5*time.Second {
			t.Logf("%s: %v: %s", l.where, took.Round(time.Millisecond), l.line)
		}
	}
	for _, dir := range linkedRepoDirs {
		after := treeState(t, filepath.Join(repo, dir))
		for path, st := range after {
			if before[dir][path] != st {
				t.Errorf("a documented line wrote %s in the repository (%q, was %q)", path, st, before[dir][path])
			}
		}
		for path := range before[dir] {
			if _, ok := after[path]; !ok {
				t.Errorf("a documented line removed %s from the repository", path)
			}
		}
	}
	t.Logf("%d documented command lines in %v (%v of CPU)", len(lines), time.Since(start).Round(time.Second), cpu.Round(time.Second))
}
