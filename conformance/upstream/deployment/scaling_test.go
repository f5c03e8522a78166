package deployment_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"strconv"
	"testing"
	"time"
	"unsafe"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	k8sintstr "k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/informers"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	appsdefaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	"k8s.io/kubernetes/pkg/controller/deployment"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

//go:linkname upScale k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).scale
func upScale(dc *deployment.DeploymentController, ctx context.Context, d *appsv1.Deployment, newRS *appsv1.ReplicaSet, oldRSs []*appsv1.ReplicaSet) error

//go:linkname reconcileNew k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).reconcileNewReplicaSet
func reconcileNew(dc *deployment.DeploymentController, ctx context.Context, allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) (bool, error)

//go:linkname reconcileOld k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).reconcileOldReplicaSets
func reconcileOld(dc *deployment.DeploymentController, ctx context.Context, allRSs, oldRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) (bool, error)

//go:linkname cleanupUnhealthy k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).cleanupUnhealthyReplicas
func cleanupUnhealthy(dc *deployment.DeploymentController, ctx context.Context, oldRSs []*appsv1.ReplicaSet, d *appsv1.Deployment, maxCleanupCount int32) ([]*appsv1.ReplicaSet, int32, error)

//go:linkname scaleDownOld k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).scaleDownOldReplicaSetsForRollingUpdate
func scaleDownOld(dc *deployment.DeploymentController, ctx context.Context, allRSs, oldRSs []*appsv1.ReplicaSet, d *appsv1.Deployment) (int32, error)

//go:linkname oldPodsRunning k8s.io/kubernetes/pkg/controller/deployment.oldPodsRunning
func oldPodsRunning(newRS *appsv1.ReplicaSet, oldRSs []*appsv1.ReplicaSet, podMap map[types.UID][]*corev1.Pod) bool

//go:linkname generateName k8s.io/kubernetes/pkg/controller/deployment.generateReplicaSetName
func generateName(deploymentName, hash string) string

//go:linkname isScalingEvent k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).isScalingEvent
func isScalingEvent(dc *deployment.DeploymentController, ctx context.Context, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) (bool, error)

// newController returns a bare deployment controller whose client echoes
// every write back (so that the controller sees its updates succeed) and
// records it.
func newController() (*deployment.DeploymentController, *fake.Clientset) {
	c := &fake.Clientset{}
	c.AddReactor("*", "*", func(a clienttesting.Action) (bool, runtime.Object, error) {
		switch a := a.(type) {
		case clienttesting.UpdateAction:
			return true, a.GetObject(), nil
		case clienttesting.CreateAction:
			return true, a.GetObject(), nil
		}
		return true, nil, nil
	})
	dc := &deployment.DeploymentController{}
	setField(dc, "client", clientset.Interface(c))
	setField(dc, "eventRecorder", record.EventRecorder(&record.FakeRecorder{}))
	return dc, c
}

func setField(obj any, name string, v any) {
	f := reflect.ValueOf(obj).Elem().FieldByName(name)
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(v))
}

// update is one ReplicaSet write: its name and new spec.replicas.
type update struct {
	Name     string
	Replicas int32
}

func updates(c *fake.Clientset) []update {
	var out []update
	for _, a := range c.Actions() {
		if u, ok := a.(clienttesting.UpdateAction); ok {
			if rs, ok := u.GetObject().(*appsv1.ReplicaSet); ok {
				out = append(out, update{rs.Name, *rs.Spec.Replicas})
			}
		}
	}
	return out
}

var base = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

// drawBound draws a maxSurge or maxUnavailable: an integer, a percentage,
// or rarely an invalid string.
func drawBound(t *rapid.T, label string) intstr.Value {
	switch rapid.IntRange(0, 9).Draw(t, label+"Kind") {
	case 0, 1, 2, 3:
		return intstr.Int(rapid.SampledFrom([]int32{0, 0, 1, 1, 2, 3, 5, 10, 100}).Draw(t, label))
	case 9:
		// Strings both sides reject; "-5%" is left out: upstream scales it
		// to a negative count, kubesem rejects it as API validation does
		// (see intstr's doc).
		return intstr.String(rapid.SampledFrom([]string{"abc", "1.5%", "5"}).Draw(t, label))
	}
	if rapid.IntRange(0, 9).Draw(t, label+"Wide") == 0 {
		// Percentages whose results leave int32 for big totals (200% of
		// MaxInt32, 400% of 2^30 is 2^32), and one beyond int64: the API
		// accepts it as maxSurge, upstream's controller cannot parse it.
		return intstr.String(rapid.SampledFrom([]string{"200%", "400%", "1000%", "3000000000%", "99999999999999999999%"}).Draw(t, label))
	}
	return intstr.Percent(rapid.SampledFrom([]int32{0, 1, 10, 20, 25, 30, 33, 39, 50, 60, 75, 99, 100, 150}).Draw(t, label))
}

// wideSizes lists sizes at the int32 edge, where upstream's sums and
// products wrap.
var wideSizes = []int32{1 << 30, 1<<30 + 1, math.MaxInt32 / 2, math.MaxInt32 - 1, math.MaxInt32}

func drawReplicas(t *rapid.T, label string) int32 {
	switch rapid.IntRange(0, 19).Draw(t, label+"Big") {
	case 0:
		return rapid.SampledFrom([]int32{1000, 65536, 1 << 20, math.MaxInt32 / 4}).Draw(t, label)
	case 1:
		return rapid.SampledFrom(wideSizes).Draw(t, label)
	}
	return rapid.Int32Range(0, 25).Draw(t, label)
}

func drawDeployment(t *rapid.T) *rollout.Deployment {
	n := drawReplicas(t, "replicas")
	d := &rollout.Deployment{}
	d.Name = "foo"
	d.Spec.Replicas = &n
	d.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "foo"})
	if rapid.IntRange(0, 5).Draw(t, "recreate") == 0 {
		d.Spec.Strategy.Type = rollout.RecreateStrategy
	} else {
		d.Spec.Strategy.Type = rollout.RollingUpdateStrategy
		s, u := drawBound(t, "maxSurge"), drawBound(t, "maxUnavailable")
		d.Spec.Strategy.RollingUpdate = &rollout.RollingUpdate{MaxSurge: &s, MaxUnavailable: &u}
	}
	d.Status.Replicas = rapid.SampledFrom([]int32{0, 1, 5, 10, 13, 20}).Draw(t, "statusReplicas")
	return d
}

// replicaSet draws ReplicaSet i with a creation time from a small set (so
// that ties happen) and desired/max-replicas annotations that may be
// missing, invalid or zero.
func replicaSet(t *rapid.T, i int) *replicaset.ReplicaSet {
	rs := &replicaset.ReplicaSet{}
	rs.Name = fmt.Sprintf("rs-%c", 'a'+rapid.IntRange(0, 25).Draw(t, fmt.Sprintf("name%d", i)))
	rs.Name += strconv.Itoa(i)
	rs.UID = "uid-" + rs.Name
	rs.CreationTimestamp = base.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("age%d", i))) * time.Minute)
	n := drawReplicas(t, fmt.Sprintf("rsReplicas%d", i))
	rs.Spec.Replicas = &n
	top := n + min(2, math.MaxInt32-n)
	rs.Status.Replicas = rapid.Int32Range(0, top).Draw(t, fmt.Sprintf("statusReplicas%d", i))
	rs.Status.AvailableReplicas = rapid.OneOf(rapid.Int32Range(0, top), rapid.Just(n), rapid.Int32Range(max(n-2, 0), top)).Draw(t, fmt.Sprintf("available%d", i))
	rs.Annotations = map[string]string{}
	ann := []string{"", "0", "1", "3", "5", "10", "13", "12", "abc", "-1", "99999999999", "2147483647", "2147483648", strconv.Itoa(int(n)), strconv.Itoa(int(n) + 1)}
	if v := rapid.SampledFrom(ann).Draw(t, fmt.Sprintf("desired%d", i)); v != "" {
		rs.Annotations[rollout.DesiredReplicasAnnotation] = v
	}
	if v := rapid.SampledFrom(ann).Draw(t, fmt.Sprintf("max%d", i)); v != "" {
		rs.Annotations[rollout.MaxReplicasAnnotation] = v
	}
	return rs
}

func replicaSets(t *rapid.T, label string, max int) []*replicaset.ReplicaSet {
	n := rapid.IntRange(0, max).Draw(t, label)
	out := make([]*replicaset.ReplicaSet, n)
	for i := range out {
		out[i] = replicaSet(t, len(label)*100+i)
	}
	return out
}

func upIntOrString(v *intstr.Value) *k8sintstr.IntOrString {
	if v.IsString() {
		x := k8sintstr.FromString(v.String())
		return &x
	}
	x := k8sintstr.FromInt32(v.IntValue())
	return &x
}

// writes replays kubesem's scales the way the controller's scaleReplicaSet
// writes them: a write when the size changes, or, for a forced (Annotate)
// scale, when the desired/max-replicas annotations are stale.
func writes(d *rollout.Deployment, scales []rollout.Scale) []update {
	var out []update
	size := map[string]int32{}
	ud := toDeployment(d)
	for _, s := range scales {
		cur, ok := size[s.ReplicaSet.Name]
		if !ok {
			cur = s.ReplicaSet.Replicas()
		}
		stale := deploymentutil.ReplicasAnnotationsNeedUpdate(toReplicaSet(s.ReplicaSet), *ud.Spec.Replicas, *ud.Spec.Replicas+deploymentutil.MaxSurge(*ud))
		if cur != s.Replicas || (s.Annotate && stale) {
			out = append(out, update{s.ReplicaSet.Name, s.Replicas})
		}
		size[s.ReplicaSet.Name] = s.Replicas
	}
	return out
}

func equalUpdates(t *rapid.T, what string, got, want []update) {
	if len(got) != len(want) {
		t.Fatalf("%s: kubesem %v; upstream %v", what, got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: kubesem %v; upstream %v", what, got, want)
		}
	}
}

func checkFenceposts(t *rapid.T) {
	s, u := drawBound(t, "maxSurge"), drawBound(t, "maxUnavailable")
	n := drawReplicas(t, "replicas")
	gs, gu, gerr := rollout.Fenceposts(s, u, n)
	ws, wu, werr := deploymentutil.ResolveFenceposts(upIntOrString(&s), upIntOrString(&u), n)
	if (gerr != nil) != (werr != nil) || gs != ws || gu != wu {
		t.Fatalf("Fenceposts(%v, %v, %d) = %d, %d, %v; upstream %d, %d, %v", s, u, n, gs, gu, gerr, ws, wu, werr)
	}
	d := &rollout.Deployment{}
	d.Spec.Replicas = &n
	d.Spec.Strategy.RollingUpdate = &rollout.RollingUpdate{MaxSurge: &s, MaxUnavailable: &u}
	if rapid.Bool().Draw(t, "recreate") {
		d.Spec.Strategy.Type = rollout.RecreateStrategy
	}
	ud := toDeployment(d)
	if g, w := d.MaxUnavailable(), deploymentutil.MaxUnavailable(*ud); g != w {
		t.Fatalf("MaxUnavailable = %d; upstream %d", g, w)
	}
	if g, w := d.MinAvailable(), deploymentutil.MinAvailable(ud); g != w {
		t.Fatalf("MinAvailable = %d; upstream %d", g, w)
	}
	if g, w := d.MaxSurge(), deploymentutil.MaxSurge(*ud); g != w {
		t.Fatalf("MaxSurge = %d; upstream %d", g, w)
	}
}

// TestRolloutFencepostsDifferential compares Fenceposts, MaxUnavailable,
// MinAvailable and MaxSurge with upstream.
func TestRolloutFencepostsDifferential(t *testing.T) { rapid.Check(t, checkFenceposts) }

func checkNewReplicas(t *rapid.T) {
	d := drawDeployment(t)
	all := replicaSets(t, "all", 5)
	newRS := replicaSet(t, 99)
	got, gerr := rollout.NewReplicaSetReplicas(d, all, newRS)
	want, werr := deploymentutil.NewRSNewReplicas(toDeployment(d), toReplicaSets(all), toReplicaSet(newRS))
	if (gerr != nil) != (werr != nil) || (werr == nil && got != want) {
		t.Fatalf("NewReplicaSetReplicas = %d, %v; upstream %d, %v", got, gerr, want, werr)
	}
}

// TestRolloutNewReplicaSetReplicasDifferential compares NewReplicaSetReplicas with NewRSNewReplicas.
func TestRolloutNewReplicaSetReplicasDifferential(t *testing.T) { rapid.Check(t, checkNewReplicas) }

func checkProportional(t *rapid.T) {
	d := drawDeployment(t)
	old := replicaSets(t, "old", 6)
	var newRS *replicaset.ReplicaSet
	if rapid.IntRange(0, 4).Draw(t, "hasNew") > 0 {
		newRS = replicaSet(t, 98)
		if rapid.Bool().Draw(t, "saturated") {
			n := d.Replicas()
			newRS.Spec.Replicas = &n
			newRS.Status.AvailableReplicas = n
			newRS.Annotations[rollout.DesiredReplicasAnnotation] = strconv.Itoa(int(n))
		}
	}
	got := writes(d, rollout.Proportional(d, newRS, old))
	dc, c := newController()
	if err := upScale(dc, context.Background(), toDeployment(d), toReplicaSet(newRS), toReplicaSets(old)); err != nil {
		t.Fatalf("upstream scale: %v", err)
	}
	equalUpdates(t, "Proportional", got, updates(c))

	all := append(append([]*replicaset.ReplicaSet{}, old...), newRS)
	if newRS == nil {
		all = old
	}
	if g := d.IsScalingEvent(all); true {
		dc, _ := newController()
		ud := toDeployment(d)
		ud.Spec.Template.Labels = map[string]string{"x": "never-matches"}
		w, _ := isScalingEvent(dc, context.Background(), ud, toReplicaSets(all))
		if g != w {
			t.Fatalf("IsScalingEvent = %v; upstream %v", g, w)
		}
	}
	if newRS != nil {
		if g, w := d.IsSaturated(newRS), deploymentutil.IsSaturated(toDeployment(d), toReplicaSet(newRS)); g != w {
			t.Fatalf("IsSaturated = %v; upstream %v", g, w)
		}
	}
}

// TestRolloutProportionalDifferential compares Proportional (replayed through
// the controller's write rule) with the controller's scale, plus
// IsScalingEvent and IsSaturated.
func TestRolloutProportionalDifferential(t *testing.T) { rapid.Check(t, checkProportional) }

func checkRolling(t *rapid.T) {
	d := drawDeployment(t)
	old := replicaSets(t, "old", 5)
	newRS := replicaSet(t, 97)
	all := append(append([]*replicaset.ReplicaSet{}, old...), newRS)
	ud := toDeployment(d)

	// reconcileNewReplicaSet
	n, reason, gerr := rollout.ReconcileNewReplicaSet(d, all, newRS)
	dc, c := newController()
	scaled, werr := reconcileNew(dc, context.Background(), toReplicaSets(all), toReplicaSet(newRS), ud)
	if (gerr != nil) != (werr != nil) {
		t.Fatalf("ReconcileNewReplicaSet error %v; upstream %v", gerr, werr)
	}
	var got []update
	if reason != "" {
		got = []update{{newRS.Name, n}}
	}
	if werr == nil {
		equalUpdates(t, "ReconcileNewReplicaSet", got, updates(c))
		if scaled != (reason != "") {
			t.Fatalf("ReconcileNewReplicaSet scaled %v; upstream %v", reason != "", scaled)
		}
	}

	// reconcileOldReplicaSets (old ReplicaSets passed as the controller does: the active ones)
	var active []*replicaset.ReplicaSet
	for _, rs := range old {
		if rs.Replicas() > 0 {
			active = append(active, rs)
		}
	}
	scales, gscaled := rollout.ReconcileOldReplicaSets(d, all, active, newRS)
	dc, c = newController()
	wscaled, _ := reconcileOld(dc, context.Background(), toReplicaSets(all), toReplicaSets(active), toReplicaSet(newRS), ud)
	equalUpdates(t, "ReconcileOldReplicaSets", writes(d, scales), updates(c))
	if gscaled != wscaled {
		t.Fatalf("ReconcileOldReplicaSets scaled %v; upstream %v", gscaled, wscaled)
	}

	// cleanupUnhealthyReplicas
	maxCleanup := rapid.Int32Range(-1, 30).Draw(t, "maxCleanup")
	cs, cleaned, ok := rollout.CleanupUnhealthy(active, maxCleanup)
	dc, c = newController()
	_, ucleaned, cerr := cleanupUnhealthy(dc, context.Background(), toReplicaSets(active), ud, maxCleanup)
	equalUpdates(t, "CleanupUnhealthy", writes(d, cs), updates(c))
	if ok != (cerr == nil) {
		t.Fatalf("CleanupUnhealthy ok %v; upstream error %v", ok, cerr)
	}
	if ok && cleaned != ucleaned {
		t.Fatalf("CleanupUnhealthy cleaned %d; upstream %d", cleaned, ucleaned)
	}

	// scaleDownOldReplicaSetsForRollingUpdate
	ds, down := rollout.ScaleDownOld(d, all, active)
	dc, c = newController()
	udown, err := scaleDownOld(dc, context.Background(), toReplicaSets(all), toReplicaSets(active), ud)
	if err != nil {
		t.Fatalf("upstream scaleDown: %v", err)
	}
	equalUpdates(t, "ScaleDownOld", writes(d, ds), updates(c))
	if down != udown {
		t.Fatalf("ScaleDownOld scaled down %d; upstream %d", down, udown)
	}
}

// TestRolloutRollingDifferential compares ReconcileNewReplicaSet,
// ReconcileOldReplicaSets, CleanupUnhealthy and ScaleDownOld with the
// controller's rolling-update methods.
func TestRolloutRollingDifferential(t *testing.T) { rapid.Check(t, checkRolling) }

func checkOldPodsRunning(t *rapid.T) {
	d := &rollout.Deployment{}
	d.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "foo"})
	old := replicaSets(t, "old", 3)
	var newRS *replicaset.ReplicaSet
	if rapid.Bool().Draw(t, "hasNew") {
		newRS = replicaSet(t, 96)
	}
	rss := append([]*replicaset.ReplicaSet{}, old...)
	if newRS != nil {
		rss = append(rss, newRS)
	}
	podMap := map[types.UID][]*corev1.Pod{}
	for _, rs := range rss {
		podMap[types.UID(rs.UID)] = nil
	}
	var pods []*podstatus.Pod
	phases := []podstatus.Phase{"", podstatus.Pending, podstatus.Running, podstatus.Succeeded, podstatus.Failed, podstatus.Unknown}
	for i := range rapid.IntRange(0, 4).Draw(t, "pods") {
		if len(rss) == 0 {
			break
		}
		owner := rss[rapid.IntRange(0, len(rss)-1).Draw(t, fmt.Sprintf("owner%d", i))]
		ph := rapid.SampledFrom(phases).Draw(t, fmt.Sprintf("phase%d", i))
		yes := true
		p := &podstatus.Pod{}
		p.Name = fmt.Sprintf("p%d", i)
		p.Labels = map[string]string{"app": "foo"}
		p.OwnerReferences = []meta.OwnerReference{{Kind: "ReplicaSet", Name: owner.Name, UID: owner.UID, Controller: &yes}}
		p.Status.Phase = ph
		pods = append(pods, p)
		podMap[types.UID(owner.UID)] = append(podMap[types.UID(owner.UID)], &corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodPhase(ph)}})
	}
	if g, w := rollout.OldPodsRunning(d, newRS, old, pods), oldPodsRunning(toReplicaSet(newRS), toReplicaSets(old), podMap); g != w {
		t.Fatalf("OldPodsRunning = %v; upstream %v", g, w)
	}
	name := rapid.StringMatching(`[a-z]{0,260}`).Draw(t, "name")
	hash := rapid.StringMatching(`[a-z0-9]{0,260}`).Draw(t, "hash")
	if g, w := rollout.ReplicaSetName(name, hash), generateName(name, hash); g != w {
		t.Fatalf("ReplicaSetName(%q, %q) = %q; upstream %q", name, hash, g, w)
	}
}

// TestRolloutOldPodsRunningDifferential compares OldPodsRunning and ReplicaSetName with upstream.
func TestRolloutOldPodsRunningDifferential(t *testing.T) { rapid.Check(t, checkOldPodsRunning) }

//go:linkname syncDeployment k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).syncDeployment
func syncDeployment(dc *deployment.DeploymentController, ctx context.Context, key string) error

var images = []string{"app:v1", "app:v2", "app:v3", "app:v4"}

func template(image string) podstatus.Template {
	var t podstatus.Template
	t.Labels = map[string]string{"app": "foo"}
	t.Spec.Containers = []podstatus.Container{{Name: "app", Image: image}}
	return t
}

// stepWorld draws a Deployment with its ReplicaSets and pods, the
// ReplicaSets labelled with their real pod-template-hash so that kubesem's
// hash identity and upstream's template equality agree.
func stepWorld(t *rapid.T, now time.Time) (*rollout.Deployment, []*replicaset.ReplicaSet, []*podstatus.Pod) {
	d := drawDeployment(t)
	// wide keeps sizes at the int32 edge, where upstream's arithmetic wraps.
	wide := rapid.IntRange(0, 7).Draw(t, "wide") == 0
	if wide {
		n := rapid.SampledFrom(wideSizes).Draw(t, "wideReplicas")
		d.Spec.Replicas = &n
	}
	d.Name, d.Namespace, d.UID, d.Generation = "foo", "default", "d-uid", rapid.Int64Range(1, 3).Draw(t, "generation")
	d.Status.ObservedGeneration = rapid.Int64Range(0, d.Generation).Draw(t, "observedGeneration")
	if d.Spec.Strategy.RollingUpdate != nil {
		s, u := d.Spec.Strategy.RollingUpdate.MaxSurge, d.Spec.Strategy.RollingUpdate.MaxUnavailable
		if _, _, err := rollout.Fenceposts(*s, *u, d.Replicas()); (err != nil && rapid.IntRange(0, 3).Draw(t, "keepBad") > 0) || (d.Replicas() > 10000 && !wide) {
			n := int32(5)
			d.Spec.Replicas = &n
			v := boundValue("25%")
			d.Spec.Strategy.RollingUpdate = &rollout.RollingUpdate{MaxSurge: &v, MaxUnavailable: &v}
		}
	} else if d.Replicas() > 10000 && !wide {
		n := int32(3)
		d.Spec.Replicas = &n
	}
	d.Spec.Template = template(rapid.SampledFrom(images).Draw(t, "image"))
	d.Spec.MinReadySeconds = rapid.SampledFrom([]int32{0, 5}).Draw(t, "minReady")
	d.Spec.Paused = rapid.IntRange(0, 5).Draw(t, "paused") == 0
	if rapid.Bool().Draw(t, "hasLimit") {
		d.Spec.RevisionHistoryLimit = difftest.Ptr(rapid.Int32Range(0, 2).Draw(t, "limit"))
	}
	if rapid.IntRange(0, 4).Draw(t, "noDeadline") == 0 {
		d.Spec.ProgressDeadlineSeconds = difftest.Ptr(int32(2147483647))
	}
	d.Annotations = map[string]string{}
	if v := rapid.SampledFrom([]string{"", "1", "2", "7"}).Draw(t, "dRevision"); v != "" {
		d.Annotations[rollout.RevisionAnnotation] = v
	}
	if rapid.Bool().Draw(t, "note") {
		d.Annotations["note"] = "x"
	}
	if rapid.IntRange(0, 9).Draw(t, "rollback") == 0 {
		d.Annotations[rollout.RollbackToAnnotation] = rapid.SampledFrom([]string{"0", "1", "2", "9", "x"}).Draw(t, "rollbackTo")
	}
	if rapid.IntRange(0, 14).Draw(t, "deleting") == 0 {
		ts := now.Add(-time.Minute)
		d.DeletionTimestamp = &ts
	}
	if rapid.IntRange(0, 19).Draw(t, "selectAll") == 0 {
		d.Spec.Selector = &meta.LabelSelector{}
	}
	reasons := []string{"", rollout.ReasonNewReplicaSetAvailable, rollout.ReasonReplicaSetUpdated, rollout.ReasonDeploymentPaused, rollout.ReasonProgressDeadlineExceeded, rollout.ReasonNewReplicaSetCreated}
	if r := rapid.SampledFrom(reasons).Draw(t, "progressReason"); r != "" {
		at := now.Add(-time.Duration(rapid.SampledFrom([]int{10, 700}).Draw(t, "progressAge")) * time.Second)
		d.Status.Conditions = []rollout.Condition{{Type: rollout.Progressing, Status: meta.ConditionTrue, Reason: r, LastUpdateTime: at, LastTransitionTime: at}}
	}
	if rapid.IntRange(0, 2).Draw(t, "hasAvailable") == 0 {
		// An Available condition the sync may leave as it is, so that the
		// status can come out unchanged (no status write).
		at := now.Add(-time.Hour)
		c := rollout.Condition{Type: rollout.Available, Status: meta.ConditionTrue, Reason: rollout.ReasonMinimumReplicasAvailable,
			Message: "Deployment has minimum availability.", LastUpdateTime: at, LastTransitionTime: at}
		if rapid.Bool().Draw(t, "unavailable") {
			c.Status, c.Reason, c.Message = meta.ConditionFalse, rollout.ReasonMinimumReplicasUnavailable, "Deployment does not have minimum availability."
		}
		d.Status.Conditions = append(d.Status.Conditions, c)
	}
	d.Status.UpdatedReplicas = rapid.Int32Range(0, 5).Draw(t, "dUpdated")
	d.Status.AvailableReplicas = rapid.Int32Range(0, 5).Draw(t, "dAvailable")
	d.TemplateHash = k8s.PodTemplateHash(&difftest.Must(k8s.ToDeployment(d)).Spec.Template, nil)

	var rss []*replicaset.ReplicaSet
	yes := true
	for i := range rapid.IntRange(0, 4).Draw(t, "rsCount") {
		rs := replicaSet(t, i)
		rs.Name = fmt.Sprintf("foo-%d", i)
		if rapid.IntRange(0, 9).Draw(t, fmt.Sprintf("squat%d", i)) == 0 {
			// Holds the name the new ReplicaSet would get (a hash collision
			// unless its template is the Deployment's).
			rs.Name = rollout.ReplicaSetName("foo", d.TemplateHash)
		}
		rs.UID = "uid-" + rs.Name
		rs.Namespace = "default"
		if wide && rapid.Bool().Draw(t, fmt.Sprintf("wideRS%d", i)) {
			n := rapid.SampledFrom(wideSizes).Draw(t, fmt.Sprintf("wideRSReplicas%d", i))
			rs.Spec.Replicas = &n
			rs.Status.Replicas = rapid.SampledFrom([]int32{0, n - 1, n}).Draw(t, fmt.Sprintf("wideRSStatus%d", i))
			rs.Status.AvailableReplicas = rapid.SampledFrom([]int32{0, n - 1, n}).Draw(t, fmt.Sprintf("wideRSAvailable%d", i))
		} else if n := rs.Replicas(); n > 50 && !wide {
			m := n % 7
			rs.Spec.Replicas = &m
			rs.Status.Replicas = min(rs.Status.Replicas, m+1)
			rs.Status.AvailableReplicas = min(rs.Status.AvailableReplicas, m+1)
		}
		tmpl := template(rapid.SampledFrom(images).Draw(t, fmt.Sprintf("rsImage%d", i)))
		hash := k8s.PodTemplateHash(&difftest.Must(k8s.ToDeployment(&rollout.Deployment{Spec: rollout.Spec{Template: tmpl}})).Spec.Template, nil)
		tmpl.Labels["pod-template-hash"] = hash
		rs.Spec.Template = tmpl
		rs.Labels = maps.Clone(tmpl.Labels)
		rs.Spec.MinReadySeconds = rapid.SampledFrom([]int32{0, 5}).Draw(t, fmt.Sprintf("rsMinReady%d", i))
		rs.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "foo", UID: "d-uid", Controller: &yes}}
		// mostly the Deployment's; else an orphan (adopted when selected),
		// another controller's, or one it controls and no longer selects
		// (released): the claim, rollout.ClaimReplicaSet
		switch rapid.IntRange(0, 7).Draw(t, fmt.Sprintf("rsOwner%d", i)) {
		case 0:
			rs.OwnerReferences = nil
		case 1:
			rs.OwnerReferences = nil
			rs.Labels = map[string]string{"app": "bar"}
		case 2:
			rs.OwnerReferences[0].UID, rs.OwnerReferences[0].Name = "other-uid", "other"
		case 3:
			rs.Labels = map[string]string{"app": "bar", "pod-template-hash": hash}
		}
		if v := rapid.SampledFrom([]string{"", "1", "2", "3", "5", "x"}).Draw(t, fmt.Sprintf("rsRevision%d", i)); v != "" {
			rs.Annotations[rollout.RevisionAnnotation] = v
		}
		rs.Generation = rapid.Int64Range(1, 2).Draw(t, fmt.Sprintf("rsGen%d", i))
		rs.Status.ObservedGeneration = rapid.Int64Range(0, 2).Draw(t, fmt.Sprintf("rsObs%d", i))
		rss = append(rss, rs)
	}
	var pods []*podstatus.Pod
	phases := []podstatus.Phase{podstatus.Pending, podstatus.Running, podstatus.Succeeded, podstatus.Failed, podstatus.Unknown}
	for i := range rapid.IntRange(0, 3).Draw(t, "podCount") {
		if len(rss) == 0 {
			break
		}
		owner := rss[rapid.IntRange(0, len(rss)-1).Draw(t, fmt.Sprintf("podOwner%d", i))]
		p := &podstatus.Pod{}
		p.Name, p.Namespace = fmt.Sprintf("pod-%d", i), "default"
		p.Labels = maps.Clone(owner.Labels)
		p.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: owner.Name, UID: owner.UID, Controller: &yes}}
		p.Status.Phase = rapid.SampledFrom(phases).Draw(t, fmt.Sprintf("podPhase%d", i))
		pods = append(pods, p)
	}
	return d, rss, pods
}

func boundValue(s string) intstr.Value { return intstr.String(s) }

// rsState is what the comparison looks at in a ReplicaSet after a sync.
type rsState struct {
	Replicas        int32
	MinReadySeconds int32
	Annotations     map[string]string
}

func sameStates(a, b map[string]rsState) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		y, ok := b[k]
		if !ok || x.Replicas != y.Replicas || x.MinReadySeconds != y.MinReadySeconds || !maps.Equal(x.Annotations, y.Annotations) {
			return false
		}
	}
	return true
}

type cond struct{ Type, Status, Reason string }

func checkStep(t *rapid.T) {
	now := time.Now()
	d, rss, pods := stepWorld(t, now)
	if err := rollout.Validate(d, rss, pods); err != nil {
		t.Skip("invalid input: ", err)
	}
	p := compareSync(t, d, rss, pods, now, rollout.Options{})
	if p.Outcome == rollout.ReasonSyncFailed {
		return
	}
	// A second sync on the state the first left (its ReplicaSet writes
	// applied, the Deployment's status, annotations and template written),
	// where the status often comes out unchanged; the new ReplicaSet is
	// named by v1.36.3's exact hash, injected (k8s.RolloutOptions).
	next := *d
	next.Status = p.Status
	if p.Annotations != nil {
		next.Annotations = p.Annotations
	}
	if p.Template != nil {
		next.Spec.Template = *p.Template
	}
	next.TemplateHash = ""
	applied := p.Apply(rss, now)
	if rollout.Validate(&next, applied, pods) != nil {
		return // sizes wrapped at the int32 edge
	}
	compareSync(t, &next, applied, pods, now, k8s.RolloutOptions())
}

// compareSync runs Step and one upstream syncDeployment on the same
// state and fails t where they differ; it returns Step's Plan.
func compareSync(t *rapid.T, d *rollout.Deployment, rss []*replicaset.ReplicaSet, pods []*podstatus.Pod, now time.Time, opts rollout.Options) rollout.Plan {
	plan, err := rollout.Step(d, rss, pods, now, opts)
	if err != nil {
		t.Fatalf("Step: %v", err)
	}

	// Upstream: a controller over informer caches holding the same objects.
	_, c := newController()
	inf := informers.NewSharedInformerFactory(c, 0)
	dc, err := deployment.NewDeploymentController(context.Background(), inf.Apps().V1().Deployments(), inf.Apps().V1().ReplicaSets(), inf.Core().V1().Pods(), c)
	if err != nil {
		t.Fatal(err)
	}
	difftest.StopOn(t, dc)
	rec := record.NewFakeRecorder(100)
	setField(dc, "eventRecorder", record.EventRecorder(rec))
	// Creating a ReplicaSet whose name is taken fails as the API server would.
	rsIndexer := inf.Apps().V1().ReplicaSets().Informer().GetIndexer()
	failed := map[string]int{} // names of failed creates
	c.PrependReactor("create", "replicasets", func(a clienttesting.Action) (bool, runtime.Object, error) {
		rs := a.(clienttesting.CreateAction).GetObject().(*appsv1.ReplicaSet)
		if _, exists, _ := rsIndexer.GetByKey("default/" + rs.Name); exists {
			failed[rs.Name]++
			return true, nil, apierrors.NewAlreadyExists(appsv1.Resource("replicasets"), rs.Name)
		}
		return true, rs, nil
	})
	ud := v1Deployment(d)
	patched := claimReactors(c, ud)
	inf.Apps().V1().Deployments().Informer().GetIndexer().Add(ud)
	before := map[string]rsState{}
	for _, rs := range rss {
		inf.Apps().V1().ReplicaSets().Informer().GetIndexer().Add(v1ReplicaSetFull(rs))
		before[rs.Name] = rsState{rs.Replicas(), rs.Spec.MinReadySeconds, maps.Clone(rs.Annotations)}
	}
	for _, p := range pods {
		yes := true
		inf.Core().V1().Pods().Informer().GetIndexer().Add(&corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: "default", Labels: p.Labels,
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: p.OwnerReferences[0].Name, UID: types.UID(p.OwnerReferences[0].UID), Controller: &yes}}},
			Status: corev1.PodStatus{Phase: corev1.PodPhase(p.Status.Phase)},
		})
	}
	c.ClearActions()
	uerr := syncDeployment(dc, context.Background(), "default/foo")
	ws, err := plan.Writes(d, rss, pods, now)
	if err != nil {
		t.Fatalf("Writes: %v", err)
	}
	// The first refused write the controller does not drop ends the sync
	// (as the world applies Writes): the Plan beyond it is what would
	// follow had it been accepted, and is not compared.
	ended := false
	for i, w := range ws {
		if w.FromCache && w.Resource == "replicasets" && patched[w.Name] && !w.IgnoreRefusal {
			ws, ended = ws[:i+1], true
			break
		}
	}
	same := func(n string) string { return n }
	if why := compareWrites(ws, c.Actions(), func(n string) bool { _, ok := before[n]; return ok }, same); why != "" {
		t.Fatalf("path %s: Plan.Writes differs from upstream's requests: %s\nplan %+v", plan.Outcome, why, plan)
	}
	if ended {
		if !apierrors.IsConflict(uerr) {
			t.Fatalf("path %s: a stale write ends kubesem's sync; upstream's returned %v", plan.Outcome, uerr)
		}
		return plan
	}
	if why := compareEvents(plan.Events, drain(rec), same); why != "" {
		t.Fatalf("path %s: Plan.Events differ from upstream's: %s", plan.Outcome, why)
	}

	want := maps.Clone(before)
	finalStatus := ud.Status
	statusWritten := false
	finalAnn := ud.Annotations
	var finalTemplate *corev1.PodTemplateSpec
	for _, a := range c.Actions() {
		if ca, ok := a.(clienttesting.CreateAction); ok && a.GetVerb() == "create" {
			if rs, ok := ca.GetObject().(*appsv1.ReplicaSet); ok && failed[rs.Name] > 0 {
				failed[rs.Name]--
				continue
			}
		}
		switch a.GetVerb() {
		case "create", "update":
			switch o := a.(clienttesting.CreateAction).GetObject().(type) {
			case *appsv1.ReplicaSet:
				if a.GetVerb() == "update" && patched[o.Name] {
					continue // refused (Conflict)
				}
				want[o.Name] = rsState{*o.Spec.Replicas, o.Spec.MinReadySeconds, o.Annotations}
			case *appsv1.Deployment:
				finalAnn = o.Annotations
				if a.GetSubresource() == "status" {
					statusWritten = true
					finalStatus = o.Status
				} else {
					tmpl := o.Spec.Template
					finalTemplate = &tmpl
				}
			}
		case "delete":
			delete(want, a.(clienttesting.DeleteAction).GetName())
		}
	}
	if uerr == nil && plan.UpdateStatus != statusWritten {
		t.Fatalf("path %s: UpdateStatus %v; upstream wrote status %v", plan.Outcome, plan.UpdateStatus, statusWritten)
	}
	if uerr != nil && plan.Outcome != rollout.ReasonHashCollision && plan.Outcome != rollout.ReasonSyncFailed {
		t.Fatalf("upstream sync failed (%v) where kubesem took path %s", uerr, plan.Outcome)
	}
	if uerr == nil && plan.Outcome == rollout.ReasonSyncFailed {
		t.Fatalf("kubesem's sync failed where upstream's succeeded\nplan %+v", plan)
	}

	got := map[string]rsState{}
	for _, rs := range plan.Apply(rss, now) {
		got[rs.Name] = rsState{rs.Replicas(), rs.Spec.MinReadySeconds, rs.Annotations}
	}
	if !sameStates(got, want) {
		t.Fatalf("path %s: ReplicaSets after the sync:\nkubesem  %v\nupstream %v\nplan %+v", plan.Outcome, got, want, plan)
	}
	gs := plan.Status
	if gs.ObservedGeneration != finalStatus.ObservedGeneration || gs.Replicas != finalStatus.Replicas || gs.UpdatedReplicas != finalStatus.UpdatedReplicas ||
		gs.ReadyReplicas != finalStatus.ReadyReplicas || gs.AvailableReplicas != finalStatus.AvailableReplicas || gs.UnavailableReplicas != finalStatus.UnavailableReplicas ||
		(gs.CollisionCount == nil) != (finalStatus.CollisionCount == nil) || (gs.CollisionCount != nil && *gs.CollisionCount != *finalStatus.CollisionCount) {
		t.Fatalf("path %s: status\nkubesem  %+v\nupstream %+v", plan.Outcome, gs, finalStatus)
	}
	var gc, wc []cond
	for _, x := range gs.Conditions {
		gc = append(gc, cond{string(x.Type), string(x.Status), x.Reason})
	}
	for _, x := range finalStatus.Conditions {
		wc = append(wc, cond{string(x.Type), string(x.Status), x.Reason})
	}
	if fmt.Sprint(gc) != fmt.Sprint(wc) {
		t.Fatalf("path %s: conditions\nkubesem  %v\nupstream %v", plan.Outcome, gc, wc)
	}
	gotAnn := d.Annotations
	if plan.Annotations != nil {
		gotAnn = plan.Annotations
	}
	if gotAnn[rollout.RevisionAnnotation] != finalAnn[rollout.RevisionAnnotation] || gotAnn[rollout.RollbackToAnnotation] != finalAnn[rollout.RollbackToAnnotation] {
		t.Fatalf("path %s: deployment annotations\nkubesem  %v\nupstream %v", plan.Outcome, gotAnn, finalAnn)
	}
	gotImage, wantImage := d.Spec.Template.Spec.Containers[0].Image, d.Spec.Template.Spec.Containers[0].Image
	if plan.Template != nil {
		gotImage = plan.Template.Spec.Containers[0].Image
	}
	if finalTemplate != nil {
		wantImage = finalTemplate.Spec.Containers[0].Image
	}
	if gotImage != wantImage {
		t.Fatalf("path %s: template after rollback kubesem %s; upstream %s", plan.Outcome, gotImage, wantImage)
	}
	return plan
}

// TestRolloutStepDifferential compares Step (applied with Plan.Apply) with
// one syncDeployment of the controller over informer caches holding the
// same Deployment, ReplicaSets and pods: the ReplicaSets after the sync
// (size, minReadySeconds, annotations), the status counts and condition
// (type, status, reason) sequence, the revision annotation and a rollback's
// template, Plan.Writes against the requests sent to the fake clientset
// (verb, resource, subresource, name, in order; a ReplicaSet's size,
// minReadySeconds and annotations) and Plan.Events against the recorder's
// events (type, reason, message). It does so twice: on the drawn state, and
// on the state the first sync leaves. Condition times are not compared:
// upstream stamps the wall clock.
func TestRolloutStepDifferential(t *testing.T) { rapid.Check(t, checkStep) }

// toDeployment is the stored Deployment (adapter + upstream defaulting)
// in namespace "default", where the fake clients the scaling harness uses
// keep their objects.
func toDeployment(d *rollout.Deployment) *appsv1.Deployment {
	u := difftest.UpDeployment(d)
	if u.Namespace == "" {
		u.Namespace = "default"
	}
	return u
}

func toReplicaSet(rs *replicaset.ReplicaSet) *appsv1.ReplicaSet {
	u := difftest.UpReplicaSet(rs)
	if u != nil && u.Namespace == "" {
		u.Namespace = "default"
	}
	return u
}

func toReplicaSets(rss []*replicaset.ReplicaSet) []*appsv1.ReplicaSet {
	out := make([]*appsv1.ReplicaSet, len(rss))
	for i, rs := range rss {
		out[i] = toReplicaSet(rs)
	}
	return out
}

// v1Deployment is d for the Step harness: the adapter's Deployment with
// upstream's spec defaults, its template exactly as given (kubesem and
// upstream compare the same templates) and in namespace "default".
func v1Deployment(d *rollout.Deployment) *appsv1.Deployment {
	u := difftest.Must(k8s.ToDeployment(d))
	tmpl := u.Spec.Template.DeepCopy()
	appsdefaults.SetObjectDefaults_Deployment(u)
	u.Spec.Template = *tmpl
	if u.Namespace == "" {
		u.Namespace = "default"
	}
	return u
}

// v1ReplicaSetFull is rs for the Step harness, as v1Deployment.
func v1ReplicaSetFull(rs *replicaset.ReplicaSet) *appsv1.ReplicaSet {
	u := difftest.Must(k8s.ToReplicaSet(rs))
	tmpl := u.Spec.Template.DeepCopy()
	appsdefaults.SetObjectDefaults_ReplicaSet(u)
	u.Spec.Template = *tmpl
	if u.Namespace == "" {
		u.Namespace = "default"
	}
	if u.Spec.Selector == nil {
		u.Spec.Selector = &metav1.LabelSelector{MatchLabels: maps.Clone(rs.Labels)}
	}
	return u
}

// claimReactors makes c answer as the API server does around a sync's
// claim: the adoption's recheck of the Deployment (RecheckDeletionTimestamp)
// reads d live, and an update of a ReplicaSet the claim patched in this
// sync carries the cached copy's resourceVersion, which the patch moved,
// so it is refused with Conflict (the fake otherwise accepts every write).
// It returns the names of the ReplicaSets patched so far.
func claimReactors(c *fake.Clientset, d *appsv1.Deployment) (patched map[string]bool) {
	c.PrependReactor("get", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) { return true, d.DeepCopy(), nil })
	patched = map[string]bool{}
	c.PrependReactor("patch", "replicasets", func(a clienttesting.Action) (bool, runtime.Object, error) {
		patched[a.(clienttesting.PatchAction).GetName()] = true
		return true, nil, nil
	})
	c.PrependReactor("update", "replicasets", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if rs := a.(clienttesting.UpdateAction).GetObject().(*appsv1.ReplicaSet); patched[rs.Name] {
			return true, nil, apierrors.NewConflict(appsv1.Resource("replicasets"), rs.Name, errors.New("the object has been modified"))
		}
		return false, nil, nil
	})
	return patched
}
