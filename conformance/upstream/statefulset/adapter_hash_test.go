package statefulset_test

import (
	"bytes"
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	_ "unsafe" // go:linkname

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/controller/history"
	upsts "k8s.io/kubernetes/pkg/controller/statefulset"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/statefulset"
)

// TestAdapterControllerRevisionHashDifferential: k8s.ControllerRevisionHash
// equals upstream's history.HashControllerRevision on random revision
// data (arbitrary bytes and real revision patches), Data.Object values and
// collision counts.
func TestAdapterControllerRevisionHashDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var cr appsv1.ControllerRevision
		switch rapid.IntRange(0, 3).Draw(t, "data") {
		case 0:
			cr.Data.Raw = rapid.SliceOfN(rapid.Byte(), 0, 64).Draw(t, "raw")
		case 1, 2:
			set := &appsv1.StatefulSet{}
			set.Spec.Template = difftest.DrawHashTemplate(t)
			raw, err := k8s.StatefulSetRevisionData(set)
			if err != nil {
				t.Fatal(err)
			}
			cr.Data.Raw = raw
		case 3:
			ds := &appsv1.DaemonSet{}
			ds.Name = difftest.DrawOwnerName(t)
			ds.Spec.Template = difftest.DrawHashTemplate(t)
			cr.Data.Object = ds
			if rapid.Bool().Draw(t, "both") {
				cr.Data.Raw = []byte(`{"spec":{}}`)
			}
		}
		var cc *int32
		if rapid.Bool().Draw(t, "collisions") {
			n := rapid.Int32().Draw(t, "collisionCount")
			cc = &n
		}
		if got, want := k8s.ControllerRevisionHash(&cr, cc), history.HashControllerRevision(&cr, cc); got != want {
			t.Fatalf("ControllerRevisionHash = %s; upstream HashControllerRevision = %s", got, want)
		}
		name := difftest.DrawOwnerName(t)
		if got, want := k8s.ControllerRevisionName(name, "h"), history.ControllerRevisionName(name, "h"); got != want {
			t.Fatalf("ControllerRevisionName = %s; upstream %s", got, want)
		}
	})
}

// adapterDrawSet draws a StatefulSet with a random template, name, annotations
// and collision count.
func adapterDrawSet(t *rapid.T) *appsv1.StatefulSet {
	set := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: difftest.DrawOwnerName(t), Namespace: "default", UID: "set-uid"}}
	set.Spec.Template = difftest.DrawHashTemplate(t)
	if rapid.Bool().Draw(t, "setAnn") {
		set.Annotations = map[string]string{"team": rapid.StringMatching(`[a-z]{0,3}`).Draw(t, "team")}
	}
	if rapid.Bool().Draw(t, "setCC") {
		n := rapid.Int32Range(0, math.MaxInt32).Draw(t, "setCollisions")
		set.Status.CollisionCount = &n
	}
	return set
}

// TestAdapterStatefulSetRevisionDifferential: k8s.NewStatefulSetRevision
// (and StatefulSetRevisionName) builds the ControllerRevision upstream's
// newRevision builds, as getStatefulSetRevisions calls it (the collision
// count 0 when status has none): same name, data, labels, annotations and
// controller reference.
func TestAdapterStatefulSetRevisionDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		set := adapterDrawSet(t)
		var cc int32
		if set.Status.CollisionCount != nil {
			cc = *set.Status.CollisionCount
		}
		n := rapid.Int64Range(1, 1<<40).Draw(t, "revision")
		want, err := upNewRevision(set, n, &cc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := k8s.NewStatefulSetRevision(set, n)
		if err != nil {
			t.Fatal(err)
		}
		if d := difftest.RevisionDiff(got, want); d != "" {
			t.Fatalf("NewStatefulSetRevision differs from upstream newRevision: %s", d)
		}
		if name, err := k8s.StatefulSetRevisionName(set); err != nil || name != want.Name {
			t.Fatalf("StatefulSetRevisionName = %s, %v; upstream %s", name, err, want.Name)
		}
	})
}

// TestAdapterStatefulSetUpdateRevisionDifferential: over a defaulted set
// (as the API server returns it) and existing revisions of a few templates
// (some stored with other JSON for the same template, renumbered,
// duplicated under other names), k8s.StatefulSetUpdateRevision names the revision
// upstream's UpdateStatefulSet makes status.updateRevision.
func TestAdapterStatefulSetUpdateRevisionDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		templates := []corev1.PodTemplateSpec{difftest.DrawHashTemplate(t), difftest.DrawHashTemplate(t), difftest.DrawHashTemplate(t)}
		for i := range templates {
			// Integers that round past MaxInt64 make upstream's sync fail
			// (TestAdapterStatefulSetHugeGraceUpstreamFails); activeDeadlineSeconds
			// above MaxInt32 is invalid.
			if g := templates[i].Spec.TerminationGracePeriodSeconds; g != nil && *g > math.MaxInt64-1024 {
				*g = 1<<53 + 1
			}
			if d := templates[i].Spec.ActiveDeadlineSeconds; d != nil && *d > math.MaxInt32 {
				*d = math.MaxInt32
			}
		}
		zero, hist := int32(0), int32(100)
		set := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "set-uid", Generation: 1}}
		set.Spec.Replicas = &zero
		set.Spec.RevisionHistoryLimit = &hist
		set.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
		if rapid.Bool().Draw(t, "cc") {
			n := rapid.Int32Range(0, 2).Draw(t, "collisions")
			set.Status.CollisionCount = &n
		}
		var revs []*appsv1.ControllerRevision
		for i := range rapid.IntRange(0, 5).Draw(t, "revisions") {
			s := set.DeepCopy()
			s.Spec.Template = templates[rapid.IntRange(0, 2).Draw(t, "revTemplate")]
			legacyscheme.Scheme.Default(s)
			if rapid.Bool().Draw(t, "revCC") {
				n := rapid.Int32Range(0, 2).Draw(t, "revCollisions")
				s.Status.CollisionCount = &n
			}
			r, err := k8s.NewStatefulSetRevision(s, rapid.Int64Range(1, 4).Draw(t, "revNumber"))
			if err != nil {
				t.Fatal(err)
			}
			if rapid.IntRange(0, 3).Draw(t, "reencoded") == 0 {
				// As an older release may have stored it: a field written
				// explicitly that this release omits.
				r.Data.Raw = bytes.Replace(r.Data.Raw, []byte(`"image":`), []byte(`"stdin":false,"image":`), 1)
				r.Name += "-i"
			}
			r.Name += "-" + strconv.Itoa(i)
			r.CreationTimestamp = metav1.Unix(int64(rapid.IntRange(0, 2).Draw(t, "created")), 0)
			revs = append(revs, r)
		}
		set.Spec.Template = templates[rapid.IntRange(0, 2).Draw(t, "template")]
		legacyscheme.Scheme.Default(set)

		f := &newFake{pods: map[string]*corev1.Pod{}, claims: map[string]*corev1.PersistentVolumeClaim{}, revs: slices.Clone(revs)}
		ctl := upsts.NewDefaultStatefulSetControl(upsts.NewStatefulPodControlFromManager(f, record.NewFakeRecorder(10)), f, f)
		if _, err := ctl.UpdateStatefulSet(context.Background(), set, nil, t0); err != nil {
			t.Fatal(err)
		}
		got, err := k8s.StatefulSetUpdateRevision(set, revs)
		if err != nil {
			t.Fatal(err)
		}
		if f.status == nil || f.status.UpdateRevision != got {
			t.Fatalf("StatefulSetUpdateRevision = %s; upstream status %+v", got, f.status)
		}
		ks, err := k8s.FromStatefulSetWithRevisions(set, revs)
		if err != nil || ks.Spec.TemplateRevision != got {
			t.Fatalf("FromStatefulSetWithRevisions: %v, %+v", err, ks)
		}
	})
}

// TestAdapterStatefulSetHugeGraceUpstreamFails pins an upstream
// behaviour: terminationGracePeriodSeconds has no upper bound in
// validation, the StatefulSet revision patch passes it through float64
// (9223372036854775807 is stored as 9223372036854776000), and restoring
// that revision fails, so every UpdateStatefulSet of such a set errors.
// The adapter stores the same data.
func TestAdapterStatefulSetHugeGraceUpstreamFails(t *testing.T) {
	g, zero, hist := int64(math.MaxInt64), int32(0), int32(10)
	set := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "set-uid", Generation: 1}}
	set.Spec.Replicas, set.Spec.RevisionHistoryLimit = &zero, &hist
	set.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	set.Spec.Template.Labels = map[string]string{"app": "web"}
	set.Spec.Template.Spec.Containers = []corev1.Container{{Name: "c", Image: "nginx"}}
	set.Spec.Template.Spec.TerminationGracePeriodSeconds = &g
	legacyscheme.Scheme.Default(set)
	data, err := k8s.StatefulSetRevisionData(set)
	if err != nil || !bytes.Contains(data, []byte(`"terminationGracePeriodSeconds":9223372036854776000`)) {
		t.Fatalf("StatefulSetRevisionData = %s, %v", data, err)
	}
	f := &newFake{pods: map[string]*corev1.Pod{}, claims: map[string]*corev1.PersistentVolumeClaim{}}
	ctl := upsts.NewDefaultStatefulSetControl(upsts.NewStatefulPodControlFromManager(f, record.NewFakeRecorder(10)), f, f)
	if _, err := ctl.UpdateStatefulSet(context.Background(), set, nil, t0); err == nil || !strings.Contains(err.Error(), "cannot unmarshal number 9223372036854776000") {
		t.Fatalf("upstream UpdateStatefulSet: %v; want the restore of the revision to fail", err)
	}
}

var _ runtime.Object = (*appsv1.ControllerRevision)(nil)

// TestAdapterStatefulSetPodsDifferential: on the random sets of
// TestStatefulSetStepDifferential, the
// pods k8s.StatefulSetPods builds from Step's Plan are the pods upstream's
// UpdateStatefulSet creates, whole (claim volumes compared by name).
func TestAdapterStatefulSetPodsDifferential(t *testing.T) {
	pods := 0
	defer func() { t.Logf("%d created pods compared", pods) }()
	rapid.Check(t, func(t *rapid.T) {
		c := drawDiffCase(t)
		f := &newFake{pods: map[string]*corev1.Pod{}, claims: c.upClaims, revs: c.upRevs}
		for _, p := range c.upPods {
			f.pods[p.Name] = p
		}
		ctl := upsts.NewDefaultStatefulSetControl(upsts.NewStatefulPodControlFromManager(f, record.NewFakeRecorder(1000)), f, f)
		if _, err := ctl.UpdateStatefulSet(context.Background(), c.upSet, slices.Clone(c.upPods), t0); err != nil && len(f.newPods) == 0 {
			return
		}
		p, err := statefulset.Step(c.set, c.pods, c.revs, c.claims, t0, statefulset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := k8s.StatefulSetPods(c.upSet, c.upRevs, p)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{}
		for _, u := range f.newPods {
			want[u.Name] = difftest.PodJSON(u)
		}
		if len(got) != len(want) {
			t.Fatalf("kubesem creates %d pods, upstream %d", len(got), len(want))
		}
		for _, g := range got {
			pods++
			if w := want[g.Name]; difftest.PodJSON(g) != w {
				t.Fatalf("pod %s:\nkubesem  %s\nupstream %s", g.Name, difftest.PodJSON(g), w)
			}
		}
	})
}

//go:linkname adapterUpNewVersionedPod k8s.io/kubernetes/pkg/controller/statefulset.newVersionedStatefulSetPod
func adapterUpNewVersionedPod(currentSet, updateSet *appsv1.StatefulSet, currentRevision, updateRevision string, ordinal int) *corev1.Pod

// TestAdapterStatefulSetPodDifferential: for random templates (volumes
// colliding with claim templates, finalizers, annotations, large
// integers), claim templates, names and ordinals, k8s.StatefulSetPod
// builds the pod upstream's newVersionedStatefulSetPod builds from the set
// restored to the revision (ApplyRevision).
func TestAdapterStatefulSetPodDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		set := adapterDrawSet(t)
		set.Spec.ServiceName = rapid.SampledFrom([]string{"", "nginx"}).Draw(t, "service")
		set.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
		if rapid.Bool().Draw(t, "finalizers") {
			set.Spec.Template.Finalizers = []string{"example.com/f"}
		}
		for _, n := range []string{"data", "logs", "tmp"}[:rapid.IntRange(0, 3).Draw(t, "volumes")] {
			set.Spec.Template.Spec.Volumes = append(set.Spec.Template.Spec.Volumes, corev1.Volume{Name: n, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
		}
		for _, n := range []string{"logs", "data", "data"}[:rapid.IntRange(0, 3).Draw(t, "claimTemplates")] {
			set.Spec.VolumeClaimTemplates = append(set.Spec.VolumeClaimTemplates, corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: n}})
		}
		ordinal := rapid.IntRange(0, 12).Draw(t, "ordinal")
		rev, err := k8s.NewStatefulSetRevision(set, 1)
		if err != nil {
			t.Fatal(err)
		}
		got, err := k8s.StatefulSetPod(set, rev, int32(ordinal))
		restored, uerr := upsts.ApplyRevision(set, rev)
		if (err != nil) != (uerr != nil) {
			t.Fatalf("StatefulSetPod error %v; upstream ApplyRevision error %v", err, uerr)
		}
		if uerr != nil { // an integer rounded past MaxInt64 (TestAdapterStatefulSetHugeGraceUpstreamFails)
			return
		}
		want := adapterUpNewVersionedPod(restored, restored, rev.Name, rev.Name, ordinal)
		if g, w := difftest.PodJSON(got), difftest.PodJSON(want); g != w {
			t.Fatalf("StatefulSetPod:\nkubesem  %s\nupstream %s", g, w)
		}
	})
}
