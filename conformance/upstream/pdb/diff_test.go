package pdb_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	upintstr "k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/kubernetes/pkg/controller/disruption"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
)

// syncCase is one random budget with its pods and ReplicaSets, in both
// models.
type syncCase struct {
	upPDB   *policyv1.PodDisruptionBudget
	upPods  []*v1.Pod
	upRS    []*appsv1.ReplicaSet
	upDeps  []*appsv1.Deployment
	upRC    *v1.ReplicationController
	upSS    *appsv1.StatefulSet
	pdb     pdb.PodDisruptionBudget
	pods    []*podstatus.Pod
	ctls    []pdb.Controller
	maxPods int
	now     time.Time
	opts    pdb.Options
}

// drawAround returns a time near deadline-timeout as seen from now: one
// state in two exactly at the expiry or a nanosecond either side of it,
// else up to five minutes either side, in whole seconds or with nanoseconds.
func drawAround(t *rapid.T, label string, now time.Time, timeout time.Duration) time.Time {
	expiry := now.Add(-timeout)
	switch rapid.IntRange(0, 5).Draw(t, label+"Kind") {
	case 0:
		return expiry
	case 1:
		return expiry.Add(-time.Nanosecond)
	case 2:
		return expiry.Add(time.Nanosecond)
	case 3:
		return expiry.Add(time.Duration(rapid.Int64Range(-int64(5*time.Minute), int64(5*time.Minute)).Draw(t, label+"Ns")))
	}
	return expiry.Add(time.Duration(rapid.IntRange(-300, 300).Draw(t, label+"S")) * time.Second)
}

func drawValue(t *rapid.T, label string) (*upintstr.IntOrString, *intstr.Value) {
	if rapid.Bool().Draw(t, label+"pct") {
		p := rapid.IntRange(0, 100).Draw(t, label+"p")
		u := upintstr.FromString(strconv.Itoa(p) + "%")
		return &u, difftest.Ptr(intstr.Percent(int32(p)))
	}
	n := rapid.IntRange(0, 30).Draw(t, label+"i")
	u := upintstr.FromInt32(int32(n))
	return &u, difftest.Ptr(intstr.Int(int32(n)))
}

func drawSyncCase(t *rapid.T, maxPods int) syncCase {
	var c syncCase
	ns := "default"
	c.now = syncNow
	if rapid.Bool().Draw(t, "fractionalNow") {
		c.now = syncNow.Add(time.Duration(rapid.Int64Range(1, int64(time.Second)-1).Draw(t, "nowNs")))
	}
	// Options: the deletion timeout is replayed upstream by moving the
	// disruptedPods entries (shift); the stale timeout is the
	// controller's own knob.
	if rapid.IntRange(0, 4).Draw(t, "deletionTimeoutOpt") == 0 {
		c.opts.DeletionTimeout = time.Duration(rapid.IntRange(1, 600).Draw(t, "deletionTimeoutS")) * time.Second
	}
	if rapid.IntRange(0, 4).Draw(t, "staleTimeoutOpt") == 0 {
		c.opts.StalePodDisruptionTimeout = time.Duration(rapid.IntRange(1, 600).Draw(t, "staleTimeoutS")) * time.Second
	}
	deletionTimeout, staleTimeout := disruption.DeletionTimeout, difftest.DisruptionStaleTimeout()
	if c.opts.DeletionTimeout > 0 {
		deletionTimeout = c.opts.DeletionTimeout
	}
	if c.opts.StalePodDisruptionTimeout > 0 {
		staleTimeout = c.opts.StalePodDisruptionTimeout
	}
	sel := map[string]string{"app": "web"}
	c.upPDB = &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: ns, Generation: int64(rapid.IntRange(1, 2).Draw(t, "gen"))},
		Spec: policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: sel}}}
	c.pdb.Name, c.pdb.Namespace, c.pdb.Generation = "b", ns, c.upPDB.Generation
	c.pdb.Spec.Selector = meta.SelectorFromSet(sel)
	switch rapid.IntRange(0, 2).Draw(t, "field") {
	case 0:
		c.upPDB.Spec.MinAvailable, c.pdb.Spec.MinAvailable = drawValue(t, "min")
	case 1:
		c.upPDB.Spec.MaxUnavailable, c.pdb.Spec.MaxUnavailable = drawValue(t, "max")
	}
	// Old status.
	st := policyv1.PodDisruptionBudgetStatus{
		ObservedGeneration: int64(rapid.IntRange(0, 2).Draw(t, "og")),
		DisruptionsAllowed: int32(rapid.IntRange(0, 3).Draw(t, "oldAllowed")),
		CurrentHealthy:     int32(rapid.IntRange(0, 3).Draw(t, "oldHealthy")),
		DesiredHealthy:     int32(rapid.IntRange(0, 3).Draw(t, "oldDesired")),
		ExpectedPods:       int32(rapid.IntRange(0, 3).Draw(t, "oldExpected")),
	}
	var kst pdb.Status
	if k := rapid.IntRange(0, 3).Draw(t, "oldCond"); k > 0 {
		reason := []string{"", policyv1.SufficientPodsReason, policyv1.InsufficientPodsReason, policyv1.SyncFailedReason}[k]
		status := metav1.ConditionFalse
		if k == 1 {
			status = metav1.ConditionTrue
		}
		ltt := syncNow.Add(-time.Hour)
		og := int64(rapid.IntRange(0, 2).Draw(t, "condGeneration"))
		st.Conditions = []metav1.Condition{{Type: policyv1.DisruptionAllowedCondition, Status: status, Reason: reason, LastTransitionTime: metav1.NewTime(ltt), ObservedGeneration: og}}
		kst.Conditions = meta.Conditions{{Type: pdb.DisruptionAllowed, Status: meta.ConditionStatus(status), Reason: reason, LastTransitionTime: ltt, ObservedGeneration: og}}
	}
	// Controllers: Deployment d0 owning rs0; rs1, rs2 bare.
	// (now and then near the int32 maximum: scales that sum past it wrap)
	huge := func(label string, small int) int32 {
		if rapid.IntRange(0, 7).Draw(t, label+"Huge") == 0 {
			return int32(math.MaxInt32 - rapid.IntRange(0, 3).Draw(t, label))
		}
		return int32(rapid.IntRange(0, small).Draw(t, label))
	}
	depReplicas := huge("dep", 20)
	c.upDeps = append(c.upDeps, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "d0", Namespace: ns, UID: "d0-uid"}, Spec: appsv1.DeploymentSpec{Replicas: &depReplicas}})
	c.ctls = append(c.ctls, pdb.Controller{APIVersion: "apps/v1", Kind: "Deployment", ObjectMeta: meta.ObjectMeta{Name: "d0", UID: "d0-uid"}, Spec: pdb.ControllerSpec{Replicas: difftest.Ptr(depReplicas)}})
	nRS := rapid.IntRange(0, 3).Draw(t, "rs")
	for i := range nRS {
		name := "rs" + strconv.Itoa(i)
		r := int32(rapid.IntRange(0, 400).Draw(t, "rsReplicas"))
		u := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: types.UID(name + "-uid")}, Spec: appsv1.ReplicaSetSpec{Replicas: &r}}
		k := pdb.Controller{APIVersion: "apps/v1", Kind: "ReplicaSet", ObjectMeta: meta.ObjectMeta{Name: name, UID: name + "-uid"}, Spec: pdb.ControllerSpec{Replicas: difftest.Ptr(r)}}
		if i == 0 {
			u.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "d0", UID: "d0-uid", Controller: difftest.Ptr(true)}}
			k.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "d0", UID: "d0-uid", Controller: difftest.Ptr(true)}}
		}
		c.upRS = append(c.upRS, u)
		c.ctls = append(c.ctls, k)
	}
	// A ReplicationController and a StatefulSet.
	rcR := huge("rc", 50)
	ssR := int32(rapid.IntRange(0, 50).Draw(t, "ss"))
	c.upRC = &v1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "rc0", Namespace: ns, UID: "rc0-uid"}, Spec: v1.ReplicationControllerSpec{Replicas: &rcR}}
	c.upSS = &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "ss0", Namespace: ns, UID: "ss0-uid"}, Spec: appsv1.StatefulSetSpec{Replicas: &ssR}}
	c.ctls = append(c.ctls, pdb.Controller{APIVersion: "v1", Kind: "ReplicationController", ObjectMeta: meta.ObjectMeta{Name: "rc0", UID: "rc0-uid"}, Spec: pdb.ControllerSpec{Replicas: difftest.Ptr(rcR)}},
		pdb.Controller{APIVersion: "apps/v1", Kind: "StatefulSet", ObjectMeta: meta.ObjectMeta{Name: "ss0", UID: "ss0-uid"}, Spec: pdb.ControllerSpec{Replicas: difftest.Ptr(ssR)}})
	n := rapid.IntRange(0, 40).Draw(t, "pods")
	if rapid.IntRange(0, 19).Draw(t, "large") == 0 {
		n = rapid.IntRange(0, maxPods).Draw(t, "manyPods")
	}
	disrupted := map[string]metav1.Time{}
	kdis := map[string]time.Time{}
	missing := false
	for i := range n {
		name := "p" + strconv.Itoa(i)
		podNS := ns
		if rapid.IntRange(0, 9).Draw(t, "otherNamespace") == 0 {
			podNS = "other"
		}
		phase := rapid.SampledFrom([]v1.PodPhase{v1.PodRunning, v1.PodRunning, v1.PodRunning, v1.PodPending, v1.PodSucceeded, v1.PodFailed}).Draw(t, "phase")
		up := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: podNS, UID: types.UID(name + "-uid"), Labels: sel}, Status: v1.PodStatus{Phase: phase}}
		kp := &podstatus.Pod{}
		kp.Name, kp.Namespace, kp.UID, kp.Labels = name, podNS, name+"-uid", sel
		kp.Status.Phase = podstatus.Phase(phase)
		// (a pod's generation: its reset DisruptionTarget condition
		// carries it as observedGeneration)
		up.Generation = int64(rapid.IntRange(0, 3).Draw(t, "podGeneration"))
		kp.Generation = up.Generation
		// Owner: none, one of the ReplicaSets, or a missing one (rarely,
		// and for one pod at most: upstream names the first failing pod of
		// its lister's map order).
		o := rapid.IntRange(-1, nRS).Draw(t, "owner")
		if o == nRS && (missing || rapid.IntRange(0, 20).Draw(t, "missing") != 0) {
			o = -1
		}
		missing = missing || o == nRS
		if o >= 0 && rapid.IntRange(0, 3).Draw(t, "otherKind") == 0 {
			api, kind, rn := "v1", "ReplicationController", "rc0"
			if rapid.Bool().Draw(t, "ss") {
				api, kind, rn = "apps/v1", "StatefulSet", "ss0"
			}
			up.OwnerReferences = []metav1.OwnerReference{{APIVersion: api, Kind: kind, Name: rn, UID: types.UID(rn + "-uid"), Controller: difftest.Ptr(true)}}
			kp.OwnerReferences = []meta.OwnerReference{{APIVersion: api, Kind: kind, Name: rn, UID: rn + "-uid", Controller: difftest.Ptr(true)}}
		} else if o >= 0 {
			rn := "rs" + strconv.Itoa(o)
			up.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rn, UID: types.UID(rn + "-uid"), Controller: difftest.Ptr(true)}}
			kp.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rn, UID: rn + "-uid", Controller: difftest.Ptr(true)}}
		}
		if r := rapid.IntRange(0, 2).Draw(t, "ready"); r > 0 {
			s := v1.ConditionTrue
			if r == 2 {
				s = v1.ConditionFalse
			}
			up.Status.Conditions = []v1.PodCondition{{Type: v1.PodReady, Status: s}}
			kp.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionStatus(s)}}
		}
		if rapid.IntRange(0, 6).Draw(t, "deleting") == 0 {
			d := syncNow.Add(-time.Second)
			up.DeletionTimestamp = &metav1.Time{Time: d}
			kp.DeletionTimestamp = &d
		}
		if rapid.IntRange(0, 3).Draw(t, "disruptionTarget") == 0 {
			// A DisruptionTarget condition, often at the stale expiry.
			ltt := drawAround(t, "stale", c.now, staleTimeout)
			status := rapid.SampledFrom([]v1.ConditionStatus{v1.ConditionTrue, v1.ConditionTrue, v1.ConditionFalse}).Draw(t, "targetStatus")
			reason := rapid.SampledFrom([]string{v1.PodReasonTerminationByKubelet, "EvictionByEvictionAPI", "DeletionByPodGC", "PreemptionByScheduler"}).Draw(t, "targetReason")
			up.Status.Conditions = append(up.Status.Conditions, v1.PodCondition{Type: v1.DisruptionTarget, Status: status, Reason: reason, LastTransitionTime: metav1.NewTime(ltt)})
			kp.Status.Conditions = append(kp.Status.Conditions, podstatus.Condition{Type: podstatus.DisruptionTarget, Status: meta.ConditionStatus(status), Reason: reason, LastTransitionTime: ltt})
		}
		if rapid.IntRange(0, 3).Draw(t, "disrupted") == 0 {
			// A disruptedPods entry, often at the deletion timeout's expiry.
			at := drawAround(t, "disrupted", c.now, deletionTimeout)
			disrupted[name] = metav1.NewTime(at)
			kdis[name] = at
		}
		c.upPods = append(c.upPods, up)
		c.pods = append(c.pods, kp)
	}
	if rapid.IntRange(0, 4).Draw(t, "ghost") == 0 {
		disrupted["ghost"] = metav1.NewTime(syncNow.Add(-time.Second))
		kdis["ghost"] = syncNow.Add(-time.Second)
	}
	if len(disrupted) > 0 || rapid.Bool().Draw(t, "emptyMap") {
		st.DisruptedPods = disrupted
		kst.DisruptedPods = kdis
	}
	c.upPDB.Status = st
	kst.ObservedGeneration, kst.DisruptionsAllowed, kst.CurrentHealthy, kst.DesiredHealthy, kst.ExpectedPods =
		st.ObservedGeneration, st.DisruptionsAllowed, st.CurrentHealthy, st.DesiredHealthy, st.ExpectedPods
	c.pdb.Status = kst
	return c
}

func checkSyncDifferential(t *rapid.T, maxPods int) { checkSyncDifferentialCounted(t, maxPods, nil) }

// checkSyncDifferentialCounted is checkSyncDifferential; wrapped, when
// not nil, counts the syncs whose expected count wrapped past int32.
func checkSyncDifferentialCounted(t *rapid.T, maxPods int, wrapped *int) {
	c := drawSyncCase(t, maxPods)
	shift := shift(c.opts.DeletionTimeout)
	in := upIn{budget: c.upPDB.DeepCopy(), pods: c.upPods, rcs: []*v1.ReplicationController{c.upRC}, rss: c.upRS,
		deps: c.upDeps, sss: []*appsv1.StatefulSet{c.upSS}, now: c.now, staleTimeout: c.opts.StalePodDisruptionTimeout}
	for name, at := range in.budget.Status.DisruptedPods {
		in.budget.Status.DisruptedPods[name] = metav1.NewTime(at.Add(shift))
	}
	up := upRun(t, in)
	want, err := planOf(up, c.pdb.Status, c.now, shift)
	if err != nil {
		t.Fatalf("upstream: %v", err)
	}
	got, err := pdb.Step(&c.pdb, c.pods, c.ctls, c.now, c.opts)
	if err != nil {
		t.Fatalf("kubesem error: %v", err)
	}
	if wrapped != nil && got.Status.ExpectedPods < 0 {
		*wrapped++
	}
	if err := compareWrites(got, &c.pdb, c.pods, c.now, up); err != nil {
		t.Fatalf("%v", err)
	}
	stripDivergent(&want)
	stripDivergent(&got)
	wj, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	gj, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(difftest.CanonicalRaw(wj), difftest.CanonicalRaw(gj)) {
		t.Fatalf("plans differ:\nupstream %s\nkubesem  %s", wj, gj)
	}
}

// TestPDBSyncDifferential: one disruption controller sync (and its stale-pod
// worker on the budget's namespace), kubesem's Step against v1.36.3 on fakes
// (upRun), whole Plans compared (planOf): outcome, status, the status
// write, events, requeues, stale DisruptionTarget resets. Random budgets
// (int and percent, both fields), up to 40 pods (one state in twenty: up to
// 1,000), some in another namespace, in every phase; a Deployment and up to
// three ReplicaSets, a ReplicationController and a StatefulSet; unmanaged
// pods, a pod whose ReplicaSet is missing; disruptedPods entries and
// DisruptionTarget conditions drawn at their expiry (DeletionTimeout, the
// stale timeout) exactly, a nanosecond either side, or around it; now with
// and without nanoseconds; the deletion and stale timeout options. The
// Plan's Writes are compared with the requests upstream sent
// (compareWrites).
func TestPDBSyncDifferential(t *testing.T) {
	wrapped, total := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		total++
		checkSyncDifferentialCounted(t, 1000, &wrapped)
	})
	t.Logf("%d of %d syncs whose expected count wrapped past int32 (status.expectedPods < 0)", wrapped, total)
	if total >= 1000 && wrapped*200 < total {
		t.Errorf("too few syncs whose controllers' scales wrap: %d of %d", wrapped, total)
	}
}
