package main

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// The CLI holds no rule: what a controller, the API server, the kubelet or
// the scheduler decides is decided by the library — the cluster package's
// world for the simulations — and cmd/kubesem only parses flags, reads
// files, builds scenarios and prints. TestNoRules checks it on the types:
// every function or method of a kubesem package that a CLI file calls must
// be the world (package cluster), the vocabulary (plan), the conformance
// registry, an encoder, an API validation (a package's Validate: refusing
// what the API server refuses is parsing flags), or one of the accessors
// below, which read a field and apply the API's documented default.
var allowedCalls = map[string]bool{
	"intstr.Parse":                      true,
	"meta.SelectorFromSet":              true,
	"(*meta.ObjectMeta).IsDeleting":     true, // metadata.deletionTimestamp != nil
	"podstatus.IsRestartableInit":       true, // the API's definition of a sidecar
	"(*podstatus.Pod).Condition":        true, // finds a condition by type
	"(*node.Node).IsReady":              true, // the Ready condition is True
	"(*replicaset.ReplicaSet).Replicas": true, // spec.replicas, default 1
}

// allowedPackages are the kubesem packages any function of which the CLI
// may call.
var allowedPackages = map[string]bool{
	"github.com/kubesem/kubesem/cluster":     true,
	"github.com/kubesem/kubesem/plan":        true,
	"github.com/kubesem/kubesem/conformance": true,
	"github.com/kubesem/kubesem/field":       true,
	"github.com/kubesem/kubesem/k8s":         true,
	// The strict JSON decoder and its error descriptions.
	"github.com/kubesem/kubesem/internal/apijson": true,
	// The model checker over the world: it holds no rule of its own.
	"github.com/kubesem/kubesem/check": true,
}

// ruleCalls type-checks the package in dir (its non-test files, or only
// those named in only when it is not empty) and returns, per file, the
// calls into kubesem packages that are not allowed.
func ruleCalls(t *testing.T, dir string, only map[string]string) map[string][]string {
	t.Helper()
	fset, imp := sharedImporter()
	var files []*ast.File
	if only != nil {
		for name, src := range only {
			f, err := parser.ParseFile(fset, name, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	} else {
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if strings.HasSuffix(n, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, n, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: imp, Error: func(error) {}}
	if _, err := conf.Check("main", fset, files, info); err != nil && only == nil {
		t.Fatalf("type-checking %s: %v", dir, err)
	}
	out := map[string][]string{}
	for _, f := range files {
		name := filepath.Base(fset.Position(f.Pos()).Filename)
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			fn, ok := info.Uses[sel.Sel].(*types.Func)
			if !ok || fn.Pkg() == nil || !strings.HasPrefix(fn.Pkg().Path(), "github.com/kubesem/kubesem/") {
				return true
			}
			if allowedPackages[fn.Pkg().Path()] || strings.HasPrefix(fn.Pkg().Path(), "github.com/kubesem/kubesem/cmd/") {
				return true
			}
			full := shortFuncName(fn)
			if allowedCalls[full] || fn.Name() == "Validate" && fn.Type().(*types.Signature).Recv() == nil {
				return true
			}
			out[name] = append(out[name], full+" at "+fset.Position(call.Pos()).String())
			return true
		})
	}
	return out
}

var (
	importerOnce sync.Once
	importerFset *token.FileSet
	importerImp  types.Importer
)

// sharedImporter is one source importer for every check, so that the
// library is type-checked once per test binary.
func sharedImporter() (*token.FileSet, types.Importer) {
	importerOnce.Do(func() {
		importerFset = token.NewFileSet()
		// The compiler's export data of every dependency (go list -export,
		// from the build cache): type-checking client-go and k8s.io/api
		// from source takes minutes. The source importer is the fallback.
		exports := map[string]string{}
		out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", ".").Output()
		if err == nil {
			for _, l := range strings.Split(string(out), "\n") {
				if p, f, ok := strings.Cut(l, "="); ok && f != "" {
					exports[p] = f
				}
			}
		}
		if len(exports) == 0 {
			importerImp = importer.ForCompiler(importerFset, "source", nil)
			return
		}
		importerImp = importer.ForCompiler(importerFset, "gc", func(path string) (io.ReadCloser, error) {
			f, ok := exports[path]
			if !ok {
				return nil, fmt.Errorf("no export data for %s", path)
			}
			return os.Open(f)
		})
	})
	return importerFset, importerImp
}

// shortFuncName is pkg.F or (*pkg.T).M with the package's name.
func shortFuncName(fn *types.Func) string {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return fn.Pkg().Name() + "." + fn.Name()
	}
	return "(" + types.TypeString(sig.Recv().Type(), func(p *types.Package) string { return p.Name() }) + ")." + fn.Name()
}

func TestNoRules(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the CLI and its imports from source")
	}
	bad := ruleCalls(t, ".", nil)
	var files []string
	for f := range bad {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		t.Errorf("%s calls a rule of the library instead of the world: %s", f, strings.Join(bad[f], "; "))
	}
	// The simulations in particular: each must build a world.
	sims, _ := filepath.Glob("simulate_*.go")
	for _, s := range sims {
		if strings.HasSuffix(s, "_test.go") || strings.HasPrefix(s, "simulate_cluster") {
			continue
		}
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "newWorld(") && !strings.Contains(string(b), "newSimWorld(") {
			t.Errorf("%s builds no cluster.World", s)
		}
	}
}

// TestNoRulesCanFail: the check catches a decision called from the CLI
// (podstatus.ShouldRestart, a rollout method), and lets the world,
// validation and the allowed accessors through.
func TestNoRulesCanFail(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks from source")
	}
	src := `package main

import (
	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/rollout"
)

func f(d *rollout.Deployment, c *podstatus.Container, p *podstatus.Pod) {
	_ = podstatus.ShouldRestart(c, podstatus.RestartAlways, 1)
	_ = d.MaxSurge()
	_ = rollout.Validate(d, nil, nil)
	_ = p.IsDeleting()
	_, _ = cluster.New(cluster.Scenario{}, cluster.Options{})
}
`
	bad := ruleCalls(t, ".", map[string]string{"probe.go": src})["probe.go"]
	got := strings.Join(bad, "\n")
	if len(bad) != 2 || !strings.Contains(got, "podstatus.ShouldRestart") || !strings.Contains(got, "(*rollout.Deployment).MaxSurge") {
		t.Errorf("the check found %d calls, want ShouldRestart and MaxSurge only:\n%s", len(bad), got)
	}
}
