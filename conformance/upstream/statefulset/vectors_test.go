package statefulset_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	_ "unsafe"

	"github.com/go-logr/logr"
	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	upintstr "k8s.io/apimachinery/pkg/util/intstr"
	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/tools/record"
	"k8s.io/component-base/metrics/legacyregistry"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	internalapps "k8s.io/kubernetes/pkg/apis/apps"
	appsv1defaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	apivalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/controller"
	upsts "k8s.io/kubernetes/pkg/controller/statefulset"
	stsmetrics "k8s.io/kubernetes/pkg/controller/statefulset/metrics"
	"k8s.io/kubernetes/pkg/features"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/statefulset"
)

// vector is one vector of testdata/statefulset as written and read.
type vector struct {
	Decision  string               `json:"decision"`
	Name      string               `json:"name"`
	Source    string               `json:"source"`
	Options   *statefulset.Options `json:"options,omitempty"`
	Input     json.RawMessage      `json:"input"`
	Want      json.RawMessage      `json:"want,omitempty"`
	WantError *wantError           `json:"wantError,omitempty"`
}

type wantError struct {
	Field string `json:"field"`
	Kind  string `json:"kind"`
}

type vectorInput struct {
	Set       statefulset.StatefulSet      `json:"set"`
	Pods      []*podstatus.Pod             `json:"pods"`
	Revisions []history.ControllerRevision `json:"revisions"`
	Claims    []*statefulset.Claim         `json:"claims"`
	Now       time.Time                    `json:"now"`
}

func opts(o *statefulset.Options) statefulset.Options {
	if o == nil {
		return statefulset.Options{}
	}
	return *o
}

func readVectors(t *testing.T, file string) []vector {
	t.Helper()
	b, err := os.ReadFile(difftest.Repo("testdata", "statefulset", file))
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

// setGate sets the MaxUnavailableStatefulSet gate and returns the
// function restoring it.
func setGate(on bool) func() {
	was := utilfeature.DefaultFeatureGate.Enabled(features.MaxUnavailableStatefulSet)
	set := func(v bool) {
		if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{string(features.MaxUnavailableStatefulSet): v}); err != nil {
			panic(err)
		}
	}
	set(on)
	return func() { set(was) }
}

// TestStatefulSetVectorsUpstream replays testdata/statefulset/step.json:
// each want is the one upstream v1.36.3 gives for the vector's input
// (vectorWant, as TestGenerateStatefulSetVectors wrote it), kubesem's Step
// matches it; each wantError of an API-validation vector is upstream's
// rejection, and kubesem rejects there too.
func TestStatefulSetVectorsUpstream(t *testing.T) {
	n := 0
	for _, v := range readVectors(t, "step.json") {
		opts := opts(v.Options)
		t.Run(v.Name, func(t *testing.T) {
			defer setGate(opts.MaxUnavailableStatefulSet)()
			var in vectorInput
			if err := json.Unmarshal(v.Input, &in); err != nil {
				t.Fatal(err)
			}
			p, kerr := statefulset.Step(&in.Set, in.Pods, in.Revisions, in.Claims, in.Now, opts)
			if v.WantError != nil {
				if kerr == nil {
					t.Fatalf("Step accepts; want %+v", *v.WantError)
				}
				if !apiValidationSource(v.Source) {
					return // a kubesem input rule, no upstream counterpart
				}
				if got := upstreamRejection(t, &in); got != *v.WantError {
					t.Fatalf("upstream rejects with %+v; vector says %+v", got, *v.WantError)
				}
				return
			}
			if kerr != nil {
				t.Fatalf("Step: %v", kerr)
			}
			want := vectorWant(t, &in)
			if !sameJSON(want, v.Want) {
				t.Fatalf("the vector's want is not upstream's:\nvector:   %s\nupstream: %s", difftest.CompactJSON(v.Want), difftest.CompactJSON(want))
			}
			got, err := plan.Encode(p)
			if err != nil {
				t.Fatal(err)
			}
			if ok, why := conformance.Match(v.Want, got); !ok {
				t.Fatalf("kubesem differs from v1.36.3: %s\nwant: %s\ngot:  %s", why, difftest.CompactJSON(v.Want), got)
			}
			n++
		})
	}
	if n < 120 {
		t.Fatalf("only %d Step vectors with a want replayed", n)
	}
}

func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}

// apiValidationSource says whether a wantError vector states an API
// validation rejection (its source cites ValidateStatefulSetSpec).
func apiValidationSource(source string) bool {
	return strings.HasPrefix(source, "ValidateStatefulSetSpec")
}

// upstreamRejection validates the vector's set as the API server does
// (apps/v1 defaulting, conversion, ValidateStatefulSet) and returns its one
// error as a wantError: the field under "set.", the kind named from
// upstream's error type (Invalid "must be greater than or equal to 0" is
// Negative, NotSupported is Unsupported).
func upstreamRejection(t testing.TB, in *vectorInput) wantError {
	t.Helper()
	up, _, _, _ := upSet(in)
	legacyscheme.Scheme.Default(up)
	var internal internalapps.StatefulSet
	if err := legacyscheme.Scheme.Convert(up, &internal, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	errs := appsvalidation.ValidateStatefulSet(&internal, apivalidation.PodValidationOptions{})
	if len(errs) != 1 {
		t.Fatalf("upstream validation: %d errors, want exactly one: %v", len(errs), errs.ToAggregate())
	}
	e := errs[0]
	kind := ""
	switch e.Type {
	case utilfield.ErrorTypeInvalid:
		kind = "Invalid"
		if strings.Contains(e.Detail, "must be greater than or equal to 0") {
			kind = "Negative"
		}
	case utilfield.ErrorTypeNotSupported:
		kind = "Unsupported"
	case utilfield.ErrorTypeRequired:
		kind = "Required"
	case utilfield.ErrorTypeDuplicate:
		kind = "Duplicate"
	default:
		t.Fatalf("upstream error type %s not named: %v", e.Type, e)
	}
	return wantError{Field: "set." + e.Field, Kind: kind}
}

// upSet builds the upstream StatefulSet of a vector as a user would
// submit it (not defaulted): each revision name of the vector becomes a
// distinct pod template, so upstream's revision hashes map one to one onto
// the vector's names (fwd: vector name to upstream's, back: the reverse,
// img: the image of each vector name).
func upSet(in *vectorInput) (up *apps.StatefulSet, fwd, back, img map[string]string) {
	s := &in.Set
	cc := int32(0)
	if s.Status.CollisionCount != nil {
		cc = *s.Status.CollisionCount
	}
	cp32 := func(p *int32) *int32 {
		if p == nil {
			return nil
		}
		v := *p
		return &v
	}
	up = &apps.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: s.Name, Namespace: s.Namespace, UID: types.UID(s.UID), Generation: s.Generation},
		Spec: apps.StatefulSetSpec{
			Replicas:             cp32(s.Spec.Replicas),
			Selector:             &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			ServiceName:          s.Spec.ServiceName,
			PodManagementPolicy:  apps.PodManagementPolicyType(s.Spec.PodManagementPolicy),
			UpdateStrategy:       apps.StatefulSetUpdateStrategy{Type: apps.StatefulSetUpdateStrategyType(s.Spec.UpdateStrategy.Type)},
			MinReadySeconds:      s.Spec.MinReadySeconds,
			RevisionHistoryLimit: cp32(s.Spec.RevisionHistoryLimit),
		},
	}
	if s.Spec.Ordinals != nil {
		up.Spec.Ordinals = &apps.StatefulSetOrdinals{Start: s.Spec.Ordinals.Start}
	}
	if ru := s.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		up.Spec.UpdateStrategy.RollingUpdate = &apps.RollingUpdateStatefulSetStrategy{Partition: cp32(ru.Partition)}
		if ru.MaxUnavailable != nil {
			var u upintstr.IntOrString
			if ru.MaxUnavailable.IsString() {
				u = upintstr.FromString(ru.MaxUnavailable.String())
			} else {
				u = upintstr.FromInt32(ru.MaxUnavailable.IntValue())
			}
			up.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = &u
		}
	}
	if p := s.Spec.PersistentVolumeClaimRetentionPolicy; p != nil {
		up.Spec.PersistentVolumeClaimRetentionPolicy = &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
			WhenDeleted: apps.PersistentVolumeClaimRetentionPolicyType(p.WhenDeleted), WhenScaled: apps.PersistentVolumeClaimRetentionPolicyType(p.WhenScaled)}
	}
	for _, t := range s.Spec.VolumeClaimTemplates {
		up.Spec.VolumeClaimTemplates = append(up.Spec.VolumeClaimTemplates, v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: t.Name},
			Spec: v1.PersistentVolumeClaimSpec{AccessModes: []v1.PersistentVolumeAccessMode{v1.ReadWriteOnce},
				Resources: v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: resource.MustParse("1Gi")}}}})
	}
	if s.DeletionTimestamp != nil {
		ts := metav1.NewTime(*s.DeletionTimestamp)
		up.DeletionTimestamp = &ts
	}
	// revision names → images
	names := map[string]bool{s.Spec.TemplateRevision: true}
	for _, rv := range in.Revisions {
		names[rv.Name] = true
	}
	for _, p := range in.Pods {
		if l := statefulset.PodRevision(p); l != "" {
			names[l] = true
		}
	}
	for _, n := range []string{s.Status.CurrentRevision, s.Status.UpdateRevision} {
		if n != "" {
			names[n] = true
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	fwd, back, img = map[string]string{}, map[string]string{}, map[string]string{}
	for i, n := range sorted {
		img[n] = "nginx:" + strconv.Itoa(i+10)
		h := revision(up, img[n], cc).Name
		fwd[n], back[h] = h, n
	}
	up.Spec.Template = template(img[s.Spec.TemplateRevision])
	st := s.Status
	up.Status = apps.StatefulSetStatus{ObservedGeneration: st.ObservedGeneration, Replicas: st.Replicas, ReadyReplicas: st.ReadyReplicas,
		CurrentReplicas: st.CurrentReplicas, UpdatedReplicas: st.UpdatedReplicas, AvailableReplicas: st.AvailableReplicas,
		CurrentRevision: fwd[st.CurrentRevision], UpdateRevision: fwd[st.UpdateRevision], CollisionCount: cp32(st.CollisionCount)}
	return up, fwd, back, img
}

// caseFromVector builds the upstream objects of a vector, the set
// defaulted by upstream's SetDefaults_StatefulSet (under the current
// MaxUnavailableStatefulSet gate) as the API server stores it; back maps
// upstream revision names to the vector's.
func caseFromVector(in *vectorInput) (diffCase, map[string]string) {
	s := &in.Set
	c := diffCase{set: s, pods: in.Pods, revs: in.Revisions, claims: in.Claims, upClaims: map[string]*v1.PersistentVolumeClaim{}}
	up, fwd, back, img := upSet(in)
	appsv1defaults.SetDefaults_StatefulSet(up)
	cc := int32(0)
	if s.Status.CollisionCount != nil {
		cc = *s.Status.CollisionCount
	}
	for _, rv := range in.Revisions {
		x := revision(up, img[rv.Name], cc).DeepCopy()
		x.Revision = rv.Revision
		x.Namespace = s.Namespace
		c.upRevs = append(c.upRevs, x)
	}
	for _, p := range in.Pods {
		pod := difftest.Must(k8s.ToPod(p))
		if l, ok := pod.Labels[history.HashLabel]; ok {
			pod.Labels[history.HashLabel] = fwd[l]
		}
		c.upPods = append(c.upPods, pod)
	}
	for _, cl := range in.Claims {
		pc := difftest.Must(k8s.ToPersistentVolumeClaim(cl))
		pc.Namespace = s.Namespace
		c.upClaims[cl.Name] = pc
	}
	c.upSet = up
	return c, back
}

// logLine is one log line of the upstream controller: its message and
// the pod it names.
type logLine struct{ msg, pod string }

// logSink collects the upstream controller's log lines up to V(4).
type logSink struct {
	mu    *sync.Mutex
	lines *[]logLine
}

func (s logSink) Init(logr.RuntimeInfo) {}

func (s logSink) Enabled(level int) bool { return level <= 4 }

func (s logSink) Info(_ int, msg string, kv ...any) {
	pod := ""
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] == "pod" {
			if r, ok := kv[i+1].(klog.ObjectRef); ok {
				pod = r.Name
			}
		}
	}
	s.mu.Lock()
	*s.lines = append(*s.lines, logLine{msg, pod})
	s.mu.Unlock()
}

func (s logSink) Error(error, string, ...any) {}

func (s logSink) WithValues(...any) logr.LogSink { return s }

func (s logSink) WithName(string) logr.LogSink { return s }

func (s logSink) count(msg, pod string) (n int) { return s.countAny([]string{msg}, pod) }

func (s logSink) countAny(msgs []string, pod string) int {
	n := 0
	for _, l := range *s.lines {
		if l.pod == pod && slices.Contains(msgs, l.msg) {
			n++
		}
	}
	return n
}

// obs is what one upstream UpdateStatefulSet did.
type obs struct {
	f      *newFake
	err    error
	status *apps.StatefulSetStatus // returned
	events []string
	logs   logSink
}

func observe(c diffCase) obs {
	f := &newFake{pods: map[string]*v1.Pod{}, claims: c.upClaims, revs: c.upRevs}
	for _, p := range c.upPods {
		f.pods[p.Name] = p
	}
	rec := record.NewFakeRecorder(100000)
	logs := logSink{mu: &sync.Mutex{}, lines: &[]logLine{}}
	ctx := klog.NewContext(context.Background(), logr.New(logs))
	ctl := upsts.NewDefaultStatefulSetControl(upsts.NewStatefulPodControlFromManager(f, rec), f, f)
	st, err := ctl.UpdateStatefulSet(ctx, c.upSet, claimed(c.upSet, c.upPods), t0)
	o := obs{f: f, err: err, status: st, logs: logs}
	for {
		select {
		case e := <-rec.Events:
			o.events = append(o.events, e)
			continue
		default:
		}
		break
	}
	return o
}

var metricsOnce sync.Once

// reachesUpdate says whether upstream's updateStatefulSet gets past
// scaling (to the OnDelete return or the rolling update) for c: it runs
// the sync again with the MaxUnavailableStatefulSet gate on and the
// strategy RollingUpdate, whose update step, and only it, sets the
// statefulset_unavailable_replicas gauge. Neither the gate nor the strategy
// changes what happens before (they choose the revision of a pod created,
// which does not stop a sync or make it fail).
func reachesUpdate(c diffCase) bool {
	metricsOnce.Do(stsmetrics.Register)
	defer setGate(true)()
	set := c.upSet.DeepCopy()
	zero := int32(0)
	set.Spec.UpdateStrategy = apps.StatefulSetUpdateStrategy{Type: apps.RollingUpdateStatefulSetStrategyType,
		RollingUpdate: &apps.RollingUpdateStatefulSetStrategy{Partition: &zero}}
	stsmetrics.UnavailableReplicas.Reset()
	f := &newFake{pods: map[string]*v1.Pod{}, claims: c.upClaims, revs: c.upRevs}
	for _, p := range c.upPods {
		f.pods[p.Name] = p
	}
	ctl := upsts.NewDefaultStatefulSetControl(upsts.NewStatefulPodControlFromManager(f, record.NewFakeRecorder(100000)), f, f)
	_, _ = ctl.UpdateStatefulSet(context.Background(), set, claimed(set, c.upPods), t0)
	mfs, err := legacyregistry.DefaultGatherer.Gather()
	if err != nil {
		panic(err)
	}
	for _, mf := range mfs {
		if strings.HasSuffix(mf.GetName(), "statefulset_unavailable_replicas") {
			return len(mf.GetMetric()) > 0
		}
	}
	return false
}

//go:linkname upIdentityMatches k8s.io/kubernetes/pkg/controller/statefulset.identityMatches
func upIdentityMatches(set *apps.StatefulSet, pod *v1.Pod) bool

//go:linkname upStorageMatches k8s.io/kubernetes/pkg/controller/statefulset.storageMatches
func upStorageMatches(set *apps.StatefulSet, pod *v1.Pod) bool

// Upstream's log messages of the deletions it makes (stateful_set_control.go).
var (
	logScaleDown = "Pod of StatefulSet is terminating for scale down"
	logUpdate    = []string{"Pod of StatefulSet is terminating for update", "StatefulSet terminating Pod for update"}
)

// vectorWant computes the want of a statefulset.Step vector from one upstream
// UpdateStatefulSet (and the requeue of its sync), the current
// MaxUnavailableStatefulSet gate being the vector's option. Every part is
// upstream's: the writes its fakes receive, the status it writes (else the
// set's), the requeue its sync makes, and, in kubesem's vocabulary:
//   - outcome: Error when the sync fails, BeingDeleted for a set being
//     deleted, OnDelete or RollingUpdate when it gets past scaling
//     (reachesUpdate), else Scaling when it created or deleted a pod and
//     Blocked when not;
//   - reasons: a revision write's by its verb (create NewRevision, update
//     Rollback, delete HistoryLimit), a claim write's by its verb (create
//     ClaimMissing, update RetentionMismatch), a creation's Missing, a
//     deletion's from upstream's log line for it (scale down: Condemned,
//     update: Outdated, none: PodFailed), a pod update's from upstream's
//     identityMatches, storageMatches and ClaimsMatchRetentionPolicy, a
//     failed sync's from its error (AlreadyExists, NotFound: PodNotFound,
//     "is being deleted": ClaimBeingDeleted), the requeue after
//     minReadySeconds MinReadySeconds;
//   - a claim creation's pod from upstream's event for it (a claim update's
//     pod is not stated: upstream does not name it);
//   - events: upstream's ConflictingController warnings.
//
// The writes of a Parallel sync, which upstream makes from goroutines in
// no fixed order, are put in kubesem's order: creations by ordinal (the
// one named "<set>--1" last), pod updates by ordinal, deletions of failed
// pods by ordinal then of condemned pods and for the update from the
// highest ordinal, claim writes and events by the ordinal of their claim
// (a pod's own in the order upstream made them), the condemned pods'
// after the others from the highest. One pod's claim creations, which
// upstream makes from a map, are put in template order.
func vectorWant(t testing.TB, in *vectorInput) json.RawMessage {
	t.Helper()
	c, back := caseFromVector(in)
	o := observe(c)
	reached := reachesUpdate(c)
	up := c.upSet
	f := o.f
	parallel := up.Spec.PodManagementPolicy == apps.ParallelPodManagement
	mb := func(s string) string {
		if b, ok := back[s]; ok {
			return b
		}
		return s
	}
	var p statefulset.Plan
	// outcome
	switch {
	case o.err != nil:
		p.Outcome = statefulset.ReasonError
	case up.DeletionTimestamp != nil:
		p.Outcome = statefulset.ReasonBeingDeleted
	case reached && up.Spec.UpdateStrategy.Type == apps.OnDeleteStatefulSetStrategyType:
		p.Outcome = statefulset.ReasonOnDelete
	case reached:
		p.Outcome = statefulset.ReasonRollingUpdate
	case len(f.created)+len(f.deleted) > 0:
		p.Outcome = statefulset.ReasonScaling
	default:
		p.Outcome = statefulset.ReasonBlocked
	}
	// revisions
	for _, w := range f.revW {
		w.Name = mb(w.Name)
		w.Reason = map[plan.Verb]statefulset.Reason{plan.VerbCreate: statefulset.ReasonRevisionCreated,
			plan.VerbUpdate: statefulset.ReasonRollback, plan.VerbDelete: statefulset.ReasonHistoryLimit}[w.Verb]
		p.Revisions = append(p.Revisions, w)
	}
	// the ordinal range and the slot key of a pod name
	start := int64(0)
	if up.Spec.Ordinals != nil {
		start = int64(up.Spec.Ordinals.Start)
	}
	end := start + int64(*up.Spec.Replicas) // exclusive
	overflow := end-1 > math.MaxInt32
	slotOf := func(name string) int64 {
		parent, o, ok := statefulset.ParentAndOrdinal(name)
		if !ok || parent != up.Name {
			return math.MaxInt64 // "<set>--1": the slots past int32, the last
		}
		return int64(o)
	}
	// creations
	for _, np := range f.created {
		np.Revision = mb(np.Revision)
		p.Create.Objects = append(p.Create.Objects, np)
	}
	if parallel {
		sort.SliceStable(p.Create.Objects, func(i, j int) bool {
			return slotOf(p.Create.Objects[i].Name) < slotOf(p.Create.Objects[j].Name)
		})
	}
	p.Create.Count = int32(len(p.Create.Objects))
	if p.Create.Count > 0 {
		p.Create.Reason = statefulset.ReasonMissing
	}
	// claim writes and events, keyed by the ordinal of their claim
	claimPod := map[string]string{}
	for _, e := range o.events {
		fs := strings.Fields(e)
		if len(fs) >= 7 && fs[1] == "SuccessfulCreate" && fs[3] == "Claim" && fs[5] == "Pod" {
			if was, ok := claimPod[fs[4]]; ok && was != fs[6] {
				t.Fatalf("claim %s created for pods %s and %s", fs[4], was, fs[6])
			}
			claimPod[fs[4]] = fs[6]
		}
	}
	hasOne := false // a pod of ordinal 1 among the pods
	for _, pod := range c.upPods {
		if parent, o, ok := statefulset.ParentAndOrdinal(pod.Name); ok && parent == up.Name && o == 1 {
			hasOne = true
		}
	}
	claimKey := func(claim string) (phase int, key int64) {
		_, o, ok := statefulset.ParentAndOrdinal(claim)
		if !ok {
			t.Fatalf("claim %s has no ordinal", claim)
		}
		switch {
		case int64(o) >= start && int64(o) < end:
			return 0, int64(o)
		case overflow && o == 1:
			if hasOne {
				t.Fatalf("claim %s: of the pod past int32 or of the pod of ordinal 1?", claim)
			}
			return 0, math.MaxInt64
		default:
			return 1, -int64(o)
		}
	}
	for _, w := range f.claimW {
		switch w.Verb {
		case statefulset.ClaimCreate:
			w.Reason = statefulset.ReasonClaimMissing
			w.Pod = claimPod[w.Name]
			if w.Pod == "" {
				t.Fatalf("no event names the pod of claim %s", w.Name)
			}
		case statefulset.ClaimUpdate:
			w.Reason = statefulset.ReasonRetention
		}
		p.Claims = append(p.Claims, w)
	}
	for _, e := range o.events {
		fs := strings.Fields(e)
		if len(fs) >= 4 && fs[1] == string(statefulset.ReasonConflictingController) && fs[2] == "PersistentVolumeClaim" {
			p.Events = append(p.Events, plan.Event{Type: plan.EventType(fs[0]), Reason: statefulset.ReasonConflictingController, Object: fs[3]})
		}
	}
	if parallel {
		sort.SliceStable(p.Claims, func(i, j int) bool {
			pi, ki := claimKey(p.Claims[i].Name)
			pj, kj := claimKey(p.Claims[j].Name)
			return pi < pj || pi == pj && ki < kj
		})
		sort.SliceStable(p.Events, func(i, j int) bool {
			pi, ki := claimKey(p.Events[i].Object)
			pj, kj := claimKey(p.Events[j].Object)
			return pi < pj || pi == pj && ki < kj
		})
	}
	// One pod's claims are created from a map (getPersistentVolumeClaims),
	// in no fixed order: put them in template order.
	tmplIdx := func(claim string) int {
		for i, tm := range up.Spec.VolumeClaimTemplates {
			if strings.HasPrefix(claim, tm.Name+"-"+up.Name+"-") {
				return i
			}
		}
		t.Fatalf("claim %s is of no template", claim)
		return 0
	}
	for i := 0; i < len(p.Claims); {
		j := i + 1
		if p.Claims[i].Verb == statefulset.ClaimCreate {
			for j < len(p.Claims) && p.Claims[j].Verb == statefulset.ClaimCreate && p.Claims[j].Pod == p.Claims[i].Pod {
				j++
			}
			run := p.Claims[i:j]
			sort.SliceStable(run, func(a, b int) bool { return tmplIdx(run[a].Name) < tmplIdx(run[b].Name) })
		}
		i = j
	}
	// pod updates
	spc := upsts.NewStatefulPodControlFromManager(&newFake{pods: f.pods, claims: c.upClaims}, record.NewFakeRecorder(100000))
	for _, u := range f.updatedP {
		// The pod before the update: one of the pods by its UID, or the
		// pod this sync created (no UID yet).
		var orig *v1.Pod
		for _, pod := range c.upPods {
			if pod.UID != "" && pod.UID == u.UID {
				orig = pod
			}
		}
		if u.UID == "" && len(f.newPods) == 1 {
			orig = f.newPods[0]
		}
		if orig == nil {
			t.Fatalf("updated pod %s (uid %q) is none of the pods", u.Name, u.UID)
		}
		var why []statefulset.Reason
		if !upIdentityMatches(up, orig) {
			why = append(why, statefulset.ReasonIdentity)
		}
		if !upStorageMatches(up, orig) {
			why = append(why, statefulset.ReasonStorage)
		}
		if ok, err := spc.ClaimsMatchRetentionPolicy(context.Background(), up, u); err != nil || !ok {
			why = append(why, statefulset.ReasonRetention)
		}
		p.Update = append(p.Update, statefulset.PodUpdate{Name: u.Name, Reasons: why})
	}
	if parallel {
		sort.SliceStable(p.Update, func(i, j int) bool { return slotOf(p.Update[i].Name) < slotOf(p.Update[j].Name) })
	}
	// deletions
	seen := map[string]int{}
	total := map[string]int{}
	for _, d := range f.deletedP {
		total[d.Name]++
	}
	phaseOf := map[statefulset.Reason]int{statefulset.ReasonPodFailed: 0, statefulset.ReasonCondemned: 1, statefulset.ReasonOutdated: 2}
	for _, d := range f.deletedP {
		seen[d.Name]++
		why := statefulset.ReasonPodFailed
		switch {
		case o.logs.count(logScaleDown, d.Name) > 0:
			why = statefulset.ReasonCondemned
		case seen[d.Name] > total[d.Name]-o.logs.countAny(logUpdate, d.Name):
			why = statefulset.ReasonOutdated
		}
		p.Delete = append(p.Delete, plan.Deletion{Name: d.Name, UID: string(d.UID), Reason: why})
	}
	if parallel {
		key := func(d plan.Deletion) (int, int64) {
			ph := phaseOf[d.Reason]
			if ph == 0 {
				return ph, slotOf(d.Name)
			}
			return ph, -slotOf(d.Name)
		}
		sort.SliceStable(p.Delete, func(i, j int) bool {
			pi, ki := key(p.Delete[i])
			pj, kj := key(p.Delete[j])
			return pi < pj || pi == pj && ki < kj
		})
	}
	// status
	if f.status != nil {
		st, err := k8s.FromStatefulSetStatus(f.status)
		if err != nil {
			t.Fatal(err)
		}
		st.CurrentRevision, st.UpdateRevision = mb(st.CurrentRevision), mb(st.UpdateRevision)
		p.Status, p.UpdateStatus = st, true
	} else {
		p.Status = in.Set.Status
	}
	// requeue
	if o.err != nil {
		q := plan.Requeue{RateLimited: true}
		q.Reason = errorReason(o.err)
		p.Requeue = []plan.Requeue{q}
	} else if up.Spec.MinReadySeconds > 0 && o.status != nil && o.status.ReadyReplicas != o.status.AvailableReplicas {
		d := time.Duration(up.Spec.MinReadySeconds) * time.Second
		if n := controller.FindMinNextPodAvailabilityCheck(c.upPods, up.Spec.MinReadySeconds, t0, clocktesting.NewFakeClock(t0)); n != nil {
			d = *n
		}
		p.Requeue = []plan.Requeue{{After: d, Reason: statefulset.ReasonMinReadySeconds}}
	}
	b, err := plan.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	// Drop what upstream does not say: the pod of a claim update, the
	// reason of a failed sync whose errors name several.
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, w := range m["claims"].([]any) {
		if w := w.(map[string]any); w["verb"] == string(statefulset.ClaimUpdate) {
			delete(w, "pod")
		}
	}
	for _, q := range m["requeue"].([]any) {
		if q := q.(map[string]any); q["reason"] == "" {
			delete(q, "reason")
		}
	}
	b, err = json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// errorReason names a failed sync's error in kubesem's vocabulary, ""
// when its errors have different names (a Parallel sync whose goroutines
// failed differently: which failed first is not fixed).
func errorReason(err error) statefulset.Reason {
	var errs []error
	var flatten func(error)
	flatten = func(e error) {
		var agg utilerrors.Aggregate
		if errors.As(e, &agg) {
			for _, x := range agg.Errors() {
				flatten(x)
			}
			return
		}
		errs = append(errs, e)
	}
	flatten(err)
	name := statefulset.Reason("")
	for i, e := range errs {
		var n statefulset.Reason
		switch {
		case apierrors.IsAlreadyExists(e):
			n = statefulset.ReasonAlreadyExists
		case apierrors.IsNotFound(e):
			n = statefulset.ReasonPodNotFound
		case strings.Contains(e.Error(), "is being deleted"):
			n = statefulset.ReasonClaimBeingDeleted
		default:
			n = statefulset.ReasonError
		}
		if i > 0 && n != name {
			return ""
		}
		name = n
	}
	return name
}

//go:linkname upStartOrdinal k8s.io/kubernetes/pkg/controller/statefulset.getStartOrdinal
func upStartOrdinal(set *apps.StatefulSet) int

//go:linkname upEndOrdinal k8s.io/kubernetes/pkg/controller/statefulset.getEndOrdinal
func upEndOrdinal(set *apps.StatefulSet) int

//go:linkname upParentAndOrdinal k8s.io/kubernetes/pkg/controller/statefulset.getParentNameAndOrdinal
func upParentAndOrdinal(pod *v1.Pod) (string, int)

//go:linkname upNewPod k8s.io/kubernetes/pkg/controller/statefulset.newStatefulSetPod
func upNewPod(set *apps.StatefulSet, ordinal int) *v1.Pod

// TestStatefulSetIdentityVectorsUpstream replays testdata/statefulset/identity.json
// through upstream: Ordinals through getStartOrdinal and getEndOrdinal (end
// is one past the last), ParentAndOrdinal through getParentNameAndOrdinal
// (ok: the ordinal is not -1), Identity through newStatefulSetPod (the
// pod's name, hostname, identity labels and claim volumes; the DNS name is
// the seed's and not upstream's, it is not compared). Each vector's want
// must be upstream's, and kubesem's answer must match it.
func TestStatefulSetIdentityVectorsUpstream(t *testing.T) {
	impl := conformance.Kubesem()
	n := 0
	for _, v := range readVectors(t, "identity.json") {
		var want map[string]any
		switch v.Decision {
		case "statefulset.Ordinals":
			var in struct{ Replicas, Start int32 }
			if err := json.Unmarshal(v.Input, &in); err != nil {
				t.Fatal(err)
			}
			set := &apps.StatefulSet{Spec: apps.StatefulSetSpec{Replicas: &in.Replicas, Ordinals: &apps.StatefulSetOrdinals{Start: in.Start}}}
			want = map[string]any{"first": upStartOrdinal(set), "end": upEndOrdinal(set) + 1}
		case "statefulset.ParentAndOrdinal":
			var in struct{ Pod string }
			if err := json.Unmarshal(v.Input, &in); err != nil {
				t.Fatal(err)
			}
			p, o := upParentAndOrdinal(&v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: in.Pod}})
			want = map[string]any{"parent": p, "ordinal": o, "ok": o != -1}
		case "statefulset.Identity":
			var in struct {
				Set, Service, Namespace string
				Ordinal                 int32
				Claims                  []string
			}
			if err := json.Unmarshal(v.Input, &in); err != nil {
				t.Fatal(err)
			}
			set := &apps.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: in.Set, Namespace: in.Namespace}, Spec: apps.StatefulSetSpec{ServiceName: in.Service,
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
			for _, c := range in.Claims {
				set.Spec.VolumeClaimTemplates = append(set.Spec.VolumeClaimTemplates, v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: c}})
			}
			pod := upNewPod(set, int(in.Ordinal))
			claims := []any{}
			for _, c := range in.Claims { // volumes come from a map: by template
				for _, vol := range pod.Spec.Volumes {
					if vol.Name == c && vol.PersistentVolumeClaim != nil {
						claims = append(claims, vol.PersistentVolumeClaim.ClaimName)
					}
				}
			}
			labels := map[string]any{}
			for k, l := range pod.Labels {
				labels[k] = l
			}
			var vw map[string]any
			if err := json.Unmarshal(v.Want, &vw); err != nil {
				t.Fatal(err)
			}
			want = map[string]any{"pod": pod.Name, "hostname": pod.Spec.Hostname, "claims": claims, "labels": labels, "dns": vw["dns"]}
		default:
			t.Fatalf("%s: no upstream answer for %s", v.Name, v.Decision)
		}
		b, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(b, v.Want) {
			t.Errorf("%s: the vector's want is not upstream's:\nvector:   %s\nupstream: %s", v.Name, difftest.CompactJSON(v.Want), b)
			continue
		}
		got, err := impl.Decide(v.Decision, nil, v.Input)
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		if ok, why := conformance.Match(v.Want, got); !ok {
			t.Errorf("%s: kubesem differs from v1.36.3: %s", v.Name, why)
		}
		n++
	}
	if n < 13 {
		t.Fatalf("only %d identity vectors replayed", n)
	}
}
