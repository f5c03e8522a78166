package statefulset

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// TestWriteVectors regenerates testdata/statefulset/{step,rules}.json from
// the scenarios below when KUBESEM_WRITE_VECTORS=1. The wants are checked
// against v1.36.3 by conformance/upstream statefulset_vectors_test.go.
func TestWriteVectors(t *testing.T) {
	if os.Getenv("KUBESEM_WRITE_VECTORS") != "1" {
		t.Skip("set KUBESEM_WRITE_VECTORS=1 to regenerate")
	}
	write := func(file string, vs []genVector) {
		b, err := json.MarshalIndent(vs, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("../testdata/statefulset/"+file, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("step.json", stepVectors(t))
	write("rules.json", ruleVectors())
}

type genVector struct {
	Decision  string          `json:"decision"`
	Name      string          `json:"name"`
	Source    string          `json:"source"`
	Options   *Options        `json:"options,omitempty"`
	Input     any             `json:"input"`
	Want      json.RawMessage `json:"want,omitempty"`
	WantError *genWantError   `json:"wantError,omitempty"`
}

type genWantError struct {
	Field string `json:"field"`
	Kind  string `json:"kind"`
}

var genNow = time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)

type stepInput struct {
	Set       StatefulSet `json:"set"`
	Pods      []*Pod      `json:"pods"`
	Revisions []Revision  `json:"revisions"`
	Claims    []*Claim    `json:"claims"`
	Now       time.Time   `json:"now"`
}

func i32(v int32) *int32 { return &v }

// gset is a web set with replicas, template revision web-v1, current
// revision web-v1, RollingUpdate partition 0, OrderedReady.
func gset(replicas int32, mods ...func(*StatefulSet)) StatefulSet {
	s := StatefulSet{
		ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "default", UID: "set-uid", Generation: 1},
		Spec: Spec{Replicas: i32(replicas), ServiceName: "nginx", PodManagementPolicy: OrderedReady,
			UpdateStrategy:       UpdateStrategy{Type: RollingUpdate, RollingUpdate: &RollingUpdateStrategy{Partition: i32(0)}},
			RevisionHistoryLimit: i32(10), TemplateRevision: "web-v1"},
		Status: Status{ObservedGeneration: 1, CurrentRevision: "web-v1", UpdateRevision: "web-v1", CollisionCount: i32(0)},
	}
	for _, m := range mods {
		m(&s)
	}
	return s
}

func parallel(s *StatefulSet) { s.Spec.PodManagementPolicy = Parallel }
func onDelete(s *StatefulSet) {
	s.Spec.UpdateStrategy = UpdateStrategy{Type: OnDelete}
}
func template(rev string) func(*StatefulSet) {
	return func(s *StatefulSet) { s.Spec.TemplateRevision = rev }
}
func partition(p int32) func(*StatefulSet) {
	return func(s *StatefulSet) { s.Spec.UpdateStrategy.RollingUpdate.Partition = i32(p) }
}
func start(o int32) func(*StatefulSet) {
	return func(s *StatefulSet) { s.Spec.Ordinals = &OrdinalsSpec{Start: o} }
}
func maxUnavail(v intstr.Value) func(*StatefulSet) {
	return func(s *StatefulSet) { s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = &v }
}
func claims(names ...string) func(*StatefulSet) {
	return func(s *StatefulSet) { s.Spec.VolumeClaimTemplates = names }
}
func retention(d, sc RetentionPolicyType) func(*StatefulSet) {
	return func(s *StatefulSet) {
		s.Spec.PersistentVolumeClaimRetentionPolicy = &RetentionPolicy{WhenDeleted: d, WhenScaled: sc}
	}
}

// pod states
const (
	running    = "running" // Running and Ready for 60s
	notReady   = "notready"
	pending    = "pending"
	failed     = "failed"
	succeeded  = "succeeded"
	readyJust  = "readyjust" // Running, Ready 3s ago
	terminated = "terminating"
)

// gpod is pod web-<ord> in state at revision rev, with identity label and
// the claim volumes of templates.
func gpod(ord int32, state, rev string, templates ...string) *Pod {
	name := "web-" + strconv.Itoa(int(ord))
	p := &Pod{Pod: podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name,
		Labels: map[string]string{"app": "web", LabelPodName: name, RevisionLabel: rev}}}}
	for _, t := range templates {
		p.Volumes = append(p.Volumes, Volume{Name: t, ClaimName: ClaimName(t, "web", ord)})
	}
	ready := func(ago time.Duration) {
		p.Status.Phase = podstatus.Running
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: genNow.Add(-ago)}}
	}
	switch state {
	case running:
		ready(time.Minute)
	case readyJust:
		ready(3 * time.Second)
	case notReady:
		p.Status.Phase = podstatus.Running
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionFalse, LastTransitionTime: genNow.Add(-time.Minute)}}
	case pending:
		p.Status.Phase = podstatus.Pending
	case failed:
		p.Status.Phase = podstatus.Failed
	case succeeded:
		p.Status.Phase = podstatus.Succeeded
	case terminated:
		ready(time.Minute)
		d := genNow.Add(-time.Second)
		p.DeletionTimestamp = &d
	}
	return p
}

func revs(names ...string) []Revision {
	out := make([]Revision, len(names))
	for i, n := range names {
		out[i] = Revision{Name: n, Revision: int64(i + 1)}
	}
	return out
}

type stepCase struct {
	name, source string
	set          StatefulSet
	pods         []*Pod
	revs         []Revision
	claims       []*Claim
	opts         *Options
}

func stepVectors(t *testing.T) []genVector {
	v1 := revs("web-v1")
	v12 := revs("web-v1", "web-v2")
	seedC := "seed:002 L163 (OrderedReady creation: web-1 waits for web-0 Running and Ready)"
	seedD := "seed:002 L165 (scale to 1: web-2 first, web-1 waits)"
	seedP := "seed:002 L175-177 (Parallel pod management)"
	seedR := "seed:002 L192 (RollingUpdate from the highest ordinal, waits for Running and Ready)"
	seedPart := "seed:002 L196 (partition); kubernetes/website#7057 (partition ladder)"
	seedOD := "seed:002 L183-184 (OnDelete)"
	seedMU := "seed:002 L202-204 (maxUnavailable counts unavailable pods anywhere); openkruise/kruise#1480"
	seedRB := "seed:002 L206 (forced rollback); kubernetes/kubernetes#67250"
	seedPVC := "seed:002 L222-251 (PersistentVolumeClaim retention)"
	gateOn := &Options{MaxUnavailableStatefulSet: true}
	cur := func(c, u string) func(*StatefulSet) {
		return func(s *StatefulSet) { s.Status.CurrentRevision, s.Status.UpdateRevision = c, u }
	}
	hist := func(n int32) func(*StatefulSet) { return func(s *StatefulSet) { s.Spec.RevisionHistoryLimit = i32(n) } }
	mrs := func(n int32) func(*StatefulSet) { return func(s *StatefulSet) { s.Spec.MinReadySeconds = n } }
	deleting := func(s *StatefulSet) { d := genNow.Add(-time.Minute); s.DeletionTimestamp = &d }
	claim := func(name string, refs ...meta.OwnerReference) *Claim {
		return &Claim{Name: name, UID: "c-" + name, OwnerReferences: refs}
	}
	tr := true
	setRef := meta.OwnerReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", UID: "set-uid", Controller: &tr}
	podRef := func(n string, uid string) meta.OwnerReference {
		return meta.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: n, UID: uid, Controller: &tr}
	}
	otherCtl := meta.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "x", UID: "other", Controller: &tr}
	cs := []stepCase{
		// seed creation walk-through
		{"seed create web-0 first", seedC, gset(3), nil, v1, nil, nil},
		{"seed web-1 waits for pending web-0", seedC, gset(3), []*Pod{gpod(0, pending, "web-v1")}, v1, nil, nil},
		{"seed web-1 waits for running not ready web-0", seedC, gset(3), []*Pod{gpod(0, notReady, "web-v1")}, v1, nil, nil},
		{"seed create web-1 after web-0 ready", seedC, gset(3), []*Pod{gpod(0, running, "web-v1")}, v1, nil, nil},
		{"seed web-2 waits for pending web-1", seedC, gset(3), []*Pod{gpod(0, running, "web-v1"), gpod(1, pending, "web-v1")}, v1, nil, nil},
		{"seed create web-2 after web-1 ready", seedC, gset(3), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1")}, v1, nil, nil},
		{"seed web-0 fails before web-2: web-0 deleted", seedC, gset(3), []*Pod{gpod(0, failed, "web-v1"), gpod(1, running, "web-v1")}, v1, nil, nil},
		{"seed web-0 gone: recreated before web-2", seedC, gset(3), []*Pod{gpod(1, running, "web-v1")}, v1, nil, nil},
		{"seed web-0 restarting: web-2 not started", seedC, gset(3), []*Pod{gpod(0, pending, "web-v1"), gpod(1, running, "web-v1")}, v1, nil, nil},
		{"seed all three ready: synced", seedC, gset(3), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1")}, v1, nil, nil},
		{"seed succeeded web-0 is recreated", seedC + "; processReplica deletes Succeeded pods", gset(3), []*Pod{gpod(0, succeeded, "web-v1")}, v1, nil, nil},
		{"seed terminating web-0 blocks", seedC, gset(3), []*Pod{gpod(0, terminated, "web-v1")}, v1, nil, nil},
		// seed scale-down walk-through
		{"seed scale to 1 deletes web-2 first", seedD, gset(1), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1")}, v1, nil, nil},
		{"seed web-1 waits for terminating web-2", seedD, gset(1), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, terminated, "web-v1")}, v1, nil, nil},
		{"seed web-1 deleted once web-2 is gone", seedD, gset(1), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1")}, v1, nil, nil},
		{"seed web-0 fails during scale-down: web-0 deleted, web-1 kept", seedD, gset(1), []*Pod{gpod(0, failed, "web-v1"), gpod(1, running, "web-v1")}, v1, nil, nil},
		{"seed web-1 waits for web-0 to be Running and Ready", seedD, gset(1), []*Pod{gpod(0, pending, "web-v1"), gpod(1, running, "web-v1")}, v1, nil, nil},
		{"scale-down deletes the first unhealthy condemned pod", seedD + "; processCondemned firstUnhealthyPod", gset(1), []*Pod{gpod(0, running, "web-v1"), gpod(1, notReady, "web-v1"), gpod(2, running, "web-v1")}, v1, nil, nil},
		{"scale-down deletes a healthy highest pod despite a lower unhealthy one", seedD, gset(1), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, notReady, "web-v1"), gpod(3, running, "web-v1")}, v1, nil, nil},
		{"scale-down waits when the highest pod is unhealthy but not the first", seedD, gset(1), []*Pod{gpod(0, running, "web-v1"), gpod(1, notReady, "web-v1"), gpod(2, notReady, "web-v1")}, v1, nil, nil},
		{"scale to 0", seedD, gset(0), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1")}, v1, nil, nil},
		// Parallel
		{"parallel creates all", seedP + "; upstream TestParallelScale", gset(3, parallel), nil, v1, nil, nil},
		{"parallel creates beside a not ready pod", seedP, gset(3, parallel), []*Pod{gpod(0, notReady, "web-v1")}, v1, nil, nil},
		{"parallel deletes all condemned", seedP + "; upstream TestParallelScale", gset(1, parallel), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1")}, v1, nil, nil},
		{"parallel deletes condemned beside terminating", seedP, gset(1, parallel), []*Pod{gpod(0, running, "web-v1"), gpod(1, terminated, "web-v1"), gpod(2, notReady, "web-v1")}, v1, nil, nil},
		{"parallel replaces failed and creates missing", seedP, gset(3, parallel), []*Pod{gpod(0, failed, "web-v1"), gpod(2, running, "web-v1")}, v1, nil, nil},
		{"parallel creates 7 in slow-start batches", seedP, gset(7, parallel), nil, v1, nil, nil},
		// start ordinal
		{"start 5 creates web-5", "upstream TestStatefulSetControlWithStartOrdinal; spec.ordinals.start", gset(3, start(5)), nil, v1, nil, nil},
		{"start 5 creates web-6 after web-5", "upstream TestStatefulSetControlWithStartOrdinal", gset(3, start(5)), []*Pod{gpod(5, running, "web-v1")}, v1, nil, nil},
		{"start moved from 0 to 2: creates web-2 before deleting", "upstream TestStatefulSetControlWithStartOrdinal", gset(2, start(2)), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1")}, v1, nil, nil},
		{"start moved from 0 to 2: deletes web-1 once web-2,3 ready", "upstream TestStatefulSetControlWithStartOrdinal", gset(2, start(2)), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1"), gpod(3, running, "web-v1")}, v1, nil, nil},
		{"parallel start moved from 0 to 2", "upstream TestStatefulSetControlWithStartOrdinal", gset(2, start(2), parallel), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1")}, v1, nil, nil},
		{"start 2147483646, 2 replicas: the last ordinal is MaxInt32 (start+replicas passes int32; upstream counts in int)", "upstream getEndOrdinal (int arithmetic); API accepts any non-negative start", gset(2, start(2147483646), parallel), []*Pod{gpod(2147483646, running, "web-v1")}, v1, nil, nil},
		// rolling update
		{"rolling update deletes web-2 first", seedR + "; upstream TestStatefulSetControlRollingUpdate", gset(3, template("web-v2")), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1")}, v12, nil, nil},
		{"rolling update new template creates revision", seedR, gset(3, template("web-v2")), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1")}, v1, nil, nil},
		{"rolling update recreates web-2 at update revision", seedR, gset(3, template("web-v2"), cur("web-v1", "web-v2")), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1")}, v12, nil, nil},
		{"rolling update waits for web-2 ready", seedR, gset(3, template("web-v2"), cur("web-v1", "web-v2")), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, pending, "web-v2")}, v12, nil, nil},
		{"rolling update deletes web-1 after web-2 ready", seedR, gset(3, template("web-v2"), cur("web-v1", "web-v2")), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v2")}, v12, nil, nil},
		{"rolling update waits for terminating web-1", seedR, gset(3, template("web-v2"), cur("web-v1", "web-v2")), []*Pod{gpod(0, running, "web-v1"), gpod(1, terminated, "web-v1"), gpod(2, running, "web-v2")}, v12, nil, nil},
		{"rolling update completes", seedR + "; completeRollingUpdate", gset(3, template("web-v2"), cur("web-v1", "web-v2")), []*Pod{gpod(0, running, "web-v2"), gpod(1, running, "web-v2"), gpod(2, running, "web-v2")}, v12, nil, nil},
		{"rolling update waits for minReadySeconds", seedR + "; seed:002 L108 minReadySeconds", gset(3, template("web-v2"), cur("web-v1", "web-v2"), mrs(10)), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, readyJust, "web-v2")}, v12, nil, nil},
		{"parallel rolling update one at a time", seedR, gset(3, template("web-v2"), parallel), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1")}, v12, nil, nil},
		{"scale-down before update", "stateful_set_control.go: scaling takes precedence over updates", gset(2, template("web-v2")), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1")}, v12, nil, nil},
		// partition ladder
		{"partition 2 updates web-2", seedPart + "; upstream TestStatefulSetControlRollingUpdateWithPartition", gset(3, template("web-v2"), partition(2)), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1")}, v12, nil, nil},
		{"partition 2 keeps web-1 at current", seedPart, gset(3, template("web-v2"), partition(2), cur("web-v1", "web-v2")), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v2")}, v12, nil, nil},
		{"partition 2 recreates web-1 at current revision", seedPart, gset(3, template("web-v2"), partition(2), cur("web-v1", "web-v2")), []*Pod{gpod(0, running, "web-v1"), gpod(2, running, "web-v2")}, v12, nil, nil},
		{"partition 1 updates web-1", seedPart, gset(3, template("web-v2"), partition(1), cur("web-v1", "web-v2")), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v2")}, v12, nil, nil},
		{"partition 0 updates web-0", seedPart, gset(3, template("web-v2"), partition(0), cur("web-v1", "web-v2")), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v2"), gpod(2, running, "web-v2")}, v12, nil, nil},
		{"partition beyond replicas updates nothing", seedPart, gset(3, template("web-v2"), partition(3)), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1")}, v12, nil, nil},
		{"partition relative to start ordinal", seedPart + "; updateMin is an index from spec.ordinals.start", gset(3, template("web-v2"), partition(1), start(3)), []*Pod{gpod(3, running, "web-v1"), gpod(4, running, "web-v2"), gpod(5, running, "web-v2")}, v12, nil, nil},
		{"partition relative to start deletes web-5", seedPart, gset(3, template("web-v2"), partition(1), start(3)), []*Pod{gpod(3, running, "web-v1"), gpod(4, running, "web-v1"), gpod(5, running, "web-v1")}, v12, nil, nil},
		{"partition new pod below partition at current with start", seedPart, gset(3, template("web-v2"), partition(2), start(3), cur("web-v1", "web-v2")), nil, v12, nil, nil},
		// OnDelete
		{"ondelete does not update", seedOD + "; upstream TestStatefulSetControlOnDeleteUpdate", gset(3, template("web-v2"), onDelete), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1")}, v12, nil, nil},
		{"ondelete recreates a deleted pod at update revision", seedOD, gset(3, template("web-v2"), onDelete, cur("web-v1", "web-v2")), []*Pod{gpod(0, running, "web-v1"), gpod(2, running, "web-v1")}, v12, nil, nil},
		{"ondelete does not complete rollout", seedOD + "; completeRollingUpdate only for RollingUpdate", gset(2, template("web-v2"), onDelete, cur("web-v1", "web-v2")), []*Pod{gpod(0, running, "web-v2"), gpod(1, running, "web-v2")}, v12, nil, nil},
		// maxUnavailable
		{"maxUnavailable 2 gate on deletes two", seedMU + "; upstream TestStatefulSetControlRollingUpdateWithMaxUnavailable", gset(5, template("web-v2"), maxUnavail(intstr.Int(2))), run5("web-v1"), v12, nil, gateOn},
		{"maxUnavailable 2 gate off deletes one", seedMU + "; gate off by default in v1.36.3", gset(5, template("web-v2"), maxUnavail(intstr.Int(2))), run5("web-v1"), v12, nil, nil},
		{"maxUnavailable counts already unavailable pods", seedMU, gset(5, template("web-v2"), maxUnavail(intstr.Int(2)), parallel), with(run5("web-v1"), gpod(0, notReady, "web-v1")), v12, nil, gateOn},
		{"maxUnavailable exhausted by unavailable pods", seedMU, gset(5, template("web-v2"), maxUnavail(intstr.Int(2)), parallel), with(run5("web-v1"), gpod(0, notReady, "web-v1"), gpod(1, notReady, "web-v1")), v12, nil, gateOn},
		{"maxUnavailable 50% of 5 is 2", seedMU, gset(5, template("web-v2"), maxUnavail(intstr.Percent(50))), run5("web-v1"), v12, nil, gateOn},
		{"maxUnavailable 10% of 5 is at least 1", seedMU, gset(5, template("web-v2"), maxUnavail(intstr.Percent(10))), run5("web-v1"), v12, nil, gateOn},
		{"maxUnavailable 100% respects partition", seedMU, gset(5, template("web-v2"), maxUnavail(intstr.Percent(100)), partition(3)), run5("web-v1"), v12, nil, gateOn},
		{"maxUnavailable skips updated pods", seedMU, gset(5, template("web-v2"), maxUnavail(intstr.Int(2)), cur("web-v1", "web-v2")), with(run5("web-v1"), gpod(4, running, "web-v2")), v12, nil, gateOn},
		{"maxUnavailable gate on without rollingUpdate", seedMU, gset(3, template("web-v2"), func(s *StatefulSet) { s.Spec.UpdateStrategy.RollingUpdate = nil }), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1")}, v12, nil, gateOn},
		{"parallel failed outdated pod is deleted twice in one sync", "processReplica then the rolling update both see the failed pod (stale object)", gset(3, template("web-v2"), parallel), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, failed, "web-v1")}, v12, nil, nil},
		{"ordered failed pod is deleted once", "processReplica stops OrderedReady after the deletion", gset(3, template("web-v2")), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, failed, "web-v1")}, v12, nil, nil},
		// forced rollback
		{"rollback OrderedReady waits on broken pod", seedRB, gset(3, template("web-v1"), cur("web-v1", "web-v2")), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, notReady, "web-v2")}, v12, nil, nil},
		{"rollback Parallel replaces broken pod", seedRB, gset(3, template("web-v1"), cur("web-v1", "web-v2"), parallel), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, notReady, "web-v2")}, v12, nil, nil},
		{"rollback OrderedReady after manual delete", seedRB + " (delete the pod by hand)", gset(3, template("web-v1"), cur("web-v1", "web-v2")), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1")}, v12, nil, nil},
		{"rollback renumbers older revision", "upstream TestStatefulSetControlRollback", gset(3, template("web-v1"), cur("web-v2", "web-v2")), []*Pod{gpod(0, running, "web-v2"), gpod(1, running, "web-v2"), gpod(2, running, "web-v2")}, v12, nil, nil},
		// history
		{"history limit 1 deletes oldest non-live", "upstream TestStatefulSetControlLimitsHistory", gset(2, template("web-v4"), hist(1), cur("web-v4", "web-v4")), []*Pod{gpod(0, running, "web-v4"), gpod(1, running, "web-v4")}, revs("web-v1", "web-v2", "web-v3", "web-v4"), nil, nil},
		{"history limit 0 keeps pod revisions", "upstream TestStatefulSetControlLimitsHistory", gset(2, template("web-v4"), hist(0), cur("web-v3", "web-v4")), []*Pod{gpod(0, running, "web-v2"), gpod(1, running, "web-v4")}, revs("web-v1", "web-v2", "web-v3", "web-v4"), nil, nil},
		{"history limit with new revision", "upstream TestStatefulSetControlLimitsHistory", gset(1, template("web-v5"), hist(2), cur("web-v4", "web-v4")), []*Pod{gpod(0, running, "web-v4")}, revs("web-v1", "web-v2", "web-v3", "web-v4"), nil, nil},
		{"a pod named past int32 (web-99999999999) is not synced, not counted, but keeps its revision live", "upstream getParentNameAndOrdinal (ordinal -1 for a 32-bit parse failure), isMemberOf, truncateHistory over every claimed pod",
			gset(1, template("web-v4"), hist(0), cur("web-v4", "web-v4")), []*Pod{gpod(0, running, "web-v4"), func() *Pod {
				p := gpod(1, running, "web-v2")
				p.Name = "web-99999999999"
				p.Labels[LabelPodName] = p.Name
				return p
			}()}, revs("web-v1", "web-v2", "web-v3", "web-v4"), nil, nil},
		{"first revision", "getStatefulSetRevisions: initialize history", gset(1, cur("", "")), nil, nil, nil, nil},
		// status
		{"status minReadySeconds requeue", "seed:002 L108; upstream TestStatefulSetAvailability", gset(2, mrs(10)), []*Pod{gpod(0, running, "web-v1"), gpod(1, readyJust, "web-v1")}, v1, nil, nil},
		{"status minReadySeconds blocks creation", "upstream TestStatefulSetAvailability", gset(3, mrs(10)), []*Pod{gpod(0, running, "web-v1"), gpod(1, readyJust, "web-v1")}, v1, nil, nil},
		{"status terminating pods not current", "upstream TestStatefulSetStatusUpdate; computeReplicaStatus", gset(3), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, terminated, "web-v1")}, v1, nil, nil},
		{"status unchanged is not written", "inconsistentStatus", gset(1, func(s *StatefulSet) {
			s.Status.Replicas, s.Status.ReadyReplicas, s.Status.AvailableReplicas, s.Status.CurrentReplicas, s.Status.UpdatedReplicas = 1, 1, 1, 1, 1
		}), []*Pod{gpod(0, running, "web-v1")}, v1, nil, nil},
		{"status newer generation is written", "inconsistentStatus", gset(1, func(s *StatefulSet) {
			s.Generation = 2
			s.Status.Replicas, s.Status.ReadyReplicas, s.Status.AvailableReplicas, s.Status.CurrentReplicas, s.Status.UpdatedReplicas = 1, 1, 1, 1, 1
		}), []*Pod{gpod(0, running, "web-v1")}, v1, nil, nil},
		{"status collisionCount carried", "updateStatefulSet", gset(1, func(s *StatefulSet) { s.Status.CollisionCount = i32(2) }), []*Pod{gpod(0, running, "web-v1")}, v1, nil, nil},
		{"set being deleted only updates status", "updateStatefulSet: DeletionTimestamp", gset(1, deleting), []*Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1")}, v1, nil, nil},
		// claims
		{"claim created with pod", seedPVC + "; seed:002 stable storage", gset(1, claims("www")), nil, v1, nil, nil},
		{"claims of two templates created", seedPVC, gset(1, claims("www", "logs")), nil, v1, nil, nil},
		{"pending pod gets missing claim", "processReplica: isPending creates missing claims", gset(1, claims("www")), []*Pod{gpod(0, pending, "web-v1", "www")}, v1, nil, nil},
		{"terminating claim blocks creation", "createPersistentVolumeClaims: claim being deleted", gset(1, claims("www")), nil, v1, []*Claim{{Name: "www-web-0", DeletionTimestamp: ptrTime(genNow.Add(-time.Second))}}, nil},
		{"stale claim blocks creation", "upstream TestPodClaimIsStale; PodClaimIsStale", gset(1, claims("www"), retention(Retain, Delete)), nil, v1, []*Claim{claim("www-web-0", podRef("web-0", "old-pod"))}, nil},
		{"stale claim ignored when whenScaled Retain", "upstream TestPodClaimIsStale", gset(1, claims("www"), retention(Delete, Retain)), nil, v1, []*Claim{claim("www-web-0", podRef("web-0", "old-pod"))}, nil},
		{"whenDeleted Delete adds set reference", seedPVC + "; upstream TestStatefulSetControl (PVC policy)", gset(1, claims("www"), retention(Delete, Retain)), []*Pod{gpod(0, running, "web-v1", "www")}, v1, []*Claim{claim("www-web-0")}, nil},
		{"whenScaled Delete adds pod reference on scale-down", seedPVC, gset(1, claims("www"), retention(Retain, Delete)), []*Pod{gpod(0, running, "web-v1", "www"), gpod(1, running, "web-v1", "www")}, v1, []*Claim{claim("www-web-0"), claim("www-web-1")}, nil},
		{"Delete/Delete moves set reference to pod on scale-down", seedPVC, gset(1, claims("www"), retention(Delete, Delete)), []*Pod{gpod(0, running, "web-v1", "www"), gpod(1, running, "web-v1", "www")}, v1, []*Claim{claim("www-web-0", setRef), claim("www-web-1", setRef)}, nil},
		{"Retain/Retain removes references", seedPVC, gset(1, claims("www")), []*Pod{gpod(0, running, "web-v1", "www")}, v1, []*Claim{claim("www-web-0", setRef)}, nil},
		{"claim with other controller left alone", "upstream TestClaimOwnerUpToDateEdgeCases", gset(1, claims("www"), retention(Delete, Delete)), []*Pod{gpod(0, running, "web-v1", "www")}, v1, []*Claim{claim("www-web-0", otherCtl)}, nil},
		{"storage mismatch updates pod and creates claim", "UpdateStatefulPod: storageMatches", gset(1, claims("www")), []*Pod{gpod(0, running, "web-v1")}, v1, nil, nil},
		{"identity mismatch updates pod", "UpdateStatefulPod: identityMatches", gset(1), []*Pod{func() *Pod { p := gpod(0, running, "web-v1"); delete(p.Labels, LabelPodName); return p }()}, v1, nil, nil},
		{"parallel new pod with unowned claim fails update", "processReplica (Parallel continues past a creation)", gset(1, claims("www"), retention(Delete, Retain), parallel), nil, v1, []*Claim{claim("www-web-0")}, nil},
	}
	// TestStatefulSetControl's PVC-policy matrix, Monotonic and Burst:
	// scale 2 -> 1 with claims, and creation with existing claims.
	for _, pol := range []RetentionPolicy{{Retain, Retain}, {Delete, Retain}, {Retain, Delete}, {Delete, Delete}} {
		for _, mode := range []PodManagementPolicy{OrderedReady, Parallel} {
			tag := string(mode) + " whenDeleted " + string(pol.WhenDeleted) + " whenScaled " + string(pol.WhenScaled)
			withPol := func(s *StatefulSet) {
				s.Spec.PodManagementPolicy = mode
				s.Spec.VolumeClaimTemplates = []string{"www"}
				p := pol
				s.Spec.PersistentVolumeClaimRetentionPolicy = &p
			}
			cs = append(cs,
				stepCase{"pvc policy scale-down " + tag, seedPVC + "; upstream TestStatefulSetControl (" + tag + ")", gset(1, withPol),
					[]*Pod{gpod(0, running, "web-v1", "www"), gpod(1, running, "web-v1", "www")}, v1, []*Claim{claim("www-web-0"), claim("www-web-1")}, nil},
				stepCase{"pvc policy create " + tag, seedPVC + "; upstream TestStatefulSetControl (" + tag + ")", gset(2, withPol),
					[]*Pod{gpod(0, running, "web-v1", "www")}, v1, []*Claim{claim("www-web-0", setRef), claim("www-web-1", podRef("web-1", "old-pod"))}, nil},
				stepCase{"pvc policy set deleted " + tag, seedPVC + "; updateStatefulSet: DeletionTimestamp", gset(2, withPol, deleting),
					[]*Pod{gpod(0, running, "web-v1", "www"), gpod(1, running, "web-v1", "www")}, v1, []*Claim{claim("www-web-0", setRef), claim("www-web-1")}, nil},
			)
		}
	}
	var out []genVector
	for _, c := range cs {
		in := stepInput{Set: c.set, Pods: c.pods, Revisions: c.revs, Claims: c.claims, Now: genNow}
		p, err := Step(&in.Set, in.Pods, in.Revisions, in.Claims, genNow, optsOr(c.opts))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		b, err := plan.Encode(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, genVector{Decision: "statefulset.Step", Name: c.name, Source: c.source, Options: c.opts, Input: in, Want: b})
	}
	// invalid input
	bad := []struct {
		name, field, kind string
		set               StatefulSet
		pods              []*Pod
		source            string // when not API validation
	}{
		{"negative replicas", "spec.replicas", "negative", gset(-1), nil, ""},
		{"negative start", "spec.ordinals.start", "negative", gset(1, start(-1)), nil, ""},
		{"start plus replicas beyond int32", "spec.ordinals.start", "overflow", gset(2, start(2147483647)), nil, ""},
		{"bad pod management policy", "spec.podManagementPolicy", "invalid", gset(1, func(s *StatefulSet) { s.Spec.PodManagementPolicy = "Burst" }), nil, ""},
		{"bad update strategy", "spec.updateStrategy.type", "invalid", gset(1, func(s *StatefulSet) { s.Spec.UpdateStrategy.Type = "Recreate" }), nil, ""},
		{"rollingUpdate with OnDelete", "spec.updateStrategy.rollingUpdate", "invalid", gset(1, func(s *StatefulSet) { s.Spec.UpdateStrategy.Type = OnDelete }), nil, ""},
		{"negative partition", "spec.updateStrategy.rollingUpdate.partition", "negative", gset(1, partition(-1)), nil, ""},
		{"maxUnavailable 0", "spec.updateStrategy.rollingUpdate.maxUnavailable", "invalid", gset(1, maxUnavail(intstr.Int(0))), nil, ""},
		{"maxUnavailable 0%", "spec.updateStrategy.rollingUpdate.maxUnavailable", "invalid", gset(1, maxUnavail(intstr.Percent(0))), nil, ""},
		{"maxUnavailable 150%", "spec.updateStrategy.rollingUpdate.maxUnavailable", "invalid", gset(1, maxUnavail(intstr.Percent(150))), nil, ""},
		{"negative maxUnavailable", "spec.updateStrategy.rollingUpdate.maxUnavailable", "negative", gset(1, maxUnavail(intstr.Int(-1))), nil, ""},
		{"bad retention policy", "spec.persistentVolumeClaimRetentionPolicy.whenScaled", "unsupported", gset(1, retention(Retain, "Keep")), nil, ""},
		{"negative minReadySeconds", "spec.minReadySeconds", "negative", gset(1, mrs(-1)), nil, ""},
		{"duplicate ordinals", "pods", "duplicate", gset(2), []*Pod{gpod(1, running, "web-v1"), func() *Pod { p := gpod(1, running, "web-v1"); p.Name = "web-01"; return p }()}, ""},
		{"a set without templateRevision (kubesem's input: the revision the template hashes to) is an error, never a guess", "spec.templateRevision", "required",
			gset(1, func(s *StatefulSet) { s.Spec.TemplateRevision = "" }), nil, "kubesem input rule: never silently wrong (README StatefulSets)"},
		{"replicas 2147483647 (API-valid) is refused, not an out-of-memory crash", "spec.replicas", "unsupported", gset(2147483647), nil,
			"kubesem limit statefulset.MaxReplicas: upstream updateStatefulSet allocates one slot per replica (16 GiB here); README StatefulSets"},
	}
	for _, b := range bad {
		in := stepInput{Set: b.set, Pods: b.pods, Revisions: v1, Now: genNow}
		_, err := Step(&in.Set, in.Pods, in.Revisions, nil, genNow, Options{})
		if err == nil {
			t.Fatalf("%s: no error", b.name)
		}
		name, source := "invalid: "+b.name, "ValidateStatefulSetSpec (apps/validation, v1.36.3); issue 8 item 11"
		if b.source != "" {
			name, source = b.name, b.source
		}
		out = append(out, genVector{Decision: "statefulset.Step", Name: name, Source: source,
			Input: in, WantError: &genWantError{Field: fieldOf(b.field), Kind: strings.ToUpper(b.kind[:1]) + b.kind[1:]}})
	}
	return out
}

func fieldOf(f string) string {
	if strings.HasPrefix(f, "spec.") {
		return "set." + f
	}
	return f
}

func ptrTime(t time.Time) *time.Time { return &t }

func optsOr(o *Options) Options {
	if o == nil {
		return Options{}
	}
	return *o
}

func run5(rev string) []*Pod {
	var ps []*Pod
	for i := int32(0); i < 5; i++ {
		ps = append(ps, gpod(i, running, rev))
	}
	return ps
}

// with replaces pods by ordinal.
func with(ps []*Pod, repl ...*Pod) []*Pod {
	for _, r := range repl {
		for i := range ps {
			if ps[i].Name == r.Name {
				ps[i] = r
			}
		}
	}
	return ps
}

func ruleVectors() []genVector {
	var out []genVector
	mu := func(v *intstr.Value, n int32, want int64) {
		name := "nil"
		if v != nil {
			name = v.String()
		}
		out = append(out, genVector{Decision: "statefulset.MaxUnavailable", Name: "maxUnavailable " + name + " of " + strconv.Itoa(int(n)),
			Source: "upstream TestGetStatefulSetMaxUnavailable", Input: map[string]any{"maxUnavailable": v, "replicas": n},
			Want: json.RawMessage(`{"maxUnavailable":` + strconv.FormatInt(want, 10) + `}`)})
	}
	iv := func(n int32) *intstr.Value { v := intstr.Int(n); return &v }
	pv := func(n int32) *intstr.Value { v := intstr.Percent(n); return &v }
	mu(nil, 10, 1)
	mu(iv(3), 10, 3)
	mu(iv(3), 0, 3)
	mu(iv(0), 0, 1)
	mu(pv(10), 25, 2)
	mu(pv(100), 5, 5)
	mu(pv(50), 5, 2)
	mu(pv(10), 5, 1)
	mu(pv(1), 0, 1)
	mu(pv(0), 0, 1)
	return append(out, claimVectors()...)
}

type claimInput struct {
	Claim      Claim           `json:"claim"`
	Policy     RetentionPolicy `json:"policy"`
	Set        Owner           `json:"set"`
	Pod        Owner           `json:"pod"`
	ScaledDown bool            `json:"scaledDown"`
}

func mustJSON(v any) json.RawMessage {
	b, err := plan.Encode(v)
	if err != nil {
		panic(err)
	}
	return b
}

func ctlRef(apiVersion, kind, name, uid string) meta.OwnerReference {
	t := true
	return meta.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: uid, Controller: &t}
}

// claimVectors transcribes upstream's claim tables; wants are upstream's
// expectations (a mismatch with this package panics here).
func claimVectors() []genVector {
	var out []genVector
	upToDate := func(name, source string, in claimInput, want bool) {
		if got := ClaimOwnerUpToDate(&in.Claim, in.Policy, in.Set, in.Pod, in.ScaledDown); got != want {
			panic(name)
		}
		out = append(out, genVector{Decision: "statefulset.ClaimOwnerUpToDate", Name: name, Source: source, Input: in,
			Want: json.RawMessage(`{"upToDate":` + strconv.FormatBool(want) + `}`)})
	}
	R, D := Retain, Delete
	// TestIsClaimOwnerUpToDate
	for _, tc := range []struct {
		name               string
		scaled, deleted    RetentionPolicyType
		needsPod, needsSet bool
		replicas, ordinal  int
	}{
		{"retain", R, R, false, false, 0, 0},
		{"on SS delete", R, D, false, true, 0, 0},
		{"on scaledown only, condemned", D, R, true, false, 2, 2},
		{"on scaledown only, remains", D, R, false, false, 2, 1},
		{"on both, condemned", D, D, true, false, 2, 2},
		{"on both, remains", D, D, false, true, 2, 1},
	} {
		for _, other := range []bool{false, true} {
			for _, hasPod := range []bool{false, true} {
				for _, hasSet := range []bool{false, true} {
					pod := Owner{Name: "pod-" + strconv.Itoa(tc.ordinal), UID: "pod-123"}
					set := Owner{Name: "stateful-set", UID: "ss-456"}
					c := Claim{Name: "target-claim"}
					if hasPod {
						c.OwnerReferences = append(c.OwnerReferences, ctlRef("v1", "Pod", pod.Name, pod.UID))
					}
					if hasSet {
						c.OwnerReferences = append(c.OwnerReferences, ctlRef("apps/v1", "StatefulSet", set.Name, set.UID))
					}
					if other {
						c.OwnerReferences = append(c.OwnerReferences,
							meta.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: "rand1", UID: "rand1-uid"},
							meta.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: "rand2", UID: "rand2-uid"})
					}
					in := claimInput{Claim: c, Policy: RetentionPolicy{WhenDeleted: tc.deleted, WhenScaled: tc.scaled}, Set: set, Pod: pod,
						ScaledDown: tc.ordinal >= tc.replicas}
					upToDate("up to date: "+tc.name+" pod="+strconv.FormatBool(hasPod)+" set="+strconv.FormatBool(hasSet)+" others="+strconv.FormatBool(other),
						"upstream TestIsClaimOwnerUpToDate", in, hasPod == tc.needsPod && hasSet == tc.needsSet)
				}
			}
		}
	}
	// TestClaimOwnerUpToDateEdgeCases
	podRef := func(uid string, ctl bool) meta.OwnerReference {
		r := ctlRef("v1", "Pod", "pod-1", uid)
		if !ctl {
			r.Controller = nil
		}
		return r
	}
	for _, tc := range []struct {
		name            string
		refs            []meta.OwnerReference
		scaled, deleted RetentionPolicyType
		want            bool
	}{
		{"normal controller, pod", []meta.OwnerReference{podRef("pod-123", true)}, D, D, true},
		{"non-controller causes policy mismatch, pod", []meta.OwnerReference{podRef("pod-123", false)}, D, D, false},
		{"stale controller does not affect policy, pod", []meta.OwnerReference{podRef("pod-stale", true)}, D, D, true},
		{"unexpected controller causes policy mismatch, pod", []meta.OwnerReference{podRef("pod-123", true), ctlRef("v1", "Pod", "Random", "random")}, D, D, false},
		{"normal controller, set", []meta.OwnerReference{ctlRef("apps/v1", "StatefulSet", "stateful-set", "ss-456")}, R, D, true},
		{"non-controller causes policy mismatch, set", []meta.OwnerReference{{APIVersion: "appsv1", Kind: "StatefulSet", Name: "stateful-set", UID: "ss-456"}}, R, D, false},
		{"stale controller ignored, set", []meta.OwnerReference{ctlRef("apps/v1", "StatefulSet", "stateful-set", "set-stale")}, R, D, true},
		{"unexpected controller causes policy mismatch, set", []meta.OwnerReference{ctlRef("apps/v1", "StatefulSet", "stateful-set", "ss-456"), ctlRef("apps/v1", "StatefulSet", "Random", "random")}, R, D, false},
	} {
		in := claimInput{Claim: Claim{Name: "target-claim", OwnerReferences: tc.refs}, Policy: RetentionPolicy{WhenDeleted: tc.deleted, WhenScaled: tc.scaled},
			Set: Owner{Name: "stateful-set", UID: "ss-456"}, Pod: Owner{Name: "pod-1", UID: "pod-123"}, ScaledDown: true}
		upToDate("edge: "+tc.name, "upstream TestClaimOwnerUpToDateEdgeCases", in, tc.want)
	}
	// TestUpdateClaimOwnerRefForSetAndPod
	for _, tc := range []struct {
		name                          string
		scaled, deleted               RetentionPolicyType
		condemned, needsPod, needsSet bool
		unexpected                    bool
	}{
		{"retain", R, R, false, false, false, false},
		{"delete with set", R, D, false, false, true, false},
		{"delete with scaledown, not condemned", D, R, false, false, false, false},
		{"delete on scaledown, condemned", D, R, true, true, false, false},
		{"delete on both, not condemned", D, D, false, false, true, false},
		{"delete on both, condemned", D, D, true, true, false, false},
		{"unexpected controller", D, D, true, false, false, true},
	} {
		for v := 0; v < 8; v++ {
			hasPod, hasSet, extra := v&1 != 0, v&2 != 0, v&3 != 0
			set := Owner{Name: "ss", UID: "ss-123"}
			pod := Owner{Name: "pod-1", UID: "pod-456"}
			if tc.condemned {
				pod.Name = "pod-8"
			}
			c := Claim{}
			if hasPod {
				c.OwnerReferences = append(c.OwnerReferences, ctlRef("v1", "Pod", pod.Name, pod.UID))
			}
			if hasSet {
				c.OwnerReferences = append(c.OwnerReferences, ctlRef("apps/v1", "StatefulSet", set.Name, set.UID))
			}
			if extra {
				c.OwnerReferences = append(c.OwnerReferences, meta.OwnerReference{APIVersion: "custom/v1", Kind: "random", Name: "random", UID: "abc"})
			}
			if tc.unexpected {
				c.OwnerReferences = append(c.OwnerReferences, ctlRef("custom/v1", "Unknown", "unknown", "xyz"))
			}
			in := claimInput{Claim: c, Policy: RetentionPolicy{WhenDeleted: tc.deleted, WhenScaled: tc.scaled}, Set: set, Pod: pod, ScaledDown: tc.condemned}
			got := ClaimOwnerRefs(&in.Claim, in.Policy, set, pod, tc.condemned)
			if hasRefs(got, pod.UID) != tc.needsPod || hasRefs(got, set.UID) != tc.needsSet {
				panic(tc.name)
			}
			out = append(out, genVector{Decision: "statefulset.ClaimOwnerRefs", Name: "owner refs: " + tc.name + " variation " + strconv.Itoa(v),
				Source: "upstream TestUpdateClaimOwnerRefForSetAndPod", Input: in, Want: mustJSON(map[string]any{"ownerReferences": got})})
		}
	}
	// TestPodClaimIsStale
	for _, scaled := range []RetentionPolicyType{R, D} {
		for _, k := range []struct {
			name  string
			refs  []meta.OwnerReference
			stale bool
		}{
			{"no owner", nil, false},
			{"owned by the pod", []meta.OwnerReference{ctlRef("v1", "Pod", "set-3", "pod-uid")}, false},
			{"owned by a former pod of the name", []meta.OwnerReference{ctlRef("v1", "Pod", "set-3", "old-uid")}, true},
			{"owned by another pod", []meta.OwnerReference{ctlRef("v1", "Pod", "set-2", "x")}, false},
			{"owned by the set", []meta.OwnerReference{ctlRef("apps/v1", "StatefulSet", "set", "set-uid")}, false},
		} {
			in := claimInput{Claim: Claim{Name: "data-set-3", OwnerReferences: k.refs}, Policy: RetentionPolicy{WhenDeleted: R, WhenScaled: scaled},
				Set: Owner{Name: "set", UID: "set-uid"}, Pod: Owner{Name: "set-3", UID: "pod-uid"}}
			want := k.stale && scaled == D
			if ClaimIsStale(&in.Claim, in.Policy, in.Pod) != want {
				panic(k.name)
			}
			out = append(out, genVector{Decision: "statefulset.ClaimIsStale", Name: "stale: whenScaled " + string(scaled) + ", " + k.name,
				Source: "upstream TestPodClaimIsStale", Input: in, Want: json.RawMessage(`{"stale":` + strconv.FormatBool(want) + `}`)})
		}
	}
	return out
}

func hasRefs(refs []meta.OwnerReference, uid string) bool {
	for _, r := range refs {
		if r.UID == uid {
			return true
		}
	}
	return false
}
