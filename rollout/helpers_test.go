package rollout_test

import (
	"strconv"
	"time"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// t0 is the base time of the test ReplicaSets.
var t0 = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

func i32(n int32) *int32 { return &n }

func bound(s string) *intstr.Value {
	v, err := intstr.Parse(s)
	if err != nil {
		v = intstr.String(s)
	}
	return &v
}

// deploy returns a rolling-update Deployment of n replicas with the given
// bounds ("" leaves a bound unset).
func deploy(n int32, maxSurge, maxUnavailable string) *rollout.Deployment {
	d := &rollout.Deployment{}
	d.Name = "foo"
	d.Spec.Replicas = i32(n)
	d.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "foo"})
	d.Spec.Template.Labels = map[string]string{"app": "foo"}
	d.Spec.Strategy.Type = rollout.RollingUpdateStrategy
	ru := &rollout.RollingUpdate{}
	if maxSurge != "" {
		ru.MaxSurge = bound(maxSurge)
	}
	if maxUnavailable != "" {
		ru.MaxUnavailable = bound(maxUnavailable)
	}
	d.Spec.Strategy.RollingUpdate = ru
	return d
}

// rs returns a ReplicaSet created age minutes after t0.
func rs(name string, replicas, available int32, age int) *replicaset.ReplicaSet {
	r := &replicaset.ReplicaSet{}
	r.Name = name
	r.UID = "uid-" + name
	r.CreationTimestamp = t0.Add(time.Duration(age) * time.Minute)
	r.Spec.Replicas = i32(replicas)
	r.Status.Replicas = replicas
	r.Status.AvailableReplicas = available
	return r
}

// annotated sets rs's desired- and max-replicas annotations.
func annotated(r *replicaset.ReplicaSet, desired, maxReplicas string) *replicaset.ReplicaSet {
	r.Annotations = map[string]string{rollout.DesiredReplicasAnnotation: desired, rollout.MaxReplicasAnnotation: maxReplicas}
	return r
}

func sizes(scales []rollout.Scale) map[string]int32 {
	m := map[string]int32{}
	for _, s := range scales {
		m[s.ReplicaSet.Name] = s.Replicas
	}
	return m
}

// world is a Deployment and its ReplicaSets in a small simulation: each tick
// runs rollout.Step, applies the plan, then lets the ReplicaSet controller
// create or delete pods to match every ReplicaSet's size and makes up to
// ready new pods available.
type world struct {
	d   *rollout.Deployment
	rss []*replicaset.ReplicaSet
	now time.Time
}

// tick runs one sync and returns its plan.
func (w *world) tick() (rollout.Plan, error) {
	p, err := rollout.Step(w.d, w.rss, nil, w.now, rollout.Options{})
	if err != nil {
		return p, err
	}
	w.rss = p.Apply(w.rss, w.now)
	d := *w.d
	d.Status = p.Status
	if p.Annotations != nil {
		d.Annotations = p.Annotations
	}
	w.d = &d
	w.now = w.now.Add(time.Second)
	return p, nil
}

// settle lets the ReplicaSet controller act: pods match spec.replicas at once
// (unavailable ones go first on scale-down) and up to ready(rs) more become
// available.
func (w *world) settle(ready func(rs *replicaset.ReplicaSet) int32) {
	for i, r := range w.rss {
		c := *r
		n := c.Replicas()
		c.Status.Replicas = n
		c.Status.ReadyReplicas = 0
		c.Status.AvailableReplicas = min(c.Status.AvailableReplicas, n)
		c.Status.AvailableReplicas = min(n, c.Status.AvailableReplicas+ready(r))
		c.Status.ReadyReplicas = c.Status.AvailableReplicas
		w.rss[i] = &c
	}
}

// rolloutWorld returns a world where a Deployment of n replicas with the
// given bounds, fully running template v1, has just been changed to v2.
func rolloutWorld(n int32, maxSurge, maxUnavailable string) *world {
	d := deploy(n, maxSurge, maxUnavailable)
	d.Spec.Template.Labels = map[string]string{"app": "foo"}
	d.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "app", Image: "app:v2"}}
	d.Generation = 2
	d.Annotations = map[string]string{rollout.RevisionAnnotation: "1"}
	old := rs("foo-v1", n, n, 0)
	old.Labels = map[string]string{"app": "foo", rollout.HashLabel: "v1"}
	old.Spec.Template.Labels = old.Labels
	old.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef("apps/v1", "Deployment", d.Name, d.UID)}
	old.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "app", Image: "app:v1"}}
	old.Annotations = map[string]string{rollout.RevisionAnnotation: "1", rollout.DesiredReplicasAnnotation: itoa(n), rollout.MaxReplicasAnnotation: itoa(n + d.MaxSurge())}
	d.Status = rollout.Status{ObservedGeneration: 1, Replicas: n, UpdatedReplicas: n, ReadyReplicas: n, AvailableReplicas: n}
	return &world{d: d, rss: []*replicaset.ReplicaSet{old}, now: t0.Add(time.Hour)}
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }
