package wholecluster_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apps "k8s.io/api/apps/v1"
	batch "k8s.io/api/batch/v1"
	coordv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/watch"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	core "k8s.io/client-go/testing"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	"k8s.io/kubernetes/pkg/apis/core/v1/helper/qos"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
)

// This file is the API server of the whole-cluster harness
// (harness_test.go): the storage behind the one fake
// clientset every controller shares. client-go's object tracker stores the
// objects; apiServer stands in front of it and does what the real API
// server does and the tracker does not, as far as the workload controllers
// can tell:
//
//   - create: a name from generateName, a uid, creationTimestamp (the
//     harness clock), generation 1, a resourceVersion; AlreadyExists when
//     the name is taken; the strategies' PrepareForCreate as far as
//     controllers see it (prepareForCreate: pod status Pending with its
//     QoS class, workload status cleared, a Job's generated selector);
//   - update: Conflict when the object's resourceVersion is set and stale;
//     the status subresource keeps the stored .spec (and what each status
//     strategy keeps: a Deployment's labels, a pod's owner references),
//     the main resource keeps the stored .status; a .spec change bumps generation; uid,
//     creationTimestamp and deletionTimestamp are kept; an update that
//     removes the last finalizer of a deleting object removes it;
//   - pods/binding (the environment's scheduler, sent as an update of the
//     subresource "binding"): sets spec.nodeName and the PodScheduled
//     condition; Conflict when bound;
//   - patch (JSON, merge and strategic merge) with the same rules;
//   - delete: the uid precondition (Conflict); a pod bound to a node that
//     is not terminal is deleted gracefully (deletionTimestamp = now +
//     grace, the grace from the request or the pod's
//     terminationGracePeriodSeconds, 30 s when unset); an object with
//     finalizers gets deletionTimestamp and stays; otherwise it is removed;
//   - defaulting: every object created, updated or patched is defaulted
//     by v1.36.3's own defaulters (legacyscheme), as decoding does;
//   - resourceVersion is one counter for every kind (as etcd's revision),
//     and each watcher receives the events of its resource in
//     resourceVersion order through an unbounded buffer (the tracker's own
//     watch channel holds 100 events and panics when full).
//
// pods/eviction is not answered here (a create of a subresource is a
// BadRequest): world.Evict runs v1.36.3's eviction subresource over
// this server (eviction_test.go).
//
// Not modelled: validation (an invalid request is stored), admission
// (no DefaultTolerationSeconds: pods carry no default not-ready /
// unreachable tolerations, so taint eviction deletes them at once),
// field managers and server-side apply (no controller here uses it),
// deletion propagation other than background and orphan (a delete
// whose policy, given or the resource's default — orphan for a batch/v1
// Job — is foreground, or orphan for a pod, is refused; an orphan delete
// adds the orphan finalizer and marks the object deleting; the
// dependents of a background delete, and the orphaning, are
// world.CollectGarbage's), and watch
// bookmarks, timeouts and relists (a watch lasts as long as the world).
//
// Deterministic names and uids. The API server draws a generateName
// suffix at random and a random uid; controllers also create
// concurrently (slowStartBatch), so even a counter would name objects in
// goroutine order. The harness derives both from what is created: the
// suffix is 5 characters of the API server's alphabet from a hash of
// (resource, namespace, generateName, the object as sent without its name)
// and of how many identical requests came before; identical requests are
// interchangeable, so the result does not depend on the order they
// arrive in. A suffix already taken is rehashed with a counter (the
// order of two concurrent, different requests whose hashes collide in 27^5
// could then matter: not seen, and canonical maps names anyway). The uid
// is derived from (resource, namespace, name, incarnation).
type apiServer struct {
	inner core.ObjectTracker
	now   func() time.Time
	// fixTime replaces a wall-clock stamp (see world.fixTime); nil: none.
	fixTime func(metav1.Time) (metav1.Time, bool)

	mu       sync.Mutex
	rv       int64
	same     map[string]int // identical create requests seen
	incarn   map[string]int // objects created under a (resource, namespace, name)
	watchers map[schema.GroupVersionResource][]*watcher
	// log is every watch event sent, for a watch that starts after it
	log map[schema.GroupVersionResource][]watch.Event
	// events is the number of watch events sent for each resource: the
	// harness waits until every informer handler has seen as many.
	events map[string]int64
	// paused holds the watch events back (they queue in order): the
	// informers do not change while a controller syncs.
	paused atomic.Bool

	// Hooks of the whole-cluster differential (diff_test.go),
	// nil elsewhere: nameFor completes a generateName with the name the
	// other implementation gave the same creation, uidFor gives a created
	// object the other implementation's uid (ok false: the harness's own
	// derivation); admitTolerations applies the DefaultTolerationSeconds
	// admission plugin to created pods. Called with mu held.
	nameFor          func(gvr schema.GroupVersionResource, ns string, obj runtime.Object) (string, bool)
	uidFor           func(gvr schema.GroupVersionResource, ns, name string) (types.UID, bool)
	admitTolerations bool
}

// watching reports whether every resource of rs has a watch; once they
// all do, the log of past events is dropped (a watch that starts later
// would miss events: the harness's settle then fails rather than hangs).
func (s *apiServer) watching(rs []schema.GroupVersionResource) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range rs {
		if len(s.watchers[r]) == 0 {
			return false
		}
	}
	s.log = nil
	return true
}

// pause holds every watch event back until resume.
func (s *apiServer) pause() { s.paused.Store(true) }

// resume lets the held events flow to the informers again.
func (s *apiServer) resume() {
	s.paused.Store(false)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ws := range s.watchers {
		for _, w := range ws {
			w.mu.Lock()
			w.cond.Broadcast()
			w.mu.Unlock()
		}
	}
}

func newAPIServer(now func() time.Time) *apiServer {
	return &apiServer{
		inner:    core.NewObjectTracker(clientgoscheme.Scheme, clientgoscheme.Codecs.UniversalDecoder()),
		now:      now,
		same:     map[string]int{},
		incarn:   map[string]int{},
		watchers: map[schema.GroupVersionResource][]*watcher{},
		log:      map[schema.GroupVersionResource][]watch.Event{},
		events:   map[string]int64{},
	}
}

// alphabet is the alphabet of the API server's generated name suffixes
// (k8s.io/apimachinery/pkg/util/rand).
const alphabet = "bcdfghjklmnpqrstvwxz2456789"

func hash(parts ...string) uint64 {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return binary.BigEndian.Uint64(h.Sum(nil))
}

func suffix(x uint64) string {
	b := make([]byte, 5)
	for i := range b {
		b[i] = alphabet[x%uint64(len(alphabet))]
		x /= uint64(len(alphabet))
	}
	return string(b)
}

// react is the clientset's reactor for every verb: the harness installs it
// before the fake clientset's own.
func (s *apiServer) react(a core.Action) (bool, runtime.Object, error) {
	gvr := a.GetResource()
	switch a := a.(type) {
	case core.GetActionImpl:
		obj, err := s.inner.Get(gvr, a.GetNamespace(), a.GetName())
		return true, obj, err
	case core.ListActionImpl:
		s.mu.Lock()
		rv := s.rv
		s.mu.Unlock()
		obj, err := s.inner.List(gvr, a.GetKind(), a.GetNamespace())
		if err == nil {
			if lm, e := meta.ListAccessor(obj); e == nil {
				lm.SetResourceVersion(strconv.FormatInt(rv, 10))
			}
		}
		return true, obj, err
	case core.CreateActionImpl:
		if a.GetSubresource() != "" {
			return true, nil, apierrors.NewBadRequest("apiServer: create of subresource " + a.GetSubresource() + " not modelled")
		}
		obj, err := s.create(gvr, a.GetObject().DeepCopyObject(), a.GetNamespace())
		return true, obj, err
	case core.UpdateActionImpl:
		obj, err := s.update(gvr, a.GetObject().DeepCopyObject(), a.GetNamespace(), a.GetSubresource())
		return true, obj, err
	case core.PatchActionImpl:
		obj, err := s.patch(gvr, a)
		return true, obj, err
	case core.DeleteActionImpl:
		obj, err := s.delete(gvr, a.GetNamespace(), a.GetName(), a.DeleteOptions)
		return true, obj, err
	}
	return true, nil, fmt.Errorf("apiServer: %s %s not modelled", a.GetVerb(), gvr.Resource)
}

func (s *apiServer) nextRV() string {
	s.rv++
	return strconv.FormatInt(s.rv, 10)
}

// create stores obj (a copy the caller owns).
func (s *apiServer) create(gvr schema.GroupVersionResource, obj runtime.Object, ns string) (runtime.Object, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	s.fixTimes(obj)
	legacyscheme.Scheme.Default(obj)
	if m.GetNamespace() == "" {
		m.SetNamespace(ns)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.GetName() == "" {
		if m.GetGenerateName() == "" {
			return nil, apierrors.NewBadRequest("name or generateName is required")
		}
		body, err := json.Marshal(obj)
		if err != nil {
			return nil, err
		}
		key := gvr.Resource + "\x00" + ns + "\x00" + m.GetGenerateName() + "\x00" + string(body)
		n := s.same[key]
		s.same[key] = n + 1
		if s.nameFor != nil {
			if name, ok := s.nameFor(gvr, ns, obj); ok {
				if _, err := s.inner.Get(gvr, ns, name); apierrors.IsNotFound(err) {
					m.SetName(name)
				}
			}
		}
		for try := 0; m.GetName() == ""; try++ {
			name := m.GetGenerateName() + suffix(hash(key, strconv.Itoa(n), strconv.Itoa(try)))
			if _, err := s.inner.Get(gvr, ns, name); apierrors.IsNotFound(err) {
				m.SetName(name)
				break
			}
		}
	}
	ik := gvr.Resource + "/" + ns + "/" + m.GetName()
	if _, err := s.inner.Get(gvr, ns, m.GetName()); err == nil {
		return nil, apierrors.NewAlreadyExists(gvr.GroupResource(), m.GetName())
	}
	inc := s.incarn[ik]
	s.incarn[ik] = inc + 1
	h := hash("uid", ik, strconv.Itoa(inc))
	m.SetUID(types.UID(fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", uint32(h>>32), uint16(h>>16), uint16(h), inc&0xffff, h&0xffffffffffff)))
	if s.uidFor != nil {
		if uid, ok := s.uidFor(gvr, ns, m.GetName()); ok {
			m.SetUID(uid)
		}
	}
	if p, ok := obj.(*v1.Pod); ok && s.admitTolerations {
		defaultTolerations(p)
	}
	m.SetCreationTimestamp(metav1.NewTime(s.now()))
	if hasGeneration(obj) {
		m.SetGeneration(1)
	}
	prepareForCreate(obj)
	m.SetDeletionTimestamp(nil)
	m.SetResourceVersion(s.nextRV())
	if err := s.inner.Create(gvr, obj, ns); err != nil {
		return nil, err
	}
	s.emit(gvr, watch.Added, obj)
	return obj.DeepCopyObject(), nil
}

// field returns obj's struct field name (Spec, Status), invalid if none.
func apiField(obj runtime.Object, name string) reflect.Value {
	return reflect.ValueOf(obj).Elem().FieldByName(name)
}

// store writes next over cur (both of the same kind): the rules of update
// and patch. Called with s.mu held.
func (s *apiServer) store(gvr schema.GroupVersionResource, cur, next runtime.Object, sub string) (runtime.Object, error) {
	cm, _ := meta.Accessor(cur)
	nm, err := meta.Accessor(next)
	if err != nil {
		return nil, err
	}
	if rv := nm.GetResourceVersion(); rv != "" && rv != cm.GetResourceVersion() {
		return nil, apierrors.NewConflict(gvr.GroupResource(), cm.GetName(), fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again"))
	}
	switch sub {
	case "status":
		// the status strategies (pkg/registry/…/strategy.go
		// *StatusStrategy.PrepareForUpdate) keep the stored spec; metadata
		// the request changes is kept (a Deployment's revision annotation
		// is written this way), except a Deployment's labels and a pod's
		// owner references; generation does not change
		if f := apiField(next, "Spec"); f.IsValid() {
			f.Set(apiField(cur, "Spec"))
		}
		switch n := next.(type) {
		case *apps.Deployment:
			n.Labels = cur.(*apps.Deployment).Labels
		case *v1.Pod:
			n.OwnerReferences = cur.(*v1.Pod).OwnerReferences
			if n.Status.QOSClass == "" {
				n.Status.QOSClass = cur.(*v1.Pod).Status.QOSClass
			}
		}
		nm.SetGeneration(cm.GetGeneration())
	case "binding":
		// pods/binding: only spec.nodeName is set (the scheduler's bind)
		cp, ok := cur.(*v1.Pod)
		np, ok2 := next.(*v1.Pod)
		if !ok || !ok2 {
			return nil, apierrors.NewBadRequest("binding is a pod subresource")
		}
		if cp.Spec.NodeName != "" {
			return nil, apierrors.NewConflict(gvr.GroupResource(), cp.Name, fmt.Errorf("pod %s is already assigned to node %q", cp.Name, cp.Spec.NodeName))
		}
		out := cp.DeepCopy()
		out.Spec.NodeName = np.Spec.NodeName
		// the binding storage also sets PodScheduled=True
		// (setPodNodeAndMetadata, pkg/registry/core/pod/storage: podutil.
		// UpdatePodCondition stamps a new or changed condition with now)
		cond := v1.PodCondition{Type: v1.PodScheduled, Status: v1.ConditionTrue, LastTransitionTime: metav1.NewTime(s.now().Truncate(time.Second))}
		found := false
		for i := range out.Status.Conditions {
			if c := &out.Status.Conditions[i]; c.Type == v1.PodScheduled {
				found = true
				if c.Status != v1.ConditionTrue || c.Reason != "" || c.Message != "" {
					*c = cond
				}
			}
		}
		if !found {
			out.Status.Conditions = append(out.Status.Conditions, cond)
		}
		next = out
		nm, _ = meta.Accessor(next)
	case "":
		if f := apiField(next, "Status"); f.IsValid() {
			f.Set(apiField(cur, "Status"))
		}
		gen := cm.GetGeneration()
		// (the strategies compare semantically: a nil and an empty list
		// are equal, as after a patch's JSON round trip)
		if f := apiField(next, "Spec"); f.IsValid() && hasGeneration(next) && !apiequality.Semantic.DeepEqual(f.Interface(), apiField(cur, "Spec").Interface()) {
			gen++
		}
		nm.SetGeneration(gen)
	default:
		return nil, apierrors.NewBadRequest("apiServer: subresource " + sub + " not modelled")
	}
	nm.SetUID(cm.GetUID())
	nm.SetNamespace(cm.GetNamespace())
	nm.SetName(cm.GetName())
	nm.SetCreationTimestamp(cm.GetCreationTimestamp())
	nm.SetDeletionTimestamp(cm.GetDeletionTimestamp())
	nm.SetDeletionGracePeriodSeconds(cm.GetDeletionGracePeriodSeconds())
	if cm.GetDeletionTimestamp() != nil && len(nm.GetFinalizers()) == 0 && !gracefullyTerminating(cur) {
		return next, s.remove(gvr, cm.GetNamespace(), cm.GetName(), cur)
	}
	// the API server writes nothing (and sends no event) for a no-op: the
	// encodings compared, the request's resourceVersion (none: an
	// unconditional update) aside
	nm.SetResourceVersion(cm.GetResourceVersion())
	if a, b := toJSON(cur), toJSON(next); a != "" && a == b {
		return cur.DeepCopyObject(), nil
	}
	nm.SetResourceVersion(s.nextRV())
	if err := s.inner.Update(gvr, next, cm.GetNamespace()); err != nil {
		return nil, err
	}
	s.emit(gvr, watch.Modified, next)
	return next.DeepCopyObject(), nil
}

// toJSON is obj's JSON encoding ("" if it has none).
func toJSON(obj runtime.Object) string {
	b, err := json.Marshal(obj)
	if err != nil {
		return ""
	}
	return string(b)
}

// gracefullyTerminating: a pod in its grace period stays until the
// kubelet (the environment) deletes it with grace 0, finalizers or not.
func gracefullyTerminating(obj runtime.Object) bool {
	p, ok := obj.(*v1.Pod)
	return ok && p.DeletionTimestamp != nil && p.DeletionGracePeriodSeconds != nil && *p.DeletionGracePeriodSeconds > 0
}

func (s *apiServer) update(gvr schema.GroupVersionResource, obj runtime.Object, ns, sub string) (runtime.Object, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	s.fixTimes(obj)
	legacyscheme.Scheme.Default(obj)
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, err := s.inner.Get(gvr, ns, m.GetName())
	if err != nil {
		return nil, err
	}
	return s.store(gvr, cur, obj, sub)
}

func (s *apiServer) patch(gvr schema.GroupVersionResource, a core.PatchActionImpl) (runtime.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, err := s.inner.Get(gvr, a.GetNamespace(), a.GetName())
	if err != nil {
		return nil, err
	}
	old, err := json.Marshal(cur)
	if err != nil {
		return nil, err
	}
	var patched []byte
	switch a.GetPatchType() {
	case types.JSONPatchType:
		p, err := jsonpatch.DecodePatch(a.GetPatch())
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		patched, err = p.Apply(old)
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
	case types.MergePatchType:
		patched, err = jsonpatch.MergePatch(old, a.GetPatch())
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
	case types.StrategicMergePatchType:
		patched, err = strategicpatch.StrategicMergePatch(old, a.GetPatch(), cur)
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
	default:
		return nil, apierrors.NewBadRequest("apiServer: patch type " + string(a.GetPatchType()) + " not modelled")
	}
	next := reflect.New(reflect.TypeOf(cur).Elem()).Interface().(runtime.Object)
	if err := json.Unmarshal(patched, next); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	// a patch carries no resourceVersion precondition unless it sets one
	cm, _ := meta.Accessor(cur)
	nm, _ := meta.Accessor(next)
	if nm.GetResourceVersion() == "" {
		nm.SetResourceVersion(cm.GetResourceVersion())
	}
	s.fixTimes(next)
	legacyscheme.Scheme.Default(next)
	return s.store(gvr, cur, next, a.GetSubresource())
}

func (s *apiServer) delete(gvr schema.GroupVersionResource, ns, name string, opts metav1.DeleteOptions) (runtime.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, err := s.inner.Get(gvr, ns, name)
	if err != nil {
		return nil, err
	}
	cm, _ := meta.Accessor(cur)
	// propagation: the request's policy, else the resource's default
	// (DefaultGarbageCollectionPolicy: OrphanDependents for batch/v1
	// Jobs, registry/batch/job/strategy.go; background for the other
	// modelled kinds); only background is modelled (the dependents are
	// then the garbage collector's, world.CollectGarbage)
	policy := metav1.DeletePropagationBackground
	if _, job := cur.(*batch.Job); job {
		policy = metav1.DeletePropagationOrphan
	}
	if opts.PropagationPolicy != nil {
		policy = *opts.PropagationPolicy
	} else if opts.OrphanDependents != nil {
		policy = metav1.DeletePropagationBackground
		if *opts.OrphanDependents {
			policy = metav1.DeletePropagationOrphan
		}
	}
	_, isPod := cur.(*v1.Pod)
	if policy != metav1.DeletePropagationBackground && (policy != metav1.DeletePropagationOrphan || isPod) {
		return nil, apierrors.NewBadRequest("apiServer: propagationPolicy " + string(policy) + " not modelled")
	}
	if p := opts.Preconditions; p != nil {
		if p.UID != nil && *p.UID != cm.GetUID() {
			return nil, apierrors.NewConflict(gvr.GroupResource(), name, fmt.Errorf("Precondition failed: UID in precondition: %v, UID in object meta: %v", *p.UID, cm.GetUID()))
		}
		if p.ResourceVersion != nil && *p.ResourceVersion != cm.GetResourceVersion() {
			return nil, apierrors.NewConflict(gvr.GroupResource(), name, fmt.Errorf("Precondition failed: ResourceVersion in precondition: %v, ResourceVersion in object meta: %v", *p.ResourceVersion, cm.GetResourceVersion()))
		}
	}
	if policy == metav1.DeletePropagationOrphan {
		// the orphan finalizer (deletionFinalizersForGarbageCollection),
		// then the object marked as deleting (markAsDeleting: now, grace
		// 0, generation bumped the first time); it stays until the
		// garbage collector has orphaned its dependents
		// (world.CollectGarbage)
		if cm.GetDeletionTimestamp() != nil && slices.Contains(cm.GetFinalizers(), metav1.FinalizerOrphanDependents) {
			return cur, nil
		}
		next := cur.DeepCopyObject()
		nm, _ := meta.Accessor(next)
		if !slices.Contains(nm.GetFinalizers(), metav1.FinalizerOrphanDependents) {
			nm.SetFinalizers(append(nm.GetFinalizers(), metav1.FinalizerOrphanDependents))
		}
		if nm.GetDeletionTimestamp() == nil {
			dt := metav1.NewTime(s.now())
			zero := int64(0)
			nm.SetDeletionTimestamp(&dt)
			nm.SetDeletionGracePeriodSeconds(&zero)
			if g := nm.GetGeneration(); g > 0 {
				nm.SetGeneration(g + 1)
			}
		}
		nm.SetResourceVersion(s.nextRV())
		if err := s.inner.Update(gvr, next, ns); err != nil {
			return nil, err
		}
		s.emit(gvr, watch.Modified, next)
		return next.DeepCopyObject(), nil
	}
	var grace int64
	if pod, ok := cur.(*v1.Pod); ok {
		grace = 30
		if pod.Spec.TerminationGracePeriodSeconds != nil {
			grace = *pod.Spec.TerminationGracePeriodSeconds
		}
		if opts.GracePeriodSeconds != nil {
			grace = *opts.GracePeriodSeconds
		}
		if pod.Spec.NodeName == "" || pod.Status.Phase == v1.PodSucceeded || pod.Status.Phase == v1.PodFailed {
			grace = 0
		}
		if pod.DeletionGracePeriodSeconds != nil && *pod.DeletionGracePeriodSeconds < grace {
			grace = *pod.DeletionGracePeriodSeconds // a grace period only shortens
		}
	}
	if grace > 0 || len(cm.GetFinalizers()) > 0 {
		next := cur.DeepCopyObject()
		nm, _ := meta.Accessor(next)
		if cm.GetDeletionTimestamp() == nil || grace > 0 && (cm.GetDeletionGracePeriodSeconds() == nil || grace < *cm.GetDeletionGracePeriodSeconds()) {
			dt := metav1.NewTime(s.now().Add(time.Duration(grace) * time.Second))
			nm.SetDeletionTimestamp(&dt)
			nm.SetDeletionGracePeriodSeconds(&grace)
		} else if grace == 0 && cm.GetDeletionGracePeriodSeconds() != nil && *cm.GetDeletionGracePeriodSeconds() > 0 {
			zero := int64(0)
			nm.SetDeletionGracePeriodSeconds(&zero)
			if len(cm.GetFinalizers()) == 0 {
				return nil, s.remove(gvr, ns, name, cur)
			}
		} else {
			return cur, nil // already deleting: nothing changes
		}
		nm.SetResourceVersion(s.nextRV())
		if err := s.inner.Update(gvr, next, ns); err != nil {
			return nil, err
		}
		s.emit(gvr, watch.Modified, next)
		return next.DeepCopyObject(), nil
	}
	return nil, s.remove(gvr, ns, name, cur)
}

// remove deletes the stored object; called with s.mu held.
func (s *apiServer) remove(gvr schema.GroupVersionResource, ns, name string, last runtime.Object) error {
	if err := s.inner.Delete(gvr, ns, name); err != nil {
		return err
	}
	last = last.DeepCopyObject()
	m, _ := meta.Accessor(last)
	m.SetResourceVersion(s.nextRV())
	s.emit(gvr, watch.Deleted, last)
	return nil
}

// watcher is one watch: an unbounded, ordered buffer between the API
// server and the reflector.
type watcher struct {
	mu      sync.Mutex
	cond    *sync.Cond
	buf     []watch.Event
	stopped bool
	out     chan watch.Event
}

func (s *apiServer) watch(gvr schema.GroupVersionResource, fromRV string) watch.Interface {
	w := &watcher{out: make(chan watch.Event)}
	w.cond = sync.NewCond(&w.mu)
	from, _ := strconv.ParseInt(fromRV, 10, 64)
	s.mu.Lock()
	// the events after the list the reflector started from: a write
	// between its list and its watch is not lost
	for _, e := range s.log[gvr] {
		m, _ := meta.Accessor(e.Object)
		if rv, _ := strconv.ParseInt(m.GetResourceVersion(), 10, 64); rv > from {
			w.buf = append(w.buf, watch.Event{Type: e.Type, Object: e.Object.DeepCopyObject()})
		}
	}
	s.watchers[gvr] = append(s.watchers[gvr], w)
	s.mu.Unlock()
	go func() {
		for {
			w.mu.Lock()
			for (len(w.buf) == 0 || s.paused.Load()) && !w.stopped {
				w.cond.Wait()
			}
			if w.stopped {
				w.mu.Unlock()
				close(w.out)
				return
			}
			e := w.buf[0]
			w.buf = w.buf[1:]
			w.mu.Unlock()
			w.out <- e
		}
	}()
	return w
}

func (w *watcher) Stop() {
	w.mu.Lock()
	w.stopped = true
	w.cond.Broadcast()
	w.mu.Unlock()
	// drain so that the forwarding goroutine can exit
	go func() {
		for range w.out {
		}
	}()
}

func (w *watcher) ResultChan() <-chan watch.Event { return w.out }

// emit sends an event to every watcher of gvr; called with s.mu held.
func (s *apiServer) emit(gvr schema.GroupVersionResource, typ watch.EventType, obj runtime.Object) {
	s.events[gvr.Resource]++
	if s.log != nil {
		s.log[gvr] = append(s.log[gvr], watch.Event{Type: typ, Object: obj.DeepCopyObject()})
	}
	for _, w := range s.watchers[gvr] {
		w.mu.Lock()
		if !w.stopped {
			w.buf = append(w.buf, watch.Event{Type: typ, Object: obj.DeepCopyObject()})
			w.cond.Signal()
		}
		w.mu.Unlock()
	}
}

// eventCounts returns how many watch events each resource has had.
func (s *apiServer) eventCounts() map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int64, len(s.events))
	for k, v := range s.events {
		out[k] = v
	}
	return out
}

// list returns the stored objects of gvr in (namespace, name) order.
func (s *apiServer) list(gvr schema.GroupVersionResource, gvk schema.GroupVersionKind) []runtime.Object {
	obj, err := s.inner.List(gvr, gvk, "")
	if err != nil {
		panic(err)
	}
	items, err := meta.ExtractList(obj)
	if err != nil {
		panic(err)
	}
	sort.Slice(items, func(i, j int) bool {
		a, _ := meta.Accessor(items[i])
		b, _ := meta.Accessor(items[j])
		if a.GetNamespace() != b.GetNamespace() {
			return a.GetNamespace() < b.GetNamespace()
		}
		return a.GetName() < b.GetName()
	})
	return items
}

var timeType = reflect.TypeOf(metav1.Time{})

// fixTimes applies fixTime to every metav1.Time in obj (except the
// metadata the server sets itself, which it overwrites anyway).
func (s *apiServer) fixTimes(obj runtime.Object) {
	if s.fixTime == nil {
		return
	}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			if v.Type() == timeType {
				if t, ok := s.fixTime(v.Interface().(metav1.Time)); ok && v.CanSet() {
					v.Set(reflect.ValueOf(t))
				}
				return
			}
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		case reflect.Map:
			// (a PodDisruptionBudget's status.disruptedPods: the eviction
			// subresource stamps it with time.Now())
			if v.Type().Elem() == timeType {
				for _, k := range v.MapKeys() {
					if t, ok := s.fixTime(v.MapIndex(k).Interface().(metav1.Time)); ok {
						v.SetMapIndex(k, reflect.ValueOf(t))
					}
				}
			}
		}
	}
	walk(reflect.ValueOf(obj))
}

// prepareForCreate is what the API server's strategies do to a new
// object that the controllers can observe (pkg/registry/…/strategy.go
// PrepareForCreate): a pod's status is reset to Pending with its QoS
// class; a workload's status is cleared (a Node keeps the status it is
// created with, as the node strategy does); a Job without
// manualSelector gets the generated selector and template labels
// (registry/batch/job generateSelector, with its legacy labels job-name
// and controller-uid).
func prepareForCreate(obj runtime.Object) {
	switch o := obj.(type) {
	case *v1.Pod:
		o.Status = v1.PodStatus{Phase: v1.PodPending, QOSClass: qos.GetPodQOS(o)}
	case *v1.Node:
	case *batch.Job:
		o.Status = batch.JobStatus{}
		if o.Spec.ManualSelector == nil || !*o.Spec.ManualSelector {
			if o.Spec.Template.Labels == nil {
				o.Spec.Template.Labels = map[string]string{}
			}
			for _, k := range []string{"job-name", batch.JobNameLabel} {
				if _, ok := o.Spec.Template.Labels[k]; !ok {
					o.Spec.Template.Labels[k] = o.Name
				}
			}
			for _, k := range []string{"controller-uid", batch.ControllerUidLabel} {
				if _, ok := o.Spec.Template.Labels[k]; !ok {
					o.Spec.Template.Labels[k] = string(o.UID)
				}
			}
			if o.Spec.Selector == nil {
				o.Spec.Selector = &metav1.LabelSelector{}
			}
			if o.Spec.Selector.MatchLabels == nil {
				o.Spec.Selector.MatchLabels = map[string]string{}
			}
			if _, ok := o.Spec.Selector.MatchLabels[batch.ControllerUidLabel]; !ok {
				o.Spec.Selector.MatchLabels[batch.ControllerUidLabel] = string(o.UID)
			}
		}
	default:
		if f := apiField(obj, "Status"); f.IsValid() {
			f.Set(reflect.Zero(f.Type()))
		}
	}
}

// defaultTolerations is what the DefaultTolerationSeconds admission
// plugin (plugin/pkg/admission/defaulttolerationseconds, on by default)
// adds to a pod on create: NoExecute tolerations of the not-ready and
// unreachable taints for 300 s, each unless a toleration has that key (or
// no key) and effect NoExecute (or no effect). (The plugin also runs on
// updates of the pod itself; the harness applies it on create only.)
func defaultTolerations(p *v1.Pod) {
	for _, key := range []string{v1.TaintNodeNotReady, v1.TaintNodeUnreachable} {
		has := false
		for _, t := range p.Spec.Tolerations {
			if (t.Key == key || t.Key == "") && (t.Effect == "" || t.Effect == v1.TaintEffectNoExecute) {
				has = true
			}
		}
		if !has {
			p.Spec.Tolerations = append(p.Spec.Tolerations, v1.Toleration{Key: key, Operator: v1.TolerationOpExists,
				Effect: v1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))})
		}
	}
}

// hasGeneration: the registry strategies of nodes, leases, claims and
// controller revisions keep no metadata.generation (it stays 0); those of
// the workloads, budgets and pods set 1 on create and bump it on a spec
// change.
func hasGeneration(obj runtime.Object) bool {
	switch obj.(type) {
	case *v1.Node, *coordv1.Lease, *v1.PersistentVolumeClaim, *apps.ControllerRevision:
		return false
	}
	return true
}
