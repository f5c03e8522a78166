package live

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// TestPodGCOrphan adds node-e, runs a pod there and deletes the node (its
// kubelet gone with it). kubesem's pod garbage collector, fed the objects
// read back at the deletion, puts the node in quarantine and, 40 s later,
// marks the orphan Failed with DisruptionTarget (DeletionByPodGC) and
// deletes it with grace 0; the real collector (a pass every 20 s) does so
// 40 s to 100 s after the deletion (typically 40–60 s). Shadow mode runs alongside with
// zero mismatches.
func TestPodGCOrphan(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := namespace(t)
	sh := startShadow(t, ns)
	wp, err := client.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{})
	podWatch := record(t, wp, err)

	addNode(t, "node-e", "podgc")
	_, err = client.CoreV1().Pods(ns).Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "orphan"},
		Spec: corev1.PodSpec{
			NodeName:    "node-e",
			Tolerations: []corev1.Toleration{dedicatedTo("podgc")},
			Containers:  []corev1.Container{{Name: "app", Image: "nginx:1.14.2"}},
		},
	}, metav1.CreateOptions{})
	check(t, err)
	eventually(t, 10*time.Second, func() (bool, string) {
		p, err := client.CoreV1().Pods(ns).Get(ctx, "orphan", metav1.GetOptions{})
		check(t, err)
		return p.Status.Phase == corev1.PodRunning, "orphan running: " + jsonish(p.Status)
	})

	// The node goes, with its kubelet and lease.
	heartbeats.set("node-e", false)
	deletedAt := time.Now() // the collector can see the node gone no earlier
	check(t, client.CoreV1().Nodes().Delete(ctx, "node-e", metav1.DeleteOptions{}))
	check(t, client.CoordinationV1().Leases(corev1.NamespaceNodeLease).Delete(ctx, "node-e", metav1.DeleteOptions{}))

	kn, err := k8s.FromNodes(nodes(t))
	check(t, err)
	kp, err := k8s.FromPods(pods(t, ns))
	check(t, err)
	first, err := podgc.Step(kp, kn, nil, podgc.Memory{}, deletedAt, podgc.Options{})
	check(t, err)
	if len(first.Delete) != 0 || len(first.Memory.Quarantine) != 1 || first.Memory.Quarantine[0].Node != "node-e" {
		t.Fatalf("right after the deletion kubesem's collector: %s", jsonish(first))
	}
	readyAt := first.Memory.Quarantine[0].ReadyAt
	if early, err := podgc.Step(kp, kn, nil, first.Memory, readyAt.Add(-time.Millisecond), podgc.Options{}); err != nil || len(early.Delete) != 0 {
		t.Errorf("kubesem deletes before the quarantine ends (%v): %s", err, jsonish(early))
	}
	out := explainSettled(t, ns, "node-e deleted")
	if !strings.Contains(out, "orphan") {
		t.Errorf("kubectl kubesem explain does not name the orphan:\n%s", out)
	}
	t.Logf("kubectl kubesem explain with node-e gone:\n%s", out)
	p, err := podgc.Step(kp, kn, nil, first.Memory, readyAt, podgc.Options{})
	check(t, err)
	ws, err := p.Writes(kp)
	check(t, err)
	if len(p.Delete) != 1 || p.Delete[0].Name != "orphan" || len(ws) != 2 || ws[0].Subresource != "status" || ws[1].Verb != "delete" {
		t.Fatalf("at %v kubesem's collector: %s, writes %s", readyAt, jsonish(p), jsonish(ws))
	}
	patched := ws[0].Object.(*podstatus.Pod)
	wantDT := patched.Condition(podstatus.DisruptionTarget)
	t.Logf("kubesem: node-e quarantined until %v, then orphan patched (phase %s, %s) and deleted", readyAt.Format(time.RFC3339Nano), patched.Status.Phase, wantDT.Reason)

	// The collector's quarantine starts at its first pass after the node
	// is gone (up to one period later), and its delaying queue may hand
	// the node back a period late (the pass can look just before the
	// queue's timer moves it).
	slack := 3 * time.Duration(podGCPeriodSeconds) * time.Second
	ev, _ := podWatch.findWithin(t, 0, readyAt.Sub(deletedAt)+slack+5*time.Second, "the orphan's status patch", func(ev watch.Event) bool {
		p, ok := ev.Object.(*corev1.Pod)
		return ok && p.Name == "orphan" && p.Status.Phase == corev1.PodFailed
	})
	at := time.Now()
	t.Logf("the collector patched the orphan %v after the node's deletion", at.Sub(deletedAt).Round(time.Millisecond))
	got := ev.Object.(*corev1.Pod)
	var dt *corev1.PodCondition
	for i := range got.Status.Conditions {
		if got.Status.Conditions[i].Type == corev1.DisruptionTarget {
			dt = &got.Status.Conditions[i]
		}
	}
	if dt == nil || string(dt.Status) != string(wantDT.Status) || dt.Reason != wantDT.Reason || dt.Message != wantDT.Message {
		t.Errorf("orphan's DisruptionTarget %+v, kubesem predicted %+v", dt, wantDT)
	}
	if at.Before(readyAt) || at.After(readyAt.Add(slack+2*time.Second)) {
		t.Errorf("the collector patched the orphan at %v; kubesem at %v (+ up to three 20 s periods)", at, readyAt)
	}
	podWatch.findWithin(t, 0, 10*time.Second, "the orphan's deletion", func(ev watch.Event) bool {
		p, ok := ev.Object.(*corev1.Pod)
		return ok && p.Name == "orphan" && ev.Type == watch.Deleted
	})
	sh.stop(t)
}

// podGCPeriodSeconds is the collector's period (upstream gcCheckPeriod).
const podGCPeriodSeconds = 20
