package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// svgSteps parses an SVG (failing on malformed XML) and returns which step
// indexes its columns cover.
func svgSteps(t *testing.T, b []byte) map[int]bool {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	covered := map[int]bool{}
	sawSVG := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("malformed SVG: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if se.Name.Local == "svg" {
			sawSVG = true
		}
		if se.Name.Local != "g" {
			continue
		}
		var first, last int
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "data-first":
				first, _ = strconv.Atoi(a.Value)
			case "data-last":
				last, _ = strconv.Atoi(a.Value)
			}
		}
		for i := first; i <= last; i++ {
			covered[i] = true
		}
	}
	if !sawSVG {
		t.Fatal("no <svg> element")
	}
	return covered
}

// TestSimulateSVG: every simulation writes a well-formed standalone SVG with
// a column for every step it prints.
func TestSimulateSVG(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct {
		args  []string
		steps func(out string) int
	}{
		{[]string{"simulate", "rollout", "--replicas", "10", "--max-surge", "3", "--max-unavailable", "2", "--ready-after", "3", "--scale-at", "4", "--scale-to", "15"},
			func(out string) int {
				return countLines(out, func(l string) bool { f := strings.Fields(l); return len(f) > 2 && isDuration(f[0]) })
			}},
		{[]string{"simulate", "cronjob", "--schedule", "*/5 * * * *", "--window", "3h"},
			func(out string) int { return strings.Count(out, "\n  2026-") }},
		{[]string{"simulate", "cronjob", "--schedule", "* * * * *", "--window", "48h"},
			func(out string) int { return strings.Count(out, "\n  2026-") }},
		{[]string{"simulate", "drain"},
			func(out string) int {
				return countLines(out, func(l string) bool { f := strings.Fields(l); return len(f) == 1 && isDuration(f[0]) })
			}},
		{[]string{"simulate", "statefulset", "--replicas", "3", "--update-at", "4", "--partition", "1"},
			func(out string) int {
				return countLines(out, func(l string) bool { f := strings.Fields(l); return len(f) > 2 && isDuration(f[0]) })
			}},
		// One column per tick: the length of a node's chart row.
		{[]string{"simulate", "daemonset", "--max-surge", "1", "--max-unavailable", "0", "--not-ready", "node-2@15s"},
			func(out string) int {
				_, row, _ := strings.Cut(out, "\nnode-0   ")
				row, _, _ = strings.Cut(row, "\n")
				return len(row)
			}},
	}
	for i, c := range cases {
		path := filepath.Join(dir, strconv.Itoa(i)+".svg")
		code, out, errOut := runCLI(t, "", append(c.args, "--svg", path)...)
		if code != 0 {
			t.Fatalf("%v = %d: %s", c.args, code, errOut)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		covered := svgSteps(t, b)
		n := c.steps(out)
		if n == 0 || len(covered) != n {
			t.Errorf("%v: SVG covers %d steps; the timeline printed %d", c.args, len(covered), n)
		}
		for s := range n {
			if !covered[s] {
				t.Errorf("%v: SVG lacks step %d", c.args, s)
				break
			}
		}
	}
}

func countLines(s string, f func(string) bool) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if f(l) {
			n++
		}
	}
	return n
}

func isInt(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// isDuration reports whether s is a Go duration ("0s", "1m10s"): the first
// field of a timeline row of the simulations on the world.
func isDuration(s string) bool {
	_, err := time.ParseDuration(s)
	return err == nil
}
