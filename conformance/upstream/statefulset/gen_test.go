package statefulset_test

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/statefulset"
)

// TestGenerateStatefulSetVectors writes testdata/statefulset/step.json and
// rules.json when KUBESEM_WRITE_VECTORS=1. The inputs are the seed 002
// walk-throughs, upstream's test tables and the issues cited in each
// vector's source; every want is computed by upstream v1.36.3 (vectorWant for
// statefulset.Step, ruleWant for the rules), never by kubesem. A
// wantError comes from upstream's API validation (upstreamRejection)
// for a vector whose source is ValidateStatefulSetSpec; the others state a
// kubesem input rule, which their source names. TestStatefulSetVectorsUpstream
// and TestStatefulSetRuleVectorsUpstream recompute every want and fail when
// one differs.
func TestGenerateStatefulSetVectors(t *testing.T) {
	if os.Getenv("KUBESEM_WRITE_VECTORS") != "1" {
		t.Skip("set KUBESEM_WRITE_VECTORS=1 to regenerate testdata/statefulset/{step,rules}.json")
	}
	write := func(file string, vs []vector) {
		b, err := json.MarshalIndent(vs, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(difftest.Repo("testdata", "statefulset", file), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("step.json", vecStepVectors(t))
	write("rules.json", vecRuleVectors(t))
}

var vecNow = t0

func vecI32(v int32) *int32 { return &v }

// vecSet is a web set with replicas, template revision web-v1, current
// revision web-v1, RollingUpdate partition 0, OrderedReady.
func vecSet(replicas int32, mods ...func(*statefulset.StatefulSet)) statefulset.StatefulSet {
	s := statefulset.StatefulSet{
		ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "default", UID: "set-uid", Generation: 1},
		Spec: statefulset.Spec{Replicas: vecI32(replicas), ServiceName: "nginx", PodManagementPolicy: statefulset.OrderedReady,
			UpdateStrategy: statefulset.UpdateStrategy{Type: statefulset.RollingUpdate,
				RollingUpdate: &statefulset.RollingUpdateStrategy{Partition: vecI32(0)}},
			RevisionHistoryLimit: vecI32(10), TemplateRevision: "web-v1"},
		Status: statefulset.Status{ObservedGeneration: 1, CurrentRevision: "web-v1", UpdateRevision: "web-v1", CollisionCount: vecI32(0)},
	}
	for _, m := range mods {
		m(&s)
	}
	return s
}

func vecParallel(s *statefulset.StatefulSet) { s.Spec.PodManagementPolicy = statefulset.Parallel }

func vecOnDelete(s *statefulset.StatefulSet) {
	s.Spec.UpdateStrategy = statefulset.UpdateStrategy{Type: statefulset.OnDelete}
}

func vecTemplate(rev string) func(*statefulset.StatefulSet) {
	return func(s *statefulset.StatefulSet) { s.Spec.TemplateRevision = rev }
}

func vecPartition(p int32) func(*statefulset.StatefulSet) {
	return func(s *statefulset.StatefulSet) { s.Spec.UpdateStrategy.RollingUpdate.Partition = vecI32(p) }
}

func vecStart(o int32) func(*statefulset.StatefulSet) {
	return func(s *statefulset.StatefulSet) { s.Spec.Ordinals = &statefulset.OrdinalsSpec{Start: o} }
}

func vecMaxUnavail(v intstr.Value) func(*statefulset.StatefulSet) {
	return func(s *statefulset.StatefulSet) { s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = &v }
}

func vecClaims(names ...string) func(*statefulset.StatefulSet) {
	return func(s *statefulset.StatefulSet) { s.Spec.VolumeClaimTemplates = vecTemplates(names...) }
}

func vecRetention(d, sc statefulset.RetentionPolicyType) func(*statefulset.StatefulSet) {
	return func(s *statefulset.StatefulSet) {
		s.Spec.PersistentVolumeClaimRetentionPolicy = &statefulset.RetentionPolicy{WhenDeleted: d, WhenScaled: sc}
	}
}

func vecStrategy(u statefulset.UpdateStrategy) func(*statefulset.StatefulSet) {
	return func(s *statefulset.StatefulSet) { s.Spec.UpdateStrategy = u }
}

func vecCur(c, u string) func(*statefulset.StatefulSet) {
	return func(s *statefulset.StatefulSet) { s.Status.CurrentRevision, s.Status.UpdateRevision = c, u }
}

func vecCurrentReplicas(n int32) func(*statefulset.StatefulSet) {
	return func(s *statefulset.StatefulSet) { s.Status.CurrentReplicas = n }
}

// pod states
const (
	vecRunning    = "running" // Running and Ready for 60s
	vecNotReady   = "notready"
	vecPending    = "pending"
	vecFailed     = "failed"
	vecSucceeded  = "succeeded"
	vecReadyJust  = "readyjust" // Running, Ready 3s ago
	vecTerminated = "terminating"
)

// vecPod is pod web-<ord> in state at revision rev, with identity label and
// the claim volumes of templates.
func vecPod(ord int64, state, rev string, templates ...string) *podstatus.Pod {
	name := "web-" + strconv.FormatInt(ord, 10)
	p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name,
		Labels: map[string]string{"app": "web", statefulset.LabelPodName: name, history.HashLabel: rev}}}
	for _, t := range templates {
		p.Spec.Volumes = append(p.Spec.Volumes, podstatus.Volume{Name: t, PersistentVolumeClaim: &podstatus.PersistentVolumeClaimVolumeSource{ClaimName: t + "-" + name}})
	}
	ready := func(ago time.Duration) {
		p.Status.Phase = podstatus.Running
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: vecNow.Add(-ago)}}
	}
	switch state {
	case vecRunning:
		ready(time.Minute)
	case vecReadyJust:
		ready(3 * time.Second)
	case vecNotReady:
		p.Status.Phase = podstatus.Running
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionFalse, LastTransitionTime: vecNow.Add(-time.Minute)}}
	case vecPending:
		p.Status.Phase = podstatus.Pending
	case vecFailed:
		p.Status.Phase = podstatus.Failed
	case vecSucceeded:
		p.Status.Phase = podstatus.Succeeded
	case vecTerminated:
		ready(time.Minute)
		d := vecNow.Add(-time.Second)
		p.DeletionTimestamp = &d
	}
	return p
}

// vecNamed is p under another name (its pod-name label follows).
func vecNamed(p *podstatus.Pod, name string) *podstatus.Pod {
	p.Name = name
	p.Labels[statefulset.LabelPodName] = name
	p.UID = "uid-" + name
	return p
}

func vecRevs(names ...string) []history.ControllerRevision {
	out := make([]history.ControllerRevision, len(names))
	for i, n := range names {
		out[i] = history.ControllerRevision{ObjectMeta: meta.ObjectMeta{Name: n}, Revision: int64(i + 1)}
	}
	return out
}

func vecRun5(rev string) []*podstatus.Pod {
	var ps []*podstatus.Pod
	for i := int64(0); i < 5; i++ {
		ps = append(ps, vecPod(i, vecRunning, rev))
	}
	return ps
}

// vecWith replaces pods by name.
func vecWith(ps []*podstatus.Pod, repl ...*podstatus.Pod) []*podstatus.Pod {
	for _, r := range repl {
		for i := range ps {
			if ps[i].Name == r.Name {
				ps[i] = r
			}
		}
	}
	return ps
}

func vecCtlRef(apiVersion, kind, name, uid string) meta.OwnerReference {
	t := true
	return meta.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: uid, Controller: &t}
}

type vecStepCase struct {
	name, source string
	set          statefulset.StatefulSet
	pods         []*podstatus.Pod
	revs         []history.ControllerRevision
	claims       []*statefulset.Claim
	opts         *statefulset.Options
}

func vecStepVectors(t *testing.T) []vector {
	v1 := vecRevs("web-v1")
	v12 := vecRevs("web-v1", "web-v2")
	seedC := "seed:002 L163 (OrderedReady creation: web-1 waits for web-0 Running and Ready)"
	seedD := "seed:002 L165 (scale to 1: web-2 first, web-1 waits)"
	seedP := "seed:002 L175-177 (Parallel pod management)"
	seedR := "seed:002 L192 (RollingUpdate from the highest ordinal, waits for Running and Ready)"
	seedPart := "seed:002 L196 (partition); kubernetes/website#7057 (partition ladder)"
	seedOD := "seed:002 L183-184 (OnDelete)"
	seedMU := "seed:002 L202-204 (maxUnavailable counts unavailable pods anywhere); openkruise/kruise#1480"
	seedRB := "seed:002 L206 (forced rollback); kubernetes/kubernetes#67250"
	seedPVC := "seed:002 L222-251 (PersistentVolumeClaim retention)"
	defaulting := "SetDefaults_StatefulSet (pkg/apis/apps/v1/defaults.go) and newVersionedStatefulSetPod (kubesem issue 18)"
	past32 := "getEndOrdinal, getPodName, initIdentity (stateful_set_utils.go: the ordinal in int, the name parsed back in 32 bits); kubesem issue 18"
	gateOn := &statefulset.Options{MaxUnavailableStatefulSet: true}
	hist := func(n int32) func(*statefulset.StatefulSet) {
		return func(s *statefulset.StatefulSet) { s.Spec.RevisionHistoryLimit = vecI32(n) }
	}
	mrs := func(n int32) func(*statefulset.StatefulSet) {
		return func(s *statefulset.StatefulSet) { s.Spec.MinReadySeconds = n }
	}
	deleting := func(s *statefulset.StatefulSet) { d := vecNow.Add(-time.Minute); s.DeletionTimestamp = &d }
	claim := func(name string, refs ...meta.OwnerReference) *statefulset.Claim {
		return &statefulset.Claim{ObjectMeta: meta.ObjectMeta{Name: name, UID: "c-" + name, OwnerReferences: refs}}
	}
	setRef := vecCtlRef("apps/v1", "StatefulSet", "web", "set-uid")
	podRef := func(n, uid string) meta.OwnerReference { return vecCtlRef("v1", "Pod", n, uid) }
	otherCtl := vecCtlRef("v1", "ConfigMap", "x", "other")
	noStrategy := vecStrategy(statefulset.UpdateStrategy{})
	ruNoBlock := vecStrategy(statefulset.UpdateStrategy{Type: statefulset.RollingUpdate})
	emptyTypeBlock := vecStrategy(statefulset.UpdateStrategy{RollingUpdate: &statefulset.RollingUpdateStrategy{}})
	ruEmptyBlock := vecStrategy(statefulset.UpdateStrategy{Type: statefulset.RollingUpdate, RollingUpdate: &statefulset.RollingUpdateStrategy{}})
	running01 := func(rev string) []*podstatus.Pod {
		return []*podstatus.Pod{vecPod(0, vecRunning, rev), vecPod(2, vecRunning, rev)}
	}
	top := int64(2147483647)
	cs := []vecStepCase{
		// seed creation walk-through
		{"seed create web-0 first", seedC, vecSet(3), nil, v1, nil, nil},
		{"seed web-1 waits for pending web-0", seedC, vecSet(3), []*podstatus.Pod{vecPod(0, vecPending, "web-v1")}, v1, nil, nil},
		{"seed web-1 waits for running not ready web-0", seedC, vecSet(3), []*podstatus.Pod{vecPod(0, vecNotReady, "web-v1")}, v1, nil, nil},
		{"seed create web-1 after web-0 ready", seedC, vecSet(3), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1")}, v1, nil, nil},
		{"seed web-2 waits for pending web-1", seedC, vecSet(3), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecPending, "web-v1")}, v1, nil, nil},
		{"seed create web-2 after web-1 ready", seedC, vecSet(3), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1")}, v1, nil, nil},
		{"seed web-0 fails before web-2: web-0 deleted", seedC, vecSet(3), []*podstatus.Pod{vecPod(0, vecFailed, "web-v1"), vecPod(1, vecRunning, "web-v1")}, v1, nil, nil},
		{"seed web-0 gone: recreated before web-2", seedC, vecSet(3), []*podstatus.Pod{vecPod(1, vecRunning, "web-v1")}, v1, nil, nil},
		{"seed web-0 restarting: web-2 not started", seedC, vecSet(3), []*podstatus.Pod{vecPod(0, vecPending, "web-v1"), vecPod(1, vecRunning, "web-v1")}, v1, nil, nil},
		{"seed all three ready: synced", seedC, vecSet(3), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v1")}, v1, nil, nil},
		{"seed succeeded web-0 is recreated", seedC + "; processReplica deletes Succeeded pods", vecSet(3), []*podstatus.Pod{vecPod(0, vecSucceeded, "web-v1")}, v1, nil, nil},
		{"seed terminating web-0 blocks", seedC, vecSet(3), []*podstatus.Pod{vecPod(0, vecTerminated, "web-v1")}, v1, nil, nil},
		// seed scale-down walk-through
		{"seed scale to 1 deletes web-2 first", seedD, vecSet(1), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v1")}, v1, nil, nil},
		{"seed web-1 waits for terminating web-2", seedD, vecSet(1), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecTerminated, "web-v1")}, v1, nil, nil},
		{"seed web-1 deleted once web-2 is gone", seedD, vecSet(1), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1")}, v1, nil, nil},
		{"seed web-0 fails during scale-down: web-0 deleted, web-1 kept", seedD, vecSet(1), []*podstatus.Pod{vecPod(0, vecFailed, "web-v1"), vecPod(1, vecRunning, "web-v1")}, v1, nil, nil},
		{"seed web-1 waits for web-0 to be Running and Ready", seedD, vecSet(1), []*podstatus.Pod{vecPod(0, vecPending, "web-v1"), vecPod(1, vecRunning, "web-v1")}, v1, nil, nil},
		{"scale-down deletes the first unhealthy condemned pod", seedD + "; processCondemned firstUnhealthyPod", vecSet(1), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecNotReady, "web-v1"), vecPod(2, vecRunning, "web-v1")}, v1, nil, nil},
		{"scale-down deletes a healthy highest pod despite a lower unhealthy one", seedD, vecSet(1), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecNotReady, "web-v1"), vecPod(3, vecRunning, "web-v1")}, v1, nil, nil},
		{"scale-down waits when the highest pod is unhealthy but not the first", seedD, vecSet(1), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecNotReady, "web-v1"), vecPod(2, vecNotReady, "web-v1")}, v1, nil, nil},
		{"scale to 0", seedD, vecSet(0), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1")}, v1, nil, nil},
		// Parallel
		{"parallel creates all", seedP + "; upstream TestParallelScale", vecSet(3, vecParallel), nil, v1, nil, nil},
		{"parallel creates beside a not ready pod", seedP, vecSet(3, vecParallel), []*podstatus.Pod{vecPod(0, vecNotReady, "web-v1")}, v1, nil, nil},
		{"parallel deletes all condemned", seedP + "; upstream TestParallelScale", vecSet(1, vecParallel), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v1")}, v1, nil, nil},
		{"parallel deletes condemned beside terminating", seedP, vecSet(1, vecParallel), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecTerminated, "web-v1"), vecPod(2, vecNotReady, "web-v1")}, v1, nil, nil},
		{"parallel replaces failed and creates missing", seedP, vecSet(3, vecParallel), []*podstatus.Pod{vecPod(0, vecFailed, "web-v1"), vecPod(2, vecRunning, "web-v1")}, v1, nil, nil},
		{"parallel creates 7 in slow-start batches", seedP, vecSet(7, vecParallel), nil, v1, nil, nil},
		// start ordinal
		{"start 5 creates web-5", "upstream TestStatefulSetControlWithStartOrdinal; spec.ordinals.start", vecSet(3, vecStart(5)), nil, v1, nil, nil},
		{"start 5 creates web-6 after web-5", "upstream TestStatefulSetControlWithStartOrdinal", vecSet(3, vecStart(5)), []*podstatus.Pod{vecPod(5, vecRunning, "web-v1")}, v1, nil, nil},
		{"start moved from 0 to 2: creates web-2 before deleting", "upstream TestStatefulSetControlWithStartOrdinal", vecSet(2, vecStart(2)), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1")}, v1, nil, nil},
		{"start moved from 0 to 2: deletes web-1 once web-2,3 ready", "upstream TestStatefulSetControlWithStartOrdinal", vecSet(2, vecStart(2)), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v1"), vecPod(3, vecRunning, "web-v1")}, v1, nil, nil},
		{"parallel start moved from 0 to 2", "upstream TestStatefulSetControlWithStartOrdinal", vecSet(2, vecStart(2), vecParallel), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1")}, v1, nil, nil},
		{"start 2147483646, 2 replicas: the last ordinal is MaxInt32 (start+replicas passes int32; upstream counts in int)", "upstream getEndOrdinal (int arithmetic); API accepts any non-negative start", vecSet(2, vecStart(2147483646), vecParallel), []*podstatus.Pod{vecPod(2147483646, vecRunning, "web-v1")}, v1, nil, nil},
		// the last ordinal past int32
		{"start 2147483646, 3 replicas: the pod for ordinal 2147483648 is named web--1, ordinal -1", past32, vecSet(3, vecStart(2147483646)), []*podstatus.Pod{vecPod(top-1, vecRunning, "web-v1"), vecPod(top, vecRunning, "web-v1")}, v1, nil, nil},
		{"start 2147483647, 2 replicas, claims: web--1 is created with the claims of ordinal 1", past32, vecSet(2, vecStart(2147483647), vecClaims("www")), []*podstatus.Pod{vecPod(top, vecRunning, "web-v1", "www")}, v1, []*statefulset.Claim{claim("www-web-2147483647")}, nil},
		{"start 2147483647, 2 replicas, whenScaled Delete: the claim of ordinal 1 gets web--1 as owner", past32 + "; isClaimOwnerUpToDate (podInOrdinalRange of web--1 is that of ordinal 1)", vecSet(2, vecStart(2147483647), vecClaims("www"), vecRetention(statefulset.Retain, statefulset.Delete)), []*podstatus.Pod{vecPod(top, vecRunning, "web-v1", "www")}, v1, []*statefulset.Claim{claim("www-web-2147483647"), claim("www-web-1")}, nil},
		{"web--1 exists: creating it again fails every sync", past32 + "; CreateStatefulPod (AlreadyExists)", vecSet(2, vecStart(2147483647)), []*podstatus.Pod{vecPod(top, vecRunning, "web-v1"), vecNamed(vecPod(0, vecRunning, "web-v1"), "web--1")}, v1, nil, nil},
		{"parallel past int32: web--1 created, then its identity update to web-1 fails", past32 + "; processReplica, UpdateStatefulPod (updateIdentity renames it web-1)", vecSet(2, vecStart(2147483647), vecParallel), []*podstatus.Pod{vecPod(top, vecRunning, "web-v1")}, v1, nil, nil},
		{"parallel past int32 with a pod web-1: the identity update of web--1 writes web-1", past32 + "; UpdateStatefulPod", vecSet(2, vecStart(2147483647), vecParallel), []*podstatus.Pod{vecPod(top, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1")}, v1, nil, nil},
		{"parallel, two ordinals past int32: web--1 created once, the second creation fails", past32 + "; CreatePod (AlreadyExists)", vecSet(3, vecStart(2147483647), vecParallel), []*podstatus.Pod{vecPod(top, vecRunning, "web-v1")}, v1, nil, nil},
		{"past int32, partition 1 from start: web--1 at the update revision", past32 + "; newVersionedStatefulSetPod (ordinal < start+partition in int)", vecSet(2, vecStart(2147483647), vecPartition(1), vecTemplate("web-v2"), vecCur("web-v1", "web-v2")), []*podstatus.Pod{vecPod(top, vecRunning, "web-v1")}, v12, nil, nil},
		{"past int32, partition 2 from start: web--1 at the current revision", past32 + "; newVersionedStatefulSetPod (ordinal < start+partition in int)", vecSet(2, vecStart(2147483647), vecPartition(2), vecTemplate("web-v2"), vecCur("web-v1", "web-v2")), []*podstatus.Pod{vecPod(top, vecRunning, "web-v1")}, v12, nil, nil},
		// API defaulting of spec.updateStrategy
		{"no updateStrategy: a pod recreated below currentReplicas gets the update revision (partition 0)", defaulting, vecSet(3, noStrategy, vecTemplate("web-v2"), vecCur("web-v1", "web-v2"), vecCurrentReplicas(3)), running01("web-v1"), v12, nil, nil},
		{"type RollingUpdate without rollingUpdate: a pod recreated below currentReplicas gets the current revision", defaulting, vecSet(3, ruNoBlock, vecTemplate("web-v2"), vecCur("web-v1", "web-v2"), vecCurrentReplicas(3)), running01("web-v1"), v12, nil, nil},
		{"type RollingUpdate without rollingUpdate: a pod recreated at start+currentReplicas gets the update revision", defaulting, vecSet(3, ruNoBlock, vecTemplate("web-v2"), vecCur("web-v1", "web-v2"), vecCurrentReplicas(1)), running01("web-v1"), v12, nil, nil},
		{"type RollingUpdate without rollingUpdate, start 3: below start+currentReplicas at the current revision", defaulting, vecSet(3, ruNoBlock, vecStart(3), vecTemplate("web-v2"), vecCur("web-v1", "web-v2"), vecCurrentReplicas(2)), []*podstatus.Pod{vecPod(3, vecRunning, "web-v1"), vecPod(5, vecRunning, "web-v1")}, v12, nil, nil},
		{"empty type with a rollingUpdate block without partition: partition 0", defaulting, vecSet(3, emptyTypeBlock, vecTemplate("web-v2"), vecCur("web-v1", "web-v2"), vecCurrentReplicas(3)), running01("web-v1"), v12, nil, nil},
		{"type RollingUpdate with an empty rollingUpdate block: partition 0", defaulting, vecSet(3, ruEmptyBlock, vecTemplate("web-v2"), vecCur("web-v1", "web-v2"), vecCurrentReplicas(3)), running01("web-v1"), v12, nil, nil},
		{"no updateStrategy, Parallel: recreated at the update revision, then the rolling update", defaulting, vecSet(3, noStrategy, vecParallel, vecTemplate("web-v2"), vecCur("web-v1", "web-v2"), vecCurrentReplicas(3)), running01("web-v1"), v12, nil, nil},
		{"type RollingUpdate without rollingUpdate, Parallel: recreated at the current revision, deleted by the rolling update", defaulting, vecSet(3, ruNoBlock, vecParallel, vecTemplate("web-v2"), vecCur("web-v1", "web-v2"), vecCurrentReplicas(3)), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1")}, v12, nil, nil},
		{"no updateStrategy, gate on: maxUnavailable defaulted to 1", defaulting + "; maxUnavailable defaulting under MaxUnavailableStatefulSet", vecSet(5, noStrategy, vecTemplate("web-v2")), vecRun5("web-v1"), v12, nil, gateOn},
		{"empty type, gate on, block without maxUnavailable: 1", defaulting + "; maxUnavailable defaulting under MaxUnavailableStatefulSet", vecSet(5, emptyTypeBlock, vecTemplate("web-v2"), vecParallel), vecRun5("web-v1"), v12, nil, gateOn},
		// rolling update
		{"rolling update deletes web-2 first", seedR + "; upstream TestStatefulSetControlRollingUpdate", vecSet(3, vecTemplate("web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v1")}, v12, nil, nil},
		{"rolling update new template creates revision", seedR, vecSet(3, vecTemplate("web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v1")}, v1, nil, nil},
		{"rolling update recreates web-2 at update revision", seedR, vecSet(3, vecTemplate("web-v2"), vecCur("web-v1", "web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1")}, v12, nil, nil},
		{"rolling update waits for web-2 ready", seedR, vecSet(3, vecTemplate("web-v2"), vecCur("web-v1", "web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecPending, "web-v2")}, v12, nil, nil},
		{"rolling update deletes web-1 after web-2 ready", seedR, vecSet(3, vecTemplate("web-v2"), vecCur("web-v1", "web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v2")}, v12, nil, nil},
		{"rolling update waits for terminating web-1", seedR, vecSet(3, vecTemplate("web-v2"), vecCur("web-v1", "web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecTerminated, "web-v1"), vecPod(2, vecRunning, "web-v2")}, v12, nil, nil},
		{"rolling update completes", seedR + "; completeRollingUpdate", vecSet(3, vecTemplate("web-v2"), vecCur("web-v1", "web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v2"), vecPod(1, vecRunning, "web-v2"), vecPod(2, vecRunning, "web-v2")}, v12, nil, nil},
		{"rolling update waits for minReadySeconds", seedR + "; seed:002 L108 minReadySeconds", vecSet(3, vecTemplate("web-v2"), vecCur("web-v1", "web-v2"), mrs(10)), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecReadyJust, "web-v2")}, v12, nil, nil},
		{"parallel rolling update one at a time", seedR, vecSet(3, vecTemplate("web-v2"), vecParallel), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v1")}, v12, nil, nil},
		{"scale-down before update", "stateful_set_control.go: scaling takes precedence over updates", vecSet(2, vecTemplate("web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v1")}, v12, nil, nil},
		// partition ladder
		{"partition 2 updates web-2", seedPart + "; upstream TestStatefulSetControlRollingUpdateWithPartition", vecSet(3, vecTemplate("web-v2"), vecPartition(2)), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v1")}, v12, nil, nil},
		{"partition 2 keeps web-1 at current", seedPart, vecSet(3, vecTemplate("web-v2"), vecPartition(2), vecCur("web-v1", "web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v2")}, v12, nil, nil},
		{"partition 2 recreates web-1 at current revision", seedPart, vecSet(3, vecTemplate("web-v2"), vecPartition(2), vecCur("web-v1", "web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v2")}, v12, nil, nil},
		{"partition 1 updates web-1", seedPart, vecSet(3, vecTemplate("web-v2"), vecPartition(1), vecCur("web-v1", "web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v2")}, v12, nil, nil},
		{"partition 0 updates web-0", seedPart, vecSet(3, vecTemplate("web-v2"), vecPartition(0), vecCur("web-v1", "web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v2"), vecPod(2, vecRunning, "web-v2")}, v12, nil, nil},
		{"partition beyond replicas updates nothing", seedPart, vecSet(3, vecTemplate("web-v2"), vecPartition(3)), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v1")}, v12, nil, nil},
		{"partition relative to start ordinal", seedPart + "; updateMin is an index from spec.ordinals.start", vecSet(3, vecTemplate("web-v2"), vecPartition(1), vecStart(3)), []*podstatus.Pod{vecPod(3, vecRunning, "web-v1"), vecPod(4, vecRunning, "web-v2"), vecPod(5, vecRunning, "web-v2")}, v12, nil, nil},
		{"partition relative to start deletes web-5", seedPart, vecSet(3, vecTemplate("web-v2"), vecPartition(1), vecStart(3)), []*podstatus.Pod{vecPod(3, vecRunning, "web-v1"), vecPod(4, vecRunning, "web-v1"), vecPod(5, vecRunning, "web-v1")}, v12, nil, nil},
		{"partition new pod below partition at current with start", seedPart, vecSet(3, vecTemplate("web-v2"), vecPartition(2), vecStart(3), vecCur("web-v1", "web-v2")), nil, v12, nil, nil},
		// OnDelete
		{"ondelete does not update", seedOD + "; upstream TestStatefulSetControlOnDeleteUpdate", vecSet(3, vecTemplate("web-v2"), vecOnDelete), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v1")}, v12, nil, nil},
		{"ondelete recreates a deleted pod at update revision", seedOD, vecSet(3, vecTemplate("web-v2"), vecOnDelete, vecCur("web-v1", "web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v1")}, v12, nil, nil},
		{"ondelete does not complete rollout", seedOD + "; completeRollingUpdate only for RollingUpdate", vecSet(2, vecTemplate("web-v2"), vecOnDelete, vecCur("web-v1", "web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v2"), vecPod(1, vecRunning, "web-v2")}, v12, nil, nil},
		// maxUnavailable
		{"maxUnavailable 2 gate on deletes two", seedMU + "; upstream TestStatefulSetControlRollingUpdateWithMaxUnavailable", vecSet(5, vecTemplate("web-v2"), vecMaxUnavail(intstr.Int(2))), vecRun5("web-v1"), v12, nil, gateOn},
		{"maxUnavailable 2 gate off deletes one", seedMU + "; gate off by default in v1.36.3", vecSet(5, vecTemplate("web-v2"), vecMaxUnavail(intstr.Int(2))), vecRun5("web-v1"), v12, nil, nil},
		{"maxUnavailable counts already unavailable pods", seedMU, vecSet(5, vecTemplate("web-v2"), vecMaxUnavail(intstr.Int(2)), vecParallel), vecWith(vecRun5("web-v1"), vecPod(0, vecNotReady, "web-v1")), v12, nil, gateOn},
		{"maxUnavailable exhausted by unavailable pods", seedMU, vecSet(5, vecTemplate("web-v2"), vecMaxUnavail(intstr.Int(2)), vecParallel), vecWith(vecRun5("web-v1"), vecPod(0, vecNotReady, "web-v1"), vecPod(1, vecNotReady, "web-v1")), v12, nil, gateOn},
		{"maxUnavailable 50% of 5 is 2", seedMU, vecSet(5, vecTemplate("web-v2"), vecMaxUnavail(intstr.Percent(50))), vecRun5("web-v1"), v12, nil, gateOn},
		{"maxUnavailable 10% of 5 is at least 1", seedMU, vecSet(5, vecTemplate("web-v2"), vecMaxUnavail(intstr.Percent(10))), vecRun5("web-v1"), v12, nil, gateOn},
		{"maxUnavailable 100% respects partition", seedMU, vecSet(5, vecTemplate("web-v2"), vecMaxUnavail(intstr.Percent(100)), vecPartition(3)), vecRun5("web-v1"), v12, nil, gateOn},
		{"maxUnavailable skips updated pods", seedMU, vecSet(5, vecTemplate("web-v2"), vecMaxUnavail(intstr.Int(2)), vecCur("web-v1", "web-v2")), vecWith(vecRun5("web-v1"), vecPod(4, vecRunning, "web-v2")), v12, nil, gateOn},
		{"maxUnavailable gate on without rollingUpdate", seedMU, vecSet(3, vecTemplate("web-v2"), ruNoBlock), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecRunning, "web-v1")}, v12, nil, gateOn},
		{"parallel failed outdated pod is deleted twice in one sync", "processReplica then the rolling update both see the failed pod (stale object)", vecSet(3, vecTemplate("web-v2"), vecParallel), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecFailed, "web-v1")}, v12, nil, nil},
		{"ordered failed pod is deleted once", "processReplica stops OrderedReady after the deletion", vecSet(3, vecTemplate("web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecFailed, "web-v1")}, v12, nil, nil},
		// forced rollback
		{"rollback OrderedReady waits on broken pod", seedRB, vecSet(3, vecTemplate("web-v1"), vecCur("web-v1", "web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecNotReady, "web-v2")}, v12, nil, nil},
		{"rollback Parallel replaces broken pod", seedRB, vecSet(3, vecTemplate("web-v1"), vecCur("web-v1", "web-v2"), vecParallel), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecNotReady, "web-v2")}, v12, nil, nil},
		{"rollback OrderedReady after manual delete", seedRB + " (delete the pod by hand)", vecSet(3, vecTemplate("web-v1"), vecCur("web-v1", "web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1")}, v12, nil, nil},
		{"rollback renumbers older revision", "upstream TestStatefulSetControlRollback", vecSet(3, vecTemplate("web-v1"), vecCur("web-v2", "web-v2")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v2"), vecPod(1, vecRunning, "web-v2"), vecPod(2, vecRunning, "web-v2")}, v12, nil, nil},
		// history
		{"history limit 1 deletes oldest non-live", "upstream TestStatefulSetControlLimitsHistory", vecSet(2, vecTemplate("web-v4"), hist(1), vecCur("web-v4", "web-v4")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v4"), vecPod(1, vecRunning, "web-v4")}, vecRevs("web-v1", "web-v2", "web-v3", "web-v4"), nil, nil},
		{"history limit 0 keeps pod revisions", "upstream TestStatefulSetControlLimitsHistory", vecSet(2, vecTemplate("web-v4"), hist(0), vecCur("web-v3", "web-v4")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v2"), vecPod(1, vecRunning, "web-v4")}, vecRevs("web-v1", "web-v2", "web-v3", "web-v4"), nil, nil},
		{"history limit with new revision", "upstream TestStatefulSetControlLimitsHistory", vecSet(1, vecTemplate("web-v5"), hist(2), vecCur("web-v4", "web-v4")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v4")}, vecRevs("web-v1", "web-v2", "web-v3", "web-v4"), nil, nil},
		{"a pod named past int32 (web-99999999999) is not synced, not counted, but keeps its revision live", "upstream getParentNameAndOrdinal (ordinal -1 for a 32-bit parse failure), isMemberOf, truncateHistory over every claimed pod",
			vecSet(1, vecTemplate("web-v4"), hist(0), vecCur("web-v4", "web-v4")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v4"), vecNamed(vecPod(1, vecRunning, "web-v2"), "web-99999999999")}, vecRevs("web-v1", "web-v2", "web-v3", "web-v4"), nil, nil},
		{"first revision", "getStatefulSetRevisions: initialize history", vecSet(1, vecCur("", "")), nil, nil, nil, nil},
		// identity
		{"a pod named web-01 holds ordinal 1; its identity update renames it web-1, which does not exist: the sync fails", "identityMatches, updateIdentity, UpdateStatefulPod (stateful_set_utils.go, stateful_pod_control.go)", vecSet(2), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecNamed(vecPod(1, vecRunning, "web-v1"), "web-01")}, v1, nil, nil},
		// status
		{"status minReadySeconds requeue", "seed:002 L108; upstream TestStatefulSetAvailability", vecSet(2, mrs(10)), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecReadyJust, "web-v1")}, v1, nil, nil},
		{"status minReadySeconds blocks creation", "upstream TestStatefulSetAvailability", vecSet(3, mrs(10)), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecReadyJust, "web-v1")}, v1, nil, nil},
		{"status terminating pods not current", "upstream TestStatefulSetStatusUpdate; computeReplicaStatus", vecSet(3), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1"), vecPod(2, vecTerminated, "web-v1")}, v1, nil, nil},
		{"status unchanged is not written", "inconsistentStatus", vecSet(1, func(s *statefulset.StatefulSet) {
			s.Status.Replicas, s.Status.ReadyReplicas, s.Status.AvailableReplicas, s.Status.CurrentReplicas, s.Status.UpdatedReplicas = 1, 1, 1, 1, 1
		}), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1")}, v1, nil, nil},
		{"status newer generation is written", "inconsistentStatus", vecSet(1, func(s *statefulset.StatefulSet) {
			s.Generation = 2
			s.Status.Replicas, s.Status.ReadyReplicas, s.Status.AvailableReplicas, s.Status.CurrentReplicas, s.Status.UpdatedReplicas = 1, 1, 1, 1, 1
		}), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1")}, v1, nil, nil},
		{"status collisionCount carried", "updateStatefulSet", vecSet(1, func(s *statefulset.StatefulSet) { s.Status.CollisionCount = vecI32(2) }), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1")}, v1, nil, nil},
		{"set being deleted only updates status", "updateStatefulSet: DeletionTimestamp", vecSet(1, deleting), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1"), vecPod(1, vecRunning, "web-v1")}, v1, nil, nil},
		// claims
		{"claim created with pod", seedPVC + "; seed:002 stable storage", vecSet(1, vecClaims("www")), nil, v1, nil, nil},
		{"claims of two templates created", seedPVC, vecSet(1, vecClaims("www", "logs")), nil, v1, nil, nil},
		{"pending pod gets missing claim", "processReplica: isPending creates missing claims", vecSet(1, vecClaims("www")), []*podstatus.Pod{vecPod(0, vecPending, "web-v1", "www")}, v1, nil, nil},
		{"terminating claim blocks creation", "createPersistentVolumeClaims: claim being deleted", vecSet(1, vecClaims("www")), nil, v1, []*statefulset.Claim{{ObjectMeta: meta.ObjectMeta{Name: "www-web-0", DeletionTimestamp: func() *time.Time { d := vecNow.Add(-time.Second); return &d }()}}}, nil},
		{"stale claim blocks creation", "upstream TestPodClaimIsStale; PodClaimIsStale", vecSet(1, vecClaims("www"), vecRetention(statefulset.Retain, statefulset.Delete)), nil, v1, []*statefulset.Claim{claim("www-web-0", podRef("web-0", "old-pod"))}, nil},
		{"stale claim ignored when whenScaled Retain", "upstream TestPodClaimIsStale", vecSet(1, vecClaims("www"), vecRetention(statefulset.Delete, statefulset.Retain)), nil, v1, []*statefulset.Claim{claim("www-web-0", podRef("web-0", "old-pod"))}, nil},
		{"whenDeleted Delete adds set reference", seedPVC + "; upstream TestStatefulSetControl (PVC policy)", vecSet(1, vecClaims("www"), vecRetention(statefulset.Delete, statefulset.Retain)), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1", "www")}, v1, []*statefulset.Claim{claim("www-web-0")}, nil},
		{"whenScaled Delete adds pod reference on scale-down", seedPVC, vecSet(1, vecClaims("www"), vecRetention(statefulset.Retain, statefulset.Delete)), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1", "www"), vecPod(1, vecRunning, "web-v1", "www")}, v1, []*statefulset.Claim{claim("www-web-0"), claim("www-web-1")}, nil},
		{"Delete/Delete moves set reference to pod on scale-down", seedPVC, vecSet(1, vecClaims("www"), vecRetention(statefulset.Delete, statefulset.Delete)), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1", "www"), vecPod(1, vecRunning, "web-v1", "www")}, v1, []*statefulset.Claim{claim("www-web-0", setRef), claim("www-web-1", setRef)}, nil},
		{"Retain/Retain removes references", seedPVC, vecSet(1, vecClaims("www")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1", "www")}, v1, []*statefulset.Claim{claim("www-web-0", setRef)}, nil},
		{"claim with other controller left alone", "upstream TestClaimOwnerUpToDateEdgeCases", vecSet(1, vecClaims("www"), vecRetention(statefulset.Delete, statefulset.Delete)), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1", "www")}, v1, []*statefulset.Claim{claim("www-web-0", otherCtl)}, nil},
		{"storage mismatch updates pod and creates claim", "UpdateStatefulPod: storageMatches", vecSet(1, vecClaims("www")), []*podstatus.Pod{vecPod(0, vecRunning, "web-v1")}, v1, nil, nil},
		{"identity mismatch updates pod", "UpdateStatefulPod: identityMatches", vecSet(1), []*podstatus.Pod{func() *podstatus.Pod {
			p := vecPod(0, vecRunning, "web-v1")
			delete(p.Labels, statefulset.LabelPodName)
			return p
		}()}, v1, nil, nil},
		{"parallel new pod with unowned claim fails update", "processReplica (Parallel continues past a creation)", vecSet(1, vecClaims("www"), vecRetention(statefulset.Delete, statefulset.Retain), vecParallel), nil, v1, []*statefulset.Claim{claim("www-web-0")}, nil},
	}
	// TestStatefulSetControl's PVC-policy matrix, Monotonic and Burst:
	// scale 2 -> 1 with claims, and creation with existing claims.
	R, D := statefulset.Retain, statefulset.Delete
	for _, pol := range []statefulset.RetentionPolicy{{WhenDeleted: R, WhenScaled: R}, {WhenDeleted: D, WhenScaled: R}, {WhenDeleted: R, WhenScaled: D}, {WhenDeleted: D, WhenScaled: D}} {
		for _, mode := range []statefulset.PodManagementPolicy{statefulset.OrderedReady, statefulset.Parallel} {
			tag := string(mode) + " whenDeleted " + string(pol.WhenDeleted) + " whenScaled " + string(pol.WhenScaled)
			withPol := func(s *statefulset.StatefulSet) {
				s.Spec.PodManagementPolicy = mode
				s.Spec.VolumeClaimTemplates = vecTemplates("www")
				p := pol
				s.Spec.PersistentVolumeClaimRetentionPolicy = &p
			}
			cs = append(cs,
				vecStepCase{"pvc policy scale-down " + tag, seedPVC + "; upstream TestStatefulSetControl (" + tag + ")", vecSet(1, withPol),
					[]*podstatus.Pod{vecPod(0, vecRunning, "web-v1", "www"), vecPod(1, vecRunning, "web-v1", "www")}, v1, []*statefulset.Claim{claim("www-web-0"), claim("www-web-1")}, nil},
				vecStepCase{"pvc policy create " + tag, seedPVC + "; upstream TestStatefulSetControl (" + tag + ")", vecSet(2, withPol),
					[]*podstatus.Pod{vecPod(0, vecRunning, "web-v1", "www")}, v1, []*statefulset.Claim{claim("www-web-0", setRef), claim("www-web-1", podRef("web-1", "old-pod"))}, nil},
				vecStepCase{"pvc policy set deleted " + tag, seedPVC + "; updateStatefulSet: DeletionTimestamp", vecSet(2, withPol, deleting),
					[]*podstatus.Pod{vecPod(0, vecRunning, "web-v1", "www"), vecPod(1, vecRunning, "web-v1", "www")}, v1, []*statefulset.Claim{claim("www-web-0", setRef), claim("www-web-1")}, nil},
			)
		}
	}
	var out []vector
	for _, c := range cs {
		in := vectorInput{Set: c.set, Pods: c.pods, Revisions: c.revs, Claims: c.claims, Now: vecNow}
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		opts := opts(c.opts)
		restore := setGate(opts.MaxUnavailableStatefulSet)
		want := vectorWant(t, &in)
		restore()
		out = append(out, vector{Decision: "statefulset.Step", Name: c.name, Source: c.source, Options: c.opts, Input: b, Want: want})
	}
	// invalid input
	fieldOf := func(f string) string {
		if len(f) > 5 && f[:5] == "spec." {
			return "set." + f
		}
		return f
	}
	bad := []struct {
		name        string
		set         statefulset.StatefulSet
		pods        []*podstatus.Pod
		opts        *statefulset.Options
		source      string // a kubesem input rule: its source and error
		field, kind string
	}{
		{name: "negative replicas", set: vecSet(-1)},
		{name: "negative start", set: vecSet(1, vecStart(-1))},
		{name: "bad pod management policy", set: vecSet(1, func(s *statefulset.StatefulSet) { s.Spec.PodManagementPolicy = "Burst" })},
		{name: "bad update strategy", set: vecSet(1, func(s *statefulset.StatefulSet) { s.Spec.UpdateStrategy.Type = "Recreate" })},
		{name: "rollingUpdate with OnDelete", set: vecSet(1, func(s *statefulset.StatefulSet) { s.Spec.UpdateStrategy.Type = statefulset.OnDelete })},
		{name: "negative partition", set: vecSet(1, vecPartition(-1))},
		{name: "negative partition without a type", set: vecSet(1, vecStrategy(statefulset.UpdateStrategy{RollingUpdate: &statefulset.RollingUpdateStrategy{Partition: vecI32(-1)}}))},
		{name: "maxUnavailable 0", set: vecSet(1, vecMaxUnavail(intstr.Int(0)))},
		{name: "maxUnavailable 0%", set: vecSet(1, vecMaxUnavail(intstr.Percent(0)))},
		{name: "maxUnavailable 150%", set: vecSet(1, vecMaxUnavail(intstr.Percent(150)))},
		{name: "negative maxUnavailable", set: vecSet(1, vecMaxUnavail(intstr.Int(-1)))},
		{name: "bad retention policy", set: vecSet(1, vecRetention(statefulset.Retain, "Keep"))},
		{name: "negative minReadySeconds", set: vecSet(1, mrs(-1))},
		{name: "duplicate ordinals: web-1 and web-01 (the later name, web-1, is named)", set: vecSet(2),
			pods:   []*podstatus.Pod{vecPod(1, vecRunning, "web-v1"), vecNamed(vecPod(1, vecRunning, "web-v1"), "web-01")},
			source: "kubesem input rule: pods sharing an ordinal are refused, upstream keeps whichever its informer lists last (doc.go # Errors); issue 19", field: "pods", kind: "Duplicate"},
		{name: "duplicate ordinals in the other order: web-1 is named still", set: vecSet(2),
			pods:   []*podstatus.Pod{vecNamed(vecPod(1, vecRunning, "web-v1"), "web-01"), vecPod(1, vecRunning, "web-v1")},
			source: "kubesem input rule: pods sharing an ordinal are refused, the error independent of their order (doc.go # Errors); issue 19", field: "pods", kind: "Duplicate"},
		{name: "a set without templateRevision (kubesem's input: the revision the template hashes to) is an error, never a guess", set: vecSet(1, func(s *statefulset.StatefulSet) { s.Spec.TemplateRevision = "" }),
			source: "kubesem input rule: never silently wrong (statefulset package doc, Divergences)", field: "spec.templateRevision", kind: "Required"},
		{name: "replicas 2147483647 (API-valid) is refused, not an out-of-memory crash", set: vecSet(2147483647),
			source: "kubesem limit statefulset.MaxReplicas: upstream updateStatefulSet allocates one slot per replica (16 GiB here); statefulset package doc, Divergences", field: "spec.replicas", kind: "Unsupported"},
		{name: "RefuseOrdinalsPastInt32: a last ordinal past int32 is refused", set: vecSet(2, vecStart(2147483647)), opts: &statefulset.Options{RefuseOrdinalsPastInt32: true},
			source: "kubesem option statefulset.Options.RefuseOrdinalsPastInt32 (doc.go # Divergences); kubesem issue 18", field: "spec.ordinals.start", kind: "Overflow"},
	}
	for _, b := range bad {
		in := vectorInput{Set: b.set, Pods: b.pods, Revisions: v1, Now: vecNow}
		raw, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := statefulset.Step(&in.Set, in.Pods, in.Revisions, nil, vecNow, opts(b.opts)); err == nil {
			t.Fatalf("%s: Step accepts", b.name)
		}
		v := vector{Decision: "statefulset.Step", Name: b.name, Source: b.source, Options: b.opts, Input: raw}
		if b.source == "" {
			v.Name, v.Source = "invalid: "+b.name, "ValidateStatefulSetSpec (apps/validation, v1.36.3); issue 8 item 11"
			we := upstreamRejection(t, &in)
			v.WantError = &we
		} else {
			v.WantError = &wantError{Field: fieldOf(b.field), Kind: b.kind}
		}
		out = append(out, v)
	}
	return out
}

// vecRuleVectors transcribes the inputs of upstream's rule tables; every
// want is ruleWant's (upstream's function), and the generator checks
// that upstream reproduces the table's own expectation.
func vecRuleVectors(t *testing.T) []vector {
	var out []vector
	add := func(decision, name, source string, in any) json.RawMessage {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		want := ruleWant(t, decision, b)
		out = append(out, vector{Decision: decision, Name: name, Source: source, Input: b, Want: want})
		return want
	}
	// TestGetStatefulSetMaxUnavailable
	iv := func(n int32) *intstr.Value { v := intstr.Int(n); return &v }
	pv := func(n int32) *intstr.Value { v := intstr.Percent(n); return &v }
	for _, r := range []struct {
		v     *intstr.Value
		n     int32
		table int64 // the table's expectation
	}{{nil, 10, 1}, {iv(3), 10, 3}, {iv(3), 0, 3}, {iv(0), 0, 1}, {pv(10), 25, 2}, {pv(100), 5, 5}, {pv(50), 5, 2}, {pv(10), 5, 1}, {pv(1), 0, 1}, {pv(0), 0, 1}} {
		name := "nil"
		if r.v != nil {
			name = r.v.String()
		}
		want := add("statefulset.MaxUnavailable", "maxUnavailable "+name+" of "+strconv.Itoa(int(r.n)),
			"upstream TestGetStatefulSetMaxUnavailable (stateful_set_utils_test.go); want: getStatefulSetMaxUnavailable",
			maxUnavailableIn{MaxUnavailable: r.v, Replicas: r.n})
		if string(want) != `{"maxUnavailable":`+strconv.FormatInt(r.table, 10)+`}` {
			t.Errorf("maxUnavailable %s of %d: upstream %s, table %d", name, r.n, want, r.table)
		}
	}
	isTrue := func(want json.RawMessage, key string) bool {
		var m map[string]bool
		if err := json.Unmarshal(want, &m); err != nil {
			t.Fatal(err)
		}
		return m[key]
	}
	R, D := statefulset.Retain, statefulset.Delete
	// TestIsClaimOwnerUpToDate
	for _, tc := range []struct {
		name               string
		scaled, deleted    statefulset.RetentionPolicyType
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
					pod := statefulset.Owner{Name: "pod-" + strconv.Itoa(tc.ordinal), UID: "pod-123"}
					set := statefulset.Owner{Name: "stateful-set", UID: "ss-456"}
					c := statefulset.Claim{ObjectMeta: meta.ObjectMeta{Name: "target-claim"}}
					if hasPod {
						c.OwnerReferences = append(c.OwnerReferences, vecCtlRef("v1", "Pod", pod.Name, pod.UID))
					}
					if hasSet {
						c.OwnerReferences = append(c.OwnerReferences, vecCtlRef("apps/v1", "StatefulSet", set.Name, set.UID))
					}
					if other {
						c.OwnerReferences = append(c.OwnerReferences,
							meta.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: "rand1", UID: "rand1-uid"},
							meta.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: "rand2", UID: "rand2-uid"})
					}
					in := claimIn{Claim: c, Policy: statefulset.RetentionPolicy{WhenDeleted: tc.deleted, WhenScaled: tc.scaled}, Set: set, Pod: pod,
						ScaledDown: tc.ordinal >= tc.replicas}
					name := "up to date: " + tc.name + " pod=" + strconv.FormatBool(hasPod) + " set=" + strconv.FormatBool(hasSet) + " others=" + strconv.FormatBool(other)
					want := add("statefulset.ClaimOwnerUpToDate", name, "upstream TestIsClaimOwnerUpToDate (stateful_set_utils_test.go); want: isClaimOwnerUpToDate", in)
					if table := hasPod == tc.needsPod && hasSet == tc.needsSet; isTrue(want, "upToDate") != table {
						t.Errorf("%s: upstream %s, table %v", name, want, table)
					}
				}
			}
		}
	}
	// TestClaimOwnerUpToDateEdgeCases
	podRef := func(uid string, ctl bool) meta.OwnerReference {
		r := vecCtlRef("v1", "Pod", "pod-1", uid)
		if !ctl {
			r.Controller = nil
		}
		return r
	}
	for _, tc := range []struct {
		name            string
		refs            []meta.OwnerReference
		scaled, deleted statefulset.RetentionPolicyType
		table           bool
	}{
		{"normal controller, pod", []meta.OwnerReference{podRef("pod-123", true)}, D, D, true},
		{"non-controller causes policy mismatch, pod", []meta.OwnerReference{podRef("pod-123", false)}, D, D, false},
		{"stale controller does not affect policy, pod", []meta.OwnerReference{podRef("pod-stale", true)}, D, D, true},
		{"unexpected controller causes policy mismatch, pod", []meta.OwnerReference{podRef("pod-123", true), vecCtlRef("v1", "Pod", "Random", "random")}, D, D, false},
		{"normal controller, set", []meta.OwnerReference{vecCtlRef("apps/v1", "StatefulSet", "stateful-set", "ss-456")}, R, D, true},
		{"non-controller causes policy mismatch, set", []meta.OwnerReference{{APIVersion: "appsv1", Kind: "StatefulSet", Name: "stateful-set", UID: "ss-456"}}, R, D, false},
		{"stale controller ignored, set", []meta.OwnerReference{vecCtlRef("apps/v1", "StatefulSet", "stateful-set", "set-stale")}, R, D, true},
		{"unexpected controller causes policy mismatch, set", []meta.OwnerReference{vecCtlRef("apps/v1", "StatefulSet", "stateful-set", "ss-456"), vecCtlRef("apps/v1", "StatefulSet", "Random", "random")}, R, D, false},
	} {
		in := claimIn{Claim: statefulset.Claim{ObjectMeta: meta.ObjectMeta{Name: "target-claim", OwnerReferences: tc.refs}}, Policy: statefulset.RetentionPolicy{WhenDeleted: tc.deleted, WhenScaled: tc.scaled},
			Set: statefulset.Owner{Name: "stateful-set", UID: "ss-456"}, Pod: statefulset.Owner{Name: "pod-1", UID: "pod-123"}, ScaledDown: true}
		want := add("statefulset.ClaimOwnerUpToDate", "edge: "+tc.name, "upstream TestClaimOwnerUpToDateEdgeCases (stateful_set_utils_test.go); want: isClaimOwnerUpToDate", in)
		if isTrue(want, "upToDate") != tc.table {
			t.Errorf("edge %s: upstream %s, table %v", tc.name, want, tc.table)
		}
	}
	// TestUpdateClaimOwnerRefForSetAndPod
	for _, tc := range []struct {
		name                          string
		scaled, deleted               statefulset.RetentionPolicyType
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
			set := statefulset.Owner{Name: "ss", UID: "ss-123"}
			pod := statefulset.Owner{Name: "pod-1", UID: "pod-456"}
			if tc.condemned {
				pod.Name = "pod-8"
			}
			c := statefulset.Claim{}
			if hasPod {
				c.OwnerReferences = append(c.OwnerReferences, vecCtlRef("v1", "Pod", pod.Name, pod.UID))
			}
			if hasSet {
				c.OwnerReferences = append(c.OwnerReferences, vecCtlRef("apps/v1", "StatefulSet", set.Name, set.UID))
			}
			if extra {
				c.OwnerReferences = append(c.OwnerReferences, meta.OwnerReference{APIVersion: "custom/v1", Kind: "random", Name: "random", UID: "abc"})
			}
			if tc.unexpected {
				c.OwnerReferences = append(c.OwnerReferences, vecCtlRef("custom/v1", "Unknown", "unknown", "xyz"))
			}
			in := claimIn{Claim: c, Policy: statefulset.RetentionPolicy{WhenDeleted: tc.deleted, WhenScaled: tc.scaled}, Set: set, Pod: pod, ScaledDown: tc.condemned}
			name := "owner refs: " + tc.name + " variation " + strconv.Itoa(v)
			want := add("statefulset.ClaimOwnerRefs", name, "upstream TestUpdateClaimOwnerRefForSetAndPod (stateful_set_utils_test.go); want: updateClaimOwnerRefForSetAndPod", in)
			var got struct {
				OwnerReferences []meta.OwnerReference `json:"ownerReferences"`
			}
			if err := json.Unmarshal(want, &got); err != nil {
				t.Fatal(err)
			}
			has := func(uid string) bool {
				for _, r := range got.OwnerReferences {
					if r.UID == uid {
						return true
					}
				}
				return false
			}
			if has(pod.UID) != tc.needsPod || has(set.UID) != tc.needsSet {
				t.Errorf("%s: upstream %s; table needs pod %v set %v", name, want, tc.needsPod, tc.needsSet)
			}
		}
	}
	// PodClaimIsStale on one claim in each of TestPodClaimIsStale's states
	// (none, the pod's, a stale pod reference, another pod's, the set's).
	for _, scaled := range []statefulset.RetentionPolicyType{R, D} {
		for _, k := range []struct {
			name string
			refs []meta.OwnerReference
		}{
			{"no owner", nil},
			{"owned by the pod", []meta.OwnerReference{vecCtlRef("v1", "Pod", "set-3", "pod-uid")}},
			{"owned by a former pod of the name", []meta.OwnerReference{vecCtlRef("v1", "Pod", "set-3", "old-uid")}},
			{"owned by another pod", []meta.OwnerReference{vecCtlRef("v1", "Pod", "set-2", "x")}},
			{"owned by the set", []meta.OwnerReference{vecCtlRef("apps/v1", "StatefulSet", "set", "set-uid")}},
		} {
			in := claimIn{Claim: statefulset.Claim{ObjectMeta: meta.ObjectMeta{Name: "data-set-3", OwnerReferences: k.refs}}, Policy: statefulset.RetentionPolicy{WhenDeleted: R, WhenScaled: scaled},
				Set: statefulset.Owner{Name: "set", UID: "set-uid"}, Pod: statefulset.Owner{Name: "set-3", UID: "pod-uid"}}
			add("statefulset.ClaimIsStale", "stale: whenScaled "+string(scaled)+", "+k.name,
				"upstream TestPodClaimIsStale (stateful_pod_control_test.go) claim states; want: StatefulPodControl.PodClaimIsStale", in)
		}
	}
	return out
}

// vecTemplates are volume claim templates named names.
func vecTemplates(names ...string) []statefulset.Claim {
	out := make([]statefulset.Claim, len(names))
	for i, n := range names {
		out[i].Name = n
	}
	return out
}
