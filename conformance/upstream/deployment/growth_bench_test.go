package deployment_test

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/client-go/informers"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/controller/deployment"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// growthRollout is a Deployment of n replicas in the middle of a rolling
// update (maxSurge and maxUnavailable 25%): the new ReplicaSet (template
// app:v2) at n/4 replicas, the old one (app:v1) at n - n/4, every pod
// Running and Ready on n/10 nodes, every status up to date.
func growthRollout(n int) (*rollout.Deployment, []*replicaset.ReplicaSet, []*podstatus.Pod) {
	yes := true
	at := base.Add(-time.Hour)
	q := intstr.Percent(25)
	d := &rollout.Deployment{ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "default", UID: "d-uid", Generation: 2,
		Annotations: map[string]string{rollout.RevisionAnnotation: "2"}}}
	d.Spec.Replicas = difftest.Ptr(int32(n))
	d.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "web"})
	d.Spec.Strategy = rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: &rollout.RollingUpdate{MaxSurge: &q, MaxUnavailable: &q}}
	d.Spec.Template = template("app:v2")
	d.Spec.Template.Labels = map[string]string{"app": "web"}
	hash := func(t podstatus.Template) string {
		return k8s.PodTemplateHash(&difftest.Must(k8s.ToDeployment(&rollout.Deployment{Spec: rollout.Spec{Template: t}})).Spec.Template, nil)
	}
	d.TemplateHash = hash(d.Spec.Template)
	newSize, oldSize := int32(n/4), int32(n-n/4)
	d.Status = rollout.Status{ObservedGeneration: 2, Replicas: int32(n), UpdatedReplicas: newSize, ReadyReplicas: int32(n), AvailableReplicas: int32(n),
		Conditions: meta.Conditions{
			{Type: rollout.Available, Status: meta.ConditionTrue, Reason: rollout.ReasonMinimumReplicasAvailable, Message: "Deployment has minimum availability.", LastUpdateTime: at, LastTransitionTime: at},
			{Type: rollout.Progressing, Status: meta.ConditionTrue, Reason: rollout.ReasonReplicaSetUpdated, LastUpdateTime: at, LastTransitionTime: at}}}
	mkRS := func(image, revision string, size int32) *replicaset.ReplicaSet {
		t := template(image)
		t.Labels = map[string]string{"app": "web"}
		h := hash(t)
		t.Labels["pod-template-hash"] = h
		rs := &replicaset.ReplicaSet{ObjectMeta: meta.ObjectMeta{Name: rollout.ReplicaSetName("web", h), Namespace: "default", Generation: 1,
			Labels: maps.Clone(t.Labels), CreationTimestamp: at,
			Annotations: map[string]string{rollout.RevisionAnnotation: revision, rollout.DesiredReplicasAnnotation: strconv.Itoa(n),
				rollout.MaxReplicasAnnotation: strconv.Itoa(n + n/4)},
			OwnerReferences: []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "d-uid", Controller: &yes}}}}
		rs.UID = "uid-" + rs.Name
		rs.Spec.Replicas = &size
		rs.Spec.Selector = meta.SelectorFromSet(t.Labels)
		rs.Spec.Template = t
		rs.Status = replicaset.Status{Replicas: size, FullyLabeledReplicas: size, ReadyReplicas: size, AvailableReplicas: size, ObservedGeneration: 1}
		return rs
	}
	newRS, oldRS := mkRS("app:v2", "2", newSize), mkRS("app:v1", "1", oldSize)
	var pods []*podstatus.Pod
	nodes := max(1, n/10)
	for i := range n {
		rs := oldRS
		if i < int(newSize) {
			rs = newRS
		}
		p := &podstatus.Pod{}
		p.Name, p.Namespace, p.UID = rs.Name+"-"+strconv.Itoa(i), "default", "pod-uid-"+strconv.Itoa(i)
		p.Labels = rs.Spec.Template.Labels
		p.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: &yes}}
		p.CreationTimestamp = at
		p.Spec = rs.Spec.Template.Spec
		p.Spec.NodeName = "node-" + strconv.Itoa(i%nodes)
		p.Status.Phase = podstatus.Running
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: at}}
		pods = append(pods, p)
	}
	return d, []*replicaset.ReplicaSet{oldRS, newRS}, pods
}

// BenchmarkGrowth (issue 24, how cost grows): rollout.Step against
// syncDeployment over n pods (growthRollout): both scale the new
// ReplicaSet up by the surge (to n/2) and write the Deployment's status.
// Upstream's controller is built once over informer stores holding the
// Deployment, its two ReplicaSets and the pods, on a fake clientset that
// answers every write without storing it (the scaling harness's), so every
// sync starts from the same state. Both must make the same ReplicaSet
// writes (name and size) and agree whether to write the status.
func BenchmarkGrowth(b *testing.B) {
	difftest.Growth(b, "rollout", func(b *testing.B, n int) *difftest.GrowthCase {
		d, rss, pods := growthRollout(n)
		var p rollout.Plan

		_, c := newController()
		inf := informers.NewSharedInformerFactory(c, 0)
		ctx := context.Background()
		dc, err := deployment.NewDeploymentController(ctx, inf.Apps().V1().Deployments(), inf.Apps().V1().ReplicaSets(), inf.Core().V1().Pods(), c)
		if err != nil {
			b.Fatal(err)
		}
		setField(dc, "eventRecorder", record.EventRecorder(&record.FakeRecorder{}))
		if err := inf.Apps().V1().Deployments().Informer().GetIndexer().Add(v1Deployment(d)); err != nil {
			b.Fatal(err)
		}
		for _, rs := range rss {
			if err := inf.Apps().V1().ReplicaSets().Informer().GetIndexer().Add(v1ReplicaSetFull(rs)); err != nil {
				b.Fatal(err)
			}
		}
		for _, q := range pods {
			if err := inf.Core().V1().Pods().Informer().GetIndexer().Add(difftest.Must(k8s.ToPod(q))); err != nil {
				b.Fatal(err)
			}
		}
		outcome := func(writes []string, status bool) string {
			return fmt.Sprintf("ReplicaSet writes [%s] status write %v", strings.Join(writes, " "), status)
		}
		return &difftest.GrowthCase{
			Kubesem: difftest.GrowthSide{
				Op: func() (err error) { p, err = rollout.Step(d, rss, pods, base, rollout.Options{}); return err },
				Outcome: func() string {
					var ws []string
					for _, u := range p.Update {
						ws = append(ws, fmt.Sprintf("%s=%d", u.Name, u.Replicas))
					}
					for _, r := range p.Scale {
						ws = append(ws, fmt.Sprintf("%s=%d", r.Name, r.Replicas))
					}
					return outcome(ws, p.UpdateStatus)
				},
			},
			Upstream: difftest.GrowthSide{
				Op: func() error { c.ClearActions(); return syncDeployment(dc, ctx, "default/web") },
				Outcome: func() string {
					var ws []string
					status := false
					for _, a := range c.Actions() {
						u, ok := a.(clienttesting.UpdateAction)
						if !ok || a.GetVerb() != "update" {
							continue
						}
						switch o := u.GetObject().(type) {
						case *appsv1.ReplicaSet:
							ws = append(ws, fmt.Sprintf("%s=%d", o.Name, *o.Spec.Replicas))
						case *appsv1.Deployment:
							status = status || a.GetSubresource() == "status"
						}
					}
					return outcome(ws, status)
				},
			},
			Close: func() { difftest.Stop(dc) },
		}
	})
}
