package daemonset_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/internal/fuzzlimit"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

func FuzzStepOrderIndependent(f *testing.F) { fuzzlimit.Rapid(f, checkStepOrderIndependent) }
func FuzzStepRollingBudget(f *testing.F)    { fuzzlimit.Rapid(f, checkStepRollingBudget) }
func FuzzStepConverges(f *testing.F)        { fuzzlimit.Rapid(f, checkStepConverges) }
func FuzzClaims(f *testing.F)               { fuzzlimit.Rapid(f, checkClaims) }

// FuzzStep decodes a DaemonSet, nodes, pods and memory from JSON and runs
// Step: it never panics, an error is a *field.Error, and the Plan's Writes
// on the same inputs succeed.
func FuzzStep(f *testing.F) {
	f.Add([]byte(`{"spec":{"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"50%","maxSurge":1}}}}`),
		[]byte(`[{"metadata":{"name":"n1"},"spec":{"taints":[{"key":"a","effect":"NoExecute"}]}}]`),
		[]byte(`[{"metadata":{"name":"p"},"spec":{"nodeName":"n1"},"status":{"phase":"Failed"}}]`), []byte(`{}`))
	f.Add([]byte(`{"spec":{"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"x%"}}}}`), []byte(`[{}]`),
		[]byte(`[{"spec":{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["n"]}]}]}}}}}]`), []byte(`null`))
	f.Fuzz(func(t *testing.T, dsJSON, nodesJSON, podsJSON, memJSON []byte) {
		var ds daemonset.DaemonSet
		var nodes []*node.Node
		var pods []*podstatus.Pod
		var mem daemonset.Backoff
		if json.Unmarshal(dsJSON, &ds) != nil || json.Unmarshal(nodesJSON, &nodes) != nil || json.Unmarshal(podsJSON, &pods) != nil {
			return
		}
		_ = json.Unmarshal(memJSON, &mem)
		hist := daemonset.History{Hash: "h"}
		p, err := daemonset.Step(&ds, nodes, pods, hist, mem, time.Unix(1e9, 0).UTC(), daemonset.Options{})
		checkStepOutcome(t, &ds, pods, hist, p, err)
	})
}

// FuzzEligibility runs NodeShouldRunDaemonPod on decoded nodes and
// DaemonSets: it never panics, and ShouldRun implies ShouldContinueRunning.
func FuzzEligibility(f *testing.F) {
	f.Add([]byte(`{"metadata":{"name":"n"},"spec":{"taints":[{"key":"k","effect":"NoSchedule"}]}}`),
		[]byte(`{"spec":{"template":{"spec":{"tolerations":[{"operator":"Gt","value":"3"}],"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"a","operator":"Lt","values":["x"]}]}]}}}}}}}`))
	f.Fuzz(func(t *testing.T, nodeJSON, dsJSON []byte) {
		var n node.Node
		var ds daemonset.DaemonSet
		if json.Unmarshal(nodeJSON, &n) != nil || json.Unmarshal(dsJSON, &ds) != nil {
			return
		}
		for _, gate := range []bool{false, true} {
			e := daemonset.NodeShouldRunDaemonPod(&n, &ds, daemonset.Options{TaintTolerationComparisonOperators: gate})
			if e.ShouldRun && !e.ShouldContinueRunning {
				t.Fatalf("shouldRun without shouldContinueRunning: %+v", e)
			}
		}
	})
}

// FuzzTemplateGeneration: any annotation value is a template generation
// exactly when strconv.ParseInt reads it in base 10, and a pod labelled
// with that generation is updated exactly then.
func FuzzTemplateGeneration(f *testing.F) {
	for _, s := range []string{"0", "7", "-3", "+4", "007", "9223372036854775807", "9223372036854775808", "x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ds := &daemonset.DaemonSet{}
		ds.Annotations = map[string]string{daemonset.AnnotationTemplateGeneration: s}
		gen, ok := daemonset.TemplateGeneration(ds)
		if _, err := strconv.ParseInt(s, 10, 64); ok != (err == nil) {
			t.Fatalf("TemplateGeneration(%q) = %d, %v; ParseInt says %v", s, gen, ok, err)
		}
		pod := &podstatus.Pod{}
		pod.Labels = map[string]string{daemonset.LabelTemplateGeneration: strconv.FormatInt(gen, 10)}
		if got := daemonset.IsPodUpdated(pod, "", ds); got != ok {
			t.Fatalf("IsPodUpdated(label %d, annotation %q) = %v; want %v", gen, s, got, ok)
		}
	})
}

// FuzzStepHistory decodes a DaemonSet, its pods and its ControllerRevisions
// (labelled or not, duplicated, another's) from JSON and runs Step with the
// current hash drawn among the revisions': it never panics, an error is a
// *field.Error, and the Plan's Writes on the same inputs succeed.
func FuzzStepHistory(f *testing.F) {
	own := `"ownerReferences":[{"apiVersion":"apps/v1","kind":"DaemonSet","name":"ds","uid":"u","controller":true}]`
	f.Add([]byte(`{"metadata":{"name":"ds","uid":"u"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}}}}}`),
		[]byte(`[{"metadata":{"name":"p","labels":{"a":"b","controller-revision-hash":"old"},`+own+`},"spec":{"nodeName":"n1"}}]`),
		[]byte(`[{"metadata":{"name":"r1","labels":{"a":"b","controller-revision-hash":"h"},`+own+`},"revision":1},{"metadata":{"name":"r2","labels":{"a":"b","controller-revision-hash":"h"},`+own+`},"revision":3},{"metadata":{"name":"r3","labels":{"a":"b"},`+own+`},"revision":2}]`), uint8(0))
	f.Fuzz(func(t *testing.T, dsJSON, podsJSON, revsJSON []byte, pick uint8) {
		var ds daemonset.DaemonSet
		var pods []*podstatus.Pod
		var revs []history.ControllerRevision
		if json.Unmarshal(dsJSON, &ds) != nil || json.Unmarshal(podsJSON, &pods) != nil || json.Unmarshal(revsJSON, &revs) != nil {
			return
		}
		hist := daemonset.History{Hash: "h", Revisions: revs}
		if len(revs) > 0 {
			hist.Hash = daemonset.RevisionHash(&revs[int(pick)%len(revs)])
		}
		p, err := daemonset.Step(&ds, []*node.Node{{ObjectMeta: meta.ObjectMeta{Name: "n1"}}}, pods, hist, nil, time.Unix(1e9, 0).UTC(), daemonset.Options{})
		checkStepOutcome(t, &ds, pods, hist, p, err)
	})
}

// checkStepOutcome checks what a fuzzed Step returned: an error is a
// *field.Error; a Plan encodes, and its Writes on the same inputs succeed.
func checkStepOutcome(t *testing.T, ds *daemonset.DaemonSet, pods []*podstatus.Pod, hist daemonset.History, p daemonset.Plan, err error) {
	t.Helper()
	if err != nil {
		var fe *field.Error
		if !errors.As(err, &fe) {
			t.Fatalf("Step error %v is not a *field.Error", err)
		}
		return
	}
	if _, err := json.Marshal(p); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Writes(ds, pods, hist); err != nil {
		t.Fatalf("Writes of Step's own Plan: %v", err)
	}
}
