package cluster

import (
	"cmp"
	"slices"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// Kind names a modelled kind of object.
type Kind string

// The modelled kinds.
const (
	KindDeployment            Kind = "Deployment"
	KindReplicaSet            Kind = "ReplicaSet"
	KindReplicationController Kind = "ReplicationController"
	KindStatefulSet           Kind = "StatefulSet"
	KindDaemonSet             Kind = "DaemonSet"
	KindJob                   Kind = "Job"
	KindCronJob               Kind = "CronJob"
	KindPodDisruptionBudget   Kind = "PodDisruptionBudget"
	KindPod                   Kind = "Pod"
	KindNode                  Kind = "Node"
	KindLease                 Kind = "Lease"
	KindControllerRevision    Kind = "ControllerRevision"
	KindPersistentVolumeClaim Kind = "PersistentVolumeClaim"
)

// kinds lists every kind, in the order State.Objects lists them.
var kinds = [...]Kind{
	KindNode, KindLease, KindDeployment, KindReplicaSet, KindReplicationController,
	KindStatefulSet, KindDaemonSet, KindJob, KindCronJob, KindPodDisruptionBudget,
	KindControllerRevision, KindPersistentVolumeClaim, KindPod,
}

// kindInfo is what the API server knows of a kind: its resource name, its
// API group version, whether its objects carry metadata.generation, and
// whether it has a status subresource.
type kindInfo struct {
	resource   string
	apiVersion string
	namespaced bool
	generation bool
	status     bool
}

var kindInfos = map[Kind]kindInfo{
	KindDeployment:            {"deployments", "apps/v1", true, true, true},
	KindReplicaSet:            {"replicasets", "apps/v1", true, true, true},
	KindReplicationController: {"replicationcontrollers", "v1", true, true, true},
	KindStatefulSet:           {"statefulsets", "apps/v1", true, true, true},
	KindDaemonSet:             {"daemonsets", "apps/v1", true, true, true},
	KindJob:                   {"jobs", "batch/v1", true, true, true},
	KindCronJob:               {"cronjobs", "batch/v1", true, true, true},
	KindPodDisruptionBudget:   {"poddisruptionbudgets", "policy/v1", true, true, true},
	KindPod:                   {"pods", "v1", true, true, true},
	KindNode:                  {"nodes", "v1", false, false, true},
	KindLease:                 {"leases", "coordination.k8s.io/v1", true, false, false},
	KindControllerRevision:    {"controllerrevisions", "apps/v1", true, false, false},
	KindPersistentVolumeClaim: {"persistentvolumeclaims", "v1", true, false, true},
}

var resourceKinds = func() map[string]Kind {
	m := make(map[string]Kind, len(kindInfos))
	for k, i := range kindInfos {
		m[i.resource] = k
	}
	return m
}()

// KindOfResource returns the kind of an API resource name ("pods" → Pod);
// ok is false for a resource the world does not model.
func KindOfResource(resource string) (Kind, bool) {
	k, ok := resourceKinds[resource]
	return k, ok
}

// Resource returns the API resource name of the kind ("Pod" → "pods"),
// "" for a kind the world does not model.
func (k Kind) Resource() string { return kindInfos[k].resource }

// Key names one object: its kind, namespace ("" for nodes) and name.
type Key struct {
	Kind      Kind   `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// String is kind/namespace/name (kind/name for a cluster-scoped object).
func (k Key) String() string {
	if k.Kind == "" {
		return ""
	}
	if k.Namespace == "" {
		return string(k.Kind) + "/" + k.Name
	}
	return string(k.Kind) + "/" + k.Namespace + "/" + k.Name
}

func compareKeys(a, b Key) int {
	if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Namespace, b.Namespace); c != 0 {
		return c
	}
	return cmp.Compare(a.Name, b.Name)
}

// name is an object's namespace and name within its kind.
type name struct{ ns, name string }

func compareNames(a, b name) int {
	if c := cmp.Compare(a.ns, b.ns); c != 0 {
		return c
	}
	return cmp.Compare(a.name, b.name)
}

type set = map[Key]struct{}

// State is the cluster as the API server stores it: every object of every
// modelled kind, once, with indexes by namespace and name, by UID, by owner
// UID (the dependents of an object) and, for pods, by spec.nodeName.
//
// Objects are pointers that are never modified once stored: every write
// stores a new object (copy-on-write), so a pointer read from a State stays
// valid and unchanged forever, and [State.Clone] copies only the maps. A
// State is not safe for concurrent use (its lists cache their order);
// distinct Clones are independent.
//
// The zero State is not usable; use [NewState].
type State struct {
	objs map[Kind]map[name]any
	// uid maps a UID to its object's key.
	uid map[string]Key
	// owned maps an owner UID to the objects that list it in
	// metadata.ownerReferences (controller or not).
	owned map[string]set
	// ctl maps a controller UID and a kind to the objects of that kind
	// whose controller reference names the UID, in (namespace, name)
	// order. Each list is replaced, never modified, on a change, so Clone
	// shares the lists.
	ctl map[ctlIdx][]any
	// tkeys keeps templateKey of the template of stored objects
	// (revisions, StatefulSets, DaemonSets), by object, until the object
	// is replaced or removed.
	tkeys map[any][]byte
	// onNode maps a node name to the pods bound to it; "" holds the
	// unscheduled pods.
	onNode map[string]map[name]struct{}
	// orphans holds, per namespace, the pods without a controller
	// reference (the ones a ReplicaSet may adopt).
	orphans map[string]map[name]struct{}
	// versions counts the writes to each kind, so that a controller can
	// tell whether anything it reads changed.
	versions map[Kind]uint64
	// stamps holds, per object, the value of writes at its last write
	// (an object's version, as a resourceVersion would be).
	stamps map[Key]uint64
	writes uint64
	// sorted caches each kind's names in order, per version.
	sorted map[Kind]sortedNamesCache
	// Counter is the API server's sequence: each assigned UID and generated
	// name takes the next value.
	Counter uint64
	// objsOwn has bit kindBit(k) set when objs[k] belongs to this State
	// alone; Clone shares the kinds' maps (clearing the bits of both
	// States) and a write copies its kind's map first (objsFor).
	objsOwn uint32
}

// kindBit is the bit of kind k in State.objsOwn.
func kindBit(k Kind) uint32 {
	for i, x := range kinds {
		if x == k {
			return 1 << i
		}
	}
	return 0
}

// objsFor returns the map of kind k's objects, for writing: copied first
// when it is shared with a clone.
func (s *State) objsFor(k Kind) map[name]any {
	b := kindBit(k)
	if s.objsOwn&b == 0 {
		s.objs[k] = cloneMap(s.objs[k])
		s.objsOwn |= b
	}
	return s.objs[k]
}

// NewState returns an empty State.
func NewState() *State {
	s := &State{
		objs:     make(map[Kind]map[name]any, len(kinds)),
		uid:      map[string]Key{},
		owned:    map[string]set{},
		ctl:      map[ctlIdx][]any{},
		tkeys:    map[any][]byte{},
		onNode:   map[string]map[name]struct{}{},
		orphans:  map[string]map[name]struct{}{},
		versions: map[Kind]uint64{},
		stamps:   map[Key]uint64{},
	}
	for _, k := range kinds {
		s.objs[k] = map[name]any{}
		s.objsOwn |= kindBit(k)
	}
	return s
}

// Clone returns an independent State with the same objects: writes to
// either never show in the other. The objects themselves are shared, as
// they are never modified, and so are the maps of each kind's objects
// until either State writes the kind (see objsFor).
func (s *State) Clone() *State {
	c := &State{
		objs:     cloneMap(s.objs),
		uid:      cloneMap(s.uid),
		owned:    make(map[string]set, len(s.owned)),
		ctl:      cloneMap(s.ctl),
		tkeys:    cloneMap(s.tkeys),
		onNode:   make(map[string]map[name]struct{}, len(s.onNode)),
		orphans:  make(map[string]map[name]struct{}, len(s.orphans)),
		versions: cloneMap(s.versions),
		stamps:   cloneMap(s.stamps),
		writes:   s.writes,
		sorted:   cloneMap(s.sorted),
		Counter:  s.Counter,
	}
	s.objsOwn = 0
	for k, m := range s.owned {
		c.owned[k] = cloneMap(m)
	}
	for k, m := range s.onNode {
		c.onNode[k] = cloneMap(m)
	}
	for k, m := range s.orphans {
		c.orphans[k] = cloneMap(m)
	}
	return c
}

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	c := make(map[K]V, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// Len returns the number of objects stored.
func (s *State) Len() int {
	n := 0
	for _, m := range s.objs {
		n += len(m)
	}
	return n
}

// Get returns the object named by k (a pointer to the kind's model:
// *podstatus.Pod, *node.Node, node.Lease as *node.Lease …), or nil.
func (s *State) Get(k Key) any {
	m := s.objs[k.Kind]
	if m == nil {
		return nil
	}
	return m[name{k.Namespace, k.Name}]
}

// ByUID returns the key of the object with the UID; ok is false when none.
func (s *State) ByUID(uid string) (Key, bool) {
	k, ok := s.uid[uid]
	return k, ok
}

// Keys returns the keys of every object of kind k, by namespace and name.
func (s *State) Keys(k Kind) []Key {
	names := s.sortedKind(k)
	out := make([]Key, len(names))
	for i, n := range names {
		out[i] = Key{k, n.ns, n.name}
	}
	return out
}

// Objects returns every object, kind by kind (nodes, leases, workloads,
// revisions, claims, then pods), each kind by namespace and name.
func (s *State) Objects() []any {
	var out []any
	for _, k := range kinds {
		out = append(out, list[any](s, k)...)
	}
	return out
}

// Dependents returns the keys of the objects whose owner references name
// uid (controller or not), by kind, namespace and name.
func (s *State) Dependents(uid string) []Key {
	out := make([]Key, 0, len(s.owned[uid]))
	for k := range s.owned[uid] {
		out = append(out, k)
	}
	slices.SortFunc(out, compareKeys)
	return out
}

// sortedKind returns the names of kind k's objects in order, sorted once
// per version of the kind (the slice is shared: never modify it).
func (s *State) sortedKind(k Kind) []name {
	if c, ok := s.sorted[k]; ok && c.version == s.versions[k] {
		return c.names
	}
	m := s.objs[k]
	names := make([]name, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.SortFunc(names, compareNames)
	if s.sorted == nil {
		s.sorted = map[Kind]sortedNamesCache{}
	}
	s.sorted[k] = sortedNamesCache{version: s.versions[k], names: names}
	return names
}

type sortedNamesCache struct {
	version uint64
	names   []name
	// objs are the objects at names, built by the first list of this
	// version (nil until then)
	objs []any
}

// list returns the objects of kind k sorted by namespace and name.
func list[T any](s *State, k Kind) []T {
	objs := s.sortedObjs(k)
	out := make([]T, len(objs))
	for i, o := range objs {
		out[i] = o.(T)
	}
	return out
}

// sortedObjs returns the objects of kind k in order, listed once per
// version of the kind (the slice is shared: never modify it).
func (s *State) sortedObjs(k Kind) []any {
	names := s.sortedKind(k)
	c := s.sorted[k]
	if c.objs == nil || len(c.objs) != len(names) {
		m := s.objs[k]
		c.objs = make([]any, len(names))
		for i, n := range names {
			c.objs[i] = m[n]
		}
		s.sorted[k] = c
	}
	return c.objs
}

// sortedNames lists a name set in order.
func sortedNames(m map[name]struct{}) []name {
	out := make([]name, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	slices.SortFunc(out, compareNames)
	return out
}

// Pods returns every pod, by namespace and name.
func (s *State) Pods() []*podstatus.Pod { return list[*podstatus.Pod](s, KindPod) }

// Nodes returns every node, by name.
func (s *State) Nodes() []*node.Node { return list[*node.Node](s, KindNode) }

// Leases returns every lease, by namespace and name.
func (s *State) Leases() []*node.Lease { return list[*node.Lease](s, KindLease) }

// Deployments returns every Deployment, by namespace and name.
func (s *State) Deployments() []*rollout.Deployment {
	return list[*rollout.Deployment](s, KindDeployment)
}

// ReplicaSets returns every ReplicaSet, by namespace and name.
func (s *State) ReplicaSets() []*replicaset.ReplicaSet {
	return list[*replicaset.ReplicaSet](s, KindReplicaSet)
}

// ReplicationControllers returns every ReplicationController (as the
// replicaset package models them, Kind "ReplicationController").
func (s *State) ReplicationControllers() []*replicaset.ReplicaSet {
	return list[*replicaset.ReplicaSet](s, KindReplicationController)
}

// StatefulSets returns every StatefulSet, by namespace and name.
func (s *State) StatefulSets() []*statefulset.StatefulSet {
	return list[*statefulset.StatefulSet](s, KindStatefulSet)
}

// DaemonSets returns every DaemonSet, by namespace and name.
func (s *State) DaemonSets() []*daemonset.DaemonSet {
	return list[*daemonset.DaemonSet](s, KindDaemonSet)
}

// Jobs returns every Job, by namespace and name.
func (s *State) Jobs() []*job.Job { return list[*job.Job](s, KindJob) }

// CronJobs returns every CronJob, by namespace and name.
func (s *State) CronJobs() []*cronjob.CronJob { return list[*cronjob.CronJob](s, KindCronJob) }

// PDBs returns every PodDisruptionBudget, by namespace and name.
func (s *State) PDBs() []*pdb.PodDisruptionBudget {
	return list[*pdb.PodDisruptionBudget](s, KindPodDisruptionBudget)
}

// ControllerRevisions returns every ControllerRevision, by namespace and
// name.
func (s *State) ControllerRevisions() []*history.ControllerRevision {
	return list[*history.ControllerRevision](s, KindControllerRevision)
}

// Claims returns every PersistentVolumeClaim, by namespace and name.
func (s *State) Claims() []*statefulset.Claim {
	return list[*statefulset.Claim](s, KindPersistentVolumeClaim)
}

// Pod returns the pod ns/n, or nil.
func (s *State) Pod(ns, n string) *podstatus.Pod {
	p, _ := s.objs[KindPod][name{ns, n}].(*podstatus.Pod)
	return p
}

// Node returns the node n, or nil.
func (s *State) Node(n string) *node.Node {
	p, _ := s.objs[KindNode][name{"", n}].(*node.Node)
	return p
}

// PodsOnNode returns the pods whose spec.nodeName is nodeName, by
// namespace and name; nodeName "" gives the unscheduled pods.
func (s *State) PodsOnNode(nodeName string) []*podstatus.Pod {
	ns := sortedNames(s.onNode[nodeName])
	out := make([]*podstatus.Pod, len(ns))
	for i, n := range ns {
		out[i] = s.objs[KindPod][n].(*podstatus.Pod)
	}
	return out
}

// orphanPods returns the pods of namespace ns without a controller
// reference, by name.
func (s *State) orphanPods(ns string) []*podstatus.Pod {
	names := sortedNames(s.orphans[ns])
	out := make([]*podstatus.Pod, len(names))
	for i, n := range names {
		out[i] = s.objs[KindPod][n].(*podstatus.Pod)
	}
	return out
}

// controlled returns the objects of kind k whose controller reference
// names uid, by namespace and name.
func controlled[T any](s *State, k Kind, uid string) []T {
	objs := s.ctl[ctlIdx{uid, k}]
	out := make([]T, len(objs))
	for i, o := range objs {
		out[i] = o.(T)
	}
	return out
}

// ctlIdx names one list of the controller index: the objects of a kind
// controlled by a UID.
type ctlIdx struct {
	uid  string
	kind Kind
}

// ctlFind returns the position of the object named n in a list of the
// controller index, and whether it is there.
func ctlFind(objs []any, n name) (int, bool) {
	return slices.BinarySearchFunc(objs, n, func(o any, n name) int {
		m := metaOf(o)
		return compareNames(name{m.Namespace, m.Name}, n)
	})
}

// ctlPut stores obj at n in the list ck of the controller index, in a new
// slice (the lists are shared with clones and never modified).
func (s *State) ctlPut(ck ctlIdx, n name, obj any) {
	objs := s.ctl[ck]
	i, found := ctlFind(objs, n)
	var out []any
	if found {
		out = slices.Clone(objs)
		out[i] = obj
	} else {
		out = make([]any, 0, len(objs)+1)
		out = append(append(append(out, objs[:i]...), obj), objs[i:]...)
	}
	s.ctl[ck] = out
}

// ctlDel removes the object at n from the list ck of the controller index,
// in a new slice.
func (s *State) ctlDel(ck ctlIdx, n name) {
	objs := s.ctl[ck]
	i, found := ctlFind(objs, n)
	if !found {
		return
	}
	if len(objs) == 1 {
		delete(s.ctl, ck)
		return
	}
	out := make([]any, 0, len(objs)-1)
	s.ctl[ck] = append(append(out, objs[:i]...), objs[i+1:]...)
}

// put stores obj (of kind k) under its namespace and name, replacing the
// object there and updating the indexes. obj must not be modified later.
func (s *State) put(k Kind, obj any) {
	m := metaOf(obj)
	n := name{m.Namespace, m.Name}
	ref := m.ControllerRef()
	if old, ok := s.objs[k][n]; ok {
		// (the same controller: ctlPut below replaces it in place)
		oref := metaOf(old).ControllerRef()
		s.unindex(k, n, old, ref != nil && oref != nil && oref.UID == ref.UID)
	}
	if ref != nil {
		s.ctlPut(ctlIdx{ref.UID, k}, n, obj)
	}
	s.objsFor(k)[n] = obj
	s.versions[k]++
	key := Key{k, n.ns, n.name}
	s.writes++
	s.stamps[key] = s.writes
	if m.UID != "" {
		s.uid[m.UID] = key
	}
	for _, r := range m.OwnerReferences {
		d := s.owned[r.UID]
		if d == nil {
			d = set{}
			s.owned[r.UID] = d
		}
		d[key] = struct{}{}
	}
	if p, ok := obj.(*podstatus.Pod); ok {
		addName(s.onNode, p.Spec.NodeName, n)
		if p.ControllerRef() == nil {
			addName(s.orphans, n.ns, n)
		}
	}
}

// remove deletes the object of kind k at n and its index entries.
func (s *State) remove(k Kind, n name) {
	old, ok := s.objs[k][n]
	if !ok {
		return
	}
	s.unindex(k, n, old, false)
	delete(s.objsFor(k), n)
	delete(s.stamps, Key{k, n.ns, n.name})
	s.versions[k]++
}

// stamp is the object's version: it changes with every write of the
// object (0: no such object).
func (s *State) stamp(k Key) uint64 { return s.stamps[k] }

// unindex removes the index entries of old, stored at n; keepCtl leaves
// its entry in the controller index (to be replaced).
func (s *State) unindex(k Kind, n name, old any, keepCtl bool) {
	m := metaOf(old)
	key := Key{k, n.ns, n.name}
	delete(s.tkeys, old)
	if ref := m.ControllerRef(); ref != nil && !keepCtl {
		s.ctlDel(ctlIdx{ref.UID, k}, n)
	}
	if m.UID != "" && s.uid[m.UID] == key {
		delete(s.uid, m.UID)
	}
	for _, r := range m.OwnerReferences {
		if d := s.owned[r.UID]; d != nil {
			delete(d, key)
			if len(d) == 0 {
				delete(s.owned, r.UID)
			}
		}
	}
	if p, ok := old.(*podstatus.Pod); ok {
		delName(s.onNode, p.Spec.NodeName, n)
		delName(s.orphans, n.ns, n)
	}
}

func addName(m map[string]map[name]struct{}, k string, n name) {
	s := m[k]
	if s == nil {
		s = map[name]struct{}{}
		m[k] = s
	}
	s[n] = struct{}{}
}

func delName(m map[string]map[name]struct{}, k string, n name) {
	if s := m[k]; s != nil {
		delete(s, n)
		if len(s) == 0 {
			delete(m, k)
		}
	}
}

// metaOf returns the metadata of a stored object (nil for an unmodelled
// type). The pointer aliases the object: callers only read through it,
// except on a fresh copy.
func metaOf(obj any) *meta.ObjectMeta {
	switch o := obj.(type) {
	case *podstatus.Pod:
		return &o.ObjectMeta
	case *node.Node:
		return &o.ObjectMeta
	case *node.Lease:
		return &o.ObjectMeta
	case *rollout.Deployment:
		return &o.ObjectMeta
	case *replicaset.ReplicaSet:
		return &o.ObjectMeta
	case *statefulset.StatefulSet:
		return &o.ObjectMeta
	case *daemonset.DaemonSet:
		return &o.ObjectMeta
	case *job.Job:
		return &o.ObjectMeta
	case *cronjob.CronJob:
		return &o.ObjectMeta
	case *pdb.PodDisruptionBudget:
		return &o.ObjectMeta
	case *history.ControllerRevision:
		return &o.ObjectMeta
	case *statefulset.Claim:
		return &o.ObjectMeta
	}
	return nil
}

// KindOf returns the kind of a modelled object (a pointer to the kind's
// model); ok is false for anything else, nil included.
func KindOf(obj any) (Kind, bool) {
	switch o := obj.(type) {
	case *podstatus.Pod:
		return KindPod, o != nil
	case *node.Node:
		return KindNode, o != nil
	case *node.Lease:
		return KindLease, o != nil
	case *rollout.Deployment:
		return KindDeployment, o != nil
	case *replicaset.ReplicaSet:
		if o != nil && o.IsReplicationController() {
			return KindReplicationController, true
		}
		return KindReplicaSet, o != nil
	case *statefulset.StatefulSet:
		return KindStatefulSet, o != nil
	case *daemonset.DaemonSet:
		return KindDaemonSet, o != nil
	case *job.Job:
		return KindJob, o != nil
	case *cronjob.CronJob:
		return KindCronJob, o != nil
	case *pdb.PodDisruptionBudget:
		return KindPodDisruptionBudget, o != nil
	case *history.ControllerRevision:
		return KindControllerRevision, o != nil
	case *statefulset.Claim:
		return KindPersistentVolumeClaim, o != nil
	}
	return "", false
}

// shallow returns a copy of the object's top-level struct: its metadata
// fields can then be set without touching the stored object (maps and
// slices stay shared, and are replaced, never modified).
func shallow(obj any) any {
	switch o := obj.(type) {
	case *podstatus.Pod:
		c := *o
		return &c
	case *node.Node:
		c := *o
		return &c
	case *node.Lease:
		c := *o
		return &c
	case *rollout.Deployment:
		c := *o
		return &c
	case *replicaset.ReplicaSet:
		c := *o
		return &c
	case *statefulset.StatefulSet:
		c := *o
		return &c
	case *daemonset.DaemonSet:
		c := *o
		return &c
	case *job.Job:
		c := *o
		return &c
	case *cronjob.CronJob:
		c := *o
		return &c
	case *pdb.PodDisruptionBudget:
		c := *o
		return &c
	case *history.ControllerRevision:
		c := *o
		return &c
	case *statefulset.Claim:
		c := *o
		return &c
	}
	return nil
}
