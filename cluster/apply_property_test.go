package cluster

import (
	"errors"
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/fuzzlimit"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

var now0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// drawObject draws an object of some modelled kind (or nil, or a value
// that is not one), with names, owners, finalizers and node names from
// small sets so that writes collide.
func drawObject(t *rapid.T, resource string) any {
	m := meta.ObjectMeta{
		Name:         rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "name"),
		GenerateName: rapid.SampledFrom([]string{"", "g-"}).Draw(t, "generateName"),
		Namespace:    rapid.SampledFrom([]string{"", "ns"}).Draw(t, "namespace"),
		UID:          rapid.SampledFrom([]string{"", "uid-1", "uid-2", "x"}).Draw(t, "uid"),
	}
	if rapid.Bool().Draw(t, "owned") {
		m.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef("apps/v1", "ReplicaSet", "a", rapid.SampledFrom([]string{"uid-1", "uid-2", "x"}).Draw(t, "owner"))}
	}
	if rapid.Bool().Draw(t, "finalizer") {
		m.Finalizers = []string{rapid.SampledFrom([]string{"f", job.TrackingFinalizer}).Draw(t, "finalizerName")}
	}
	kind := map[string]int{"pods": 0, "deployments": 1, "replicasets": 2, "nodes": 3, "poddisruptionbudgets": 4}[resource]
	if rapid.IntRange(0, 4).Draw(t, "otherKind") == 0 {
		kind = rapid.IntRange(0, 6).Draw(t, "kind")
	}
	switch kind {
	case 0:
		p := &podstatus.Pod{ObjectMeta: m}
		p.Spec.NodeName = rapid.SampledFrom([]string{"", "n1"}).Draw(t, "nodeName")
		if rapid.Bool().Draw(t, "terminal") {
			p.Status.Phase = podstatus.Succeeded
		}
		return p
	case 1:
		n := int32(rapid.IntRange(0, 3).Draw(t, "replicas"))
		return &rollout.Deployment{ObjectMeta: m, Spec: rollout.Spec{Replicas: &n}}
	case 2:
		return &replicaset.ReplicaSet{ObjectMeta: m}
	case 3:
		return &node.Node{ObjectMeta: m}
	case 4:
		return &pdb.PodDisruptionBudget{ObjectMeta: m, Spec: pdb.Spec{Selector: &meta.LabelSelector{}}}
	case 5:
		return nil
	}
	return "not an object"
}

func drawWrite(t *rapid.T) plan.Write {
	w := plan.Write{
		Verb:        rapid.SampledFrom([]plan.Verb{plan.VerbCreate, plan.VerbCreate, plan.VerbUpdate, plan.VerbPatch, plan.VerbDelete, "get"}).Draw(t, "verb"),
		Resource:    rapid.SampledFrom([]string{"pods", "pods", "pods", "deployments", "replicasets", "nodes", "poddisruptionbudgets", "widgets"}).Draw(t, "resource"),
		Subresource: rapid.SampledFrom([]string{"", "", "", "", "status", "binding", "eviction", "scale"}).Draw(t, "subresource"),
		Namespace:   rapid.SampledFrom([]string{"", "ns"}).Draw(t, "wns"),
		Name:        rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "wname"),
		UID:         rapid.SampledFrom([]string{"", "uid-1", "x"}).Draw(t, "wuid"),
	}
	w.Object = drawObject(t, w.Resource)
	if rapid.Bool().Draw(t, "grace") {
		g := int64(rapid.IntRange(-1, 40).Draw(t, "graceSeconds"))
		w.GracePeriodSeconds = &g
	}
	return w
}

// checkApply: any sequence of writes never panics, every refusal is a
// *field.Error leaving the State as it was, stored objects are never
// modified, and the indexes agree with the objects.
func checkApply(t *rapid.T) {
	s := NewState()
	for i := range rapid.IntRange(0, 30).Draw(t, "writes") {
		w := drawWrite(t)
		before := s.Objects()
		snap := make([]any, len(before))
		for j, o := range before {
			snap[j] = shallow(o)
		}
		at := now0.Add(time.Duration(i) * time.Second)
		_, err := s.Apply(w, at, nil)
		if err != nil {
			var fe *field.Error
			if !errors.As(err, &fe) {
				t.Fatalf("write %d: error %v is not a *field.Error", i, err)
			}
			if after := s.Objects(); len(after) != len(before) {
				t.Fatalf("write %d refused but the State changed", i)
			}
		}
		for j, o := range before {
			if !shallowEqual(o, snap[j]) {
				t.Fatalf("write %d modified a stored object", i)
			}
		}
		checkIndexes(t, s)
		// keep a template key for every stored object: the next writes
		// must drop those of the objects they replace or remove
		for _, o := range s.Objects() {
			s.templateKey(o, &podstatus.Template{})
		}
	}
}

func shallowEqual(a, b any) bool {
	c := shallow(a)
	return metaOf(c).Name == metaOf(b).Name && metaOf(c).UID == metaOf(b).UID &&
		metaOf(c).Generation == metaOf(b).Generation && metaOf(c).DeletionTimestamp == metaOf(b).DeletionTimestamp
}

func checkIndexes(t *rapid.T, s *State) {
	n := 0
	for k, m := range s.objs {
		for nm, e := range m {
			o := e.obj
			n++
			om := metaOf(o)
			if om.Name != nm.name || om.Namespace != nm.ns {
				t.Fatalf("%s stored under %v", om.Name, nm)
			}
			if om.UID != "" {
				if key, ok := s.uid[om.UID]; !ok || s.Get(key) == nil {
					t.Fatalf("uid %s not indexed", om.UID)
				}
			}
			for _, r := range om.OwnerReferences {
				if _, ok := s.owned[r.UID].m[Key{k, nm.ns, nm.name}]; !ok {
					t.Fatalf("owner %s of %s not indexed", r.UID, nm.name)
				}
			}
			if p, ok := o.(*podstatus.Pod); ok {
				if _, ok := s.onNode[p.Spec.NodeName].m[nm]; !ok {
					t.Fatalf("pod %s not indexed on node %q", nm.name, p.Spec.NodeName)
				}
				if _, ok := s.jobTracked[nm.ns].m[nm]; ok != isJobTracked(p) {
					t.Fatalf("pod %s: in the Job-tracked index %v, carries the finalizer %v", nm.name, ok, isJobTracked(p))
				}
			}
		}
	}
	for node, set := range s.onNode {
		for nm := range set.m {
			p, _ := s.objs[KindPod][nm].obj.(*podstatus.Pod)
			if p == nil || p.Spec.NodeName != node {
				t.Fatalf("stale node index %s/%v", node, nm)
			}
		}
	}
	for ns, set := range s.jobTracked {
		for nm := range set.m {
			if p, _ := s.objs[KindPod][nm].obj.(*podstatus.Pod); p == nil || nm.ns != ns || !isJobTracked(p) {
				t.Fatalf("stale Job-tracked index %s/%v", ns, nm)
			}
		}
	}
	for uid, deps := range s.owned {
		for k := range deps.m {
			if s.Get(k) == nil {
				t.Fatalf("stale owner index %s → %v", uid, k)
			}
		}
	}
	// the controller index: exactly the objects whose controller
	// reference names the UID, the stored ones, in (namespace, name) order
	ctl := 0
	for ck, objs := range s.ctl {
		if len(objs) == 0 {
			t.Fatalf("empty controller index list %v", ck)
		}
		for i, o := range objs {
			om := metaOf(o)
			if s.objs[ck.kind][name{om.Namespace, om.Name}].obj != o {
				t.Fatalf("controller index %v holds %s/%s, not the stored object", ck, om.Namespace, om.Name)
			}
			if ref := om.ControllerRef(); ref == nil || ref.UID != ck.uid {
				t.Fatalf("controller index %v holds %s/%s, not controlled by it", ck, om.Namespace, om.Name)
			}
			if i > 0 {
				pm := metaOf(objs[i-1])
				if compareNames(name{pm.Namespace, pm.Name}, name{om.Namespace, om.Name}) >= 0 {
					t.Fatalf("controller index %v out of order at %d", ck, i)
				}
			}
		}
		ctl += len(objs)
	}
	want := 0
	for _, m := range s.objs {
		for _, e := range m {
			if metaOf(e.obj).ControllerRef() != nil {
				want++
			}
		}
	}
	if ctl != want {
		t.Fatalf("controller index holds %d objects, %d have a controller", ctl, want)
	}
	for o := range s.tkeys {
		k, _ := KindOf(o)
		om := metaOf(o)
		if s.objs[k][name{om.Namespace, om.Name}].obj != o {
			t.Fatalf("template key kept for %s/%s, no longer stored", om.Namespace, om.Name)
		}
	}
	if s.Len() != n {
		t.Fatalf("Len %d, %d objects", s.Len(), n)
	}
}

func TestApplyProperties(t *testing.T) { rapid.Check(t, checkApply) }
func FuzzApply(f *testing.F)           { fuzzlimit.Rapid(f, checkApply) }

// checkCloneApply: States cloned from one another and written in random
// interleavings never see each other's writes (the maps Clone shares are
// copied on write): each ends as a fresh State given its own sequence of
// writes, with consistent indexes.
func checkCloneApply(t *rapid.T) {
	type lane struct {
		s    *State
		hist []plan.Write
		at   []time.Time
	}
	lanes := []*lane{{s: NewState()}}
	for i := range rapid.IntRange(0, 60).Draw(t, "steps") {
		l := lanes[rapid.IntRange(0, len(lanes)-1).Draw(t, "lane")]
		switch rapid.IntRange(0, 5).Draw(t, "op") {
		case 0:
			lanes = append(lanes, &lane{s: l.s.Clone(), hist: slices.Clone(l.hist), at: slices.Clone(l.at)})
		case 1:
			// a cache write (template keys) on one lane
			for _, o := range l.s.Objects() {
				l.s.templateKey(o, &podstatus.Template{})
			}
		default:
			w := drawWrite(t)
			at := now0.Add(time.Duration(i) * time.Second)
			l.s.Apply(w, at, nil)
			l.hist, l.at = append(l.hist, w), append(l.at, at)
		}
	}
	for i, l := range lanes {
		checkIndexes(t, l.s)
		r := NewState()
		for j, w := range l.hist {
			r.Apply(w, l.at[j], nil)
		}
		if !reflect.DeepEqual(l.s.Objects(), r.Objects()) {
			t.Fatalf("lane %d: objects differ from its own writes replayed", i)
		}
		if l.s.Counter != r.Counter || l.s.writes != r.writes || l.s.versions != r.versions ||
			!reflect.DeepEqual(stampsOf(l.s), stampsOf(r)) || !reflect.DeepEqual(l.s.uid, r.uid) ||
			!reflect.DeepEqual(l.s.ctl, r.ctl) || !sameSets(l.s.owned, r.owned) ||
			!sameSets(l.s.onNode, r.onNode) || !sameSets(l.s.orphans, r.orphans) || !sameSets(l.s.jobTracked, r.jobTracked) {
			t.Fatalf("lane %d: indexes differ from its own writes replayed", i)
		}
	}
}

func sameSets[E comparable](a, b map[string]cowSet[E]) bool {
	if len(a) != len(b) {
		return false
	}
	for k, s := range a {
		if len(s.m) == 0 || !maps.Equal(s.m, b[k].m) {
			return false
		}
	}
	return true
}

func TestCloneApplyProperties(t *testing.T) { rapid.Check(t, checkCloneApply) }
func FuzzCloneApply(f *testing.F)           { fuzzlimit.Rapid(f, checkCloneApply) }

// stampsOf returns each stored object's stamp, by kind and name.
func stampsOf(s *State) map[Kind]map[name]uint64 {
	out := map[Kind]map[name]uint64{}
	for k, m := range s.objs {
		out[k] = map[name]uint64{}
		for n, e := range m {
			out[k][n] = e.stamp
		}
	}
	return out
}
