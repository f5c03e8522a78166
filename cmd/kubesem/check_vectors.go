package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/check"
	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/podgc"
)

// stepVector is one conformance vector of a counterexample's Step, as
// conformance.Load reads it. Want is {}: kubesem does not state the
// expectation of its own decision; the differential tests of
// conformance/upstream fill it from v1.36.3 (see vectorSource).
type stepVector struct {
	Decision string          `json:"decision"`
	Name     string          `json:"name"`
	Source   string          `json:"source"`
	Options  json.RawMessage `json:"options,omitempty"`
	Input    json.RawMessage `json:"input"`
	Want     json.RawMessage `json:"want"`
}

// upstreamFill names, per decision, the differential test of
// conformance/upstream that fills a vector's empty want in
// testdata/<package>/check-*.json from v1.36.3 (KUBESEM_WRITE_VECTORS=1);
// TestUpstreamFillTestsExist keeps the names true.
var upstreamFill = map[string]string{
	"rollout.Step":      "go -C conformance/upstream test -run TestRolloutStepVectorsUpstream ./deployment/",
	"replicaset.Step":   "go -C conformance/upstream test -run TestReplicaSetStepVectorsUpstream ./replicaset/",
	"statefulset.Step":  "go -C conformance/upstream test -run TestStatefulSetCheckVectorsUpstream ./statefulset/",
	"daemonset.Step":    "go -C conformance/upstream test -run TestDaemonSetVectorsUpstream ./daemonset/",
	"job.Step":          "go -C conformance/upstream test -run TestJobStepVectorsWrite ./job/",
	"pdb.Step":          "go -C conformance/upstream test -run TestPDBStepVectorsUpstream ./pdb/",
	"pdb.Evict":         "go -C conformance/upstream test -run TestPDBEvictVectorsUpstream ./pdb/",
	"node.Step":         "go -C conformance/upstream test -run TestNodeStepVectorsUpstream ./node/",
	"podgc.Step":        "go -C conformance/upstream test -run TestPodGCVectorsUpstream ./podgc/",
	"cronjob.Step":      "go -C conformance/upstream test -run TestCronJobStepVectorsUpstream ./cronjob/",
	"node.EvictionStep": "go -C conformance/upstream test -run TestNodeEvictionStepWritesUpstream ./node/",
}

// writeVectors writes, for each counterexample of r, the decisions along
// its replay that wrote something (every Step whose Plan became writes or
// failed, every eviction the API server decided) as conformance vectors:
// dir/<package>/check-<property>.json, one file per package of the
// decisions, each vector's input exactly what the world's Step read. It
// returns the files written.
func (c *checkRun) writeVectors(r *check.Report, dir string) ([]string, error) {
	var files []string
	for _, res := range r.Failed() {
		cx := res.Counterexample
		if cx == nil {
			continue
		}
		byPkg := map[string][]stepVector{}
		seen := map[string]bool{}
		var ferr error
		opts := c.run.opts
		n := 0
		opts.OnStep = func(call cluster.StepCall) {
			if ferr != nil || !worthAVector(call) {
				return
			}
			in, err := json.Marshal(call.Input)
			if err != nil {
				ferr = fmt.Errorf("--vectors: %s input: %v", call.Decision, err)
				return
			}
			var o json.RawMessage
			if call.Options != nil {
				// Options as JSON; left out when they are the defaults
				// (the JSON of the zero value: functions, such as the
				// exact template hash, are not options of a vector).
				if o, err = vectorOptions(call.Options); err != nil {
					ferr = fmt.Errorf("--vectors: %s options: %v", call.Decision, err)
					return
				}
				if zero, _ := vectorOptions(reflect.Zero(reflect.TypeOf(call.Options)).Interface()); bytes.Equal(o, zero) {
					o = nil
				}
			}
			key := call.Decision + "\x00" + string(o) + "\x00" + string(in)
			if call.Decision == "pdb.Evict" {
				// A drain retries every few seconds: one vector per
				// pod and budget state, whenever it was asked.
				b, _ := json.Marshal(map[string]any{"pod": call.Input["pod"], "budgets": call.Input["budgets"]})
				key = call.Decision + "\x00" + string(b)
			}
			if seen[key] {
				return
			}
			seen[key] = true
			n++
			pkg, _, _ := strings.Cut(call.Decision, ".")
			obj := call.Object.String()
			if call.Object == (cluster.Key{}) {
				obj = "all"
			}
			byPkg[pkg] = append(byPkg[pkg], stepVector{
				Decision: call.Decision,
				Name:     fmt.Sprintf("check %s #%d: %s %s +%s", res.Property, n, call.Controller, obj, call.Time.Sub(c.run.sc.Start)),
				Source:   vectorSource(res.Property, call.Decision),
				Options:  o,
				Input:    in,
				Want:     json.RawMessage("{}"),
			})
		}
		w, err := newWorld(cx.Scenario(c.run.sc), opts)
		if err != nil {
			return files, err
		}
		w.Run(w.Start.Add(cx.Until))
		if ferr != nil {
			return files, ferr
		}
		for _, pkg := range slices.Sorted(maps.Keys(byPkg)) {
			vs := byPkg[pkg]
			var b bytes.Buffer
			b.WriteString("[\n")
			for i, v := range vs {
				line, err := json.Marshal(v)
				if err != nil {
					return files, err
				}
				b.WriteString("  ")
				b.Write(line)
				if i < len(vs)-1 {
					b.WriteByte(',')
				}
				b.WriteByte('\n')
			}
			b.WriteString("]\n")
			p := filepath.Join(dir, pkg, "check-"+fileName(res.Property)+".json")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return files, fmt.Errorf("--vectors: %v", err)
			}
			if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
				return files, fmt.Errorf("--vectors: %v", err)
			}
			files = append(files, p)
		}
	}
	return files, nil
}

// worthAVector reports whether a decision along a counterexample changed
// something: a Step whose Plan became writes or that failed, or an
// eviction (allowed or refused, each is the API server's decision).
func worthAVector(call cluster.StepCall) bool {
	return call.Decision == "pdb.Evict" || len(call.Writes) > 0 || call.Err != nil
}

// vectorSource is a counterexample vector's source: where its input comes
// from, and how its want is to be filled from upstream.
func vectorSource(property, decision string) string {
	src := "kubesem check: a Step along the counterexample to " + property + "; input as the world's Step read it; "
	if fill, ok := upstreamFill[decision]; ok {
		return src + "want from upstream v1.36.3: put the file in testdata/<package>/ and run KUBESEM_WRITE_VECTORS=1 " + fill
	}
	return src + "want from upstream v1.36.3: no test of conformance/upstream fills " + decision + " vectors yet; state the want from upstream before shipping the vector (an empty want matches anything)"
}

// fileName is a property (a builtin's name or an expression) as a file
// name: letters, digits, '.', '_' and '-' kept, each run of other
// characters one '-'.
func fileName(property string) string {
	var b strings.Builder
	dash := false
	for _, r := range property {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimRight(b.String(), "-")
}

// vectorOptions is a package's Options as its vectors write them: the
// Options' JSON, but for job and podgc, whose vectors give durations as Go
// duration strings (conformance's bindings jobOptions and podgcOptions).
func vectorOptions(o any) (json.RawMessage, error) {
	dur := func(d time.Duration) string {
		if d == 0 {
			return ""
		}
		return d.String()
	}
	switch v := o.(type) {
	case job.Options:
		return json.Marshal(struct {
			BackoffCap             string `json:"backoffCap,omitempty"`
			BackoffBase            string `json:"backoffBase,omitempty"`
			KeepStartTimeOnSuspend bool   `json:"keepStartTimeOnSuspend,omitempty"`
		}{dur(v.BackoffCap), dur(v.BackoffBase), v.KeepStartTimeOnSuspend})
	case podgc.Options:
		return json.Marshal(struct {
			TerminatedPodThreshold *int   `json:"terminatedPodThreshold,omitempty"`
			Quarantine             string `json:"quarantine,omitempty"`
		}{v.TerminatedPodThreshold, dur(v.Quarantine)})
	}
	return json.Marshal(o)
}
