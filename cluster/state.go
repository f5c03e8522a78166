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
// valid and unchanged forever. [State.Clone] shares the maps too, copy on
// write: a map (or an inner set of an index) is copied before the first
// write to it by either State, and only writes that change something
// write. A State is not safe for concurrent use (its lists cache their
// order, and Clone takes back the receiver's ownership of its maps);
// distinct Clones are independent.
//
// The zero State is not usable; use [NewState].
type State struct {
	// objs holds each kind's objects by name, each with its stamp.
	objs map[Kind]map[name]stored
	// uid maps a UID to its object's key.
	uid map[string]Key
	// owned maps an owner UID to the objects that list it in
	// metadata.ownerReferences (controller or not).
	owned map[string]cowSet[Key]
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
	onNode map[string]cowSet[name]
	// orphans holds, per namespace (orphanKey), the pods, ReplicaSets and
	// ControllerRevisions without a controller reference (the ones a
	// controller may adopt).
	orphans map[string]cowSet[name]
	// jobTracked holds, per namespace, the pods carrying the Job tracking
	// finalizer (the only ones the Job controller's orphan queue may
	// release).
	jobTracked map[string]cowSet[name]
	// versions counts the writes to each kind (by kindIndex), so that a
	// controller can tell whether anything it reads changed.
	versions [len(kinds)]uint64
	// writes counts the writes (see stored.stamp).
	writes uint64
	// sorted caches each kind's names in order (by kindIndex), per version.
	sorted [len(kinds)]sortedNamesCache
	// Counter is the API server's sequence: each assigned UID and generated
	// name takes the next value.
	Counter uint64
	// objsOwn has bit kindBit(k) set when objs[k] belongs to this State
	// alone; Clone shares the kinds' maps (clearing the bits of both
	// States) and a write copies its kind's map first (objsFor).
	objsOwn uint32
	// own has the bits own* set for the index maps that belong to this
	// State alone (see cowMap); an inner set of owned, onNode, orphans or
	// jobTracked belongs to it when tagged with tok (see cowSet).
	own uint32
	tok *token
	// spare is, by kindIndex, an object update built and did not store
	// (the update changed nothing), reused by the next update of the kind.
	spare [len(kinds)]any
}

// The bits of State.own.
const (
	ownUID uint32 = 1 << iota
	ownOwned
	ownCtl
	ownTkeys
	ownOnNode
	ownOrphans
	ownJobTracked
	ownAll = ownUID | ownOwned | ownCtl | ownTkeys | ownOnNode | ownOrphans | ownJobTracked
)

// token tags the inner sets a State may write in place; Clone gives both
// States fresh tokens (allocated on first use), so a set tagged earlier is
// copied before either writes it. (A byte, not struct{}: distinct
// zero-size values may share an address.)
type token struct{ _ byte }

func (s *State) token() *token {
	if s.tok == nil {
		s.tok = new(token)
	}
	return s.tok
}

// cowSet is an inner set of an index, written in place only by the State
// whose token it carries.
type cowSet[E comparable] struct {
	tok *token
	m   map[E]struct{}
}

// cowMap returns *m for writing: copied first unless bit is set in
// s.own (the map belongs to s alone).
func cowMap[K comparable, V any](s *State, m *map[K]V, bit uint32) map[K]V {
	if s.own&bit == 0 {
		*m = cloneMap(*m)
		s.own |= bit
	}
	return *m
}

// setAdd adds e to the set at k of the index *idx (bit in s.own), writing
// nothing when it is there already.
func setAdd[E comparable](s *State, idx *map[string]cowSet[E], bit uint32, k string, e E) {
	if _, ok := (*idx)[k].m[e]; ok {
		return
	}
	m := cowMap(s, idx, bit)
	cs := m[k]
	if tok := s.token(); cs.tok != tok {
		cs = cowSet[E]{tok, cloneMap(cs.m)}
		m[k] = cs
	}
	cs.m[e] = struct{}{}
}

// setDel removes e from the set at k of the index *idx (bit in s.own),
// and the set when it becomes empty, writing nothing when e is not there.
func setDel[E comparable](s *State, idx *map[string]cowSet[E], bit uint32, k string, e E) {
	cs, ok := (*idx)[k]
	if !ok {
		return
	}
	if _, ok := cs.m[e]; !ok {
		return
	}
	m := cowMap(s, idx, bit)
	if len(cs.m) == 1 {
		delete(m, k)
		return
	}
	if tok := s.token(); cs.tok != tok {
		cs = cowSet[E]{tok, cloneMap(cs.m)}
		m[k] = cs
	}
	delete(cs.m, e)
}

// kindIndex is the position of kind k in kinds (-1 for an unmodelled one).
func kindIndex(k Kind) int {
	switch k {
	case KindNode:
		return 0
	case KindLease:
		return 1
	case KindDeployment:
		return 2
	case KindReplicaSet:
		return 3
	case KindReplicationController:
		return 4
	case KindStatefulSet:
		return 5
	case KindDaemonSet:
		return 6
	case KindJob:
		return 7
	case KindCronJob:
		return 8
	case KindPodDisruptionBudget:
		return 9
	case KindControllerRevision:
		return 10
	case KindPersistentVolumeClaim:
		return 11
	case KindPod:
		return 12
	}
	return -1
}

// kindBit is the bit of kind k in State.objsOwn.
func kindBit(k Kind) uint32 {
	if i := kindIndex(k); i >= 0 {
		return 1 << i
	}
	return 0
}

// version is the count of writes to kind k.
func (s *State) version(k Kind) uint64 {
	if i := kindIndex(k); i >= 0 {
		return s.versions[i]
	}
	return 0
}

// changes counts the State's writes and removals: it moves with every
// change of any object.
func (s *State) changes() uint64 {
	var n uint64
	for _, v := range s.versions {
		n += v
	}
	return n
}

// stored is an object as a State stores it: with its stamp, the value of
// State.writes at its last write (the object's version, as a
// resourceVersion would be). (One map holds both: a write after a Clone
// copies one map of the kind, not two.)
type stored struct {
	obj   any
	stamp uint64
}

// objsFor returns the map of kind k's objects, for writing: copied first
// when it is shared with a clone.
func (s *State) objsFor(k Kind) map[name]stored {
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
		objs:       make(map[Kind]map[name]stored, len(kinds)),
		uid:        map[string]Key{},
		owned:      map[string]cowSet[Key]{},
		ctl:        map[ctlIdx][]any{},
		tkeys:      map[any][]byte{},
		onNode:     map[string]cowSet[name]{},
		orphans:    map[string]cowSet[name]{},
		jobTracked: map[string]cowSet[name]{},
		own:        ownAll,
	}
	for _, k := range kinds {
		s.objs[k] = map[name]stored{}
		s.objsOwn |= kindBit(k)
	}
	return s
}

// Clone returns an independent State with the same objects: writes to
// either never show in the other. The objects themselves are shared, as
// they are never modified, and so are the maps and index sets until
// either State writes them (see objsFor, cowMap, cowSet).
func (s *State) Clone() *State {
	c := *s
	c.objs = cloneMap(s.objs)
	c.spare = [len(kinds)]any{}
	s.objsOwn, s.own, s.tok = 0, 0, nil
	c.objsOwn, c.own, c.tok = 0, 0, nil
	return &c
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
	return m[name{k.Namespace, k.Name}].obj
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
	deps := s.owned[uid].m
	out := make([]Key, 0, len(deps))
	for k := range deps {
		out = append(out, k)
	}
	slices.SortFunc(out, compareKeys)
	return out
}

// sortedKind returns the names of kind k's objects in order, sorted once
// per version of the kind (the slice is shared: never modify it).
func (s *State) sortedKind(k Kind) []name {
	i := kindIndex(k)
	if c := s.sorted[i]; c.names != nil && c.version == s.versions[i] {
		return c.names
	}
	m := s.objs[k]
	names := make([]name, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.SortFunc(names, compareNames)
	s.sorted[i] = sortedNamesCache{version: s.versions[i], names: names}
	return names
}

type sortedNamesCache struct {
	version uint64
	names   []name
	// objs are the objects at names, and stamps their stamps, built by
	// the first list of this version (nil until then)
	objs   []any
	stamps []uint64
	// typed is objs as a []T (the kind's model), built by the first
	// shared list of this version (nil until then)
	typed any
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

// shared returns the objects of kind k sorted by namespace and name, as
// list does, in one list made once per version of the kind and shared by
// every caller (and by clones): never modify it.
func shared[T any](s *State, k Kind) []T {
	objs := s.sortedObjs(k)
	i := kindIndex(k)
	if t, ok := s.sorted[i].typed.([]T); ok {
		return t
	}
	out := make([]T, len(objs))
	for i, o := range objs {
		out[i] = o.(T)
	}
	s.sorted[i].typed = out
	return out
}

// sortedObjs returns the objects of kind k in order, listed once per
// version of the kind (the slice is shared: never modify it).
func (s *State) sortedObjs(k Kind) []any {
	names := s.sortedKind(k)
	i := kindIndex(k)
	c := s.sorted[i]
	if c.objs == nil || len(c.objs) != len(names) {
		m := s.objs[k]
		c.objs, c.stamps = make([]any, len(names)), make([]uint64, len(names))
		for i, n := range names {
			e := m[n]
			c.objs[i], c.stamps[i] = e.obj, e.stamp
		}
		s.sorted[i] = c
	}
	return c.objs
}

// sortedStamps returns the stamps of the objects of kind k, in the order
// of sortedObjs (the slice is shared: never modify it).
func (s *State) sortedStamps(k Kind) []uint64 {
	s.sortedObjs(k)
	return s.sorted[kindIndex(k)].stamps
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

// sharedPods is Pods in the list shared until the pods change (see
// shared): the controllers' Steps only read their inputs.
func (s *State) sharedPods() []*podstatus.Pod { return shared[*podstatus.Pod](s, KindPod) }

// sharedNodes is Nodes in the list shared until the nodes change.
func (s *State) sharedNodes() []*node.Node { return shared[*node.Node](s, KindNode) }

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
	p, _ := s.objs[KindPod][name{ns, n}].obj.(*podstatus.Pod)
	return p
}

// Node returns the node n, or nil.
func (s *State) Node(n string) *node.Node {
	p, _ := s.objs[KindNode][name{"", n}].obj.(*node.Node)
	return p
}

// PodsOnNode returns the pods whose spec.nodeName is nodeName, by
// namespace and name; nodeName "" gives the unscheduled pods.
func (s *State) PodsOnNode(nodeName string) []*podstatus.Pod {
	ns := sortedNames(s.onNode[nodeName].m)
	out := make([]*podstatus.Pod, len(ns))
	for i, n := range ns {
		out[i] = s.objs[KindPod][n].obj.(*podstatus.Pod)
	}
	return out
}

// jobTrackedPods returns the pods carrying the Job tracking finalizer, by
// namespace and name.
func (s *State) jobTrackedPods() []*podstatus.Pod {
	n := 0
	for _, set := range s.jobTracked {
		n += len(set.m)
	}
	names := make([]name, 0, n)
	for _, set := range s.jobTracked {
		for n := range set.m {
			names = append(names, n)
		}
	}
	slices.SortFunc(names, compareNames)
	out := make([]*podstatus.Pod, len(names))
	for i, n := range names {
		out[i] = s.objs[KindPod][n].obj.(*podstatus.Pod)
	}
	return out
}

// orphanPods returns the pods of namespace ns without a controller
// reference, by name.
func (s *State) orphanPods(ns string) []*podstatus.Pod {
	return orphans[*podstatus.Pod](s, KindPod, ns)
}

// orphans returns the objects of kind k (a pod, ReplicaSet or
// ControllerRevision) of namespace ns without a controller reference, by
// name.
func orphans[T any](s *State, k Kind, ns string) []T {
	names := sortedNames(s.orphans[orphanKey(k, ns)].m)
	out := make([]T, len(names))
	for i, n := range names {
		out[i] = s.objs[k][n].obj.(T)
	}
	return out
}

// orphanKey is the key of the orphans of kind k in namespace ns in
// State.orphans ("" for a kind not indexed): the namespace for pods,
// "<kind>/<namespace>" for ReplicaSets and ControllerRevisions.
func orphanKey(k Kind, ns string) string {
	switch k {
	case KindPod:
		return ns
	case KindReplicaSet, KindControllerRevision:
		return string(k) + "/" + ns
	}
	return ""
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
	cowMap(s, &s.ctl, ownCtl)[ck] = out
}

// ctlDel removes the object at n from the list ck of the controller index,
// in a new slice.
func (s *State) ctlDel(ck ctlIdx, n name) {
	objs := s.ctl[ck]
	i, found := ctlFind(objs, n)
	if !found {
		return
	}
	ctl := cowMap(s, &s.ctl, ownCtl)
	if len(objs) == 1 {
		delete(ctl, ck)
		return
	}
	out := make([]any, 0, len(objs)-1)
	ctl[ck] = append(append(out, objs[:i]...), objs[i+1:]...)
}

// put stores obj (of kind k) under its namespace and name, replacing the
// object there and updating the indexes. obj must not be modified later.
// The indexes end as if the old object's entries were removed and obj's
// added, but only entries that change are written (see cowMap).
func (s *State) put(k Kind, obj any) {
	m := metaOf(obj)
	n := name{m.Namespace, m.Name}
	key := Key{k, n.ns, n.name}
	ref := m.ControllerRef()
	o, had := s.objs[k][n]
	if old := o.obj; had {
		// (the same controller: ctlPut below replaces it in place)
		oref := metaOf(old).ControllerRef()
		s.unindex(k, n, old, ref != nil && oref != nil && oref.UID == ref.UID, obj)
	}
	if ref != nil {
		s.ctlPut(ctlIdx{ref.UID, k}, n, obj)
	}
	s.versions[kindIndex(k)]++
	s.writes++
	s.objsFor(k)[n] = stored{obj: obj, stamp: s.writes}
	if m.UID != "" {
		if got, ok := s.uid[m.UID]; !ok || got != key {
			cowMap(s, &s.uid, ownUID)[m.UID] = key
		}
	}
	for _, r := range m.OwnerReferences {
		setAdd(s, &s.owned, ownOwned, r.UID, key)
	}
	if p, ok := obj.(*podstatus.Pod); ok {
		setAdd(s, &s.onNode, ownOnNode, p.Spec.NodeName, n)
		if isJobTracked(p) {
			setAdd(s, &s.jobTracked, ownJobTracked, n.ns, n)
		}
	}
	if ref == nil {
		if ok := orphanKey(k, n.ns); ok != "" {
			setAdd(s, &s.orphans, ownOrphans, ok, n)
		}
	}
}

// isJobTracked reports whether the pod carries the Job tracking finalizer.
func isJobTracked(p *podstatus.Pod) bool { return slices.Contains(p.Finalizers, job.TrackingFinalizer) }

// remove deletes the object of kind k at n and its index entries.
func (s *State) remove(k Kind, n name) {
	o, ok := s.objs[k][n]
	if !ok {
		return
	}
	s.unindex(k, n, o.obj, false, nil)
	delete(s.objsFor(k), n)
	s.versions[kindIndex(k)]++
}

// stamp is the object's version: it changes with every write of the
// object (0: no such object).
func (s *State) stamp(k Key) uint64 { return s.objs[k.Kind][name{k.Namespace, k.Name}].stamp }

// unindex removes the index entries of old, stored at n, except those
// put adds back for next (nil: none); keepCtl leaves its entry in the
// controller index (to be replaced).
func (s *State) unindex(k Kind, n name, old any, keepCtl bool, next any) {
	m := metaOf(old)
	key := Key{k, n.ns, n.name}
	if _, ok := s.tkeys[old]; ok {
		delete(cowMap(s, &s.tkeys, ownTkeys), old)
	}
	if ref := m.ControllerRef(); ref != nil && !keepCtl {
		s.ctlDel(ctlIdx{ref.UID, k}, n)
	}
	var nm *meta.ObjectMeta
	if next != nil {
		nm = metaOf(next)
	}
	if m.UID != "" && s.uid[m.UID] == key && (nm == nil || nm.UID != m.UID) {
		delete(cowMap(s, &s.uid, ownUID), m.UID)
	}
	for _, r := range m.OwnerReferences {
		if nm == nil || !ownedBy(nm, r.UID) {
			setDel(s, &s.owned, ownOwned, r.UID, key)
		}
	}
	if p, ok := old.(*podstatus.Pod); ok {
		np, _ := next.(*podstatus.Pod)
		if np == nil || np.Spec.NodeName != p.Spec.NodeName {
			setDel(s, &s.onNode, ownOnNode, p.Spec.NodeName, n)
		}
		if np == nil || !isJobTracked(np) {
			setDel(s, &s.jobTracked, ownJobTracked, n.ns, n)
		}
	}
	if ok := orphanKey(k, n.ns); ok != "" && m.ControllerRef() == nil && (nm == nil || nm.ControllerRef() != nil) {
		setDel(s, &s.orphans, ownOrphans, ok, n)
	}
}

// ownedBy reports whether m lists uid in its owner references.
func ownedBy(m *meta.ObjectMeta, uid string) bool {
	for _, r := range m.OwnerReferences {
		if r.UID == uid {
			return true
		}
	}
	return false
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
func shallow(obj any) any { return shallowInto(nil, obj) }

// shallowInto is shallow(obj) made in dst when dst is a pointer to obj's
// type (nil or another type: a new object).
func shallowInto(dst, obj any) any {
	switch o := obj.(type) {
	case *podstatus.Pod:
		c, _ := dst.(*podstatus.Pod)
		if c == nil {
			c = new(podstatus.Pod)
		}
		*c = *o
		return c
	case *node.Node:
		c, _ := dst.(*node.Node)
		if c == nil {
			c = new(node.Node)
		}
		*c = *o
		return c
	case *node.Lease:
		c, _ := dst.(*node.Lease)
		if c == nil {
			c = new(node.Lease)
		}
		*c = *o
		return c
	case *rollout.Deployment:
		c, _ := dst.(*rollout.Deployment)
		if c == nil {
			c = new(rollout.Deployment)
		}
		*c = *o
		return c
	case *replicaset.ReplicaSet:
		c, _ := dst.(*replicaset.ReplicaSet)
		if c == nil {
			c = new(replicaset.ReplicaSet)
		}
		*c = *o
		return c
	case *statefulset.StatefulSet:
		c, _ := dst.(*statefulset.StatefulSet)
		if c == nil {
			c = new(statefulset.StatefulSet)
		}
		*c = *o
		return c
	case *daemonset.DaemonSet:
		c, _ := dst.(*daemonset.DaemonSet)
		if c == nil {
			c = new(daemonset.DaemonSet)
		}
		*c = *o
		return c
	case *job.Job:
		c, _ := dst.(*job.Job)
		if c == nil {
			c = new(job.Job)
		}
		*c = *o
		return c
	case *cronjob.CronJob:
		c, _ := dst.(*cronjob.CronJob)
		if c == nil {
			c = new(cronjob.CronJob)
		}
		*c = *o
		return c
	case *pdb.PodDisruptionBudget:
		c, _ := dst.(*pdb.PodDisruptionBudget)
		if c == nil {
			c = new(pdb.PodDisruptionBudget)
		}
		*c = *o
		return c
	case *history.ControllerRevision:
		c, _ := dst.(*history.ControllerRevision)
		if c == nil {
			c = new(history.ControllerRevision)
		}
		*c = *o
		return c
	case *statefulset.Claim:
		c, _ := dst.(*statefulset.Claim)
		if c == nil {
			c = new(statefulset.Claim)
		}
		*c = *o
		return c
	}
	return nil
}

// listedBy returns the objects of objs (controlled by an owner's UID) that
// upstream's controller index lists for the owner: in the owner's
// namespace, their controller reference naming the owner's kind and name
// too (upstream keys the index by namespace/kind/name/uid,
// PodControllerIndexKey; FilterPodsByOwner). An object whose reference
// carries the UID under another name or kind is not listed: the
// controller neither counts nor releases it. objs is returned as it is
// when every object is listed.
func listedBy[T any](objs []T, ns string, kind Kind, name string) []T {
	keep := func(o T) bool {
		m := metaOf(any(o))
		ref := m.ControllerRef()
		return m.Namespace == ns && ref != nil && ref.Kind == string(kind) && ref.Name == name
	}
	for i, o := range objs {
		if !keep(o) {
			out := slices.Clone(objs[:i])
			for _, o := range objs[i+1:] {
				if keep(o) {
					out = append(out, o)
				}
			}
			return out
		}
	}
	return objs
}

// inNamespace returns the objects of objs in namespace ns (a lister of
// one namespace lists no other's), objs itself when all are.
func inNamespace[T any](objs []T, ns string) []T {
	for _, o := range objs {
		if metaOf(any(o)).Namespace != ns {
			return slices.DeleteFunc(slices.Clone(objs), func(o T) bool { return metaOf(any(o)).Namespace != ns })
		}
	}
	return objs
}
