package live

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// recorder keeps every event of a watch, so that a test can find the first
// write of an object after a point (the controller may have written it
// again by the time the test reads it).
type recorder struct {
	mu     sync.Mutex
	events []watch.Event
}

func record(t *testing.T, w watch.Interface, err error) *recorder {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	t.Cleanup(w.Stop)
	go func() {
		for ev := range w.ResultChan() {
			r.mu.Lock()
			r.events = append(r.events, ev)
			r.mu.Unlock()
		}
	}()
	return r
}

// mark is the number of events seen so far.
func (r *recorder) mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.events)
}

// find waits up to 10 s for the first event at or after index from that
// match holds for, and returns it and its index.
func (r *recorder) find(t *testing.T, from int, what string, match func(watch.Event) bool) (watch.Event, int) {
	t.Helper()
	return r.findWithin(t, from, 10*time.Second, what, match)
}

// findWithin is find waiting up to timeout.
func (r *recorder) findWithin(t *testing.T, from int, timeout time.Duration, what string, match func(watch.Event) bool) (watch.Event, int) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		r.mu.Lock()
		for i := from; i < len(r.events); i++ {
			if match(r.events[i]) {
				ev := r.events[i]
				r.mu.Unlock()
				return ev, i
			}
		}
		r.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %v", what, timeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func replicaSets(t *testing.T, ns string) []*appsv1.ReplicaSet {
	t.Helper()
	l, err := client.AppsV1().ReplicaSets(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []*appsv1.ReplicaSet
	for i := range l.Items {
		out = append(out, &l.Items[i])
	}
	return out
}

func pods(t *testing.T, ns string) []*corev1.Pod {
	t.Helper()
	l, err := client.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []*corev1.Pod
	for i := range l.Items {
		out = append(out, &l.Items[i])
	}
	return out
}

func podNames(ps []*corev1.Pod) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func jsonish(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%+v", v)
	}
	return string(b)
}
