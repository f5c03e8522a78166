package podgc_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/stretchr/testify/require"
)

func TestStepTerminatedThreshold(t *testing.T) {
	t.Parallel()
	n := []*node.Node{gcNode("n", "True", false)}
	evicted := gcPod("e", "n", podstatus.Failed, 3*time.Hour)
	evicted.Status.Reason = podgc.EvictedReason
	pods := []*podstatus.Pod{gcPod("b", "n", podstatus.Succeeded, time.Hour), gcPod("a", "n", podstatus.Failed, time.Hour), evicted,
		gcPod("c", "n", "", 0), gcPod("r", "n", podstatus.Running, 0), gcPod("u", "n", podstatus.Unknown, 0)}
	two := 2
	p := mustStep(t, pods, n, nil, podgc.Memory{}, t0, podgc.Options{TerminatedPodThreshold: &two})
	// 4 terminated (e, a, b, c — empty phase counts), 2 kept: evicted first, then oldest
	if !same(names(p.Delete), []string{"e:Terminated", "c:Terminated"}) {
		t.Fatalf("deleted %v", names(p.Delete))
	}
	// the empty phase is patched Failed; terminal ones are not
	if len(p.Patch) != 1 || p.Patch[0].Name != "c" || p.Patch[0].Condition != nil {
		t.Fatalf("patches %+v", p.Patch)
	}
	three := 3
	p = mustStep(t, pods, n, nil, podgc.Memory{}, t0, podgc.Options{TerminatedPodThreshold: &three})
	if !same(names(p.Delete), []string{"e:Terminated"}) {
		t.Fatalf("threshold 3: %v", names(p.Delete))
	}
	// same creation time: by name
	four := 1
	p = mustStep(t, pods[:2], n, nil, podgc.Memory{}, t0, podgc.Options{TerminatedPodThreshold: &four})
	if !same(names(p.Delete), []string{"a:Terminated"}) {
		t.Fatalf("tie: %v", names(p.Delete))
	}
	for _, off := range []int{0, -1} {
		p = mustStep(t, pods, n, nil, podgc.Memory{}, t0, podgc.Options{TerminatedPodThreshold: &off})
		if len(p.Delete) != 0 {
			t.Fatalf("threshold %d: %v", off, names(p.Delete))
		}
	}
	// the default threshold is 12500
	if p = mustStep(t, pods, n, nil, podgc.Memory{}, t0, podgc.Options{}); len(p.Delete) != 0 {
		t.Fatalf("default threshold: %v", names(p.Delete))
	}
	if len(p.Requeue) != 1 || p.Requeue[0].After != podgc.CheckPeriod || p.Requeue[0].Reason != podgc.ReasonPeriodic || p.Outcome != podgc.ReasonGarbageCollected {
		t.Fatalf("requeue/outcome: %+v", p)
	}
}

func TestIsTerminated(t *testing.T) {
	t.Parallel()
	for phase, want := range map[podstatus.Phase]bool{
		"": true, podstatus.Succeeded: true, podstatus.Failed: true, "Other": true,
		podstatus.Pending: false, podstatus.Running: false, podstatus.Unknown: false,
	} {
		p := &podstatus.Pod{Status: podstatus.Status{Phase: phase}}
		require.Equal(t, want, podgc.IsTerminated(p), "phase %q", phase)
	}
}

func TestIsEvicted(t *testing.T) {
	t.Parallel()
	require.True(t, podgc.IsEvicted(&podstatus.Pod{Status: podstatus.Status{Phase: podstatus.Failed, Reason: podgc.EvictedReason}}))
	require.False(t, podgc.IsEvicted(&podstatus.Pod{Status: podstatus.Status{Phase: podstatus.Failed}}), "Failed without the reason")
	require.False(t, podgc.IsEvicted(&podstatus.Pod{Status: podstatus.Status{Phase: podstatus.Succeeded, Reason: podgc.EvictedReason}}), "the reason without Failed")
}

// Evicted first, then older, then by name, then namespace, then UID.
func TestEvictedFirst(t *testing.T) {
	t.Parallel()
	pod := func(ns, name, uid string, created time.Duration, evicted bool) *podstatus.Pod {
		p := gcPod(name, "n", podstatus.Failed, created)
		p.Namespace, p.UID = ns, uid
		if evicted {
			p.Status.Reason = podgc.EvictedReason
		}
		return p
	}
	for _, c := range []struct {
		name string
		a, b *podstatus.Pod
	}{
		{"evicted beats older", pod("ns", "b", "1", time.Hour, true), pod("ns", "a", "1", 0, false)},
		{"older", pod("ns", "b", "1", 0, false), pod("ns", "a", "1", time.Second, false)},
		{"name", pod("z", "a", "9", 0, false), pod("a", "b", "1", 0, false)},
		{"namespace", pod("a", "x", "9", 0, false), pod("b", "x", "1", 0, false)},
		{"uid", pod("a", "x", "1", 0, false), pod("a", "x", "2", 0, false)},
	} {
		require.True(t, podgc.EvictedFirst(c.a, c.b), c.name)
		require.False(t, podgc.EvictedFirst(c.b, c.a), c.name+" (reversed)")
	}
}

// Terminated keeps threshold pods and returns the rest in EvictedFirst
// order, skipping nil and live pods; never nil.
func TestTerminated(t *testing.T) {
	t.Parallel()
	pods := []*podstatus.Pod{nil, gcPod("c", "n", podstatus.Succeeded, 2*time.Hour), gcPod("r", "n", podstatus.Running, 0),
		gcPod("a", "n", podstatus.Failed, time.Hour), gcPod("b", "n", podstatus.Succeeded, 0)}
	var got []string
	for _, p := range podgc.Terminated(pods, 1) {
		got = append(got, p.Name)
	}
	require.Equal(t, []string{"b", "a"}, got)
	require.NotNil(t, podgc.Terminated(pods, 3))
	require.Empty(t, podgc.Terminated(pods, 3))
	require.NotNil(t, podgc.Terminated(pods, 0))
	require.Empty(t, podgc.Terminated(pods, 0), "threshold 0 turns the step off")
}
