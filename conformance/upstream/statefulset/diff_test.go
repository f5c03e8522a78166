package statefulset_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"
	_ "unsafe"

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	upintstr "k8s.io/apimachinery/pkg/util/intstr"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/tools/record"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	appsv1defaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/controller/history"
	upsts "k8s.io/kubernetes/pkg/controller/statefulset"
	"k8s.io/kubernetes/pkg/features"
	clocktesting "k8s.io/utils/clock/testing"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	khistory "github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/statefulset"
)

//go:linkname upIsMemberOf k8s.io/kubernetes/pkg/controller/statefulset.isMemberOf
func upIsMemberOf(set *apps.StatefulSet, pod *v1.Pod) bool

// claimed returns the pods the controller gives UpdateStatefulSet: those
// getPodsForStatefulSet claims, whose name isMemberOf the set (the pods of
// the harness match the selector and have no other owner).
func claimed(set *apps.StatefulSet, pods []*v1.Pod) []*v1.Pod {
	var out []*v1.Pod
	for _, p := range pods {
		if upIsMemberOf(set, p) {
			out = append(out, p)
		}
	}
	return out
}

//go:linkname upNewRevision k8s.io/kubernetes/pkg/controller/statefulset.newRevision
func upNewRevision(set *apps.StatefulSet, revision int64, collisionCount *int32) (*apps.ControllerRevision, error)

var t0 = time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)

// newFake records what upstream's control writes; reads come from the
// sync's inputs (informer caches do not see this sync's writes). Like the
// API server, it refuses to create a pod whose name exists or was created
// already. Lists are in call order (the writes of one goroutine keep their
// order).
type newFake struct {
	mu        sync.Mutex
	pods      map[string]*v1.Pod
	claims    map[string]*v1.PersistentVolumeClaim
	revs      []*apps.ControllerRevision
	created   []statefulset.NewPod
	newPods   []*v1.Pod // the created pods, whole
	deleted   []string
	deletedP  []*v1.Pod // the deleted pods, as upstream passed them
	updated   []string
	updatedP  []*v1.Pod // the updated pods, as upstream passed them
	claimW    []statefulset.ClaimWrite
	revW      []khistory.Write
	status    *apps.StatefulSetStatus
	createErr bool
	createdN  map[string]bool
	// acts are the writes that succeeded, in call order.
	acts []act
}

// act is one write upstream sent (and the fake accepted): verb,
// resource, subresource, the object's name and the object.
type act struct {
	verb, resource, sub, name string
	obj                       any
}

func (f *newFake) CreatePod(_ context.Context, pod *v1.Pod, _ *apps.StatefulSet) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.pods[pod.Name]; ok || f.createdN[pod.Name] {
		return apierrors.NewAlreadyExists(schema.GroupResource{Resource: "pods"}, pod.Name)
	}
	if f.createdN == nil {
		f.createdN = map[string]bool{}
	}
	f.createdN[pod.Name] = true
	// The ordinal the controller gave the pod: its pod-index label.
	o, err := strconv.ParseInt(pod.Labels[apps.PodIndexLabel], 10, 32)
	if err != nil {
		panic(fmt.Sprintf("created pod %s: pod-index %q", pod.Name, pod.Labels[apps.PodIndexLabel]))
	}
	f.created = append(f.created, statefulset.NewPod{Name: pod.Name, Ordinal: int32(o), Revision: pod.Labels[apps.StatefulSetRevisionLabel]})
	f.newPods = append(f.newPods, pod.DeepCopy())
	f.acts = append(f.acts, act{"create", "pods", "", pod.Name, pod.DeepCopy()})
	return nil
}

func (f *newFake) GetPod(_, name string) (*v1.Pod, error) {
	if p, ok := f.pods[name]; ok {
		return p, nil
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "pods"}, name)
}

func (f *newFake) UpdatePod(pod *v1.Pod, _ *apps.StatefulSet) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.pods[pod.Name]; !ok {
		return apierrors.NewNotFound(schema.GroupResource{Resource: "pods"}, pod.Name)
	}
	f.updated = append(f.updated, pod.Name)
	f.updatedP = append(f.updatedP, pod.DeepCopy())
	f.acts = append(f.acts, act{"update", "pods", "", pod.Name, pod.DeepCopy()})
	return nil
}

func (f *newFake) DeletePod(pod *v1.Pod) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deleted = append(f.deleted, pod.Name)
	f.deletedP = append(f.deletedP, pod.DeepCopy())
	f.acts = append(f.acts, act{"delete", "pods", "", pod.Name, nil})
	return nil
}

func (f *newFake) CreateClaim(c *v1.PersistentVolumeClaim, _ *apps.StatefulSet) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.claimW = append(f.claimW, statefulset.ClaimWrite{Verb: statefulset.ClaimCreate, Name: c.Name})
	f.acts = append(f.acts, act{"create", "persistentvolumeclaims", "", c.Name, c.DeepCopy()})
	return nil
}

func (f *newFake) GetClaim(_, name string) (*v1.PersistentVolumeClaim, error) {
	if c, ok := f.claims[name]; ok {
		return c, nil
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "persistentvolumeclaims"}, name)
}

func (f *newFake) UpdateClaim(c *v1.PersistentVolumeClaim, _ *apps.StatefulSet) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.claimW = append(f.claimW, statefulset.ClaimWrite{Verb: statefulset.ClaimUpdate, Name: c.Name, OwnerReferences: difftest.Must(k8s.FromPersistentVolumeClaim(c)).OwnerReferences})
	f.acts = append(f.acts, act{"update", "persistentvolumeclaims", "", c.Name, c.DeepCopy()})
	return nil
}

func (f *newFake) UpdateStatefulSetStatus(_ context.Context, _ *apps.StatefulSet, st *apps.StatefulSetStatus) error {
	f.status = st.DeepCopy()
	f.mu.Lock()
	f.acts = append(f.acts, act{"update", "statefulsets", "status", "", st.DeepCopy()})
	f.mu.Unlock()
	return nil
}

// history.Interface
func (f *newFake) ListControllerRevisions(metav1.Object, schema.GroupVersionKind, labels.Selector) ([]*apps.ControllerRevision, error) {
	return slices.Clone(f.revs), nil
}

func (f *newFake) CreateControllerRevision(parent metav1.Object, r *apps.ControllerRevision, cc *int32) (*apps.ControllerRevision, error) {
	c := r.DeepCopy()
	c.Name = history.ControllerRevisionName(parent.GetName(), history.HashControllerRevision(r, cc))
	f.revW = append(f.revW, khistory.Write{Verb: plan.VerbCreate, Name: c.Name, Revision: c.Revision})
	f.acts = append(f.acts, act{"create", "controllerrevisions", "", c.Name, c.DeepCopy()})
	return c, nil
}

func (f *newFake) DeleteControllerRevision(r *apps.ControllerRevision) error {
	f.revW = append(f.revW, khistory.Write{Verb: plan.VerbDelete, Name: r.Name, Revision: r.Revision})
	f.acts = append(f.acts, act{"delete", "controllerrevisions", "", r.Name, nil})
	return nil
}

func (f *newFake) UpdateControllerRevision(r *apps.ControllerRevision, n int64) (*apps.ControllerRevision, error) {
	c := r.DeepCopy()
	c.Revision = n
	f.revW = append(f.revW, khistory.Write{Verb: plan.VerbUpdate, Name: c.Name, Revision: n})
	f.acts = append(f.acts, act{"update", "controllerrevisions", "", c.Name, c.DeepCopy()})
	return c, nil
}

func (f *newFake) AdoptControllerRevision(_ metav1.Object, _ schema.GroupVersionKind, r *apps.ControllerRevision) (*apps.ControllerRevision, error) {
	return r, nil
}

func (f *newFake) ReleaseControllerRevision(_ metav1.Object, r *apps.ControllerRevision) (*apps.ControllerRevision, error) {
	return r, nil
}

// diffCase is one random set with its pods, revisions and claims in both models.
type diffCase struct {
	upSet    *apps.StatefulSet
	upPods   []*v1.Pod
	upRevs   []*apps.ControllerRevision
	upClaims map[string]*v1.PersistentVolumeClaim
	set      *statefulset.StatefulSet
	pods     []*podstatus.Pod
	revs     []khistory.ControllerRevision
	claims   []*statefulset.Claim
}

var (
	revMu    sync.Mutex
	revCache = map[string]*apps.ControllerRevision{}
)

// revision returns upstream's ControllerRevision for the set with image
// img (cached: the revision depends only on the template, the set's name
// and the collision count).
func revision(set *apps.StatefulSet, img string, cc int32) *apps.ControllerRevision {
	revMu.Lock()
	defer revMu.Unlock()
	key := img + "/" + strconv.Itoa(int(cc))
	if r, ok := revCache[key]; ok {
		return r
	}
	s := set.DeepCopy()
	s.Spec.Template = template(img)
	s.Annotations = nil
	r, err := upNewRevision(s, 1, &cc)
	if err != nil {
		panic(err)
	}
	revCache[key] = r
	return r
}

var images = []string{"nginx:1", "nginx:2", "nginx:3"}

func template(img string) v1.PodTemplateSpec {
	return v1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: img}}},
	}
}

func drawDiffCase(t *rapid.T) diffCase {
	var c diffCase
	replicas := int32(rapid.IntRange(0, 6).Draw(t, "replicas"))
	start := int32(0)
	var ords *apps.StatefulSetOrdinals
	if rapid.Bool().Draw(t, "hasStart") {
		start = int32(rapid.IntRange(0, 3).Draw(t, "start"))
		if rapid.IntRange(0, 3).Draw(t, "highStart") == 0 {
			// The top of int32: the last ordinal from two below MaxInt32
			// to two past it (one past it for a Parallel set, whose
			// goroutines would race to create the one pod, "web--1",
			// upstream names the ordinals past int32, see statefulset.Step).
			past := int64(rapid.IntRange(-2, 2).Draw(t, "pastTop"))
			start = int32(min(math.MaxInt32, math.MaxInt32-int64(max(replicas, 1))+1+past))
		}
		ords = &apps.StatefulSetOrdinals{Start: start}
	}
	// "" is OrderedReady after API defaulting.
	policy := rapid.SampledFrom([]apps.PodManagementPolicyType{apps.OrderedReadyPodManagement, apps.ParallelPodManagement, ""}).Draw(t, "policy")
	if policy == apps.ParallelPodManagement && int64(start)+int64(replicas)-1 > math.MaxInt32+1 {
		replicas-- // one ordinal past int32 at most
	}
	// The update strategy as a user submits it: absent, an empty type with
	// or without a rollingUpdate block, RollingUpdate with or without one,
	// partition and maxUnavailable set or not, or OnDelete; API defaulting
	// (SetDefaults_StatefulSet) is applied to upstream's set below, kubesem
	// gets it undefaulted.
	var strategy apps.StatefulSetUpdateStrategy
	switch rapid.IntRange(0, 5).Draw(t, "strategy") {
	case 0:
		strategy.Type = apps.OnDeleteStatefulSetStrategyType
	case 1: // absent
	case 2:
		strategy.Type = apps.RollingUpdateStatefulSetStrategyType
	default:
		strategy.Type = rapid.SampledFrom([]apps.StatefulSetUpdateStrategyType{apps.RollingUpdateStatefulSetStrategyType, ""}).Draw(t, "ruType")
		strategy.RollingUpdate = &apps.RollingUpdateStatefulSetStrategy{}
		if rapid.IntRange(0, 3).Draw(t, "hasPartition") > 0 {
			p := int32(rapid.IntRange(0, 8).Draw(t, "partition"))
			strategy.RollingUpdate.Partition = &p
		}
		switch rapid.IntRange(0, 2).Draw(t, "maxU") {
		case 1:
			u := upintstr.FromInt32(int32(rapid.IntRange(1, 4).Draw(t, "maxUi")))
			strategy.RollingUpdate.MaxUnavailable = &u
		case 2:
			u := upintstr.FromString(strconv.Itoa(rapid.IntRange(1, 100).Draw(t, "maxUp")) + "%")
			strategy.RollingUpdate.MaxUnavailable = &u
		}
	}
	mrs := int32(rapid.SampledFrom([]int32{0, 0, 10}).Draw(t, "minReady"))
	hist := int32(rapid.SampledFrom([]int32{0, 1, 2, 10}).Draw(t, "history"))
	var templates []string
	for _, n := range []string{"data", "logs"}[:rapid.IntRange(0, 2).Draw(t, "templates")] {
		templates = append(templates, n)
	}
	var upPolicy *apps.StatefulSetPersistentVolumeClaimRetentionPolicy
	if rapid.Bool().Draw(t, "hasRetention") {
		pick := func(l string) apps.PersistentVolumeClaimRetentionPolicyType {
			return rapid.SampledFrom([]apps.PersistentVolumeClaimRetentionPolicyType{apps.RetainPersistentVolumeClaimRetentionPolicyType, apps.DeletePersistentVolumeClaimRetentionPolicyType}).Draw(t, l)
		}
		upPolicy = &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: pick("whenDeleted"), WhenScaled: pick("whenScaled")}
	}
	var cc *int32
	if rapid.IntRange(0, 3).Draw(t, "hasCC") == 0 {
		v := int32(rapid.IntRange(0, 1).Draw(t, "cc"))
		cc = &v
	}
	gen := int64(rapid.IntRange(1, 3).Draw(t, "gen"))
	up := &apps.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "set-uid", Generation: gen},
		Spec: apps.StatefulSetSpec{
			Replicas: &replicas, Ordinals: ords, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			ServiceName: "nginx", PodManagementPolicy: policy, UpdateStrategy: strategy, MinReadySeconds: mrs,
			RevisionHistoryLimit: &hist, PersistentVolumeClaimRetentionPolicy: upPolicy,
		},
	}
	for _, n := range templates {
		up.Spec.VolumeClaimTemplates = append(up.Spec.VolumeClaimTemplates, v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: n},
			Spec: v1.PersistentVolumeClaimSpec{AccessModes: []v1.PersistentVolumeAccessMode{v1.ReadWriteOnce},
				Resources: v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: resource.MustParse("1Gi")}}}})
	}
	if rapid.IntRange(0, 9).Draw(t, "deleting") == 0 {
		ts := metav1.NewTime(t0.Add(-time.Minute))
		up.DeletionTimestamp = &ts
	}
	// revision names of the three templates
	ccv := int32(0)
	if cc != nil {
		ccv = *cc
	}
	names := make([]string, len(images))
	for i, img := range images {
		names[i] = revision(up, img, ccv).Name
	}
	tmpl := rapid.IntRange(0, 2).Draw(t, "template")
	up.Spec.Template = template(images[tmpl])
	// existing revisions
	nums := rapid.Permutation([]int64{1, 2, 3, 4, 5}).Draw(t, "revnums")
	for i, img := range images {
		if !rapid.Bool().Draw(t, "rev"+strconv.Itoa(i)) {
			continue
		}
		r := revision(up, img, ccv).DeepCopy()
		r.Revision = nums[i]
		r.Namespace = "default"
		c.upRevs = append(c.upRevs, r)
	}
	revLabel := func(l string) string {
		switch k := rapid.IntRange(0, 4).Draw(t, l); k {
		case 3:
			return ""
		case 4:
			return "web-other"
		default:
			return names[k]
		}
	}
	// status
	st := apps.StatefulSetStatus{ObservedGeneration: int64(rapid.IntRange(0, 3).Draw(t, "obsGen")),
		Replicas: int32(rapid.IntRange(0, 6).Draw(t, "stReplicas")), ReadyReplicas: int32(rapid.IntRange(0, 3).Draw(t, "stReady")),
		CurrentReplicas: int32(rapid.IntRange(0, 6).Draw(t, "stCurrent")), UpdatedReplicas: int32(rapid.IntRange(0, 3).Draw(t, "stUpdated")),
		AvailableReplicas: int32(rapid.IntRange(0, 3).Draw(t, "stAvail")), CurrentRevision: revLabel("stCurRev"), UpdateRevision: revLabel("stUpdRev"), CollisionCount: cc}
	up.Status = st
	c.upSet = up
	// pods and claims
	c.upClaims = map[string]*v1.PersistentVolumeClaim{}
	// Pods from 0 (or just below a high start) to two past the range,
	// never past MaxInt32 (such names are not modelled).
	var upClaims []*v1.PersistentVolumeClaim // in draw order
	lo := 0
	if start > 100 {
		lo = int(start) - 2
	}
	maxOrd := min(int(start)+int(replicas)+2, math.MaxInt32+1)
	// healthy: pods are mostly Running, Ready and not terminating, so
	// syncs reach scale-down and the rolling update.
	healthy := rapid.Bool().Draw(t, "healthy")
	for o := lo; o < maxOrd; o++ {
		name := "web-" + strconv.Itoa(o)
		for _, tn := range templates {
			if !rapid.Bool().Draw(t, "claim") {
				continue
			}
			cn := tn + "-" + name
			pc := &v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: cn, Namespace: "default", UID: types.UID("c-" + cn)}}
			if rapid.IntRange(0, 14).Draw(t, "claimDeleting") == 0 {
				ts := metav1.NewTime(t0.Add(-time.Second))
				pc.DeletionTimestamp = &ts
			}
			tr, fa := true, false
			for k := rapid.IntRange(0, 2).Draw(t, "nrefs"); k > 0; k-- {
				var r metav1.OwnerReference
				switch rapid.IntRange(0, 6).Draw(t, "ref") {
				case 0:
					r = metav1.OwnerReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", UID: "set-uid", Controller: &tr}
				case 1:
					r = metav1.OwnerReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", UID: "old-set", Controller: &tr}
				case 2:
					r = metav1.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: name, UID: types.UID("uid-" + name), Controller: &tr}
				case 3:
					r = metav1.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: name, UID: "old-pod", Controller: &tr}
				case 4:
					r = metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "x", UID: "other", Controller: &tr}
				case 5:
					r = metav1.OwnerReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", UID: "set-uid", Controller: &fa}
				case 6:
					r = metav1.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: name, UID: types.UID("uid-" + name)}
				}
				pc.OwnerReferences = append(pc.OwnerReferences, r)
			}
			c.upClaims[cn] = pc
			upClaims = append(upClaims, pc)
		}
		if !rapid.Bool().Draw(t, "pod") {
			continue
		}
		phases := []v1.PodPhase{v1.PodRunning, v1.PodRunning, v1.PodRunning, v1.PodPending, v1.PodFailed, v1.PodSucceeded, ""}
		if healthy {
			phases = []v1.PodPhase{v1.PodRunning, v1.PodRunning, v1.PodRunning, v1.PodRunning, v1.PodRunning, v1.PodRunning, v1.PodPending}
		}
		phase := rapid.SampledFrom(phases).Draw(t, "phase")
		pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name), Labels: map[string]string{"app": "web"}},
			Status: v1.PodStatus{Phase: phase}}
		if rev := revLabel("podRev"); rev != "" {
			pod.Labels[apps.StatefulSetRevisionLabel] = rev
		}
		if rapid.IntRange(0, 5).Draw(t, "idLabel") > 0 {
			pod.Labels[apps.StatefulSetPodNameLabel] = name
		}
		readyMin := 0
		if healthy {
			readyMin = 1
		}
		if ready := rapid.IntRange(readyMin, 3).Draw(t, "ready"); ready > 0 {
			// minReadySeconds (10 when set) is drawn at the boundary and one second
			// either side: API timestamps are whole seconds.
			lt := t0.Add(-time.Duration(rapid.SampledFrom([]int{0, 3, 9, 10, 11, 30}).Draw(t, "readyAgo")) * time.Second)
			cs := v1.ConditionTrue
			if ready == 3 {
				cs = v1.ConditionFalse
			}
			pod.Status.Conditions = []v1.PodCondition{{Type: v1.PodReady, Status: cs, LastTransitionTime: metav1.NewTime(lt)}}
		}
		termN := 4
		if healthy {
			termN = 15
		}
		if rapid.IntRange(0, termN).Draw(t, "terminating") == 0 {
			ts := metav1.NewTime(t0.Add(-time.Second))
			pod.DeletionTimestamp = &ts
		}
		for _, tn := range templates {
			switch rapid.IntRange(0, 5).Draw(t, "vol") {
			case 0: // missing
			case 1:
				pod.Spec.Volumes = append(pod.Spec.Volumes, v1.Volume{Name: tn, VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}})
			default:
				cn := tn + "-" + name
				pod.Spec.Volumes = append(pod.Spec.Volumes, v1.Volume{Name: tn, VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: cn}}})
			}
		}
		c.upPods = append(c.upPods, pod)
	}
	// Now and then a pod of the set whose ordinal does not fit int32:
	// upstream claims it, counts it in the status and keeps its revision
	// live, but gives it ordinal -1 and never syncs it. Or, when the set
	// has an ordinal past int32, the pod "web--1" upstream creates for it
	// (not the set's: its creation fails) or a pod "web-1", which the
	// identity update of "web--1" writes.
	if rapid.IntRange(0, 9).Draw(t, "overflowPod") == 0 {
		names := []string{"2147483648", "99999999999"}
		if int64(start)+int64(replicas)-1 > math.MaxInt32 {
			names = append(names, "-1", "1")
		}
		name := "web-" + rapid.SampledFrom(names).Draw(t, "overflowName")
		phase := rapid.SampledFrom([]v1.PodPhase{v1.PodRunning, v1.PodPending, ""}).Draw(t, "overflowPhase")
		pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name), Labels: map[string]string{"app": "web"}},
			Status: v1.PodStatus{Phase: phase}}
		if rev := revLabel("overflowRev"); rev != "" {
			pod.Labels[apps.StatefulSetRevisionLabel] = rev
		}
		if phase == v1.PodRunning && rapid.Bool().Draw(t, "overflowReady") {
			pod.Status.Conditions = []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue, LastTransitionTime: metav1.NewTime(t0.Add(-time.Hour))}}
		}
		c.upPods = append(c.upPods, pod)
	}
	// UpdateStatefulSet, which this differential runs, reads the pods the
	// sync claimed: the set's members are its own (kubesem's Step claims
	// them), a pod of another name an orphan neither claims.
	for _, pod := range c.upPods {
		if !statefulset.IsMemberOf(up.Name, pod.Name) {
			continue // (the sync would not claim it)
		}
		tr := true
		pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", UID: up.UID, Controller: &tr, BlockOwnerDeletion: &tr}}
	}
	// kubesem's inputs, through the adapter (the revision name included),
	// the set as submitted; upstream's as the API server stores it.
	c.set = difftest.Must(k8s.FromStatefulSetWithRevisions(up, c.upRevs))
	appsv1defaults.SetDefaults_StatefulSet(up)
	c.pods = difftest.MustList(k8s.FromPods(c.upPods))
	c.claims = difftest.MustList(k8s.FromPersistentVolumeClaims(upClaims))
	c.revs = k8s.FromControllerRevisions(c.upRevs)
	if c.set.Spec.TemplateRevision != names[tmpl] {
		t.Fatalf("adapter revision %s; upstream %s", c.set.Spec.TemplateRevision, names[tmpl])
	}
	return c
}

// runUpstream runs one upstream UpdateStatefulSet and returns what it did
// in kubesem's vocabulary (order-insensitive lists sorted).
type result struct {
	Revisions    []khistory.Write
	Create       []statefulset.NewPod
	Delete       []string
	Update       []string
	Claims       []statefulset.ClaimWrite
	Status       *statefulset.Status
	Err          bool
	RequeueAfter *time.Duration
}

func runUpstream(c diffCase) result {
	f := &newFake{pods: map[string]*v1.Pod{}, claims: c.upClaims, revs: c.upRevs}
	for _, p := range c.upPods {
		f.pods[p.Name] = p
	}
	rec := record.NewFakeRecorder(1000)
	ctl := upsts.NewDefaultStatefulSetControl(upsts.NewStatefulPodControlFromManager(f, rec), f, f)
	st, err := ctl.UpdateStatefulSet(context.Background(), c.upSet, claimed(c.upSet, c.upPods), t0)
	r := result{Revisions: f.revW, Create: f.created, Delete: f.deleted, Update: f.updated, Claims: f.claimW, Err: err != nil}
	if f.status != nil {
		s, err := k8s.FromStatefulSetStatus(f.status)
		if err != nil {
			panic(err)
		}
		r.Status = &s
	}
	if err == nil && c.upSet.Spec.MinReadySeconds > 0 && st != nil && st.ReadyReplicas != st.AvailableReplicas {
		d := time.Duration(c.upSet.Spec.MinReadySeconds) * time.Second
		if n := controller.FindMinNextPodAvailabilityCheck(c.upPods, c.upSet.Spec.MinReadySeconds, t0, clocktesting.NewFakeClock(t0)); n != nil {
			d = *n
		}
		r.RequeueAfter = &d
	}
	return r.normalize(c.upSet.Spec.PodManagementPolicy == apps.ParallelPodManagement)
}

func fromPlan(p statefulset.Plan, parallel bool) result {
	r := result{Create: p.Create.Objects}
	for _, w := range p.Revisions {
		w.Reason = ""
		r.Revisions = append(r.Revisions, w)
	}
	for _, d := range p.Delete {
		r.Delete = append(r.Delete, d.Name)
	}
	for _, u := range p.Update {
		r.Update = append(r.Update, u.Name)
	}
	for _, w := range p.Claims {
		w.Pod, w.Reason = "", ""
		if w.Verb == statefulset.ClaimCreate {
			w.OwnerReferences = nil
		}
		r.Claims = append(r.Claims, w)
	}
	if p.UpdateStatus {
		s := p.Status
		r.Status = &s
	}
	r.Err = p.Outcome == statefulset.ReasonError
	if q, ok := plan.First(p.Requeue); ok && !q.RateLimited {
		d := q.After
		r.RequeueAfter = &d
	}
	return r.normalize(parallel)
}

func (r result) normalize(parallel bool) result {
	sort.Slice(r.Claims, func(i, j int) bool {
		return fmt.Sprint(r.Claims[i]) < fmt.Sprint(r.Claims[j])
	})
	for i := range r.Claims {
		if len(r.Claims[i].OwnerReferences) == 0 {
			r.Claims[i].OwnerReferences = nil
		}
	}
	if parallel {
		sort.Slice(r.Create, func(i, j int) bool { return r.Create[i].Ordinal < r.Create[j].Ordinal })
		sort.Strings(r.Delete)
		sort.Strings(r.Update)
	}
	if r.Status != nil && r.Status.CollisionCount == nil {
		z := int32(0)
		r.Status.CollisionCount = &z
	}
	return r
}

func runBoth(c diffCase, opts statefulset.Options) (result, result, error) {
	up := runUpstream(c)
	p, err := statefulset.Step(c.set, c.pods, c.revs, c.claims, t0, opts)
	if err != nil {
		return up, result{}, err
	}
	return up, fromPlan(p, c.set.Spec.PodManagementPolicy == statefulset.Parallel), nil
}

func checkDifferential(t *rapid.T, opts statefulset.Options, counts map[string]int) {
	c := drawDiffCase(t)
	up, got, err := runBoth(c, opts)
	if err != nil {
		t.Fatalf("Step: %v", err)
	}
	if d := resultDiff(up, got); d != "" {
		t.Fatalf("differs from v1.36.3:\n%s", d)
	}
	counts["states"]++
	if us := c.set.Spec.UpdateStrategy; us.Type == "" && us.RollingUpdate == nil {
		counts["updateStrategy absent"]++
	} else if us.Type == "" {
		counts["updateStrategy with an empty type"]++
	} else if us.Type == statefulset.RollingUpdate && us.RollingUpdate == nil {
		counts["RollingUpdate without rollingUpdate"]++
	}
	if int64(c.set.Start())+int64(c.set.Replicas())-1 > math.MaxInt32 {
		counts["last ordinal past int32"]++
	}
	for _, p := range up.Create {
		if p.Ordinal == -1 {
			counts["web--1 created"]++
		}
	}
}

func resultDiff(a, b result) string {
	as, bs := fmt.Sprintf("%+v", showResult(a)), fmt.Sprintf("%+v", showResult(b))
	if as == bs {
		return ""
	}
	return "upstream: " + as + "\nkubesem:  " + bs
}

func showResult(r result) string {
	s := fmt.Sprintf("revs=%v create=%v delete=%v update=%v claims=[", r.Revisions, r.Create, r.Delete, r.Update)
	for _, c := range r.Claims {
		s += fmt.Sprintf("{%s %s", c.Verb, c.Name)
		for _, o := range c.OwnerReferences {
			s += fmt.Sprintf(" %s/%s/%s/%s/%v", o.APIVersion, o.Kind, o.Name, o.UID, o.IsController())
		}
		s += "}"
	}
	s += "] "
	if r.Status != nil {
		st := *r.Status
		cc := *st.CollisionCount
		st.CollisionCount = nil
		s += fmt.Sprintf("status=%+v cc=%d ", st, cc)
	} else {
		s += "status=none "
	}
	if r.RequeueAfter != nil {
		s += "requeue=" + r.RequeueAfter.String()
	}
	return s + fmt.Sprintf(" err=%v", r.Err)
}

// TestStatefulSetStepDifferential compares one Step with one upstream
// UpdateStatefulSet (defaultStatefulSetControl on fake object manager,
// history and status updater) and the requeue of sync, gate off.
func TestStatefulSetStepDifferential(t *testing.T) {
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) { checkDifferential(t, statefulset.Options{}, counts) })
	difftest.LogCounts(t, counts)
}

// TestStatefulSetStepDifferentialMaxUnavailable is the same with the
// MaxUnavailableStatefulSet gate on.
func TestStatefulSetStepDifferentialMaxUnavailable(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.MaxUnavailableStatefulSet, true)
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		checkDifferential(t, statefulset.Options{MaxUnavailableStatefulSet: true}, counts)
	})
	difftest.LogCounts(t, counts)
}

var _ = errors.New
