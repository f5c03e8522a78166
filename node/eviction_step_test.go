package node

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/podstatus"
)

func evictPod(name, node string, secs *int64) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Name, p.Namespace, p.Spec.NodeName = name, "default", node
	p.Spec.Tolerations = []Toleration{{Key: TaintUnreachable, Operator: OpExists, Effect: string(NoExecute), TolerationSeconds: secs}}
	return p
}

func TestEvictionStep(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	n := &Node{}
	n.Name = "n"
	n.Spec.Taints = []Taint{{Key: TaintUnreachable, Effect: NoExecute}}
	earlier := ScheduledEviction{Pod: "p", CreatedAt: now.Add(-time.Minute), FireAt: now.Add(4 * time.Minute)}

	// a fresh eviction: scheduled now + toleration, requeued then
	p, err := EvictionStep(n, []*podstatus.Pod{evictPod("p", "n", i64(300))}, nil, now, Options{})
	if err != nil || len(p.Memory) != 1 || !p.Memory[0].FireAt.Equal(now.Add(5*time.Minute)) || !p.Memory[0].CreatedAt.Equal(now) ||
		len(p.Requeue) != 1 || p.Requeue[0].After != 5*time.Minute || len(p.Delete) != 0 {
		t.Fatalf("fresh: %+v %v", p, err)
	}
	// an earlier eviction is kept, also for a toleration time of 0
	for _, secs := range []int64{300, 0, -1} {
		p, _ = EvictionStep(n, []*podstatus.Pod{evictPod("p", "n", i64(secs))}, []ScheduledEviction{earlier}, now, Options{})
		if len(p.Delete) != 0 || len(p.Memory) != 1 || p.Memory[0] != earlier || !p.Decisions[0].Kept || p.Requeue[0].After != 4*time.Minute {
			t.Fatalf("seconds %d: earlier work not kept: %+v", secs, p)
		}
	}
	// work created at now is replaced: same creation, new fire time
	same := ScheduledEviction{Pod: "p", CreatedAt: now, FireAt: now.Add(time.Hour)}
	p, _ = EvictionStep(n, []*podstatus.Pod{evictPod("p", "n", i64(60))}, []ScheduledEviction{same}, now, Options{})
	if len(p.Memory) != 1 || !p.Memory[0].FireAt.Equal(now.Add(time.Minute)) || !p.Memory[0].CreatedAt.Equal(now) || p.Decisions[0].Kept {
		t.Fatalf("same-time work: %+v", p)
	}
	// ... and a toleration time of 0 then deletes now
	p, _ = EvictionStep(n, []*podstatus.Pod{evictPod("p", "n", i64(0))}, []ScheduledEviction{same}, now, Options{})
	if len(p.Delete) != 1 || len(p.Memory) != 0 {
		t.Fatalf("zero with same-time work: %+v", p)
	}
	// an untolerated taint replaces earlier work by a deletion now
	bare := evictPod("p", "n", nil)
	bare.Spec.Tolerations = nil
	p, _ = EvictionStep(n, []*podstatus.Pod{bare}, []ScheduledEviction{earlier}, now, Options{})
	if len(p.Delete) != 1 || p.Delete[0].Name != "p" || p.Delete[0].Reason != ReasonTaintEviction || len(p.Memory) != 0 {
		t.Fatalf("untolerated: %+v", p)
	}
	// no seconds (forever) or seconds that wrap negative cancel it
	for _, secs := range []*int64{nil, i64(9223372037)} {
		p, _ = EvictionStep(n, []*podstatus.Pod{evictPod("p", "n", secs)}, []ScheduledEviction{earlier}, now, Options{})
		if len(p.Memory) != 0 || len(p.Delete) != 0 || p.Decisions[0].Kind != NotEvicted {
			t.Fatalf("forever: %+v", p)
		}
	}
	// due exactly at now: deleted; 1 ns later: still scheduled
	due := ScheduledEviction{Pod: "p", CreatedAt: now.Add(-5 * time.Minute), FireAt: now}
	p, _ = EvictionStep(n, []*podstatus.Pod{evictPod("p", "n", i64(300))}, []ScheduledEviction{due}, now, Options{})
	if len(p.Delete) != 1 || len(p.Requeue) != 0 || p.Decisions[0].Kind != EvictNow || !p.Decisions[0].Kept || !p.Decisions[0].At.Equal(now) {
		t.Fatalf("due at now: %+v", p)
	}
	due.FireAt = now.Add(1)
	p, _ = EvictionStep(n, []*podstatus.Pod{evictPod("p", "n", i64(300))}, []ScheduledEviction{due}, now, Options{})
	if len(p.Delete) != 0 || len(p.Requeue) != 1 || p.Requeue[0].After != 1 || p.Decisions[0].Kind != EvictAt {
		t.Fatalf("due 1ns after now: %+v", p)
	}
	// without NoExecute taints everything on the node is cancelled; other
	// nodes' pods and work are left alone
	clear := &Node{}
	clear.Name = "n"
	other := ScheduledEviction{Pod: "q", CreatedAt: now, FireAt: now.Add(time.Minute)}
	p, _ = EvictionStep(clear, []*podstatus.Pod{evictPod("p", "n", i64(300)), evictPod("q", "m", i64(60))}, []ScheduledEviction{earlier, other}, now, Options{})
	if len(p.Memory) != 1 || p.Memory[0] != other || len(p.Decisions) != 1 || len(p.Requeue) != 0 {
		t.Fatalf("cleared node: %+v", p)
	}
	// the requeue is the earliest fire time among the node's pods
	p, _ = EvictionStep(n, []*podstatus.Pod{evictPod("b", "n", i64(60)), evictPod("a", "n", i64(30))}, nil, now, Options{})
	if len(p.Requeue) != 1 || p.Requeue[0].After != 30*time.Second || p.Decisions[0].Pod != "a" {
		t.Fatalf("requeue: %+v", p)
	}
	if _, err := EvictionStep(nil, nil, nil, now, Options{}); err == nil {
		t.Fatal("nil node accepted")
	}
	if _, err := EvictionStep(n, []*podstatus.Pod{nil}, nil, now, Options{}); err == nil {
		t.Fatal("nil pod accepted")
	}
}

// Events: a cancelled or replaced scheduled eviction, then a deletion, each
// record TaintManagerEviction about the pod; a kept one records nothing.
func TestEvictionStepEvents(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	n := &Node{}
	n.Name = "n"
	n.Spec.Taints = []Taint{{Key: TaintUnreachable, Effect: NoExecute}}
	earlier := ScheduledEviction{Pod: "p", CreatedAt: now.Add(-time.Minute), FireAt: now.Add(4 * time.Minute)}
	bare := evictPod("p", "n", nil)
	bare.Spec.Tolerations = nil
	msgs := func(p EvictionPlan) []string {
		var out []string
		for _, e := range p.Events {
			if e.Reason != ReasonTaintEviction || e.Object != "p" || e.Type != "Normal" {
				t.Errorf("event %+v", e)
			}
			out = append(out, e.Message)
		}
		return out
	}
	cancel, mark := "Cancelling deletion of Pod default/p", "Marking for deletion Pod default/p"
	for _, c := range []struct {
		name  string
		pod   *podstatus.Pod
		sched []ScheduledEviction
		want  []string
	}{
		{"kept", evictPod("p", "n", i64(300)), []ScheduledEviction{earlier}, nil},
		{"fresh", evictPod("p", "n", i64(300)), nil, nil},
		{"untolerated replaces", bare, []ScheduledEviction{earlier}, []string{cancel, mark}},
		{"untolerated", bare, nil, []string{mark}},
		{"forever cancels", evictPod("p", "n", nil), []ScheduledEviction{earlier}, []string{cancel}},
		{"same-time work replaced", evictPod("p", "n", i64(60)), []ScheduledEviction{{Pod: "p", CreatedAt: now, FireAt: now.Add(time.Hour)}}, []string{cancel}},
	} {
		p, err := EvictionStep(n, []*podstatus.Pod{c.pod}, c.sched, now, Options{})
		if got := msgs(p); err != nil || len(got) != len(c.want) || len(got) > 0 && !slices.Equal(got, c.want) {
			t.Errorf("%s: events %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	// no NoExecute taint left: the scheduled eviction is cancelled
	plain := &Node{}
	plain.Name = "n"
	p, _ := EvictionStep(plain, []*podstatus.Pod{evictPod("p", "n", i64(300))}, []ScheduledEviction{earlier}, now, Options{})
	if got := msgs(p); !slices.Equal(got, []string{cancel}) {
		t.Errorf("taint removed: %q", got)
	}
}

func TestEvictionStepDuplicateNames(t *testing.T) {
	t.Parallel()
	n := &Node{}
	n.Name = "n1"
	n.Spec.Taints = []Taint{{Key: TaintNotReady, Effect: NoExecute}}
	a := &podstatus.Pod{}
	a.Name, a.Namespace, a.Spec.NodeName = "web", "a", "n1"
	b := &podstatus.Pod{}
	b.Name, b.Namespace, b.Spec.NodeName = "web", "b", "n1"
	_, err := EvictionStep(n, []*podstatus.Pod{a, b}, nil, time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), Options{})
	if !errors.Is(err, field.ErrDuplicate) || !strings.Contains(err.Error(), "pods[1].metadata.name") {
		t.Fatalf("err = %v", err)
	}
}
