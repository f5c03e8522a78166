package check_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/check"
	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// Each builtin on crafted states, in contrasting pairs: a state (or write)
// where it holds and one where it does not.

var now = t0.Add(time.Hour)

func owner(kind, name, uid string) []meta.OwnerReference {
	yes := true
	return []meta.OwnerReference{{Kind: kind, Name: name, UID: uid, Controller: &yes}}
}

// pod is a pod of ns default with labels app=app, controlled by (kind,
// uid): "ready" Running and Ready since an hour, "notready" Running,
// "terminating" being deleted, "succeeded".
func pod(name, state, kind, uid string) *podstatus.Pod {
	p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name,
		Labels: map[string]string{"app": "app"}, OwnerReferences: owner(kind, "x", uid)}}
	p.Spec.NodeName = "node-0"
	p.Status.Phase = podstatus.Running
	switch state {
	case "ready", "terminating":
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: t0}}
	case "succeeded":
		p.Status.Phase = podstatus.Succeeded
	}
	if state == "terminating" {
		at := now.Add(time.Minute)
		p.DeletionTimestamp = &at
	}
	return p
}

func state(t *testing.T, objs ...any) check.Snapshot {
	t.Helper()
	s := cluster.NewState()
	for _, o := range objs {
		if err := s.Put(o); err != nil {
			t.Fatal(err)
		}
	}
	return check.Snapshot{State: s, Now: now}
}

func pods(states ...string) []any {
	var out []any
	for i, st := range states {
		out = append(out, pod(string(rune('a'+i))+"-pod", st, "ReplicaSet", "rs-uid"))
	}
	return out
}

func deploymentWithRS(replicas int32) []any {
	d := deployment("web", replicas, 1, 0)
	d.UID, d.Status.ObservedGeneration = "d-uid", d.Generation
	rs := &replicaset.ReplicaSet{ObjectMeta: meta.ObjectMeta{Name: "web-1", Namespace: "default", UID: "rs-uid",
		OwnerReferences: owner("Deployment", "web", "d-uid")}}
	return []any{d, rs}
}

func TestMaxSurge(t *testing.T) {
	t.Parallel()
	p := mustBuiltin(t, "deployment-max-surge")
	for _, c := range []struct {
		name string
		pods []string
		ok   bool
	}{
		{"replicas + maxSurge", []string{"ready", "ready", "ready", "notready"}, true},
		{"one more", []string{"ready", "ready", "ready", "notready", "notready"}, false},
		{"one more, terminating", []string{"ready", "ready", "ready", "notready", "terminating"}, true},
		{"one more, succeeded", []string{"ready", "ready", "ready", "notready", "succeeded"}, true},
	} {
		s := state(t, append(deploymentWithRS(3), pods(c.pods...)...)...)
		if got := p.Holds(s) == ""; got != c.ok {
			t.Errorf("%s: holds %v; want %v (%s)", c.name, got, c.ok, p.Holds(s))
		}
	}
}

func TestAvailability(t *testing.T) {
	t.Parallel()
	p := mustBuiltin(t, "deployment-availability")
	del := func(name string) cluster.Entry {
		return cluster.Entry{Time: now, Controller: cluster.CtlReplicaSet,
			Write: &plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: "default", Name: name}}
	}
	for _, c := range []struct {
		name   string
		pods   []string
		del    string
		failed bool
		ok     bool
	}{
		{"an available pod of 4 (maxSurge pod)", []string{"ready", "ready", "ready", "ready"}, "a-pod", false, true},
		{"an available pod of 3", []string{"ready", "ready", "ready", "notready"}, "a-pod", false, false},
		{"the pod not available", []string{"ready", "ready", "ready", "notready"}, "d-pod", false, true},
		{"an available pod of 3 after a failure", []string{"ready", "ready", "ready", "notready"}, "a-pod", true, true},
	} {
		s := state(t, append(deploymentWithRS(3), pods(c.pods...)...)...)
		s.Failed = c.failed
		e := del(c.del)
		if !p.Sees(e) {
			t.Fatalf("%s: the write is not seen", c.name)
		}
		if got := p.Allows(s, e) == ""; got != c.ok {
			t.Errorf("%s: allowed %v; want %v (%s)", c.name, got, c.ok, p.Allows(s, e))
		}
	}
	if p.Sees(cluster.Entry{Controller: cluster.CtlUser, Write: &plan.Write{Verb: plan.VerbDelete, Resource: "pods"}}) {
		t.Error("a user's delete is seen")
	}
}

func TestOrderedReady(t *testing.T) {
	t.Parallel()
	p := mustBuiltin(t, "statefulset-ordered-ready")
	for _, c := range []struct {
		name   string
		policy statefulset.PodManagementPolicy
		zero   string
		ok     bool
	}{
		{"web-0 ready", "OrderedReady", "ready", true},
		{"web-0 not ready", "OrderedReady", "notready", false},
		{"web-0 missing", "OrderedReady", "", false},
		{"web-0 not ready, Parallel", "Parallel", "notready", true},
	} {
		set := statefulSet("web", 3, c.policy)
		set.UID = "set-uid"
		objs := []any{set}
		if c.zero != "" {
			objs = append(objs, pod("web-0", c.zero, "StatefulSet", "set-uid"))
		}
		s := state(t, objs...)
		e := cluster.Entry{Time: now, Controller: cluster.CtlStatefulSet, Write: &plan.Write{Verb: plan.VerbCreate, Resource: "pods",
			Namespace: "default", Object: pod("web-1", "notready", "StatefulSet", "set-uid")}}
		if got := p.Allows(s, e) == ""; got != c.ok {
			t.Errorf("%s: allowed %v; want %v (%s)", c.name, got, c.ok, p.Allows(s, e))
		}
	}
}

func TestPDBEviction(t *testing.T) {
	t.Parallel()
	p := mustBuiltin(t, "pdb-eviction")
	evict := cluster.Entry{Time: now, Controller: cluster.CtlUser, Write: &plan.Write{Verb: plan.VerbCreate, Resource: "pods",
		Subresource: "eviction", Namespace: "default", Name: "a-pod"}}
	for _, c := range []struct {
		name    string
		desired int32
		first   string
		ok      bool
	}{
		{"healthy pod, one to spare", 2, "ready", true},
		{"healthy pod, none to spare", 3, "ready", false},
		{"unhealthy pod, none to spare", 3, "notready", true},
	} {
		b := budget("web", "app", 0)
		b.Status.DesiredHealthy = c.desired
		s := state(t, append([]any{b}, pods(c.first, "ready", "ready")...)...)
		if got := p.Allows(s, evict) == ""; got != c.ok {
			t.Errorf("%s: allowed %v; want %v (%s)", c.name, got, c.ok, p.Allows(s, evict))
		}
	}
	if p.Sees(cluster.Entry{Write: evict.Write, Err: "too many requests"}) {
		t.Error("a refused eviction is seen")
	}
}

func TestJobProperties(t *testing.T) {
	t.Parallel()
	par, excl := mustBuiltin(t, "job-parallelism"), mustBuiltin(t, "job-exclusive")
	for _, c := range []struct {
		name          string
		policy        job.PodReplacementPolicy
		pods          []string
		parOK, exclOK bool
	}{
		{"2 active", "", []string{"ready", "notready", "succeeded"}, true, true},
		{"3 active", "", []string{"ready", "ready", "notready"}, false, false},
		{"2 active, 1 terminating", "", []string{"ready", "ready", "terminating"}, true, false},
		{"2 active, 1 terminating, Failed", "Failed", []string{"ready", "ready", "terminating"}, false, false},
	} {
		j := batchJob("batch", 2, c.policy)
		j.UID = "job-uid"
		objs := []any{j}
		for i, st := range c.pods {
			objs = append(objs, pod(string(rune('a'+i))+"-pod", st, "Job", "job-uid"))
		}
		s := state(t, objs...)
		if got := par.Holds(s) == ""; got != c.parOK {
			t.Errorf("%s: job-parallelism holds %v; want %v", c.name, got, c.parOK)
		}
		if got := excl.Holds(s) == ""; got != c.exclOK {
			t.Errorf("%s: job-exclusive holds %v; want %v", c.name, got, c.exclOK)
		}
	}
}

func TestCronJobForbid(t *testing.T) {
	t.Parallel()
	p := mustBuiltin(t, "cronjob-forbid")
	for _, c := range []struct {
		name   string
		policy cronjob.ConcurrencyPolicy
		done   bool
		ok     bool
	}{
		{"Forbid, one running, one complete", cronjob.Forbid, true, true},
		{"Forbid, two running", cronjob.Forbid, false, false},
		{"Allow, two running", cronjob.Allow, false, true},
	} {
		cj := &cronjob.CronJob{ObjectMeta: meta.ObjectMeta{Name: "report", Namespace: "default", UID: "cj-uid"},
			Spec: cronjob.Spec{Schedule: "* * * * *", ConcurrencyPolicy: c.policy}}
		j1 := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "report-1", Namespace: "default", UID: "j1", OwnerReferences: owner("CronJob", "report", "cj-uid")}}
		j2 := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "report-2", Namespace: "default", UID: "j2", OwnerReferences: owner("CronJob", "report", "cj-uid")}}
		if c.done {
			j1.Status.Conditions = []job.Condition{{Type: "Complete", Status: meta.ConditionTrue}}
		}
		s := state(t, cj, j1, j2)
		if got := p.Holds(s) == ""; got != c.ok {
			t.Errorf("%s: holds %v; want %v", c.name, got, c.ok)
		}
	}
}

func TestLivenessGoals(t *testing.T) {
	t.Parallel()
	dc := mustBuiltin(t, "deployment-completes")
	objs := deploymentWithRS(3)
	d := objs[0].(*rollout.Deployment)
	d.Status = rollout.Status{ObservedGeneration: d.Generation, Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 3}
	if applies, good := dc.Wants(state(t, objs...)); !applies || !good {
		t.Errorf("complete Deployment: applies %v, good %v; want both", applies, good)
	}
	d.Status.UpdatedReplicas = 2
	if applies, good := dc.Wants(state(t, objs...)); !applies || good {
		t.Errorf("Deployment with 2 of 3 updated: applies %v, good %v; want applies, not good", applies, good)
	}
	s := state(t, objs...)
	s.Pods = []cluster.PodBehavior{{NeverReady: true}}
	if applies, _ := dc.Wants(s); applies {
		t.Error("a broken template obliges the Deployment")
	}
	dr := mustBuiltin(t, "drain-completes")
	s.Draining = []string{"node-0"}
	if applies, good := dr.Wants(s); !applies || good {
		t.Errorf("draining: applies %v, good %v; want applies, not good", applies, good)
	}
}
