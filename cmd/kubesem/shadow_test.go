package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/rollout"
)

// realRollout is the checked-in Deployment web (read from a server) with
// its ReplicaSet and pods, and a Ready node, at rest; then the Deployment
// with a new image (a user's update) and the ReplicaSet v1.36.3's
// controller creates for it (computed by the k8s adapter, as
// conformance/live checks against the real controller).
func realRollout(t *testing.T) (objs []runtime.Object, updated *appsv1.Deployment, newRS *appsv1.ReplicaSet) {
	t.Helper()
	var d *appsv1.Deployment
	var rss []*appsv1.ReplicaSet
	var pods []*corev1.Pod
	for _, f := range []string{"deployment", "replicasets", "pods"} {
		for _, o := range apiObjects(t, filepath.Join("testdata", "real", f+".json")) {
			objs = append(objs, o)
			switch x := o.(type) {
			case *appsv1.Deployment:
				d = x
			case *appsv1.ReplicaSet:
				rss = append(rss, x)
			case *corev1.Pod:
				pods = append(pods, x)
			}
		}
	}
	updated = d.DeepCopy()
	updated.Spec.Template.Spec.Containers[0].Image = "nginx:1.99"
	updated.Generation++
	kd, err := k8s.FromDeployment(updated)
	if err != nil {
		t.Fatal(err)
	}
	krs, _ := k8s.FromReplicaSets(rss)
	kp, _ := k8s.FromPods(pods)
	p, err := rollout.Step(kd, krs, kp, shadowT0, k8s.RolloutOptions())
	if err != nil {
		t.Fatal(err)
	}
	w, err := k8s.ToDeploymentWrites(updated, rss, p)
	if err != nil || len(w.Create) != 1 {
		t.Fatalf("the adapter creates %d ReplicaSets (%v)", len(w.Create), err)
	}
	newRS = w.Create[0]
	newRS.UID = "11111111-2222-4333-8444-555555555555"
	return objs, updated, newRS
}

var shadowT0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// testShadow is a shadow fed by hand, on a clock the test moves.
type testShadow struct {
	*shadow
	clock time.Time
	buf   *bytes.Buffer
	// alive are leases tickTo renews.
	alive []*coordinationv1.Lease
}

func newTestShadow(t *testing.T, objs []runtime.Object, out string) *testShadow {
	t.Helper()
	var buf bytes.Buffer
	ts := &testShadow{clock: shadowT0, buf: &buf}
	ts.shadow = newShadow(reader{}, scope{namespace: "default"}, shadowOpts{window: time.Second, lag: 100 * time.Millisecond, out: out}, &buf)
	ts.shadow.now = func() time.Time { return ts.clock }
	for _, o := range objs {
		ts.event(t, o, false, true)
	}
	ts.startTimed(ts.clock)
	return ts
}

// event feeds one informer event.
func (ts *testShadow) event(t *testing.T, o runtime.Object, deleted, initial bool) {
	t.Helper()
	k, ok := kindByType(typeName(o))
	if !ok {
		t.Fatalf("kind of %T", o)
	}
	ts.apply(rawEvent{kind: k, obj: o, deleted: deleted, initial: initial}, true)
}

func typeName(o runtime.Object) string {
	switch o.(type) {
	case *appsv1.Deployment:
		return "Deployment"
	case *appsv1.ReplicaSet:
		return "ReplicaSet"
	case *corev1.Pod:
		return "Pod"
	case *corev1.Node:
		return "Node"
	case *policyv1.PodDisruptionBudget:
		return "PodDisruptionBudget"
	case *coordinationv1.Lease:
		return "Lease"
	}
	return ""
}

// advance moves the clock and runs what the ticker runs.
func (ts *testShadow) advance(d time.Duration) {
	ts.clock = ts.clock.Add(d)
	ts.timedSync(ts.clock, false)
	ts.judgeDue(ts.clock)
	ts.quietChecks(ts.clock)
	ts.timedMissing(ts.clock)
}

func readyAPINode() *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a", UID: "99999999-0000-4000-8000-000000000001"},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue,
			LastHeartbeatTime: metav1.NewTime(shadowT0), LastTransitionTime: metav1.NewTime(shadowT0.Add(-time.Hour))}}}}
}

// TestShadowExplainsThePredictedWrite: a user's template change followed by
// the ReplicaSet v1.36.3 creates for it is explained; the same create with
// another size is an unexpected mismatch, saved under --out with the
// objects before and after; and when nobody creates it, once the namespace
// has been quiet for a window and kubesem still predicts it for another,
// it is a missing mismatch.
func TestShadowExplainsThePredictedWrite(t *testing.T) {
	t.Parallel()
	objs, updated, newRS := realRollout(t)

	ts := newTestShadow(t, objs, "")
	ts.advance(2 * time.Second) // quiet: kubesem predicts nothing on the settled Deployment
	if ts.mismatches != 0 {
		t.Fatalf("settled Deployment: %d mismatches:\n%s", ts.mismatches, ts.buf)
	}
	ts.event(t, updated, false, false)
	ts.advance(10 * time.Millisecond)
	ts.event(t, newRS, false, false)
	ts.advance(200 * time.Millisecond)
	if ts.observed != 1 || ts.explained != 1 || ts.mismatches != 0 {
		t.Errorf("the predicted ReplicaSet: %d observed, %d explained, %d mismatches:\n%s", ts.observed, ts.explained, ts.mismatches, ts.buf)
	}

	dir := t.TempDir()
	ts = newTestShadow(t, objs, dir)
	ts.event(t, updated, false, false)
	ts.advance(10 * time.Millisecond)
	wrong := newRS.DeepCopy()
	*wrong.Spec.Replicas += 5
	ts.event(t, wrong, false, false)
	ts.advance(200 * time.Millisecond)
	if ts.mismatches != 1 || !strings.Contains(ts.buf.String(), "(unexpected)") || !strings.Contains(ts.buf.String(), "create replicasets default/"+newRS.Name) {
		t.Fatalf("a ReplicaSet of the wrong size: %d mismatches:\n%s", ts.mismatches, ts.buf)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("--out holds %v", files)
	}
	data, _ := os.ReadFile(files[0])
	var rec struct {
		Decision string `json:"decision"`
		Input    struct {
			Now     time.Time `json:"now"`
			Objects struct {
				Kind  string            `json:"kind"`
				Items []json.RawMessage `json:"items"`
			} `json:"objects"`
		} `json:"input"`
		Want struct {
			Writes []map[string]any `json:"writes"`
		} `json:"want"`
		After map[string]any `json:"after"`
	}
	if err := json.Unmarshal(data, &rec); err != nil || rec.Decision != "cluster.Sync" || rec.Input.Objects.Kind != "List" || len(rec.Input.Objects.Items) != len(objs) || len(rec.Want.Writes) != 1 || rec.After["kind"] != "ReplicaSet" {
		t.Errorf("saved mismatch (%v):\n%s", err, data)
	}
	// Its input replays with explain: the ReplicaSet kubesem creates.
	input, _ := json.Marshal(rec.Input.Objects)
	code, out, errOut := runCLI(t, string(input), "explain", "--now", rec.Input.Now.Format(time.RFC3339))
	if code != 0 || !strings.Contains(out, "create ReplicaSet "+newRS.Name) {
		t.Errorf("explain on the saved input = %d %s:\n%s", code, errOut, out)
	}

	ts = newTestShadow(t, objs, "")
	ts.event(t, updated, false, false)
	for range 12 {
		ts.advance(250 * time.Millisecond)
	}
	if ts.mismatches != 1 || !strings.Contains(ts.buf.String(), "(missing)") || !strings.Contains(ts.buf.String(), "create replicasets "+newRS.Name+" (CreateNew)") {
		t.Errorf("no ReplicaSet created: %d mismatches:\n%s", ts.mismatches, ts.buf)
	}
}

// TestShadowSendsNoWrite: shadow's informers send only list and watch
// requests; it sees the fake cluster's objects and an update made there.
func TestShadowSendsNoWrite(t *testing.T) {
	t.Parallel()
	objs, updated, _ := realRollout(t)
	c := fake.NewClientset(append(objs, readyAPINode())...)
	var buf syncBuffer
	sh := newShadow(reader{c: c}, scope{namespace: "default"}, shadowOpts{window: 200 * time.Millisecond, lag: 50 * time.Millisecond}, &buf)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	done := make(chan error)
	go func() { done <- sh.run(ctx) }()
	for !strings.Contains(buf.String(), "synced") {
		time.Sleep(10 * time.Millisecond)
	}
	n := len(c.Actions())
	if _, err := c.AppsV1().Deployments("default").Update(context.Background(), updated, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	acts := c.Actions()
	for i, a := range acts {
		if i == n {
			continue // the test's own update
		}
		if a.GetVerb() != "list" && a.GetVerb() != "watch" {
			t.Errorf("shadow sent %s %s", a.GetVerb(), a.GetResource().Resource)
		}
	}
	if !strings.Contains(buf.String(), "synced: ") {
		t.Errorf("output:\n%s", buf.String())
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestShadowCandidatesCoverTheWindow: a controller's write is judged
// against the state after every change of its namespace's world in the
// window before it (nearest first) and within the lag after it — however
// many there are (a busy rollout makes dozens) — and against none outside
// the window, in another namespace, or after a Lease's change.
func TestShadowCandidatesCoverTheWindow(t *testing.T) {
	t.Parallel()
	s := newShadow(reader{}, scope{namespace: "default"}, shadowOpts{window: time.Second, lag: 100 * time.Millisecond}, &bytes.Buffer{})
	var c *change
	add := func(at time.Duration, kind cluster.Kind, ns string) *change {
		s.seq++
		x := &change{seq: s.seq, at: shadowT0.Add(at), key: cluster.Key{Kind: kind, Namespace: ns, Name: fmt.Sprint("o", s.seq)}}
		s.hist = append(s.hist, x)
		return x
	}
	add(-1500*time.Millisecond, cluster.KindPod, "default") // seq 1: before the window
	var want []int
	for i := range 60 {
		switch i % 6 {
		case 4:
			add(time.Duration(i-60)*10*time.Millisecond, cluster.KindPod, "other")
		case 5:
			add(time.Duration(i-60)*10*time.Millisecond, cluster.KindLease, leaseNamespace)
		default:
			x := add(time.Duration(i-60)*10*time.Millisecond, cluster.KindPod, "default")
			want = append(want, x.seq-1) // the state before that change
		}
	}
	c = add(0, cluster.KindReplicaSet, "default")
	after := add(50*time.Millisecond, cluster.KindPod, "default")
	add(500*time.Millisecond, cluster.KindPod, "default") // past the lag
	slices.Reverse(want)
	want = append([]int{c.seq - 1, after.seq}, want...)
	if got := s.candidates(c); !slices.Equal(got, want) {
		t.Errorf("candidates = %v\nwant %v", got, want)
	}
}
