package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// svgBox is the box a label of a chart covers, by the width estimate the
// layout uses (textWidth): from the baseline, 0.8 em up and 0.25 em down.
type svgBox struct {
	what           string
	x0, y0, x1, y1 float64
}

// svgLabels parses a chart and returns its view box, its title lines and
// the boxes of its texts and legend swatches; a rotated or transformed
// text is an error (its box would not be a box).
func svgLabels(b []byte) (width, height float64, title string, boxes []svgBox, err error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	rootFont := 0.0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, "", nil, fmt.Errorf("malformed SVG: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attr := map[string]string{}
		for _, a := range se.Attr {
			attr[a.Name.Local] = a.Value
		}
		num := func(k string) float64 { v, _ := strconv.ParseFloat(attr[k], 64); return v }
		switch se.Name.Local {
		case "svg":
			var x, y float64
			if _, err := fmt.Sscanf(attr["viewBox"], "%g %g %g %g", &x, &y, &width, &height); err != nil || x != 0 || y != 0 {
				return 0, 0, "", nil, fmt.Errorf("viewBox %q", attr["viewBox"])
			}
			rootFont = num("font-size")
		case "rect":
			if attr["class"] == "swatch" {
				boxes = append(boxes, svgBox{"swatch", num("x"), num("y"), num("x") + num("width"), num("y") + num("height")})
			}
		case "text":
			var s string
			if err := dec.DecodeElement(&s, &se); err != nil {
				return 0, 0, "", nil, err
			}
			if attr["transform"] != "" {
				return 0, 0, "", nil, fmt.Errorf("text %q is transformed (%s)", s, attr["transform"])
			}
			size := rootFont
			if attr["font-size"] != "" {
				size = num("font-size")
			}
			w := textWidth(s, size, attr["font-weight"] == "bold")
			x := num("x")
			switch attr["text-anchor"] {
			case "end":
				x -= w
			case "middle":
				x -= w / 2
			}
			y := num("y")
			boxes = append(boxes, svgBox{fmt.Sprintf("%s %q", attr["class"], s), x, y - 0.8*size, x + w, y + 0.25*size})
			if attr["class"] == "title" {
				title += s + " "
			}
		}
	}
	return width, height, strings.TrimSpace(title), boxes, nil
}

// layoutProblems lists the boxes that leave the view box and the pairs
// that overlap.
func layoutProblems(width, height float64, boxes []svgBox) []string {
	var out []string
	for _, b := range boxes {
		if b.x0 < 0 || b.y0 < 0 || b.x1 > width || b.y1 > height {
			out = append(out, fmt.Sprintf("%s at (%.0f,%.0f)–(%.0f,%.0f) leaves the view box %.0f×%.0f", b.what, b.x0, b.y0, b.x1, b.y1, width, height))
		}
	}
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			a, b := boxes[i], boxes[j]
			if a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 {
				out = append(out, fmt.Sprintf("%s (%.0f,%.0f)–(%.0f,%.0f) overlaps %s (%.0f,%.0f)–(%.0f,%.0f)", a.what, a.x0, a.y0, a.x1, a.y1, b.what, b.x0, b.y0, b.x1, b.y1))
			}
		}
	}
	return out
}

// checkLayout fails t when a chart's labels overlap or leave its view box,
// or its title lacks want.
func checkLayout(t *testing.T, what string, b []byte, want string) {
	t.Helper()
	w, h, title, boxes, err := svgLabels(b)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if len(boxes) < 3 {
		t.Errorf("%s: %d labels", what, len(boxes))
	}
	if !strings.Contains(title, want) {
		t.Errorf("%s: title %q, want it to name %q", what, title, want)
	}
	problems := layoutProblems(w, h, boxes)
	if len(problems) > 5 {
		problems = append(problems[:5], fmt.Sprintf("… %d in all", len(problems)))
	}
	for _, p := range problems {
		t.Errorf("%s: %s", what, p)
	}
}

// TestSVGLayout: the charts of the example scenarios (simulate cluster
// --svg on testdata/scenarios, and a scenario with a name) and of every
// other simulation, with its defaults and with long parameters, have their
// title after the scenario and no label that overlaps another or leaves the
// view box, by the width estimate the layout uses.
func TestSVGLayout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run := func(what, want string, args ...string) {
		t.Helper()
		path := filepath.Join(dir, strconv.Itoa(len(what))+strings.NewReplacer("/", "_", " ", "_").Replace(what)+".svg")
		code, _, errOut := runCLI(t, "", append(args, "--svg", path)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", what, code, errOut)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		checkLayout(t, what, b, want)
	}
	scenarios, _ := filepath.Glob(filepath.Join("testdata", "scenarios", "*.yaml"))
	if len(scenarios) == 0 {
		t.Fatal("no example scenarios")
	}
	for _, f := range scenarios {
		run(f, "scenario "+filepath.Base(f), "simulate", "cluster", "--scenario", f)
	}
	data, err := os.ReadFile(scenarios[0])
	if err != nil {
		t.Fatal(err)
	}
	named := filepath.Join(dir, "named.yaml")
	if err := os.WriteFile(named, append([]byte("name: a Job whose pods all fail, retried with its backoff until the limit\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	run("a named scenario", "scenario a Job whose pods all fail, retried with its backoff until the limit (named.yaml)", "simulate", "cluster", "--scenario", named)

	for _, c := range []struct {
		want string
		args []string
	}{
		{"Deployment web: 10 replicas", []string{"simulate", "rollout", "--replicas", "10", "--max-surge", "3", "--max-unavailable", "2", "--ready-after", "3", "--scale-at", "4", "--scale-to", "15"}},
		{"Deployment web: 10 replicas, strategy RollingUpdate", []string{"simulate", "rollout"}},
		{`schedule "*/5 * * * *"`, []string{"simulate", "cronjob", "--schedule", "*/5 * * * *", "--window", "3h"}},
		{`schedule "* * * * *"`, []string{"simulate", "cronjob", "--schedule", "* * * * *", "--window", "48h"}},
		{"budget web-pdb: minAvailable", []string{"simulate", "drain"}},
		{"StatefulSet web: replicas 3", []string{"simulate", "statefulset", "--replicas", "3", "--update-at", "4", "--partition", "1"}},
		{"DaemonSet agent: 5 nodes", []string{"simulate", "daemonset", "--max-surge", "1", "--max-unavailable", "0", "--not-ready", "node-2@15s"}},
		{"nodes in", []string{"simulate", "node-outage", "--duration", "1m"}},
		{"pod ", []string{"simulate", "pod"}},
	} {
		run(strings.Join(c.args, " "), c.want, c.args...)
	}
}

// TestSVGLayoutCanFail: the check finds labels that overlap, leave the view
// box or are rotated.
func TestSVGLayoutCanFail(t *testing.T) {
	t.Parallel()
	svg := `<svg viewBox="0 0 100 40" font-size="11"><text x="2" y="12">+0s</text><text x="10" y="14">+10s</text><text x="80" y="30">+20m00s</text></svg>`
	w, h, _, boxes, err := svgLabels([]byte(svg))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(layoutProblems(w, h, boxes), "\n")
	if !strings.Contains(got, `"+0s"`) || !strings.Contains(got, "overlaps") || !strings.Contains(got, `"+20m00s"`) || !strings.Contains(got, "leaves the view box") {
		t.Errorf("problems:\n%s", got)
	}
	if _, _, _, _, err := svgLabels([]byte(`<svg viewBox="0 0 100 40"><text x="2" y="12" transform="rotate(45 2 12)">+0s</text></svg>`)); err == nil {
		t.Error("a rotated label passes")
	}
}
