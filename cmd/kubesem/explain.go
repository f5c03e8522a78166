package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/internal/apijson"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

const explainSynopsis = `Reads a cluster dump (kubectl get deploy,rs,rc,sts,ds,controllerrevisions,
job,cronjob,pdb,pvc,pods,nodes -A -o json: a List, a stream of objects or of
Lists; FILE, or stdin when FILE is absent or "-"), groups the objects by
owner, runs each controller's sync at --now, and prints per workload what
its controller does next, why, and when it looks again. Deployments,
ReplicaSets, ReplicationControllers, Jobs, CronJobs, PodDisruptionBudgets,
StatefulSets (with their pods, ControllerRevisions and
PersistentVolumeClaims) and DaemonSets (with their pods, ControllerRevisions
and the Nodes) are modelled, and for Nodes the NoSchedule taints their
conditions call for; other kinds are listed as such. When the dump cannot
tell what a controller does (the revision of a template, the nodes, the
claims), the outcome is Unknown and a note says what is missing. The library
never reads the clock; --now defaults to the current time.`

// explanation is what one controller does next for one object.
type explanation struct {
	Kind      string         `json:"kind"`
	Namespace string         `json:"namespace"`
	Name      string         `json:"name"`
	Outcome   string         `json:"outcome"`
	Actions   []string       `json:"actions"`
	Requeue   []plan.Requeue `json:"requeue"`
	Error     string         `json:"error,omitempty"`
	// Notes say what explain inferred from the dump and what it could not.
	Notes []string `json:"notes,omitempty"`
	// Children are the explanations of the objects it owns (a Deployment's
	// ReplicaSets, a CronJob's Jobs).
	Children []explanation `json:"children,omitempty"`
	// Plan is the whole Plan, for -o json.
	Plan any `json:"plan,omitempty"`
}

// dump is a cluster dump sorted by kind.
type dump struct {
	deployments []*rollout.Deployment
	rss         []*replicaset.ReplicaSet
	pods        []*podstatus.Pod
	jobs        []*job.Job
	cronjobs    []*cronjob.CronJob
	pdbs        []*pdb.PodDisruptionBudget
	rawPods     []podRaw
	sets        []appsObject[statefulset.StatefulSet]
	dss         []appsObject[daemonset.DaemonSet]
	revisions   []*revisionObject
	claims      []*meta.ObjectMeta
	nodes       []*node.Node
	other       []meta.ObjectMeta
	otherKinds  []string
	// x indexes the objects above once they are all read.
	x *index
}

func explainCmd(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	nowFlag := fs.String("now", "", "the time of the syncs, RFC 3339 (default: the current time)")
	output := fs.String("o", "text", "output format: text or json")
	maxBytes := fs.Int64("max-bytes", defaultMaxDump, "the largest dump read, in bytes")
	if err := parseFlags(fs, args, stdout, explainSynopsis); err != nil {
		return err
	}
	now := time.Now().UTC().Truncate(time.Second)
	if *nowFlag != "" {
		t, err := time.Parse(time.RFC3339, *nowFlag)
		if err != nil {
			return usagef("explain: --now: %q: not an RFC 3339 time", *nowFlag)
		}
		now = t
	}
	if *output != "text" && *output != "json" {
		return usagef("explain: -o: %q: want text or json", *output)
	}
	if fs.NArg() > 1 {
		return usagef("explain: want at most one FILE")
	}
	file := "-"
	if fs.NArg() == 1 {
		file = fs.Arg(0)
	}
	if *maxBytes <= 0 {
		return usagef("explain: --max-bytes must be positive")
	}
	d, err := readDump(stdin, file, *maxBytes)
	if err != nil {
		return usagef("explain: %v", err)
	}
	out := d.explain(now)
	if *output == "json" {
		b, err := plan.Encode(out)
		if err != nil {
			return err
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, b, "", "  "); err != nil {
			return err
		}
		stdout.Write(append(pretty.Bytes(), '\n'))
		return nil
	}
	printExplanations(stdout, now, out)
	return nil
}

// readDump reads a stream of JSON objects and Lists (at most limit bytes),
// as the API server reads JSON: keys are case-sensitive, a repeated key is
// an error.
func readDump(r io.Reader, name string, limit int64) (*dump, error) {
	data, err := readInput(name, r, limit)
	if err != nil {
		return nil, err
	}
	docs, err := apijson.Values(data)
	if err != nil {
		return nil, fmt.Errorf("%s", describe(err))
	}
	d := &dump{}
	for n, raw := range docs {
		if err := d.add(raw, fmt.Sprintf("document %d", n), 0); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (d *dump) add(raw json.RawMessage, at string, depth int) error {
	members, ok, err := apijson.Members(raw)
	if err != nil {
		return fmt.Errorf("%s: %s", at, describe(err))
	}
	if !ok {
		return fmt.Errorf("%s: not an object", at)
	}
	var kind string
	var items []byte
	for _, m := range members {
		switch m.Key {
		case "kind":
			if err := apijson.Unmarshal(m.Value, &kind); err != nil {
				return fmt.Errorf("%s: kind: %s", at, describe(err))
			}
		case "items":
			if string(m.Value) != "null" {
				items = m.Value
			}
		}
	}
	if items != nil || strings.HasSuffix(kind, "List") {
		if depth >= maxListDepth {
			return fmt.Errorf("%s: Lists nested more than %d deep", at, maxListDepth)
		}
		if items == nil {
			return nil
		}
		elems, ok, err := apijson.Elements(items)
		if err != nil || !ok {
			return fmt.Errorf("%s: items: not a list", at)
		}
		for i, it := range elems {
			if err := d.add(it, fmt.Sprintf("%s.items[%d]", at, i), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	decode := func(v any) error {
		if err := apijson.Unmarshal(raw, v); err != nil {
			return fmt.Errorf("%s (%s): %s", at, kind, describe(err))
		}
		return nil
	}
	switch kind {
	case "Deployment":
		var x rollout.Deployment
		if err := decode(&x); err != nil {
			return err
		}
		d.deployments = append(d.deployments, &x)
	case "ReplicaSet", "ReplicationController":
		var x replicaset.ReplicaSet
		if err := decode(&x); err != nil {
			return err
		}
		x.Kind = kind
		d.rss = append(d.rss, &x)
	case "Pod":
		var x podstatus.Pod
		if err := decode(&x); err != nil {
			return err
		}
		d.pods = append(d.pods, &x)
		d.rawPods = append(d.rawPods, podRaw{x.ObjectMeta, raw})
	case "Job":
		var x job.Job
		if err := decode(&x); err != nil {
			return err
		}
		d.jobs = append(d.jobs, &x)
	case "CronJob":
		var x cronjob.CronJob
		if err := decode(&x); err != nil {
			return err
		}
		d.cronjobs = append(d.cronjobs, &x)
	case "StatefulSet":
		return d.addStatefulSet(raw, decode)
	case "DaemonSet":
		return d.addDaemonSet(raw, decode)
	case "ControllerRevision":
		return d.addRevision(raw, decode)
	case "PersistentVolumeClaim":
		return d.addClaim(decode)
	case "Node":
		return d.addNode(decode)
	case "PodDisruptionBudget":
		var x pdb.PodDisruptionBudget
		if err := decode(&x); err != nil {
			return err
		}
		d.pdbs = append(d.pdbs, &x)
	default:
		var x struct {
			Metadata meta.ObjectMeta `json:"metadata"`
		}
		if err := decode(&x); err != nil {
			return err
		}
		d.other = append(d.other, x.Metadata)
		d.otherKinds = append(d.otherKinds, kind)
	}
	return nil
}

// explain runs every controller on the dump, workloads ordered by
// namespace, kind and name.
func (d *dump) explain(now time.Time) []explanation {
	d.x = d.buildIndex(now)
	var out []explanation
	owned := map[*replicaset.ReplicaSet]bool{}
	for _, dep := range d.deployments {
		rss := d.x.rssByOwner[dep.UID]
		var pods []*podstatus.Pod
		for _, rs := range rss {
			owned[rs] = true
			pods = append(pods, d.x.podsByOwner[rs.UID]...)
		}
		e := explanation{Kind: "Deployment", Namespace: dep.Namespace, Name: dep.Name}
		p, err := rollout.Step(dep, rss, pods, now, rollout.Options{})
		if err != nil {
			e.Error = err.Error()
		} else {
			e.Outcome, e.Requeue, e.Plan = string(p.Outcome), p.Requeue, p
			e.Actions = rolloutActions(dep, p)
		}
		for _, rs := range rss {
			e.Children = append(e.Children, d.explainReplicaSet(rs, pods, now))
		}
		out = append(out, e)
	}
	for _, rs := range d.rss {
		if !owned[rs] {
			out = append(out, d.explainReplicaSet(rs, nil, now))
		}
	}
	ownedJobs := map[*job.Job]bool{}
	for _, cj := range d.cronjobs {
		jobs := d.x.jobsByOwner[cj.UID]
		e := explanation{Kind: "CronJob", Namespace: cj.Namespace, Name: cj.Name}
		p, err := cronjob.Step(cj, jobs, now, cronjob.Options{})
		if err != nil {
			e.Error = err.Error()
		} else {
			e.Outcome, e.Requeue, e.Plan = string(p.Outcome), p.Requeue, p
			if j := p.Job(); j != nil {
				e.Actions = append(e.Actions, fmt.Sprintf("create Job %s for %s", j.Name, p.ScheduledTime.UTC().Format(time.RFC3339)))
			}
			e.Actions = append(e.Actions, deletions("Job", p.Delete)...)
			e.Actions = append(e.Actions, eventLines(p.Events)...)
		}
		for _, j := range jobs {
			ownedJobs[j] = true
			e.Children = append(e.Children, d.explainJob(j, now))
		}
		out = append(out, e)
	}
	for _, j := range d.jobs {
		if !ownedJobs[j] {
			out = append(out, d.explainJob(j, now))
		}
	}
	for _, b := range d.pdbs {
		e := explanation{Kind: "PodDisruptionBudget", Namespace: b.Namespace, Name: b.Name}
		p, err := pdb.Step(b, d.x.budgetPods(b), d.controllers(b.Namespace), now, pdb.Options{})
		if err != nil {
			e.Error = err.Error()
		} else {
			e.Outcome, e.Requeue, e.Plan = string(p.Outcome), p.Requeue, p
			e.Actions = append(e.Actions, fmt.Sprintf("disruptionsAllowed %d (healthy %d of %d desired, %d expected)",
				p.Status.DisruptionsAllowed, p.Status.CurrentHealthy, p.Status.DesiredHealthy, p.Status.ExpectedPods))
			for _, r := range p.ResetDisruptionTarget {
				e.Actions = append(e.Actions, "reset the DisruptionTarget condition of pod "+r.Name)
			}
			e.Actions = append(e.Actions, eventLines(p.Events)...)
		}
		out = append(out, e)
	}
	for _, a := range d.sets {
		out = append(out, d.explainStatefulSet(a, now))
	}
	for _, a := range d.dss {
		out = append(out, d.explainDaemonSet(a, now))
	}
	for _, n := range d.nodes {
		out = append(out, explainNode(n))
	}
	for i, m := range d.other {
		out = append(out, explanation{Kind: d.otherKinds[i], Namespace: m.Namespace, Name: m.Name, Outcome: "NotModelled",
			Actions: []string{"kubesem does not model this kind's controller yet"}})
	}
	slices.SortStableFunc(out, func(a, b explanation) int {
		return strings.Compare(a.Namespace+"\x00"+a.Kind+"\x00"+a.Name, b.Namespace+"\x00"+b.Kind+"\x00"+b.Name)
	})
	return out
}

// controllers lists the scalable controllers of namespace ns for the
// disruption controller (computed once per namespace).
func (d *dump) controllers(ns string) []pdb.Controller {
	if c, ok := d.x.controllers[ns]; ok {
		return c
	}
	out := d.scalable(ns)
	d.x.controllers[ns] = out
	return out
}

func (d *dump) scalable(ns string) []pdb.Controller {
	var out []pdb.Controller
	for _, dep := range d.deployments {
		if dep.Namespace == ns {
			n := dep.Replicas()
			out = append(out, scaleController("apps/v1", "Deployment", &dep.ObjectMeta, &n))
		}
	}
	for _, rs := range d.rss {
		if rs.Namespace != ns {
			continue
		}
		n := rs.Replicas()
		c := scaleController("apps/v1", "ReplicaSet", &rs.ObjectMeta, &n)
		if rs.IsReplicationController() {
			c.APIVersion, c.Kind = "v1", "ReplicationController"
		}
		out = append(out, c)
	}
	for _, a := range d.sets {
		if set := a.obj; set.Namespace == ns {
			n := set.Replicas()
			out = append(out, scaleController("apps/v1", "StatefulSet", &set.ObjectMeta, &n))
		}
	}
	for _, j := range d.jobs {
		if j.Namespace == ns {
			out = append(out, scaleController("batch/v1", "Job", &j.ObjectMeta, nil))
		}
	}
	return out
}

// scaleController is the object with metadata m as the disruption
// controller reads it: name, UID, its controller reference and replicas
// (nil: no scale subresource).
func scaleController(apiVersion, kind string, m *meta.ObjectMeta, replicas *int32) pdb.Controller {
	return pdb.Controller{APIVersion: apiVersion, Kind: kind,
		ObjectMeta: meta.ObjectMeta{Name: m.Name, UID: m.UID, OwnerReferences: m.OwnerReferences},
		Spec:       pdb.ControllerSpec{Replicas: replicas}}
}

func (d *dump) explainReplicaSet(rs *replicaset.ReplicaSet, related []*podstatus.Pod, now time.Time) explanation {
	kind := "ReplicaSet"
	if rs.IsReplicationController() {
		kind = "ReplicationController"
	}
	e := explanation{Kind: kind, Namespace: rs.Namespace, Name: rs.Name}
	pods := d.x.replicaSetPods(rs)
	if related == nil {
		related = d.x.relatedPods(rs)
	}
	p, err := replicaset.Step(rs, pods, related, now, replicaset.Options{})
	if err != nil {
		e.Error = err.Error()
		return e
	}
	e.Outcome, e.Requeue, e.Plan = string(p.Outcome), p.Requeue, p
	if p.Create.Count > 0 {
		e.Actions = append(e.Actions, fmt.Sprintf("create %d pod(s) (%s)", p.Create.Count, p.Create.Reason))
	}
	for _, a := range p.Adopt {
		e.Actions = append(e.Actions, "adopt pod "+a.Name)
	}
	for _, r := range p.Release {
		e.Actions = append(e.Actions, "release pod "+r.Name)
	}
	e.Actions = append(e.Actions, deletions("pod", p.Delete)...)
	return e
}

func (d *dump) explainJob(j *job.Job, now time.Time) explanation {
	e := explanation{Kind: "Job", Namespace: j.Namespace, Name: j.Name}
	pods := d.x.podsByOwner[j.UID]
	p, err := job.Step(j, pods, job.BackoffRecord{}, now, job.Options{})
	if err != nil {
		e.Error = err.Error()
		return e
	}
	e.Outcome, e.Requeue, e.Plan = string(p.Outcome), p.Requeue, p
	if p.Create.Count > 0 {
		e.Actions = append(e.Actions, fmt.Sprintf("create %d pod(s) (%s)", p.Create.Count, p.Create.Reason))
	}
	e.Actions = append(e.Actions, deletions("pod", p.Delete)...)
	if len(p.RemoveFinalizers) > 0 {
		e.Actions = append(e.Actions, fmt.Sprintf("remove the tracking finalizer of %d pod(s)", len(p.RemoveFinalizers)))
	}
	for _, c := range p.Status.Conditions {
		if c.Status == meta.ConditionTrue && !meta.Conditions(j.Status.Conditions).IsTrue(c.Type) {
			e.Actions = append(e.Actions, fmt.Sprintf("set condition %s (%s)", c.Type, c.Reason))
		}
	}
	if j.Spec.TTLSecondsAfterFinished != nil && j.IsFinished() {
		// The TTL-after-finished controller's part.
		if ttl, err := job.TimeLeft(j, now); err == nil {
			if ttl.Expired {
				e.Actions = append(e.Actions, fmt.Sprintf("the TTL-after-finished controller deletes it (expired at %s)", ttl.ExpireAt.UTC().Format(time.RFC3339)))
			} else {
				e.Requeue = append(e.Requeue, plan.Requeue{After: ttl.Remaining, Reason: ttl.Reason})
			}
		}
	}
	return e
}

func rolloutActions(d *rollout.Deployment, p rollout.Plan) []string {
	var acts []string
	for _, rs := range p.Create.Objects {
		acts = append(acts, fmt.Sprintf("create ReplicaSet %s with %d replica(s) (%s)", rs.Name, rs.Replicas(), p.Create.Reason))
	}
	for _, u := range p.Update {
		acts = append(acts, fmt.Sprintf("update ReplicaSet %s (%s)", u.Name, u.Reason))
	}
	for _, s := range p.Scale {
		acts = append(acts, fmt.Sprintf("scale ReplicaSet %s %d → %d (%s)", s.Name, s.From, s.Replicas, s.Reason))
	}
	acts = append(acts, deletions("ReplicaSet", p.Delete)...)
	if p.Annotations != nil && p.Annotations[rollout.RevisionAnnotation] != d.Annotations[rollout.RevisionAnnotation] {
		acts = append(acts, "set revision "+p.Annotations[rollout.RevisionAnnotation])
	}
	for _, c := range p.Status.Conditions {
		if old, ok := d.Status.Conditions.Find(c.Type); !ok || old.Status != c.Status || old.Reason != c.Reason {
			acts = append(acts, fmt.Sprintf("set condition %s=%s (%s)", c.Type, c.Status, c.Reason))
		}
	}
	return append(acts, eventLines(p.Events)...)
}

func deletions(kind string, ds []plan.Deletion) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("delete %s %s (%s)", kind, d.Name, d.Reason))
	}
	return out
}

func eventLines(evs []plan.Event) []string {
	var out []string
	for _, e := range evs {
		s := fmt.Sprintf("event %s %s", e.Type, e.Reason)
		if e.Message != "" {
			s += ": " + e.Message
		}
		out = append(out, s)
	}
	return out
}

func printExplanations(w io.Writer, now time.Time, es []explanation) {
	fmt.Fprintf(w, "what each controller does next, at %s\n", now.UTC().Format(time.RFC3339))
	for _, e := range es {
		fmt.Fprintln(w)
		printExplanation(w, now, e, "")
	}
}

func printExplanation(w io.Writer, now time.Time, e explanation, indent string) {
	name := e.Name
	if e.Namespace != "" && indent == "" {
		name = e.Namespace + "/" + e.Name
	}
	fmt.Fprintf(w, "%s%s %s", indent, e.Kind, name)
	switch {
	case e.Error != "":
		fmt.Fprintf(w, ": cannot decide: %s\n", e.Error)
		return
	case e.Outcome != "":
		fmt.Fprintf(w, ": %s\n", e.Outcome)
	default:
		fmt.Fprintln(w)
	}
	for _, n := range e.Notes {
		fmt.Fprintf(w, "%s  note: %s\n", indent, n)
	}
	if len(e.Actions) == 0 && e.Outcome != OutcomeUnknown {
		fmt.Fprintf(w, "%s  nothing to do\n", indent)
	}
	for _, a := range e.Actions {
		fmt.Fprintf(w, "%s  %s\n", indent, a)
	}
	for _, r := range e.Requeue {
		var b bytes.Buffer
		b.WriteString("looks again ")
		switch {
		case r.RateLimited:
			b.WriteString("soon, rate-limited")
		case r.After == 0:
			b.WriteString("at once")
		default:
			fmt.Fprintf(&b, "in %v (at %s)", r.After, now.Add(r.After).UTC().Format(time.RFC3339))
		}
		if r.Reason != "" {
			fmt.Fprintf(&b, " (%s)", r.Reason)
		}
		fmt.Fprintf(w, "%s  %s\n", indent, b.String())
	}
	for _, c := range e.Children {
		printExplanation(w, now, c, indent+"  ")
	}
}
