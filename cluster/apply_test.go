package cluster_test

import (
	"errors"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/rollout"
)

func mustApply(t *testing.T, s *cluster.State, w plan.Write, now time.Time) cluster.Result {
	t.Helper()
	r, err := s.Apply(w, now, nil)
	if err != nil {
		t.Fatalf("%s %s: %v", w.Verb, w.Resource, err)
	}
	return r
}

func TestApplyCreate(t *testing.T) {
	s := cluster.NewState()
	pod := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{GenerateName: "web-"}}
	pod.Status.Phase = podstatus.Running
	r := mustApply(t, s, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: "default", Object: pod}, t0)
	got := s.Pod("default", r.Key.Name)
	if got == nil || got.Name != "web-bbbbb" && len(got.Name) != len("web-")+5 {
		t.Fatalf("created %+v", r.Key)
	}
	if got.UID == "" || !got.CreationTimestamp.Equal(t0) || got.Generation != 1 {
		t.Errorf("server fields: uid %q created %v generation %d", got.UID, got.CreationTimestamp, got.Generation)
	}
	if got.Status.Phase != podstatus.Pending {
		t.Errorf("phase %q, want the status reset to Pending", got.Status.Phase)
	}
	if got.Spec.TerminationGracePeriodSeconds == nil || *got.Spec.TerminationGracePeriodSeconds != 30 || len(got.Spec.Tolerations) != 2 {
		t.Errorf("defaults: grace %v tolerations %v", got.Spec.TerminationGracePeriodSeconds, got.Spec.Tolerations)
	}
	if pod.Name != "" || pod.UID != "" || pod.Status.Phase != podstatus.Running {
		t.Errorf("Apply modified the write's object: %+v", pod.ObjectMeta)
	}
	// The same generateName gets a new name; a taken name is refused.
	r2 := mustApply(t, s, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: "default", Object: pod}, t0)
	if r2.Key.Name == r.Key.Name {
		t.Errorf("two creates named %s", r.Key.Name)
	}
	named := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: r.Key.Name}}
	_, err := s.Apply(plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: "default", Object: named}, t0, nil)
	if !errors.Is(err, cluster.ErrAlreadyExists) {
		t.Errorf("taken name: %v", err)
	}
	if _, err := s.Apply(plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: "default", Object: &podstatus.Pod{}}, t0, nil); !errors.Is(err, field.ErrRequired) {
		t.Errorf("no name: %v", err)
	}
	if _, err := s.Apply(plan.Write{Verb: plan.VerbCreate, Resource: "widgets", Object: pod}, t0, nil); !errors.Is(err, field.ErrUnsupported) {
		t.Errorf("unknown resource: %v", err)
	}
}

func TestApplyUpdateGeneration(t *testing.T) {
	s := cluster.NewState()
	d := deployment("web", 3, "web:1")
	r := mustApply(t, s, plan.Write{Verb: plan.VerbCreate, Resource: "deployments", Namespace: "default", Object: d}, t0)
	stored := s.Get(r.Key).(*rollout.Deployment)
	// A metadata change keeps the generation.
	c := *stored
	c.Annotations = map[string]string{"a": "b"}
	mustApply(t, s, plan.Write{Verb: plan.VerbUpdate, Resource: "deployments", Namespace: "default", Name: "web", Object: &c}, t0)
	if g := s.Get(r.Key).(*rollout.Deployment).Generation; g != 1 {
		t.Errorf("metadata change: generation %d, want 1", g)
	}
	// A spec change bumps it; the status sent on the main resource is ignored.
	c2 := *s.Get(r.Key).(*rollout.Deployment)
	n := int32(5)
	c2.Spec.Replicas = &n
	c2.Status.Replicas = 99
	mustApply(t, s, plan.Write{Verb: plan.VerbUpdate, Resource: "deployments", Namespace: "default", Name: "web", Object: &c2}, t0)
	got := s.Get(r.Key).(*rollout.Deployment)
	if got.Generation != 2 || got.Status.Replicas != 0 || got.Annotations["a"] != "b" {
		t.Errorf("spec change: generation %d status %d annotations %v", got.Generation, got.Status.Replicas, got.Annotations)
	}
	// The status subresource takes only the status.
	c3 := *got
	c3.Status.Replicas = 7
	one := int32(1)
	c3.Spec.Replicas = &one
	mustApply(t, s, plan.Write{Verb: plan.VerbUpdate, Resource: "deployments", Subresource: "status", Namespace: "default", Name: "web", Object: &c3}, t0)
	got = s.Get(r.Key).(*rollout.Deployment)
	if got.Status.Replicas != 7 || *got.Spec.Replicas != 5 || got.Generation != 2 {
		t.Errorf("status write: status %d spec %d generation %d", got.Status.Replicas, *got.Spec.Replicas, got.Generation)
	}
	if _, err := s.Apply(plan.Write{Verb: plan.VerbUpdate, Resource: "deployments", Namespace: "default", Name: "web", UID: "other", Object: &c3}, t0, nil); !errors.Is(err, cluster.ErrConflict) {
		t.Errorf("UID precondition: %v", err)
	}
	if _, err := s.Apply(plan.Write{Verb: plan.VerbUpdate, Resource: "deployments", Namespace: "default", Name: "nope", Object: &c3}, t0, nil); !errors.Is(err, cluster.ErrNotFound) {
		t.Errorf("missing object: %v", err)
	}
}

func TestApplyDeletePod(t *testing.T) {
	s := cluster.NewState()
	pod := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "p"}}
	mustApply(t, s, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: "ns", Object: pod}, t0)
	// Unscheduled: removed at once.
	r := mustApply(t, s, plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: "ns", Name: "p"}, t0)
	if !r.Removed || s.Pod("ns", "p") != nil {
		t.Fatalf("unscheduled pod not removed: %+v", r)
	}
	// Scheduled: graceful, 30 s.
	mustApply(t, s, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: "ns", Object: pod}, t0)
	b := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "p"}}
	b.Spec.NodeName = "n1"
	mustApply(t, s, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Subresource: "binding", Namespace: "ns", Name: "p", Object: b}, t0)
	if _, err := s.Apply(plan.Write{Verb: plan.VerbCreate, Resource: "pods", Subresource: "binding", Namespace: "ns", Name: "p", Object: b}, t0, nil); !errors.Is(err, cluster.ErrConflict) {
		t.Errorf("second binding: %v", err)
	}
	if got := s.PodsOnNode("n1"); len(got) != 1 || got[0].Condition(podstatus.PodScheduled) == nil {
		t.Fatalf("binding: %v", got)
	}
	mustApply(t, s, plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: "ns", Name: "p"}, t0)
	got := s.Pod("ns", "p")
	if got == nil || got.DeletionTimestamp == nil || !got.DeletionTimestamp.Equal(t0.Add(30*time.Second)) {
		t.Fatalf("graceful delete: %+v", got)
	}
	zero := int64(0)
	r = mustApply(t, s, plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: "ns", Name: "p", GracePeriodSeconds: &zero}, t0.Add(time.Second))
	if !r.Removed {
		t.Errorf("grace 0 on a terminating pod: %+v", r)
	}
}

func TestApplyFinalizers(t *testing.T) {
	s := cluster.NewState()
	d := deployment("web", 1, "x")
	d.Finalizers = []string{"example.com/keep"}
	mustApply(t, s, plan.Write{Verb: plan.VerbCreate, Resource: "deployments", Namespace: "default", Object: d}, t0)
	k := cluster.Key{Kind: cluster.KindDeployment, Namespace: "default", Name: "web"}
	mustApply(t, s, plan.Write{Verb: plan.VerbDelete, Resource: "deployments", Namespace: "default", Name: "web"}, t0)
	got := s.Get(k).(*rollout.Deployment)
	if got.DeletionTimestamp == nil {
		t.Fatal("an object with finalizers is removed at once")
	}
	c := *got
	c.Finalizers = nil
	r := mustApply(t, s, plan.Write{Verb: plan.VerbUpdate, Resource: "deployments", Namespace: "default", Name: "web", Object: &c}, t0)
	if !r.Removed || s.Get(k) != nil {
		t.Errorf("last finalizer removed: %+v", r)
	}
}

func TestEvictionRespectsBudget(t *testing.T) {
	sc := rollingScenario()
	sc.Events = nil
	sc.Objects = append(sc.Objects, budget("web", "web", 6))
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Run(t0.Add(time.Minute))
	p := w.State.Pods()[0]
	_, err = w.State.Apply(plan.Write{Verb: plan.VerbCreate, Resource: "pods", Subresource: "eviction", Namespace: p.Namespace, Name: p.Name}, w.Now, nil)
	if !errors.Is(err, cluster.ErrTooManyRequests) {
		t.Fatalf("eviction under minAvailable 6 of 6: %v", err)
	}
}

func TestScenarioValidate(t *testing.T) {
	neg := int32(-1)
	cases := []struct {
		name string
		sc   cluster.Scenario
		path string
		err  error
	}{
		{"nil object", cluster.Scenario{Objects: []any{nil}}, "objects[0]", field.ErrUnsupported},
		{"no name", cluster.Scenario{Objects: []any{&podstatus.Pod{ObjectMeta: meta.ObjectMeta{Namespace: "a"}}}}, "objects[0].metadata.name", field.ErrRequired},
		{"no namespace", cluster.Scenario{Objects: []any{&podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "a"}}}}, "objects[0].metadata.namespace", field.ErrRequired},
		{"duplicate", cluster.Scenario{Objects: []any{readyNode("a"), readyNode("a")}}, "objects[1].metadata.name", field.ErrDuplicate},
		{"negative at", cluster.Scenario{Events: []cluster.Event{{At: -1, Kind: cluster.EventStopNode, Target: cluster.Key{Kind: cluster.KindNode, Name: "a"}}}}, "events[0].at", field.ErrNegative},
		{"unknown kind", cluster.Scenario{Events: []cluster.Event{{Kind: "explode"}}}, "events[0].kind", field.ErrUnsupported},
		{"wrong target", cluster.Scenario{Events: []cluster.Event{{Kind: cluster.EventCordon, Target: cluster.Key{Kind: cluster.KindPod, Namespace: "a", Name: "a"}}}}, "events[0].target.kind", field.ErrUnsupported},
		{"no target name", cluster.Scenario{Events: []cluster.Event{{Kind: cluster.EventCordon, Target: cluster.Key{Kind: cluster.KindNode}}}}, "events[0].target.name", field.ErrRequired},
		{"negative scale", cluster.Scenario{Events: []cluster.Event{{Kind: cluster.EventScale, Replicas: &neg, Target: cluster.Key{Kind: cluster.KindDeployment, Namespace: "a", Name: "a"}}}}, "events[0].replicas", field.ErrNegative},
		{"no image", cluster.Scenario{Events: []cluster.Event{{Kind: cluster.EventImage, Target: cluster.Key{Kind: cluster.KindDeployment, Namespace: "a", Name: "a"}}}}, "events[0].image", field.ErrRequired},
	}
	for _, c := range cases {
		err := c.sc.Validate()
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != c.path || !errors.Is(err, c.err) {
			t.Errorf("%s: %v, want %v at %s", c.name, err, c.err, c.path)
		}
	}
	sc := rollingScenario()
	if err := sc.Validate(); err != nil {
		t.Errorf("valid scenario: %v", err)
	}
}
