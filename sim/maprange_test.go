package sim_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoMapRange enforces SIMULATE.md §1.7.2: maps are for lookup only. In
// the simulator's packages (and the simulation files of the pipeline and
// reports) a range over a map is allowed only as a sorted-key helper: a
// loop whose body just appends the key to a slice (sorted afterwards).
// Anything else could make output depend on Go's random map order.
func TestNoMapRange(t *testing.T) {
	dirs := []struct {
		dir    string
		prefix string // only files starting with it ("" for all)
	}{
		{".", ""}, {"policies", ""}, {"../datasets/workloads", ""}, {"../pipeline", "simulate"}, {"../reports", "simulation"},
		{"../plan", "simulation"},
	}
	for _, d := range dirs {
		fset := token.NewFileSet()
		entries, err := os.ReadDir(d.dir)
		if err != nil {
			t.Fatal(err)
		}
		var files []*ast.File
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(d.dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		// Type-check with the standard importer where export data exists;
		// unresolved imports only leave some expressions untyped, so the
		// check errs on the side of silence for them, never of noise.
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
		conf := types.Config{Importer: importer.Default(), Error: func(error) {}}
		_, _ = conf.Check(d.dir, fset, files, info)
		for _, f := range files {
			name := filepath.Base(fset.Position(f.Pos()).Filename)
			if d.prefix != "" && !strings.HasPrefix(name, d.prefix) {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				rs, ok := n.(*ast.RangeStmt)
				if !ok {
					return true
				}
				tv, ok := info.Types[rs.X]
				if !ok || tv.Type == nil {
					return true
				}
				if _, isMap := tv.Type.Underlying().(*types.Map); !isMap || keyCollector(rs) {
					return true
				}
				t.Errorf("%s: range over a map outside a sorted-key helper", fset.Position(rs.Pos()))
				return true
			})
		}
	}
}

// keyCollector reports whether a range statement only appends its key to
// a slice: for k := range m { keys = append(keys, k) }.
func keyCollector(rs *ast.RangeStmt) bool {
	key, ok := rs.Key.(*ast.Ident)
	if !ok || rs.Value != nil || len(rs.Body.List) != 1 {
		return false
	}
	as, ok := rs.Body.List[0].(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return false
	}
	call, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok || len(call.Args) != 2 {
		return false
	}
	fn, ok := call.Fun.(*ast.Ident)
	arg, ok2 := call.Args[1].(*ast.Ident)
	return ok && ok2 && fn.Name == "append" && arg.Name == key.Name
}
