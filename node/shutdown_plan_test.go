package node_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

func shutdownPod(name string, priority int32, grace *int64) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Name = name
	p.Spec.Priority = &priority
	p.Spec.TerminationGracePeriodSeconds = grace
	return p
}

// TestPlanShutdown: the seed's migrated configuration (30 s, 10 s for
// critical pods), a by-priority configuration given out of order (sorted,
// its empty group taking no time), and no configuration at all.
func TestPlanShutdown(t *testing.T) {
	t.Parallel()
	five := int64(5)
	for _, c := range []struct {
		name                string
		byPriority          []node.ShutdownPeriod
		requested, critical time.Duration
		pods                []*podstatus.Pod
		want                node.ShutdownPlan
	}{
		{
			name:      "migrated 30s/10s",
			requested: 30 * time.Second, critical: 10 * time.Second,
			pods: []*podstatus.Pod{shutdownPod("web", 0, nil), shutdownPod("dns", node.SystemCriticalPriority, &five)},
			want: node.ShutdownPlan{
				Periods: []node.ShutdownPeriod{{Priority: 0, Seconds: 20}, {Priority: node.SystemCriticalPriority, Seconds: 10}},
				Groups: []node.ShutdownGroup{
					{ShutdownPeriod: node.ShutdownPeriod{Priority: 0, Seconds: 20}, Pods: []node.ShutdownPod{{Name: "web", GracePeriodSeconds: 20}}, End: 20 * time.Second},
					{ShutdownPeriod: node.ShutdownPeriod{Priority: node.SystemCriticalPriority, Seconds: 10}, Pods: []node.ShutdownPod{{Name: "dns", GracePeriodSeconds: 5}}, Start: 20 * time.Second, End: 30 * time.Second},
				},
				Delay: 30 * time.Second, Total: 30 * time.Second,
			},
		},
		{
			name:       "by priority, out of order, one group empty",
			byPriority: []node.ShutdownPeriod{{Priority: 1000, Seconds: 60}, {Priority: 0, Seconds: 30}},
			requested:  time.Hour, // ignored: byPriority is set
			pods:       []*podstatus.Pod{shutdownPod("batch", 10, nil)},
			want: node.ShutdownPlan{
				Periods: []node.ShutdownPeriod{{Priority: 0, Seconds: 30}, {Priority: 1000, Seconds: 60}},
				Groups: []node.ShutdownGroup{
					{ShutdownPeriod: node.ShutdownPeriod{Priority: 0, Seconds: 30}, Pods: []node.ShutdownPod{{Name: "batch", GracePeriodSeconds: 30}}, End: 30 * time.Second},
					{ShutdownPeriod: node.ShutdownPeriod{Priority: 1000, Seconds: 60}, Pods: []node.ShutdownPod{}, Start: 30 * time.Second, End: 30 * time.Second},
				},
				Delay: 90 * time.Second, Total: 30 * time.Second,
			},
		},
		{
			name: "not configured",
			pods: []*podstatus.Pod{shutdownPod("web", 0, nil)},
			want: node.ShutdownPlan{Groups: []node.ShutdownGroup{}},
		},
	} {
		got, err := node.PlanShutdown(c.byPriority, c.requested, c.critical, c.pods)
		if err != nil {
			t.Errorf("%s: PlanShutdown: %v", c.name, err)
			continue
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%s: PlanShutdown (-want +got):\n%s", c.name, d)
		}
	}
}

// TestPlanShutdownErrors: a repeated priority is named by its index as
// given, before sorting; a nil pod by its index in pods.
func TestPlanShutdownErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		byPriority []node.ShutdownPeriod
		pods       []*podstatus.Pod
		path       string
		sentinel   error
	}{
		{[]node.ShutdownPeriod{{Priority: 5, Seconds: 1}, {Priority: 0, Seconds: 1}, {Priority: 5, Seconds: 2}}, nil,
			"shutdownGracePeriodByPodPriority[2].priority", field.ErrDuplicate},
		{[]node.ShutdownPeriod{{Priority: 5, Seconds: 1}, {Priority: 0, Seconds: -1}}, nil,
			"shutdownGracePeriodByPodPriority[1].shutdownGracePeriodSeconds", field.ErrNegative},
		{[]node.ShutdownPeriod{{Priority: 0, Seconds: 1}}, []*podstatus.Pod{shutdownPod("a", 0, nil), nil},
			"pods[1]", field.ErrRequired},
	} {
		got, err := node.PlanShutdown(c.byPriority, 0, 0, c.pods)
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != c.path || !errors.Is(err, c.sentinel) {
			t.Errorf("PlanShutdown(%v) error = %v; want %v at %s", c.byPriority, err, c.sentinel, c.path)
		}
		if got.Groups != nil || got.Periods != nil {
			t.Errorf("PlanShutdown(%v) = %+v with its error; want the zero plan", c.byPriority, got)
		}
	}
}

func BenchmarkPlanShutdown(b *testing.B) {
	byPriority := []node.ShutdownPeriod{{Priority: 100000, Seconds: 10}, {Priority: 10000, Seconds: 180}, {Priority: 1000, Seconds: 120}, {Priority: 0, Seconds: 60}}
	pods := make([]*podstatus.Pod, 0, 100)
	for i := range 100 {
		pods = append(pods, shutdownPod("p", int32(i*1000), nil))
	}
	b.ReportAllocs()
	for b.Loop() {
		node.PlanShutdown(byPriority, 0, 0, pods)
	}
}
