package cluster

import (
	"errors"
	"maps"
	"reflect"
	"slices"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
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

// The API server's refusals, wrapped in a *field.Error naming the field
// (metadata.name, metadata.uid …) so that errors.Is matches them.
var (
	// ErrNotFound: the object of an update, patch or delete does not exist.
	ErrNotFound = errors.New("not found")
	// ErrAlreadyExists: a create names an object that exists.
	ErrAlreadyExists = errors.New("already exists")
	// ErrConflict: a UID precondition does not hold, or a pod is bound
	// twice.
	ErrConflict = errors.New("conflict")
	// ErrTooManyRequests: an eviction the budgets refuse (429).
	ErrTooManyRequests = errors.New("too many requests")
	// ErrForbidden: an eviction a budget forbids (403), or a request
	// the API server does not serve.
	ErrForbidden = errors.New("forbidden")
)

// DefaultTerminationGracePeriodSeconds is the API default of a pod's
// spec.terminationGracePeriodSeconds, set on create.
const DefaultTerminationGracePeriodSeconds int64 = 30

// Result is what the API server did with one write: the key of the object
// written, the object as stored afterwards (nil when it is gone), and
// whether it was removed from the store by this write.
type Result struct {
	Key     Key
	Object  any
	Removed bool
	// UID is the UID of the object written.
	UID string
}

// Apply performs w on s at now as the v1.36.3 API server would, with namer
// completing generated names and UIDs:
//
//   - create: the namespace defaults to w.Namespace; a name is taken from
//     metadata.generateName through namer when metadata.name is empty
//     (retried on a taken name, as the API server retries); a taken name is
//     ErrAlreadyExists. The UID, creationTimestamp (now) and, for kinds with
//     a generation (workloads, budgets, pods), generation 1 are assigned;
//     deletionTimestamp is cleared, and the status of kinds with a status
//     subresource is reset (a pod's to phase Pending). A pod gets the
//     DefaultTolerationSeconds admission plugin's tolerations and, when it
//     has none, terminationGracePeriodSeconds 30 (API defaulting). A Job
//     gets the API defaults of its spec (backoffLimit, completions …) and,
//     without spec.manualSelector, the generated selector and template
//     labels (batch.kubernetes.io/controller-uid, job-name …).
//   - update and patch (Object is the object after the request): the UID, if
//     given, must match (ErrConflict); server-set metadata is kept; on the
//     main resource the status is kept and generation is bumped when the spec
//     changed; on subresource "status" only the status and the annotations
//     are taken. An object
//     being deleted whose last finalizer is removed is removed. An update
//     that changes nothing is not stored (the object's version does not
//     change and no controller wakes), as the API server skips writing it
//     and sends no watch event.
//   - create on pods/binding sets spec.nodeName (ErrConflict when already
//     bound) and the PodScheduled condition.
//   - create on pods/eviction decides the eviction with [pdb.Evict] against
//     the namespace's budgets: refused, ErrTooManyRequests or ErrForbidden;
//     allowed, the budget's status is written, the pod gets
//     DisruptionTarget=True when the decision says so, and is deleted.
//   - delete: with propagationPolicy Orphan, an object gets
//     [FinalizerOrphan] (and a deletionTimestamp) and stays until the
//     garbage collector has orphaned its dependents and removed it; a pod
//     is deleted as [podstatus.GracefulDelete] decides (a pod already
//     being deleted gracefully is left as it is, its finalizers too); any
//     object with finalizers gets a deletionTimestamp and stays; otherwise
//     it is removed. Dependents are left to the
//     garbage collector (the World). An empty policy is Background for
//     every kind (the API's default Orphan for a batch/v1 Job is not
//     modelled) and Foreground is taken as Background.
//
// Apply never modifies stored objects or w.Object; it returns a
// *field.Error for a write it refuses, and the State is then unchanged.
func (s *State) Apply(w plan.Write, now time.Time, namer Namer) (Result, error) {
	if namer == nil {
		namer = DefaultNamer{}
	}
	k, ok := KindOfResource(w.Resource)
	if !ok {
		return Result{}, field.New("resource", w.Resource, field.ErrUnsupported)
	}
	switch {
	case w.Verb == plan.VerbCreate && w.Subresource == "":
		return s.create(k, w, now, namer)
	case w.Verb == plan.VerbCreate && k == KindPod && w.Subresource == "binding":
		return s.bind(w, now)
	case w.Verb == plan.VerbCreate && k == KindPod && w.Subresource == "eviction":
		return s.evict(w, now)
	case (w.Verb == plan.VerbUpdate || w.Verb == plan.VerbPatch) && (w.Subresource == "" || w.Subresource == "status"):
		return s.update(k, w, now)
	case w.Verb == plan.VerbDelete && w.Subresource == "":
		return s.delete(k, w, now)
	}
	return Result{}, field.New("subresource", string(w.Verb)+" "+w.Resource+"/"+w.Subresource, field.ErrUnsupported)
}

func checkObject(k Kind, obj any) (*meta.ObjectMeta, error) {
	got, ok := KindOf(obj)
	if !ok {
		return nil, field.New("object", "", field.ErrRequired)
	}
	if got != k && !(k == KindReplicationController && got == KindReplicaSet) &&
		!(k == KindReplicaSet && got == KindReplicationController) {
		return nil, field.New("object", string(got), field.ErrUnsupported)
	}
	return metaOf(obj), nil
}

func (s *State) create(k Kind, w plan.Write, now time.Time, namer Namer) (Result, error) {
	m, err := checkObject(k, w.Object)
	if err != nil {
		return Result{}, err
	}
	info := kindInfos[k]
	obj := shallow(w.Object)
	m = metaOf(obj)
	if info.namespaced {
		if m.Namespace == "" {
			m.Namespace = w.Namespace
		}
		if m.Namespace == "" {
			return Result{}, field.New("metadata.namespace", "", field.ErrRequired)
		}
	} else {
		m.Namespace = ""
	}
	if m.Name == "" {
		if m.GenerateName == "" {
			return Result{}, field.New("metadata.name", "", field.ErrRequired)
		}
		// The API server retries a taken generated name (RetryGenerateName).
		for range 8 {
			s.Counter++
			m.Name = namer.Name(m.GenerateName, s.Counter)
			if s.objs[k][name{m.Namespace, m.Name}].obj == nil {
				break
			}
		}
	}
	if s.objs[k][name{m.Namespace, m.Name}].obj != nil {
		return Result{}, field.New("metadata.name", m.Name, ErrAlreadyExists)
	}
	s.Counter++
	m.UID = namer.UID(s.Counter)
	m.CreationTimestamp = now
	m.DeletionTimestamp = nil
	m.DeletionGracePeriodSeconds = nil
	m.Generation = 0
	if info.generation {
		m.Generation = 1
	}
	resetStatus(obj)
	if j, ok := obj.(*job.Job); ok {
		defaultJob(j)
	}
	if p, ok := obj.(*podstatus.Pod); ok {
		p.Spec.Tolerations = node.DefaultTolerations(p.Spec.Tolerations, -1)
		if p.Spec.TerminationGracePeriodSeconds == nil {
			g := DefaultTerminationGracePeriodSeconds
			p.Spec.TerminationGracePeriodSeconds = &g
		}
	}
	s.put(k, obj)
	return Result{Key: Key{k, m.Namespace, m.Name}, Object: obj, UID: m.UID}, nil
}

// defaultJob applies the API server's defaults to a Job it creates:
// parallelism and completions 1 when both are unset (else parallelism 1),
// backoffLimit 6 (2147483647 with backoffLimitPerIndex), completionMode
// NonIndexed, suspend false, podReplacementPolicy (Failed with a
// podFailurePolicy, else TerminatingOrFailed), manualSelector false; then,
// without a manual selector, the generated selector and template labels.
// A Job without metadata.labels whose template has labels takes the
// template's label map itself, so it ends up with the generated labels
// too.
//
// Source: upstream pkg/apis/batch/v1/defaults.go SetDefaults_Job (the label
// map shared by the defaulting and kept shared by the unsafe conversion to
// the internal type), pkg/registry/batch/job/strategy.go PrepareForCreate,
// generateSelector (v1.36.3).
func defaultJob(j *job.Job) {
	one := func() *int32 { v := int32(1); return &v }
	if j.Spec.Completions == nil && j.Spec.Parallelism == nil {
		j.Spec.Completions = one()
	}
	if j.Spec.Parallelism == nil {
		j.Spec.Parallelism = one()
	}
	if j.Spec.BackoffLimit == nil {
		v := int32(6)
		if j.Spec.BackoffLimitPerIndex != nil {
			v = 1<<31 - 1
		}
		j.Spec.BackoffLimit = &v
	}
	sharedLabels := j.Spec.Template.Labels != nil && len(j.Labels) == 0
	if j.Spec.CompletionMode == nil {
		m := job.NonIndexed
		j.Spec.CompletionMode = &m
	}
	if j.Spec.Suspend == nil {
		f := false
		j.Spec.Suspend = &f
	}
	if j.Spec.PodReplacementPolicy == nil {
		p := job.TerminatingOrFailed
		if j.Spec.PodFailurePolicy != nil {
			p = job.FailedOnly
		}
		j.Spec.PodReplacementPolicy = &p
	}
	if j.Spec.ManualSelector == nil {
		f := false
		j.Spec.ManualSelector = &f
	}
	defaultJobSelector(j)
	if sharedLabels {
		j.Labels = maps.Clone(j.Spec.Template.Labels)
	}
}

// defaultJobSelector gives a Job without spec.manualSelector the selector
// and template labels the API server generates from its UID.
func defaultJobSelector(j *job.Job) {
	if j.Spec.ManualSelector != nil && *j.Spec.ManualSelector {
		return
	}
	labels := map[string]string{
		"batch.kubernetes.io/controller-uid": j.UID, "batch.kubernetes.io/job-name": j.Name,
		"controller-uid": j.UID, "job-name": j.Name,
	}
	sel := &meta.LabelSelector{}
	if j.Spec.Selector != nil {
		sel.MatchExpressions = j.Spec.Selector.MatchExpressions
		sel.MatchLabels = maps.Clone(j.Spec.Selector.MatchLabels)
	}
	if sel.MatchLabels == nil {
		sel.MatchLabels = map[string]string{}
	}
	if _, ok := sel.MatchLabels["batch.kubernetes.io/controller-uid"]; !ok {
		sel.MatchLabels["batch.kubernetes.io/controller-uid"] = j.UID
	}
	j.Spec.Selector = sel
	t := j.Spec.Template
	t.Labels = maps.Clone(t.Labels)
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	for k, v := range labels {
		if _, ok := t.Labels[k]; !ok {
			t.Labels[k] = v
		}
	}
	j.Spec.Template = t
}

// stored finds the object an update, patch or delete names, checking its
// UID precondition.
func (s *State) stored(k Kind, w plan.Write) (any, name, error) {
	n := name{w.Namespace, w.Name}
	if !kindInfos[k].namespaced {
		n.ns = ""
	}
	if n.name == "" && w.Object != nil {
		if m := metaOf(w.Object); m != nil {
			n = name{m.Namespace, m.Name}
		}
	}
	old := s.objs[k][n].obj
	if old == nil {
		return nil, n, field.New("metadata.name", n.name, ErrNotFound)
	}
	if w.UID != "" && metaOf(old).UID != w.UID {
		return nil, n, field.New("metadata.uid", w.UID, ErrConflict)
	}
	return old, n, nil
}

func (s *State) update(k Kind, w plan.Write, now time.Time) (Result, error) {
	if _, err := checkObject(k, w.Object); err != nil {
		return Result{}, err
	}
	old, n, err := s.stored(k, w)
	if err != nil {
		return Result{}, err
	}
	om := metaOf(old)
	var obj any
	specChanged := false // (then obj differs from old)
	if w.Subresource == "status" {
		// The status subresource takes the status and the annotations
		// (the API server resets the spec and labels, not annotations: the
		// Deployment controller writes its revision annotation this way).
		obj = s.draft(k, old)
		setStatus(obj, w.Object)
		metaOf(obj).Annotations = metaOf(w.Object).Annotations
	} else {
		obj = s.draft(k, w.Object)
		m := metaOf(obj)
		m.Name, m.Namespace, m.GenerateName = om.Name, om.Namespace, om.GenerateName
		m.UID, m.CreationTimestamp = om.UID, om.CreationTimestamp
		m.DeletionTimestamp, m.DeletionGracePeriodSeconds = om.DeletionTimestamp, om.DeletionGracePeriodSeconds
		m.Generation = om.Generation
		if kindInfos[k].status {
			setStatus(obj, old)
		}
		if kindInfos[k].generation && !deepEqual(specOf(obj), specOf(old)) {
			m.Generation++
			specChanged = true
		}
		if m.DeletionTimestamp != nil && len(m.Finalizers) == 0 && !isPod(obj) {
			s.remove(k, n)
			return Result{Key: Key{k, n.ns, n.name}, Removed: true, UID: om.UID}, nil
		}
		if isPod(obj) && m.DeletionTimestamp != nil && len(m.Finalizers) == 0 &&
			m.DeletionGracePeriodSeconds != nil && *m.DeletionGracePeriodSeconds == 0 {
			s.remove(k, n)
			return Result{Key: Key{k, n.ns, n.name}, Removed: true, UID: om.UID}, nil
		}
	}
	if !specChanged && unchanged(w.Subresource == "status", obj, old) {
		// the API server stores nothing and sends no watch event for an
		// update that changes nothing: no controller wakes
		return Result{Key: Key{k, n.ns, n.name}, Object: old, UID: om.UID}, nil
	}
	s.spare[kindIndex(k)] = nil // (stored: never to be reused)
	s.put(k, obj)
	return Result{Key: Key{k, n.ns, n.name}, Object: obj, UID: om.UID}, nil
}

// draft returns a shallow copy of src for update to complete: in the
// State's spare object of kind k when it has one of src's type (an update
// that changes nothing stores nothing, and its copy is reused).
func (s *State) draft(k Kind, src any) any {
	i := kindIndex(k)
	d := shallowInto(s.spare[i], src)
	s.spare[i] = d
	return d
}

func isPod(obj any) bool { _, ok := obj.(*podstatus.Pod); return ok }

func (s *State) bind(w plan.Write, now time.Time) (Result, error) {
	old, n, err := s.stored(KindPod, w)
	if err != nil {
		return Result{}, err
	}
	p := old.(*podstatus.Pod)
	target := ""
	if np, ok := w.Object.(*podstatus.Pod); ok && np != nil {
		target = np.Spec.NodeName
	}
	if target == "" {
		return Result{}, field.New("target.name", "", field.ErrRequired)
	}
	if p.Spec.NodeName != "" {
		return Result{}, field.New("spec.nodeName", p.Spec.NodeName, ErrConflict)
	}
	if p.IsDeleting() {
		return Result{}, field.New("metadata.deletionTimestamp", "", ErrConflict)
	}
	c := *p
	c.Spec.NodeName = target
	c.Status.Conditions = setPodCondition(p.Status.Conditions, podstatus.Condition{
		Type: podstatus.PodScheduled, Status: meta.ConditionTrue, LastTransitionTime: now,
	})
	s.put(KindPod, &c)
	return Result{Key: Key{KindPod, n.ns, n.name}, Object: &c, UID: c.UID}, nil
}

// setPodCondition returns conds with c replacing the condition of its type
// (keeping the transition time when the status is unchanged), or appended.
func setPodCondition(conds []podstatus.Condition, c podstatus.Condition) []podstatus.Condition {
	out := make([]podstatus.Condition, 0, len(conds)+1)
	found := false
	for _, o := range conds {
		if o.Type == c.Type {
			if o.Status == c.Status {
				c.LastTransitionTime = o.LastTransitionTime
			}
			out = append(out, c)
			found = true
			continue
		}
		out = append(out, o)
	}
	if !found {
		out = append(out, c)
	}
	return out
}

func (s *State) evict(w plan.Write, now time.Time) (Result, error) {
	old, n, err := s.stored(KindPod, w)
	if err != nil {
		return Result{}, err
	}
	p := old.(*podstatus.Pod)
	var budgets []pdb.PodDisruptionBudget
	for _, bn := range sortedNames(namesOf(s.objs[KindPodDisruptionBudget], n.ns)) {
		budgets = append(budgets, *s.objs[KindPodDisruptionBudget][bn].obj.(*pdb.PodDisruptionBudget))
	}
	d, err := pdb.Evict(p, budgets, pdb.Request{}, now)
	if err != nil {
		return Result{}, err
	}
	if !d.Allowed {
		e := ErrTooManyRequests
		if d.Code != 429 {
			e = ErrForbidden
		}
		return Result{}, field.New("metadata.name", n.name+": "+string(d.Reason)+" "+d.Message, e)
	}
	if d.UpdateStatus && d.Status != nil {
		for i, b := range budgets {
			if b.Name == d.Budget {
				c := budgets[i]
				c.Status = *d.Status
				s.put(KindPodDisruptionBudget, &c)
			}
		}
	}
	if d.DisruptionTarget {
		c := *p
		c.Status.Conditions = setPodCondition(p.Status.Conditions, podstatus.Condition{
			Type: podstatus.DisruptionTarget, Status: meta.ConditionTrue, LastTransitionTime: now,
			Reason: "EvictionByEvictionAPI", Message: "Eviction API: evicting",
		})
		s.put(KindPod, &c)
	}
	return s.delete(KindPod, plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: n.ns, Name: n.name,
		GracePeriodSeconds: w.GracePeriodSeconds}, now)
}

func namesOf[V any](m map[name]V, ns string) map[name]struct{} {
	out := map[name]struct{}{}
	for n := range m {
		if n.ns == ns {
			out[n] = struct{}{}
		}
	}
	return out
}

func (s *State) delete(k Kind, w plan.Write, now time.Time) (Result, error) {
	old, n, err := s.stored(k, w)
	if err != nil {
		return Result{}, err
	}
	key := Key{k, n.ns, n.name}
	om := metaOf(old)
	if w.PropagationPolicy == PropagationOrphan && !isPod(old) {
		return s.deleteOrphaning(k, n, old, now), nil
	}
	if p, ok := old.(*podstatus.Pod); ok {
		d := podstatus.GracefulDelete(p, w.GracePeriodSeconds, now)
		if d.Outcome == podstatus.DeletePending {
			return Result{Key: key, Object: old, UID: om.UID}, nil
		}
		finalizers := om.Finalizers
		if w.PropagationPolicy == PropagationOrphan && !slices.Contains(finalizers, FinalizerOrphan) {
			finalizers = append(slices.Clip(finalizers), FinalizerOrphan)
		}
		now0 := d.Outcome == podstatus.DeleteImmediately || d.GracePeriodSeconds == 0
		if now0 && len(finalizers) == 0 {
			s.remove(k, n)
			return Result{Key: key, Removed: true, UID: om.UID}, nil
		}
		c := *p
		c.Finalizers = finalizers
		ts := d.DeletionTimestamp
		if ts.IsZero() {
			ts = now
		}
		grace := d.GracePeriodSeconds
		c.DeletionTimestamp, c.DeletionGracePeriodSeconds = &ts, &grace
		s.put(k, &c)
		return Result{Key: key, Object: &c, UID: om.UID}, nil
	}
	if len(om.Finalizers) == 0 {
		s.remove(k, n)
		return Result{Key: key, Removed: true, UID: om.UID}, nil
	}
	if om.DeletionTimestamp != nil {
		return Result{Key: key, Object: old, UID: om.UID}, nil
	}
	obj := shallow(old)
	m := metaOf(obj)
	ts := now
	zero := int64(0)
	m.DeletionTimestamp, m.DeletionGracePeriodSeconds = &ts, &zero
	if kindInfos[k].generation {
		m.Generation++
	}
	s.put(k, obj)
	return Result{Key: key, Object: obj, UID: om.UID}, nil
}

// deleteOrphaning is the delete of old (not a pod), stored at n, with
// propagationPolicy Orphan: FinalizerOrphan is added unless it is there,
// and an object not yet being deleted gets deletionTimestamp now,
// deletionGracePeriodSeconds 0 and, for kinds with a generation, its
// generation bumped; the object stays until the garbage collector has
// orphaned its dependents and removed the finalizer.
//
// Source: upstream k8s.io/apiserver pkg/registry/generic/registry/store.go
// Delete, deletionFinalizersForGarbageCollection, shouldOrphanDependents,
// markAsDeleting (v0.36.3).
func (s *State) deleteOrphaning(k Kind, n name, old any, now time.Time) Result {
	om := metaOf(old)
	key := Key{k, n.ns, n.name}
	if om.IsDeleting() && slices.Contains(om.Finalizers, FinalizerOrphan) {
		return Result{Key: key, Object: old, UID: om.UID}
	}
	obj := shallow(old)
	m := metaOf(obj)
	if !slices.Contains(m.Finalizers, FinalizerOrphan) {
		m.Finalizers = append(slices.Clip(m.Finalizers), FinalizerOrphan)
	}
	if m.DeletionTimestamp == nil {
		ts := now
		zero := int64(0)
		m.DeletionTimestamp, m.DeletionGracePeriodSeconds = &ts, &zero
		if kindInfos[k].generation {
			m.Generation++
		}
	}
	s.put(k, obj)
	return Result{Key: key, Object: obj, UID: om.UID}
}

// resetStatus clears the status of a created object whose kind has a
// status subresource, as the API server's create strategies do; a pod
// starts Pending.
func resetStatus(obj any) {
	switch o := obj.(type) {
	case *podstatus.Pod:
		o.Status = podstatus.Status{Phase: podstatus.Pending}
	case *rollout.Deployment:
		o.Status = rollout.Status{}
	case *replicaset.ReplicaSet:
		o.Status = replicaset.Status{}
	case *statefulset.StatefulSet:
		o.Status = statefulset.Status{}
	case *daemonset.DaemonSet:
		o.Status = daemonset.Status{}
	case *job.Job:
		o.Status = job.Status{}
	case *cronjob.CronJob:
		o.Status = cronjob.Status{}
	case *pdb.PodDisruptionBudget:
		o.Status = pdb.Status{}
	}
}

// setStatus sets dst's status to src's (both of one kind; statusOf names
// the status of each kind that has one).
func setStatus(dst, src any) {
	if d, s := statusOf(dst), statusOf(src); d != nil && s != nil {
		reflect.ValueOf(d).Elem().Set(reflect.ValueOf(s).Elem())
	}
}

// unchanged reports whether the update's object obj equals the stored
// old (reflect.DeepEqual's comparison: deepEqual). A status update's obj
// is a shallow copy of old with its status and annotations replaced, so
// only those two are compared when the kind has a status.
func unchanged(status bool, obj, old any) bool {
	if status {
		if a, b := statusOf(obj), statusOf(old); a != nil && b != nil {
			return deepEqual(a, b) && maps.Equal(metaOf(obj).Annotations, metaOf(old).Annotations) &&
				(metaOf(obj).Annotations == nil) == (metaOf(old).Annotations == nil)
		}
	}
	return deepEqual(obj, old)
}

// statusOf returns a pointer to obj's status (nil for a kind without
// one), the part setStatus assigns.
func statusOf(obj any) any {
	switch o := obj.(type) {
	case *podstatus.Pod:
		return &o.Status
	case *node.Node:
		return &o.Status
	case *rollout.Deployment:
		return &o.Status
	case *replicaset.ReplicaSet:
		return &o.Status
	case *statefulset.StatefulSet:
		return &o.Status
	case *daemonset.DaemonSet:
		return &o.Status
	case *job.Job:
		return &o.Status
	case *cronjob.CronJob:
		return &o.Status
	case *pdb.PodDisruptionBudget:
		return &o.Status
	}
	return nil
}

// specOf returns a pointer to what a change of bumps metadata.generation
// (a pointer, so that comparing two objects' copies nothing).
func specOf(obj any) any {
	switch o := obj.(type) {
	case *podstatus.Pod:
		return &o.Spec
	case *rollout.Deployment:
		return &o.Spec
	case *replicaset.ReplicaSet:
		return &o.Spec
	case *statefulset.StatefulSet:
		return &o.Spec
	case *daemonset.DaemonSet:
		return &o.Spec
	case *job.Job:
		return &o.Spec
	case *cronjob.CronJob:
		return &o.Spec
	case *pdb.PodDisruptionBudget:
		return &o.Spec
	case *history.ControllerRevision:
		return &o.Revision
	}
	return nil
}

// Put stores obj as it is, the way a dump of a cluster holds it: nothing
// is assigned or checked but its kind and name. Use it to load a State;
// writes go through [State.Apply].
func (s *State) Put(obj any) error {
	k, ok := KindOf(obj)
	if !ok {
		return field.New("object", "", field.ErrUnsupported)
	}
	m := metaOf(obj)
	if m.Name == "" {
		return field.New("metadata.name", "", field.ErrRequired)
	}
	if kindInfos[k].namespaced && m.Namespace == "" {
		return field.New("metadata.namespace", m.Name, field.ErrRequired)
	}
	if m.UID != "" {
		if other, ok := s.uid[m.UID]; ok && other != (Key{k, m.Namespace, m.Name}) {
			return field.New("metadata.uid", m.UID, field.ErrDuplicate)
		}
	}
	s.put(k, shallow(obj))
	return nil
}
