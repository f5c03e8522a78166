package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/internal/apijson"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/statefulset"
)

// OutcomeUnknown is explain's outcome for a workload whose next step the
// dump cannot decide (the revision of its current template, its nodes or
// its claims are not in the dump); its notes say what is missing.
const OutcomeUnknown = "Unknown"

// revisionObject is an apps/v1 ControllerRevision of the dump.
type revisionObject struct {
	Metadata meta.ObjectMeta `json:"metadata"`
	Revision int64           `json:"revision"`
	// Template is data.spec.template without "$patch", as parsed JSON.
	Template any
	// HasTemplate is false when data holds no spec.template.
	HasTemplate bool
}

// model is the revision as the controllers' model holds it.
func (r *revisionObject) model() history.ControllerRevision {
	return history.ControllerRevision{ObjectMeta: r.Metadata, Revision: r.Revision}
}

// appsObject is a StatefulSet or DaemonSet of the dump with its pod
// template as parsed JSON, the form ControllerRevisions store it in.
type appsObject[T any] struct {
	obj      *T
	template any
}

// podRaw keeps a pod's JSON for the kinds that read more of the pod than
// podstatus does (a StatefulSet's claim volumes, a daemon pod's affinity).
type podRaw struct {
	meta meta.ObjectMeta
	raw  json.RawMessage
}

// parseTemplate returns the spec.template of an object (or of a
// ControllerRevision's data) as parsed JSON, without the "$patch" key the
// controllers add to a revision's copy.
func parseTemplate(raw json.RawMessage) (any, bool) {
	var x struct {
		Spec struct {
			Template json.RawMessage `json:"template"`
		} `json:"spec"`
	}
	if apijson.Unmarshal(raw, &x) != nil || len(x.Spec.Template) == 0 || string(x.Spec.Template) == "null" {
		return nil, false
	}
	var t any
	if apijson.Unmarshal(x.Spec.Template, &t) != nil {
		return nil, false
	}
	if m, ok := t.(map[string]any); ok {
		delete(m, "$patch")
	}
	return t, true
}

func (d *dump) addRevision(raw json.RawMessage, decode func(any) error) error {
	var x struct {
		Metadata meta.ObjectMeta `json:"metadata"`
		Revision int64           `json:"revision"`
		Data     json.RawMessage `json:"data"`
	}
	if err := decode(&x); err != nil {
		return err
	}
	r := &revisionObject{Metadata: x.Metadata, Revision: x.Revision}
	r.Template, r.HasTemplate = parseTemplate(x.Data)
	d.revisions = append(d.revisions, r)
	return nil
}

func (d *dump) addStatefulSet(raw json.RawMessage, decode func(any) error) error {
	var x statefulset.StatefulSet
	if err := decode(&x); err != nil {
		return err
	}
	t, _ := parseTemplate(raw)
	d.sets = append(d.sets, appsObject[statefulset.StatefulSet]{&x, t})
	return nil
}

func (d *dump) addDaemonSet(raw json.RawMessage, decode func(any) error) error {
	var x daemonset.DaemonSet
	if err := decode(&x); err != nil {
		return err
	}
	t, _ := parseTemplate(raw)
	d.dss = append(d.dss, appsObject[daemonset.DaemonSet]{&x, t})
	return nil
}

func (d *dump) addClaim(decode func(any) error) error {
	var x struct {
		Metadata meta.ObjectMeta `json:"metadata"`
	}
	if err := decode(&x); err != nil {
		return err
	}
	d.claims = append(d.claims, &x.Metadata)
	return nil
}

func (d *dump) addNode(decode func(any) error) error {
	var x node.Node
	if err := decode(&x); err != nil {
		return err
	}
	d.nodes = append(d.nodes, &x)
	return nil
}

// ownedRevisions returns the ControllerRevisions the object with uid
// controls.
func (d *dump) ownedRevisions(ns, uid string) []*revisionObject {
	var out []*revisionObject
	for _, r := range d.x.revsByOwner[uid] {
		if r.Metadata.Namespace == ns {
			out = append(out, r)
		}
	}
	return out
}

// matchingRevision returns the highest-numbered revision whose stored
// template equals template, the revision upstream finds equal to the one
// it would create (history.FindEqualRevisions compares the stored data).
func matchingRevision(revs []*revisionObject, template any) *revisionObject {
	var best *revisionObject
	if template == nil {
		return nil
	}
	for _, r := range revs {
		if r.HasTemplate && reflect.DeepEqual(r.Template, template) && (best == nil || r.Revision >= best.Revision) {
			best = r
		}
	}
	return best
}

// rawPodsOf returns the JSON of the pods the object with uid controls.
func (d *dump) rawPodsOf(uid string) []json.RawMessage {
	return d.x.rawByOwner[uid]
}

// statefulPod decodes a pod for the StatefulSet controller.
func statefulPod(raw json.RawMessage) (*podstatus.Pod, error) {
	var p podstatus.Pod
	if err := apijson.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

func (d *dump) explainStatefulSet(a appsObject[statefulset.StatefulSet], now time.Time) explanation {
	set := *a.obj
	e := explanation{Kind: "StatefulSet", Namespace: set.Namespace, Name: set.Name}
	var pods []*podstatus.Pod
	for _, raw := range d.rawPodsOf(set.UID) {
		p, err := statefulPod(raw)
		if err != nil {
			e.Error = err.Error()
			return e
		}
		pods = append(pods, p)
	}
	owned := d.ownedRevisions(set.Namespace, set.UID)
	var revs []history.ControllerRevision
	observed := set.Status.ObservedGeneration == set.Generation && set.Generation != 0
	switch m := matchingRevision(owned, a.template); {
	case m != nil:
		set.Spec.TemplateRevision = m.Metadata.Name
		e.Notes = append(e.Notes, fmt.Sprintf("current template: revision %s (the ControllerRevision holding spec.template)", m.Metadata.Name))
	case len(owned) > 0:
		// Upstream compares the stored data byte for byte with the
		// template it encodes now: no equal revision means a new one.
		why := fmt.Sprintf("none of the set's %d ControllerRevisions holds spec.template", len(owned))
		if observed {
			why += fmt.Sprintf(" although generation %d is observed (status.updateRevision %s): the stored templates differ from it, as when another Kubernetes release wrote them", set.Generation, set.Status.UpdateRevision)
		} else {
			why += fmt.Sprintf(" (generation %d not yet observed, status.observedGeneration %d)", set.Generation, set.Status.ObservedGeneration)
		}
		return unknown(e, "the revision of the current template is unknown: "+why+"; the controller creates a new revision, named by a hash kubesem does not compute")
	case observed && set.Status.UpdateRevision != "":
		set.Spec.TemplateRevision = set.Status.UpdateRevision
		e.Notes = append(e.Notes, fmt.Sprintf("current template: revision %s (status.updateRevision at the observed generation %d)", set.Status.UpdateRevision, set.Generation))
	default:
		why := fmt.Sprintf("generation %d not yet observed by the controller (status.observedGeneration %d)", set.Generation, set.Status.ObservedGeneration)
		if observed {
			why = "status.updateRevision is empty"
		}
		return unknown(e, "the revision of the current template is unknown: "+why+", and the dump holds no ControllerRevision of the set (add controllerrevisions to kubectl get)")
	}
	if len(owned) > 0 {
		for _, r := range owned {
			revs = append(revs, r.model())
		}
	} else {
		// The set's live revisions, in the order the controller keeps
		// them: the current one, then the update one (the newest).
		n := int64(1)
		if c := set.Status.CurrentRevision; c != "" && c != set.Spec.TemplateRevision {
			revs = append(revs, history.ControllerRevision{ObjectMeta: meta.ObjectMeta{Name: c}, Revision: n})
			n++
		}
		revs = append(revs, history.ControllerRevision{ObjectMeta: meta.ObjectMeta{Name: set.Spec.TemplateRevision}, Revision: n})
		e.Notes = append(e.Notes, "the dump holds no ControllerRevision of the set: revision numbers and history cleanup are not shown (add controllerrevisions to kubectl get)")
	}
	var claims []*statefulset.Claim
	for _, c := range d.x.claimsByNS[set.Namespace] {
		claims = append(claims, &statefulset.Claim{ObjectMeta: *c})
	}
	if len(set.Spec.VolumeClaimTemplates) > 0 && len(d.claims) == 0 {
		return unknown(e, "the set has volumeClaimTemplates but the dump holds no PersistentVolumeClaim: whether its claims exist is unknown (add pvc to kubectl get)")
	}
	p, err := statefulset.Step(&set, pods, revs, claims, now, statefulset.Options{})
	if err != nil {
		e.Error = err.Error()
		return e
	}
	e.Outcome, e.Requeue, e.Plan = string(p.Outcome), p.Requeue, p
	if p.Outcome == statefulset.ReasonBlocked {
		var waiting []string
		for _, pod := range pods {
			switch {
			case podstatus.IsTerminating(pod):
				waiting = append(waiting, pod.Name+" (terminating)")
			case pod.Status.Phase != podstatus.Running || !podstatus.IsReady(pod):
				waiting = append(waiting, fmt.Sprintf("%s (%s, not Ready)", pod.Name, pod.Status.Phase))
			case !podstatus.IsAvailable(pod, set.Spec.MinReadySeconds, now):
				waiting = append(waiting, pod.Name+" (not yet available)")
			}
		}
		slices.Sort(waiting)
		if len(waiting) > 0 {
			e.Notes = append(e.Notes, "pods that are not Running, Ready and available, or are terminating (a Blocked sync waits for such a pod): "+strings.Join(waiting, ", "))
		}
	}
	for _, w := range p.Revisions {
		e.Actions = append(e.Actions, revisionWrite(string(w.Verb), w.Name, w.Revision, string(w.Reason)))
	}
	for _, c := range p.Create.Objects {
		e.Actions = append(e.Actions, fmt.Sprintf("create pod %s at revision %s (%s)", c.Name, c.Revision, p.Create.Reason))
	}
	for _, c := range p.Claims {
		e.Actions = append(e.Actions, fmt.Sprintf("%s PersistentVolumeClaim %s of pod %s (%s)", c.Verb, c.Name, c.Pod, c.Reason))
	}
	for _, u := range p.Update {
		rs := make([]string, len(u.Reasons))
		for i, r := range u.Reasons {
			rs[i] = string(r)
		}
		e.Actions = append(e.Actions, fmt.Sprintf("update pod %s (%s)", u.Name, strings.Join(rs, ", ")))
	}
	e.Actions = append(e.Actions, deletions("pod", p.Delete)...)
	st := p.Status
	e.Actions = append(e.Actions, fmt.Sprintf("status: %d replica(s), %d ready, %d available; %d at current revision %s, %d at update revision %s",
		st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.CurrentReplicas, st.CurrentRevision, st.UpdatedReplicas, st.UpdateRevision))
	e.Actions = append(e.Actions, eventLines(p.Events)...)
	return e
}

func revisionWrite(verb, name string, n int64, reason string) string {
	switch verb {
	case "create":
		return fmt.Sprintf("create ControllerRevision %s as revision %d (%s)", name, n, reason)
	case "update":
		return fmt.Sprintf("renumber ControllerRevision %s to revision %d (%s)", name, n, reason)
	}
	return fmt.Sprintf("%s ControllerRevision %s (revision %d, %s)", verb, name, n, reason)
}

func unknown(e explanation, why string) explanation {
	e.Outcome = OutcomeUnknown
	e.Notes = append(e.Notes, why)
	e.Plan = nil
	return e
}

func (d *dump) explainDaemonSet(a appsObject[daemonset.DaemonSet], now time.Time) explanation {
	ds := a.obj
	e := explanation{Kind: "DaemonSet", Namespace: ds.Namespace, Name: ds.Name}
	var pods []*podstatus.Pod
	for _, raw := range d.rawPodsOf(ds.UID) {
		var p podstatus.Pod
		if err := apijson.Unmarshal(raw, &p); err != nil {
			e.Error = err.Error()
			return e
		}
		pods = append(pods, &p)
	}
	owned := d.ownedRevisions(ds.Namespace, ds.UID)
	var hist daemonset.History
	if m := matchingRevision(owned, a.template); m != nil {
		m := m.model()
		hist.Hash = daemonset.RevisionHash(&m)
		e.Notes = append(e.Notes, fmt.Sprintf("current template: hash %s (ControllerRevision %s holds spec.template)", hist.Hash, m.Name))
	} else if len(owned) > 0 {
		return unknown(e, fmt.Sprintf("the hash of the current template is unknown: none of the DaemonSet's %d ControllerRevisions holds spec.template; the controller creates a new revision, named by a hash kubesem does not compute", len(owned)))
	} else if h, why := currentPodsHash(ds, pods); h != "" {
		hist.Hash = h
		e.Notes = append(e.Notes, "current template: hash "+h+" ("+why+")")
	} else {
		return unknown(e, "the hash of the current template is unknown: "+why+", and the dump holds no ControllerRevision of the DaemonSet (add controllerrevisions to kubectl get)")
	}
	if len(owned) > 0 {
		for _, r := range owned {
			hist.Revisions = append(hist.Revisions, r.model())
		}
	} else {
		hist.Revisions = []history.ControllerRevision{{ObjectMeta: meta.ObjectMeta{Name: ds.Name + "-" + hist.Hash,
			Labels: map[string]string{history.HashLabel: hist.Hash}}, Revision: 1}}
		e.Notes = append(e.Notes, "the dump holds no ControllerRevision of the DaemonSet: revision numbers and history cleanup are not shown (add controllerrevisions to kubectl get)")
	}
	if len(d.nodes) == 0 {
		return unknown(e, "the dump holds no Node: which nodes should run a daemon pod is unknown (add nodes to kubectl get)")
	}
	for _, p := range pods {
		if p.Status.Phase == podstatus.Failed {
			e.Notes = append(e.Notes, "the controller's failed-pod backoff is not in the dump: shown as after a controller restart (no backoff yet)")
			break
		}
	}
	p, err := daemonset.Step(ds, d.nodes, pods, hist, nil, now, daemonset.Options{})
	if err != nil {
		e.Error = err.Error()
		return e
	}
	e.Outcome, e.Requeue, e.Plan = string(p.Outcome), p.Requeue, p
	for _, w := range p.Revisions {
		if w.Verb != plan.VerbDelete {
			e.Actions = append(e.Actions, revisionWrite(string(w.Verb), w.Name, w.Revision, string(w.Reason)))
		}
	}
	for _, c := range p.Create.Objects {
		e.Actions = append(e.Actions, fmt.Sprintf("create pod on node %s (%s)", c.Node, c.Reason))
	}
	e.Actions = append(e.Actions, deletions("pod", p.Delete)...)
	for _, w := range p.Revisions {
		if w.Verb == plan.VerbDelete {
			e.Actions = append(e.Actions, fmt.Sprintf("delete ControllerRevision %s (%s)", w.Name, w.Reason))
		}
	}
	st := p.Status
	e.Actions = append(e.Actions, fmt.Sprintf("status: %d node(s) should run a pod, %d do, %d updated, %d ready, %d available, %d unavailable, %d misscheduled",
		st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.UpdatedNumberScheduled, st.NumberReady, st.NumberAvailable, st.NumberUnavailable, st.NumberMisscheduled))
	e.Actions = append(e.Actions, eventLines(p.Events)...)
	return e
}

// currentPodsHash returns the controller-revision-hash of the daemon pods
// created from the current template: those whose pod-template-generation
// label equals the DaemonSet's template generation annotation, which the
// API server raises on every template change. It returns "" and why when
// no such pod exists or they disagree.
func currentPodsHash(ds *daemonset.DaemonSet, pods []*podstatus.Pod) (hash, why string) {
	gen, ok := daemonset.TemplateGeneration(ds)
	if !ok {
		return "", "the DaemonSet has no " + daemonset.AnnotationTemplateGeneration + " annotation to tell its current pods"
	}
	g := strconv.FormatInt(gen, 10)
	var hashes []string
	for _, p := range pods {
		if p.Labels[daemonset.LabelTemplateGeneration] == g {
			if h := p.Labels[history.HashLabel]; h != "" && !slices.Contains(hashes, h) {
				hashes = append(hashes, h)
			}
		}
	}
	switch len(hashes) {
	case 0:
		return "", "no pod of the DaemonSet carries the current template generation " + g
	case 1:
		return hashes[0], "the controller-revision-hash of the pods at template generation " + g
	}
	slices.Sort(hashes)
	return "", "the pods at template generation " + g + " carry different hashes (" + strings.Join(hashes, ", ") + ")"
}

// explainNode is the memory-less part of the node lifecycle controller's
// pass over a node: the NoSchedule taints its conditions and
// spec.unschedulable call for (node.ConditionTaintDiff). The rest (Ready
// turning Unknown after the grace period, the rate-limited NoExecute taints,
// evictions) needs the controller's memory of heartbeats and the node
// Leases, which a dump does not hold; a note says so.
func explainNode(n *node.Node) explanation {
	e := explanation{Kind: "Node", Name: n.Name, Outcome: "NoScheduleTaints"}
	add, remove := node.ConditionTaintDiff(n)
	for _, t := range add {
		e.Actions = append(e.Actions, fmt.Sprintf("add taint %s:%s (condition)", t.Key, t.Effect))
	}
	for _, t := range remove {
		e.Actions = append(e.Actions, fmt.Sprintf("remove taint %s:%s (condition)", t.Key, t.Effect))
	}
	ready := "no Ready condition"
	if c, ok := n.Condition(node.Ready); ok {
		ready = "Ready=" + string(c.Status)
		if c.Reason != "" {
			ready += " (" + c.Reason + ")"
		}
		if !c.LastHeartbeatTime.IsZero() {
			ready += ", last heartbeat " + c.LastHeartbeatTime.UTC().Format(time.RFC3339)
		}
	}
	var taints []string
	for _, t := range n.Spec.Taints {
		s := t.Key
		if t.Value != "" {
			s += "=" + t.Value
		}
		taints = append(taints, s+":"+string(t.Effect))
	}
	if len(taints) > 0 {
		ready += "; taints " + strings.Join(taints, ", ")
	}
	e.Notes = append(e.Notes, ready+"; only the NoSchedule condition taints are shown (health monitoring, NoExecute taints and evictions need the controller's heartbeat memory and the Leases)")
	return e
}
