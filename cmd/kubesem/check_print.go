package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/kubesem/kubesem/check"
	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/podstatus"
)

func firstImage(cs []podstatus.Container) string {
	if len(cs) == 0 {
		return ""
	}
	return cs[0].Image
}

// print writes the text report: what was explored, the alphabet and the
// bound, each property's outcome, and each counterexample's timeline.
func (c *checkRun) print(out io.Writer, r *check.Report, file string, elapsed time.Duration, saved string) {
	fmt.Fprintf(out, "check %s: %s; start %s\n", file, countKinds(c.run.sc.Objects), c.run.sc.Start.Format(time.RFC3339))
	if len(c.run.other) > 0 {
		var names []string
		for _, o := range c.run.other {
			names = append(names, o.String())
		}
		fmt.Fprintf(out, "not modelled, not run: %s\n", strings.Join(names, ", "))
	}
	if n := len(c.run.sc.Events); n > 0 {
		fmt.Fprintf(out, "the scenario's %d timed event(s) happen at their times, on every path (check.events happen at any point)\n", n)
	}
	switch {
	case r.Start > 0:
		fmt.Fprintf(out, "the world ran without the alphabet's events until it settled at %s; the exploration starts there\n", atOffset(r.Start))
	case !c.opts.FromStart:
		fmt.Fprintln(out, "the world does not settle without events (within the horizon); the exploration starts at the scenario's start")
	}
	src := "the check section"
	if !c.hasCheck {
		src = "default: no check section"
	}
	fmt.Fprintf(out, "alphabet (%s): %s\n", src, alphabetText(r.Alphabet))
	if c.skipped > 0 {
		fmt.Fprintf(out, "(no image update by default: the scenario has %d workloads, whose updates in every order would be too many; list those to explore under check.events)\n", c.skipped)
	}
	printSummary(out, r)
	fmt.Fprintf(out, "explored in %s\n", elapsed.Round(time.Millisecond))
	printResults(out, r)
	for _, res := range r.Results {
		if res.Held {
			continue
		}
		c.printCounterexample(out, r, res)
	}
	if len(r.Failed()) > 0 && saved == "" {
		fmt.Fprintln(out, "\n--save DIR writes each counterexample as a scenario that kubesem simulate cluster --scenario replays; --svg FILE draws the first")
	}
}

// alphabetText describes the alphabet.
func alphabetText(a check.Alphabet) string {
	var parts []string
	add := func(n int, one, many string) {
		switch {
		case n == 1:
			parts = append(parts, "1 "+one)
		case n > 1:
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	add(a.PodFailures, "pod failure (a running pod's containers exit 1)", "pod failures (a running pod's containers exit 1)")
	add(a.NodeOutages, "node outage (a running node stops heartbeating)", "node outages (a running node stops heartbeating)")
	if a.NodeReturns {
		parts = append(parts, "stopped nodes may return")
	}
	add(a.Evictions, "eviction of a running pod", "evictions of running pods")
	add(a.Drains, "node drain", "node drains")
	add(a.Orders, "change of the controllers' sync order", "changes of the controllers' sync order")
	for _, e := range a.Events {
		s := string(e.Kind) + " " + e.Target.String()
		switch {
		case e.Image != "":
			s += " to " + e.Image
		case e.Replicas != nil:
			s += fmt.Sprintf(" to %d", *e.Replicas)
		case e.Template != nil:
			s += " (a new template)"
		}
		parts = append(parts, s+" (once)")
	}
	if len(parts) == 0 {
		return "nothing: the world alone"
	}
	return strings.Join(parts, "; ")
}

// printSummary writes the bound and what was explored.
func printSummary(out io.Writer, r *check.Report) {
	sym := "on"
	if !r.Symmetry {
		sym = "off"
	}
	fmt.Fprintf(out, "bound: %d transitions a path, events within %s of the first state; liveness: settle good within %s; time read exactly back to %s; symmetry %s\n",
		r.MaxDepth, r.Horizon, r.Window, r.TimeCap, sym)
	if r.Shard.Count > 1 {
		fmt.Fprintf(out, "shard %d of %d\n", r.Shard.Index, r.Shard.Count)
	}
	state := "complete: every path within the bound"
	if !r.Complete {
		state = "INCOMPLETE: stopped at the states bound (--max-states); what held, held on the paths explored"
	}
	fmt.Fprintf(out, "explored %d states, %d transitions, %d levels deep; %s\n", r.States, r.Transitions, r.Depth, state)
}

// printResults lists each property's outcome.
func printResults(out io.Writer, r *check.Report) {
	fmt.Fprintln(out, "\nproperties:")
	width := 0
	for _, x := range r.Results {
		width = max(width, len(x.Property))
	}
	for _, x := range r.Results {
		what := "states"
		switch x.Form {
		case "write":
			what = "writes"
		case "liveness":
			what = "states under the obligation"
		}
		switch {
		case x.Held:
			fmt.Fprintf(out, "  held      %-*s  (%d %s)\n", width, x.Property, x.Checked, what)
		case x.Counterexample != nil:
			fmt.Fprintf(out, "  VIOLATED  %-*s  %s\n", width, x.Property, x.Counterexample.Message)
		default:
			fmt.Fprintf(out, "  VIOLATED  %-*s\n", width, x.Property)
		}
	}
}

// pathText writes a path with runs of ticks counted.
func pathText(path []string) string {
	var parts []string
	for i := 0; i < len(path); {
		j := i
		for j < len(path) && path[j] == path[i] {
			j++
		}
		if path[i] == "tick" && j-i > 1 {
			parts = append(parts, fmt.Sprintf("tick ×%d", j-i))
		} else {
			for range j - i {
				parts = append(parts, path[i])
			}
		}
		i = j
	}
	return strings.Join(parts, ", ")
}

// replay runs the counterexample's scenario until its end.
func (c *checkRun) replay(cx *check.Counterexample) (*cluster.World, error) {
	w, err := newWorld(cx.Scenario(c.run.sc), c.run.opts)
	if err != nil {
		return nil, err
	}
	w.Run(w.Start.Add(cx.Until))
	return w, nil
}

// printCounterexample writes one counterexample: its path, then its
// timeline (simulate cluster's), from the exploration's start to the
// violation, and for a liveness property on to where the world settles.
func (c *checkRun) printCounterexample(out io.Writer, r *check.Report, res check.Result) {
	cx := res.Counterexample
	fmt.Fprintf(out, "\ncounterexample: %s\n  %s\n", res.Property, cx.Message)
	if cx.Depth == 0 {
		fmt.Fprintln(out, "  at the first state")
	} else {
		fmt.Fprintf(out, "  %d transition(s) from the first state: %s\n", cx.Depth, pathText(cx.Path[:cx.Depth]))
	}
	if len(cx.Path) > cx.Depth {
		fmt.Fprintf(out, "  then, with no further event: %s, to %s\n", pathText(cx.Path[cx.Depth:]), atOffset(cx.Until))
	}
	w, err := c.replay(cx)
	if err != nil {
		fmt.Fprintf(out, "  (replay failed: %v)\n", err)
		return
	}
	start := w.Start.Add(r.Start)
	var before, after []cluster.Entry
	for _, e := range w.Trace {
		if e.Time.Before(start) || !e.Time.After(start) && r.Start > 0 {
			continue
		}
		if e.Time.After(w.Start.Add(cx.At)) {
			after = append(after, e)
		} else {
			before = append(before, e)
		}
	}
	fmt.Fprintln(out)
	(&clusterRun{w: withTrace(w, before)}).printTrace(out, false)
	fmt.Fprintf(out, "── %s: %s at %s\n", res.Property, violationWord(res), atOffset(cx.At))
	if res.Liveness {
		if happened(after) {
			(&clusterRun{w: withTrace(w, after)}).printTrace(out, false)
		}
		fmt.Fprintf(out, "── left alone until %s: settled where it does not hold\n", atOffset(cx.Until))
	}
	printFinal(out, w)
}

// happened reports whether es hold anything but heartbeats.
func happened(es []cluster.Entry) bool {
	for _, e := range es {
		if e.Reason != cluster.ReasonHeartbeat {
			return true
		}
	}
	return false
}

func violationWord(res check.Result) string {
	if res.Liveness {
		return "obliged from here, never met"
	}
	return "violated"
}

// withTrace returns a copy of w whose trace is tr (for printing part of
// it).
func withTrace(w *cluster.World, tr []cluster.Entry) *cluster.World {
	c := *w
	c.Trace = tr
	return &c
}

// saveAll writes each counterexample as a scenario file in dir.
func (c *checkRun) saveAll(r *check.Report, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--save: %v", err)
	}
	for _, res := range r.Failed() {
		if res.Counterexample == nil {
			continue
		}
		b, err := c.scenarioFile(res)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, res.Property+".yaml"), b, 0o644); err != nil {
			return fmt.Errorf("--save: %v", err)
		}
	}
	return nil
}

// scenarioFile is a counterexample as a scenario file for simulate
// cluster: the input's documents, its scenario document with the start
// and the counterexample's events (the check section removed).
func (c *checkRun) scenarioFile(res check.Result) ([]byte, error) {
	cx := res.Counterexample
	var doc map[string]json.RawMessage
	if c.scenario >= 0 {
		if err := json.Unmarshal(c.docs[c.scenario], &doc); err != nil {
			return nil, err
		}
	} else {
		doc = map[string]json.RawMessage{}
	}
	doc["start"], _ = json.Marshal(c.run.sc.Start.Format(time.RFC3339Nano))
	var events []json.RawMessage
	for i, e := range cx.Events {
		var m map[string]any
		if src := cx.Sources[i]; src >= 0 && c.rawEvents[src] != nil {
			if err := json.Unmarshal(c.rawEvents[src], &m); err != nil {
				return nil, err
			}
		} else {
			m = map[string]any{"kind": string(e.Kind), "target": e.Target}
			if e.Image != "" {
				m["image"] = e.Image
			}
			if e.ExitCode != 0 {
				m["exitCode"] = e.ExitCode
			}
			if e.Replicas != nil {
				m["replicas"] = *e.Replicas
			}
			if e.Order != nil {
				m["order"] = e.Order
				delete(m, "target")
			}
		}
		m["at"] = e.At.String()
		b, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		events = append(events, b)
	}
	doc["events"], _ = json.Marshal(events)
	var out bytes.Buffer
	fmt.Fprintf(&out, "# kubesem check counterexample: %s\n# %s\n# replay: kubesem simulate cluster --scenario FILE --until %s\n",
		res.Property, cx.Message, cx.Until)
	for i, d := range c.docs {
		if i == c.scenario {
			continue
		}
		if err := writeYAMLDoc(&out, d); err != nil {
			return nil, err
		}
	}
	b, _ := json.Marshal(doc)
	if err := writeYAMLDoc(&out, b); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func writeYAMLDoc(out *bytes.Buffer, js []byte) error {
	y, err := yaml.JSONToYAML(js)
	if err != nil {
		return err
	}
	out.WriteString("---\n")
	out.Write(y)
	return nil
}

// drawFirst draws the first counterexample's pods over time.
func (c *checkRun) drawFirst(r *check.Report, svgFile, file string) error {
	for _, res := range r.Failed() {
		if res.Counterexample == nil {
			continue
		}
		w, err := newWorld(res.Counterexample.Scenario(c.run.sc), c.run.opts)
		if err != nil {
			return err
		}
		t := podChart(w, w.Start.Add(res.Counterexample.Until))
		t.title = "kubesem check " + filepath.Base(file) + ": " + res.Property
		return t.writeFile(svgFile)
	}
	return nil
}
