package job_test

import (
	"fmt"
	"slices"
	"strings"

	batch "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	k8stesting "k8s.io/client-go/testing"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// podControlEvent reports whether an event reason is the pod control's.
func podControlEvent(reason string) bool {
	return reason == string(job.ReasonSuccessfulCreate) || reason == string(job.ReasonSuccessfulDelete)
}

// eventsFromUpstream renders the events upstream recorded ("<type>
// <reason> <message>", in the fake recorder's order) as job.Plan's events:
// type, reason, message, and for a pod control's SuccessfulDelete the pod
// as object. A SuccessfulCreate keeps neither object nor message (the pod's
// name is the API server's; the message must be "Created pod: <name>").
// The pod control's events, which upstream records from concurrent
// goroutines, must all come first; they are put in the order of del (the
// Plan's deletions as planFromUpstream renders them), creations after.
func eventsFromUpstream(recorded []string, del []map[string]any) ([]map[string]any, error) {
	pos := map[string]int{}
	for i, d := range del {
		pos[d["name"].(string)] = i
	}
	var pod, rest []map[string]any
	for _, e := range recorded {
		f := strings.SplitN(e, " ", 3)
		if len(f) < 2 {
			return nil, fmt.Errorf("event %q: no reason", e)
		}
		m := map[string]any{"type": f[0], "reason": f[1]}
		msg := ""
		if len(f) == 3 {
			msg = f[2]
		}
		switch {
		case !podControlEvent(f[1]):
			if msg != "" {
				m["message"] = msg
			}
			rest = append(rest, m)
			continue
		case len(rest) > 0:
			return nil, fmt.Errorf("event %q after the controller's own %v", e, rest)
		case f[1] == string(job.ReasonSuccessfulCreate):
			if !strings.HasPrefix(msg, "Created pod: ") {
				return nil, fmt.Errorf("event %q: not the pod control's message", e)
			}
		default:
			name, ok := strings.CutPrefix(msg, "Deleted pod: ")
			if _, known := pos[name]; !ok || !known {
				return nil, fmt.Errorf("event %q: no deletion of that pod", e)
			}
			m["object"], m["message"] = name, msg
		}
		pod = append(pod, m)
	}
	key := func(m map[string]any) int {
		if o, ok := m["object"].(string); ok {
			return pos[o]
		}
		return len(del)
	}
	slices.SortStableFunc(pod, func(a, b map[string]any) int { return key(a) - key(b) })
	return append(append([]map[string]any{}, pod...), rest...), nil
}

// writeKey is one request as the comparison of writes reads it: verb,
// resource[/subresource] and the object's name (a pod create's
// generateName, marked "~", when the API server names it).
func writeKey(verb, resource, sub, name, generateName string) string {
	r := resource
	if sub != "" {
		r += "/" + sub
	}
	if name == "" {
		name = "~" + generateName
	}
	return verb + " " + r + " " + name
}

// canonWrites orders keys as the comparison needs: upstream sends the
// pod requests between two status writes concurrently, so each such run is
// sorted (stably) by object name, a pod's patch staying before its delete.
func canonWrites(keys []string) []string {
	out := slices.Clone(keys)
	name := func(k string) string { return k[strings.LastIndexByte(k, ' ')+1:] }
	start := 0
	for i := 0; i <= len(out); i++ {
		if i == len(out) || strings.Contains(out[i], " jobs/status ") {
			slices.SortStableFunc(out[start:i], func(a, b string) int {
				if c := strings.Compare(name(a), name(b)); c != 0 || name(a) != "~managed" {
					return c
				}
				return strings.Compare(a, b) // pods left open: patches, then deletes
			})
			start = i + 1
		}
	}
	return out
}

// compareWrites checks Plan.Writes on the job and pods Step read (kj,
// kp) against the requests upstream's sync sent to the fake clientset
// (verb, resource, subresource, name, in order up to the concurrency
// canonWrites allows), the pods created (generateName, hostname,
// finalizers, the Job controller's annotations and label, the controller
// reference) and the statuses written against upstream's (counters and
// conditions' types and statuses), and Plan.Events against the fake
// recorder's events (eventsFromUpstream's rendering; a PodFailurePolicy
// warning's message is not compared: upstream names whichever matching pod
// its informer lists first).
//
// With tiesOpen, which pods manageJob deletes (too many active pods,
// suspension, bad indexes) is left open: upstream picks among equally
// ranked pods in its informer's order, which the vector replay does not
// pin, so those pods' requests and SuccessfulDelete events are compared
// without their names (count and order kept).
func compareWrites(kj *job.Job, kp []*podstatus.Pod, p job.Plan, res syncResult, tiesOpen bool) error {
	ws, err := p.Writes(kj, kp)
	if err != nil {
		return fmt.Errorf("Writes: %v", err)
	}
	gotManaged, upManaged := map[string]bool{}, map[string]bool{}
	if tiesOpen {
		for _, d := range p.Delete {
			if d.Reason != job.ReasonFinishing {
				gotManaged[d.Name] = true
			}
		}
		for _, d := range res.deleted {
			if d.issuedBy("deleteJobPods") {
				upManaged[d.name] = true
			}
		}
	}
	open := func(managed map[string]bool, verb, name string) string {
		if managed[name] && (verb == "patch" || verb == "delete") {
			return "~managed"
		}
		return name
	}
	var got, want []string
	var gotPods []*podstatus.Pod
	var gotStatus []job.Status
	for _, w := range ws {
		gen := ""
		switch o := w.Object.(type) {
		case *podstatus.Pod:
			gen = o.GenerateName
			if w.Verb == plan.VerbCreate {
				gotPods = append(gotPods, o)
			}
		case *job.Job:
			gotStatus = append(gotStatus, o.Status)
		}
		if w.Reason != job.ReasonRemoveTrackingFinalizer {
			w.Name = open(gotManaged, string(w.Verb), w.Name)
		}
		got = append(got, writeKey(string(w.Verb), w.Resource, w.Subresource, w.Name, gen))
	}
	seenPatch := map[string]bool{}
	for _, a := range res.actions {
		var name, gen string
		switch a.GetVerb() {
		case "create":
			if pod, ok := a.(k8stesting.CreateAction).GetObject().(*v1.Pod); ok {
				gen = pod.GenerateName
			}
		case "update":
			if j, ok := a.(k8stesting.UpdateAction).GetObject().(*batch.Job); ok {
				name = j.Name
			}
		case "patch":
			// A pod manageJob deletes is patched first by deleteJobPods;
			// a later patch of it releases it.
			name = a.(k8stesting.PatchAction).GetName()
			if !seenPatch[name] {
				seenPatch[name] = true
				name = open(upManaged, "patch", name)
			}
		case "delete":
			name = open(upManaged, "delete", a.(k8stesting.DeleteAction).GetName())
		default:
			continue
		}
		want = append(want, writeKey(a.GetVerb(), a.GetResource().Resource, a.GetSubresource(), name, gen))
	}
	if g, w := canonWrites(got), canonWrites(want); !slices.Equal(g, w) {
		return fmt.Errorf("Writes %q\nupstream sent %q", g, w)
	}
	if len(gotStatus) != len(res.statuses) {
		return fmt.Errorf("Writes %d status updates, upstream %d", len(gotStatus), len(res.statuses))
	}
	for i := range gotStatus {
		g, u := gotStatus[i], res.statuses[i]
		if g.Active != u.Active || g.Succeeded != u.Succeeded || g.Failed != u.Failed || len(g.Conditions) != len(u.Conditions) {
			return fmt.Errorf("status write %d: Writes %+v\nupstream %+v", i, g, u)
		}
		for k := range u.Conditions {
			if string(g.Conditions[k].Type) != string(u.Conditions[k].Type) || string(g.Conditions[k].Status) != string(u.Conditions[k].Status) {
				return fmt.Errorf("status write %d condition %d: Writes %+v, upstream %+v", i, k, g.Conditions[k], u.Conditions[k])
			}
		}
	}
	podKey := func(gen string, ann map[string]string) string { return ann[job.CompletionIndexAnnotation] + "/" + gen }
	slices.SortStableFunc(gotPods, func(a, b *podstatus.Pod) int {
		return strings.Compare(podKey(a.GenerateName, a.Annotations), podKey(b.GenerateName, b.Annotations))
	})
	upPods := slices.Clone(res.created)
	slices.SortStableFunc(upPods, func(a, b *v1.Pod) int {
		return strings.Compare(podKey(a.GenerateName, a.Annotations), podKey(b.GenerateName, b.Annotations))
	})
	for i, u := range upPods {
		g := gotPods[i]
		if g.GenerateName != u.GenerateName || g.Spec.Hostname != u.Spec.Hostname || !slices.Equal(g.Finalizers, u.Finalizers) {
			return fmt.Errorf("created pod %d: Writes generateName %q hostname %q finalizers %v; upstream %q %q %v",
				i, g.GenerateName, g.Spec.Hostname, g.Finalizers, u.GenerateName, u.Spec.Hostname, u.Finalizers)
		}
		for _, k := range []string{job.CompletionIndexAnnotation, job.IndexFailureCountAnnotation, job.IndexIgnoredFailureCountAnnotation} {
			if g.Annotations[k] != u.Annotations[k] || g.Labels[job.CompletionIndexAnnotation] != u.Labels[job.CompletionIndexAnnotation] {
				return fmt.Errorf("created pod %d: Writes annotations %v labels %v; upstream %v %v", i, g.Annotations, g.Labels, u.Annotations, u.Labels)
			}
		}
		if len(g.OwnerReferences) != 1 || len(u.OwnerReferences) != 1 {
			return fmt.Errorf("created pod %d: owner references %v; upstream %v", i, g.OwnerReferences, u.OwnerReferences)
		}
		go_, uo := g.OwnerReferences[0], u.OwnerReferences[0]
		if go_.APIVersion != uo.APIVersion || go_.Kind != uo.Kind || go_.Name != uo.Name || go_.UID != string(uo.UID) ||
			!go_.IsController() || uo.Controller == nil || !*uo.Controller ||
			go_.BlockOwnerDeletion == nil || uo.BlockOwnerDeletion == nil || *go_.BlockOwnerDeletion != *uo.BlockOwnerDeletion {
			return fmt.Errorf("created pod %d: owner reference %+v; upstream %+v", i, go_, uo)
		}
	}

	var del []map[string]any
	for _, d := range p.Delete {
		if !gotManaged[d.Name] {
			del = append(del, map[string]any{"name": d.Name})
		}
	}
	for _, d := range res.deleted {
		if upManaged[d.name] {
			del = append(del, map[string]any{"name": d.name})
		}
	}
	upEvents, err := eventsFromUpstream(res.events, del)
	if err != nil {
		return err
	}
	render := func(managed map[string]bool, reason, typ, object, message string) string {
		if reason == job.ConditionReasonPodFailurePolicy {
			message = ""
		}
		if reason == string(job.ReasonSuccessfulDelete) && managed[object] {
			object, message = "~managed", ""
		}
		return typ + " " + reason + " " + object + " " + message
	}
	var ge, ue []string
	for _, e := range p.Events {
		ge = append(ge, render(gotManaged, string(e.Reason), string(e.Type), e.Object, e.Message))
	}
	for _, e := range upEvents {
		o, _ := e["object"].(string)
		m, _ := e["message"].(string)
		ue = append(ue, render(upManaged, e["reason"].(string), e["type"].(string), o, m))
	}
	if !slices.Equal(ge, ue) {
		return fmt.Errorf("Events %q\nupstream recorded %q", ge, ue)
	}
	return nil
}
