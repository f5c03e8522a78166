package cluster

import (
	"reflect"
	"time"

	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// StepCall is one decision the world made, given as a conformance vector
// states it: the decision's name as the vectors name it ("rollout.Step",
// "pdb.Evict", …) and its input under the keys of that decision's vector
// input (testdata/<package>/README.md), so that the input, marshalled to
// JSON, is the vector's input. Options is the package's Options the world
// passed (its zero value: v1.36.3's defaults). Plan is kubesem's answer,
// as the world got it: what the world did, not an expectation (a vector's
// want comes from upstream, see conformance/upstream).
//
// The world reports a StepCall for every Step of the Deployment,
// ReplicaSet, ReplicationController, StatefulSet, DaemonSet, Job, CronJob,
// disruption, pod GC, node lifecycle (its monitor pass) and taint eviction
// controllers, and for every eviction the API server decides; not for the
// node lifecycle's node worker (node.NoScheduleStep) or the TTL
// controller, which have no Step vectors.
type StepCall struct {
	Time       time.Time
	Controller string
	Object     Key
	Decision   string
	Input      map[string]any
	Options    any
	Plan       any
	// Writes are the writes the Plan became (none for an eviction); Err
	// is the Step's error.
	Writes []plan.Write
	Err    error
}

// OnStep receives each StepCall as the world makes it, before the
// decision's writes are applied: the objects Input points to are the
// stored ones, which later writes replace but never modify.
type OnStep func(StepCall)

// recordEviction reports the eviction of pods/eviction write wr to
// OnStep: pdb.Evict's input, the pod and its namespace's budgets, as
// State.Apply decides it.
func (w *World) recordEviction(ctl string, wr plan.Write, now time.Time) {
	if w.Opts.OnStep == nil || wr.Verb != plan.VerbCreate || wr.Resource != "pods" || wr.Subresource != "eviction" {
		return
	}
	p, _ := w.State.Get(Key{KindPod, wr.Namespace, wr.Name}).(*podstatus.Pod)
	if p == nil {
		return
	}
	budgets := []pdb.PodDisruptionBudget{}
	for _, bn := range sortedNames(namesOf(w.State.objs[KindPodDisruptionBudget], wr.Namespace)) {
		budgets = append(budgets, *w.State.objs[KindPodDisruptionBudget][bn].obj.(*pdb.PodDisruptionBudget))
	}
	d, err := pdb.Evict(p, budgets, pdb.Request{}, now)
	if err != nil {
		return // State.Apply refuses it the same way; no decision was made
	}
	w.Opts.OnStep(StepCall{Time: now, Controller: ctl, Object: Key{KindPod, wr.Namespace, wr.Name}, Decision: "pdb.Evict",
		Input: map[string]any{"pod": p, "budgets": budgets, "request": pdb.Request{}, "now": now}, Plan: d})
}

// emptySlices replaces each nil slice of in with an empty one: a Step
// reads nil and empty lists alike, and a vector's input lists are
// required ("pods": [], not null).
func emptySlices(in map[string]any) {
	for k, v := range in {
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice && rv.IsNil() {
			in[k] = reflect.MakeSlice(rv.Type(), 0, 0).Interface()
		}
	}
}
