package node

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/podstatus"
)

func evictPod(name, node string, secs *int64) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Name, p.Namespace, p.Spec.NodeName = name, "default", node
	p.Spec.Tolerations = []Toleration{{Key: TaintUnreachable, Operator: OpExists, Effect: string(NoExecute), TolerationSeconds: secs}}
	return p
}

func TestEvictionStep(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	n := &Node{}
	n.Name = "n"
	n.Spec.Taints = []Taint{{Key: TaintUnreachable, Effect: NoExecute}}
	earlier := ScheduledEviction{Pod: "p", CreatedAt: now.Add(-time.Minute), FireAt: now.Add(4 * time.Minute)}

	// a fresh eviction: scheduled now + toleration, requeued then
	p, err := EvictionStep(n, []*podstatus.Pod{evictPod("p", "n", i64(300))}, nil, now, Options{})
	if err != nil || len(p.Scheduled) != 1 || !p.Scheduled[0].FireAt.Equal(now.Add(5*time.Minute)) || !p.Scheduled[0].CreatedAt.Equal(now) ||
		len(p.Requeue) != 1 || p.Requeue[0].After != 5*time.Minute || len(p.Delete) != 0 {
		t.Fatalf("fresh: %+v %v", p, err)
	}
	// an earlier eviction is kept, also for a toleration time of 0
	for _, secs := range []int64{300, 0, -1} {
		p, _ = EvictionStep(n, []*podstatus.Pod{evictPod("p", "n", i64(secs))}, []ScheduledEviction{earlier}, now, Options{})
		if len(p.Delete) != 0 || len(p.Scheduled) != 1 || p.Scheduled[0] != earlier || !p.Decisions[0].Kept || p.Requeue[0].After != 4*time.Minute {
			t.Fatalf("seconds %d: earlier work not kept: %+v", secs, p)
		}
	}
	// work created at now is replaced: same creation, new fire time
	same := ScheduledEviction{Pod: "p", CreatedAt: now, FireAt: now.Add(time.Hour)}
	p, _ = EvictionStep(n, []*podstatus.Pod{evictPod("p", "n", i64(60))}, []ScheduledEviction{same}, now, Options{})
	if len(p.Scheduled) != 1 || !p.Scheduled[0].FireAt.Equal(now.Add(time.Minute)) || !p.Scheduled[0].CreatedAt.Equal(now) || p.Decisions[0].Kept {
		t.Fatalf("same-time work: %+v", p)
	}
	// ... and a toleration time of 0 then deletes now
	p, _ = EvictionStep(n, []*podstatus.Pod{evictPod("p", "n", i64(0))}, []ScheduledEviction{same}, now, Options{})
	if len(p.Delete) != 1 || len(p.Scheduled) != 0 {
		t.Fatalf("zero with same-time work: %+v", p)
	}
	// an untolerated taint replaces earlier work by a deletion now
	bare := evictPod("p", "n", nil)
	bare.Spec.Tolerations = nil
	p, _ = EvictionStep(n, []*podstatus.Pod{bare}, []ScheduledEviction{earlier}, now, Options{})
	if len(p.Delete) != 1 || p.Delete[0].Name != "p" || p.Delete[0].Reason != ReasonTaintEviction || len(p.Scheduled) != 0 {
		t.Fatalf("untolerated: %+v", p)
	}
	// no seconds (forever) or seconds that wrap negative cancel it
	for _, secs := range []*int64{nil, i64(9223372037)} {
		p, _ = EvictionStep(n, []*podstatus.Pod{evictPod("p", "n", secs)}, []ScheduledEviction{earlier}, now, Options{})
		if len(p.Scheduled) != 0 || len(p.Delete) != 0 || p.Decisions[0].Kind != NotEvicted {
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
	if len(p.Scheduled) != 1 || p.Scheduled[0] != other || len(p.Decisions) != 1 || len(p.Requeue) != 0 {
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
