package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
)

const conformanceSynopsis = `Runs the conformance vectors against kubesem, or against an external
implementation (--exec), and prints a table per package; exits 1 when a
vector fails. The line protocol --exec speaks and the vector format are
described in conformance/README.md.

--allow-unsupported skips (instead of failing) the vectors whose decision
the implementation answers "unsupported"; --run REGEX keeps the vectors
whose <package>/<name> matches; --timeout bounds each answer. The
implementation's stderr is forwarded; every failure prints its file, name,
input and diff.

Examples:

  kubesem conformance                      # every vector against kubesem
  kubesem conformance --exec "./my-impl"   # against your implementation
  kubesem conformance --vectors ./mine     # your own vectors
  kubesem conformance --exec "./my-impl" --allow-unsupported --run 'rollout/'`

// conformanceCmd runs the vectors and prints a per-package table. It
// reports whether every vector passed.
func conformanceCmd(args []string, stdout, stderr io.Writer) (bool, error) {
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	vectors := fs.String("vectors", "", "folder of <package>/*.json vectors (default: the vectors built into kubesem)")
	execCmd := fs.String("exec", "", "external implementation to check, run with sh -c; speaks the line protocol of conformance/README.md")
	pkgs := fs.String("package", "", "comma-separated packages to run (default: all)")
	verbose := fs.Bool("v", false, "list every vector, not only failures")
	allow := fs.Bool("allow-unsupported", false, "skip, instead of failing, vectors whose decision the implementation does not support")
	runFlag := fs.String("run", "", "run only the vectors whose \"<package>/<name>\" matches this regular expression")
	timeout := fs.Duration("timeout", 10*time.Second, "with --exec, how long to wait for each answer")
	if err := parseFlags(fs, args, stdout, conformanceSynopsis); err != nil {
		return false, err
	}
	suite := conformance.Suite{Vectors: kubesem.Vectors(), AllowUnsupported: *allow}
	if *vectors != "" {
		if st, err := os.Stat(*vectors); err != nil || !st.IsDir() {
			return false, usagef("conformance: --vectors: %q is not a folder", *vectors)
		}
		suite.Vectors = os.DirFS(*vectors)
	}
	if *pkgs != "" {
		suite.Packages = strings.Split(*pkgs, ",")
	}
	if *runFlag != "" {
		re, err := regexp.Compile(*runFlag)
		if err != nil {
			return false, usagef("conformance: --run: %v", err)
		}
		suite.Match = re
	}
	impl := conformance.Kubesem()
	name := "kubesem"
	if *execCmd != "" {
		p, err := conformance.ExecWith(conformance.ExecOptions{Stderr: stderr, Timeout: *timeout}, "sh", "-c", *execCmd)
		if err != nil {
			return false, usagef("conformance: --exec %q: %v", *execCmd, err)
		}
		defer p.Close()
		impl, name = p, *execCmd
	}
	results, err := conformance.Check(impl, suite)
	if errors.Is(err, conformance.ErrGone) {
		return false, fmt.Errorf("conformance: --exec %q: %v", *execCmd, err)
	}
	if err != nil {
		return false, usagef("conformance: %v", err)
	}
	if len(results) == 0 {
		return false, usagef("conformance: no vectors found")
	}
	return report(stdout, name, results, *verbose), nil
}

type tally struct{ total, passed, failed, skipped int }

func report(w io.Writer, name string, results []conformance.Result, verbose bool) bool {
	byPkg := map[string]*tally{}
	var order []string
	for _, r := range results {
		t := byPkg[r.Vector.Package]
		if t == nil {
			t = &tally{}
			byPkg[r.Vector.Package] = t
			order = append(order, r.Vector.Package)
		}
		t.total++
		switch {
		case r.Skipped:
			t.skipped++
		case r.Failure != "":
			t.failed++
			fmt.Fprintf(w, "FAIL %s/%s (%s, %s)\n  input: %s\n  %s\n", r.Vector.Package, r.Vector.Name, r.Vector.Decision,
				r.Vector.File, clip(r.Vector.Input, 2000), strings.ReplaceAll(r.Failure, "\n", "\n  "))
		default:
			t.passed++
			if verbose {
				fmt.Fprintf(w, "ok   %s/%s\n", r.Vector.Package, r.Vector.Name)
			}
		}
	}
	slices.Sort(order)
	fmt.Fprintf(w, "conformance of %s\n", name)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "package\tvectors\tpassed\tfailed\tskipped\t")
	var all tally
	for _, p := range order {
		t := byPkg[p]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t\n", p, t.total, t.passed, t.failed, t.skipped)
		all.total += t.total
		all.passed += t.passed
		all.failed += t.failed
		all.skipped += t.skipped
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t%d\t%d\t\n", all.total, all.passed, all.failed, all.skipped)
	tw.Flush()
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped\n", all.passed, all.failed, all.skipped)
	return all.failed == 0
}

// clip returns raw compacted, cut at n bytes.
func clip(raw json.RawMessage, n int) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		b.Reset()
		b.Write(raw)
	}
	if b.Len() > n {
		return b.String()[:n] + "…"
	}
	return b.String()
}
