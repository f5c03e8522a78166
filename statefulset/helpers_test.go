package statefulset

import (
	"strconv"
	"time"

	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// Helpers of the package's tests: a "web" set and its pods in named states.

var genNow = time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)

type stepInput struct {
	Set       StatefulSet                  `json:"set"`
	Pods      []*podstatus.Pod             `json:"pods"`
	Revisions []history.ControllerRevision `json:"revisions"`
	Claims    []*Claim                     `json:"claims"`
	Now       time.Time                    `json:"now"`
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
func onDelete(s *StatefulSet) { s.Spec.UpdateStrategy = UpdateStrategy{Type: OnDelete} }
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
	return func(s *StatefulSet) { s.Spec.VolumeClaimTemplates = templates(names...) }
}
func retention(d, sc RetentionPolicyType) func(*StatefulSet) {
	return func(s *StatefulSet) {
		s.Spec.PersistentVolumeClaimRetentionPolicy = &RetentionPolicy{WhenDeleted: d, WhenScaled: sc}
	}
}
func current(c, u string) func(*StatefulSet) {
	return func(s *StatefulSet) { s.Status.CurrentRevision, s.Status.UpdateRevision = c, u }
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
	noPhase    = "nophase"
)

// gpod is pod web-<ord> in state at revision rev, with identity label and
// the claim volumes of templates.
func gpod(ord int32, state, rev string, templates ...string) *podstatus.Pod {
	name := "web-" + strconv.Itoa(int(ord))
	p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name,
		Labels: map[string]string{"app": "web", LabelPodName: name, history.HashLabel: rev}}}
	for _, t := range templates {
		p.Spec.Volumes = append(p.Spec.Volumes, podstatus.Volume{Name: t, PersistentVolumeClaim: &podstatus.PersistentVolumeClaimVolumeSource{ClaimName: ClaimName(t, "web", ord)}})
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

// renamed is p under another name (its pod-name label follows).
func renamed(p *podstatus.Pod, name string) *podstatus.Pod {
	p.Name = name
	p.Labels[LabelPodName] = name
	return p
}

func revs(names ...string) []history.ControllerRevision {
	out := make([]history.ControllerRevision, len(names))
	for i, n := range names {
		out[i] = rev(n, int64(i+1))
	}
	return out
}

// with replaces pods by name.
func with(ps []*podstatus.Pod, repl ...*podstatus.Pod) []*podstatus.Pod {
	for _, r := range repl {
		for i := range ps {
			if ps[i].Name == r.Name {
				ps[i] = r
			}
		}
	}
	return ps
}

func run5(rev string) []*podstatus.Pod {
	var ps []*podstatus.Pod
	for i := int32(0); i < 5; i++ {
		ps = append(ps, gpod(i, running, rev))
	}
	return ps
}

func ptrTime(t time.Time) *time.Time { return &t }

func ctlRef(apiVersion, kind, name, uid string) meta.OwnerReference {
	t := true
	return meta.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: uid, Controller: &t}
}

// rev is ControllerRevision name numbered n, created at the first of
// created (none: zero time).
func rev(name string, n int64, created ...time.Time) history.ControllerRevision {
	r := history.ControllerRevision{ObjectMeta: meta.ObjectMeta{Name: name}, Revision: n}
	if len(created) > 0 {
		r.CreationTimestamp = created[0]
	}
	return r
}

// templates are volume claim templates named names.
func templates(names ...string) []Claim {
	out := make([]Claim, len(names))
	for i, n := range names {
		out[i].Name = n
	}
	return out
}

// templateNames are the names of claim templates.
func templateNames(ts []Claim) []string {
	out := make([]string, len(ts))
	for i := range ts {
		out[i] = ts[i].Name
	}
	return out
}
