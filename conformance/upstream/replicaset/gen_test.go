package replicaset_test

import (
	"strconv"
	"time"

	v1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// base is the reference now of the replicaset differential properties.
var base = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

// drawTime draws a time around now: zero, a whole number of seconds ago, a
// duration next to a power of two (the edges of the log2 buckets), or in
// the future.
func drawTime(t *rapid.T, label string, now time.Time) time.Time {
	ref := now
	if ref.IsZero() {
		ref = base
	}
	switch rapid.IntRange(0, 4).Draw(t, label+"Kind") {
	case 0:
		return time.Time{}
	case 1:
		return ref.Add(-time.Duration(rapid.Int64Range(0, 400).Draw(t, label+"Sec")) * time.Second)
	case 2:
		k := rapid.IntRange(0, 50).Draw(t, label+"Pow")
		d := int64(1)<<k + rapid.Int64Range(-2, 2).Draw(t, label+"Delta")
		return ref.Add(-time.Duration(d))
	case 3:
		return ref.Add(time.Duration(rapid.Int64Range(0, 1e12).Draw(t, label+"Future")))
	}
	return ref.Add(-time.Duration(rapid.Int64Range(0, 1<<62).Draw(t, label+"Far")))
}

var costs = []string{"", "0", "10", "-5", "+5", "007", "abc", "2147483647", "2147483648", "-2147483648", "100"}

// drawPod draws a kubesem pod; uid is its UID.
func drawPod(t *rapid.T, label, uid string, now time.Time) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Name = label
	p.UID = uid
	p.Namespace = "default"
	p.Labels = map[string]string{"app": "x"}
	p.Spec.NodeName = rapid.SampledFrom([]string{"", "n1", "n2"}).Draw(t, label+"Node")
	p.Status.Phase = rapid.SampledFrom([]podstatus.Phase{"", podstatus.Pending, podstatus.Running, podstatus.Running, podstatus.Unknown, podstatus.Succeeded}).Draw(t, label+"Phase")
	switch rapid.IntRange(0, 3).Draw(t, label+"Ready") {
	case 1, 2:
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: drawTime(t, label+"Ready", now)}}
	case 3:
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionFalse, LastTransitionTime: drawTime(t, label+"NotReady", now)}}
	}
	if c := rapid.SampledFrom(costs).Draw(t, label+"Cost"); c != "" {
		p.Annotations = map[string]string{podstatus.DeletionCostAnnotation: c}
	}
	n := rapid.IntRange(0, 2).Draw(t, label+"Containers")
	for i := range n {
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, podstatus.ContainerStatus{Name: "c" + strconv.Itoa(i), RestartCount: int32(rapid.IntRange(0, 2).Draw(t, label+"Restarts"))})
	}
	if rapid.Bool().Draw(t, label+"HasSidecar") {
		always := podstatus.RestartAlways
		var rp *podstatus.RestartPolicy
		if rapid.Bool().Draw(t, label+"SidecarAlways") {
			rp = &always
		}
		p.Spec.InitContainers = []podstatus.Container{{Name: "side", RestartPolicy: rp}}
		p.Status.InitContainerStatuses = []podstatus.ContainerStatus{{Name: "side", RestartCount: int32(rapid.IntRange(0, 2).Draw(t, label+"SideRestarts"))}}
	}
	p.CreationTimestamp = drawTime(t, label+"Created", now)
	return p
}

// v1Pod is the adapter's pod.
func v1Pod(p *podstatus.Pod) *v1.Pod { return difftest.Must(k8s.ToPod(p)) }

func v1Pods(ps []*podstatus.Pod) []*v1.Pod {
	out := make([]*v1.Pod, len(ps))
	for i, p := range ps {
		out[i] = v1Pod(p)
	}
	return out
}

func now(t *rapid.T) time.Time {
	if rapid.IntRange(0, 7).Draw(t, "zeroNow") == 0 {
		return time.Time{}
	}
	return base
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
