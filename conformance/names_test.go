package conformance_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubesem/kubesem/conformance"
)

// pendingNames are decisions still named for no library function or
// method (issue 23); empty when it closes.
var pendingNames = map[string]bool{}

// TestDecisionNamesAreLibraryNames: every decision "<package>.<Name>" is
// named for the exported function or method of the library package it
// runs, so that `go doc ./<package> <Name>` documents it: Name is a
// function, "Type.Method", or a method name no other type of the package
// has.
func TestDecisionNamesAreLibraryNames(t *testing.T) {
	t.Parallel()
	runs := map[string]callables{}
	for _, d := range conformance.Registry() {
		ok := isLibraryName(t, runs, d.Name)
		if ok == pendingNames[d.Name] {
			if ok {
				t.Errorf("decision %s is a library name now: remove it from pendingNames", d.Name)
			} else {
				t.Errorf("decision %s names no exported function or method of its package (or a method several types have)", d.Name)
			}
		}
	}
}

// TestDecisionNamesCanFail: a type, a name the package does not declare
// and a method several types have are refused; a function, a method by
// its type and a method only one type has are accepted.
func TestDecisionNamesCanFail(t *testing.T) {
	t.Parallel()
	runs := map[string]callables{}
	for name, want := range map[string]bool{
		"podstatus.Status": false, "rollout.Nothing": false, "node.Writes": false,
		"rollout.Step": true, "job.Indexes.Has": true, "rollout.IsComplete": true,
	} {
		if got := isLibraryName(t, runs, name); got != want {
			t.Errorf("isLibraryName(%s) = %v; want %v", name, got, want)
		}
	}
}

// callables are a package's exported functions, its exported methods as
// "Type.Method", and how many types declare each exported method name.
type callables struct {
	funcs, methods map[string]bool
	bare           map[string]int
}

// isLibraryName reports whether decision "<package>.<Name>" names an
// exported function or method of the package (runs caches packages).
func isLibraryName(t *testing.T, runs map[string]callables, decision string) bool {
	pkg, name, _ := strings.Cut(decision, ".")
	c, ok := runs[pkg]
	if !ok {
		c = exportedCallables(t, filepath.Join("..", pkg))
		runs[pkg] = c
	}
	return c.funcs[name] || c.methods[name] || c.bare[name] == 1
}

// exportedCallables reads the non-test Go files of dir.
func exportedCallables(t *testing.T, dir string) callables {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	out := callables{funcs: map[string]bool{}, methods: map[string]bool{}, bare: map[string]int{}}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		af, err := parser.ParseFile(fset, f, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if af.Name.Name == "main" || strings.Contains(string(src), "//go:build ignore") {
			continue
		}
		for _, decl := range af.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() {
				continue
			}
			if fd.Recv == nil {
				out.funcs[fd.Name.Name] = true
				continue
			}
			recv := fd.Recv.List[0].Type
			if star, ok := recv.(*ast.StarExpr); ok {
				recv = star.X
			}
			if idx, ok := recv.(*ast.IndexExpr); ok {
				recv = idx.X
			}
			if id, ok := recv.(*ast.Ident); ok && id.IsExported() {
				out.methods[id.Name+"."+fd.Name.Name] = true
				out.bare[fd.Name.Name]++
			}
		}
	}
	return out
}
