package node_test

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"
	"unsafe"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
	kubeletconfig "k8s.io/kubernetes/pkg/kubelet/apis/config"
	"k8s.io/kubernetes/pkg/kubelet/nodeshutdown"
	"k8s.io/kubernetes/pkg/kubelet/volumemanager"
	"k8s.io/utils/clock"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

// The kubelet's graceful-shutdown helpers are unexported; they are reached
// by linkname (their package is linked through nodeshutdown.NewManager,
// referenced below). upShutdownGroup has podShutdownGroup's layout.
type upShutdownGroup struct {
	kubeletconfig.ShutdownGracePeriodByPodPriority
	Pods []*v1.Pod
}

// upPodManager stands for the unexported *nodeshutdown.podManager; only
// pointers to it are passed around.
type upPodManager struct{}

//go:linkname upMigrateConfig k8s.io/kubernetes/pkg/kubelet/nodeshutdown.migrateConfig
func upMigrateConfig(requested, critical time.Duration) []kubeletconfig.ShutdownGracePeriodByPodPriority

//go:linkname upGroupByPriority k8s.io/kubernetes/pkg/kubelet/nodeshutdown.groupByPriority
func upGroupByPriority(periods []kubeletconfig.ShutdownGracePeriodByPodPriority, pods []*v1.Pod) []upShutdownGroup

//go:linkname upNewPodManager k8s.io/kubernetes/pkg/kubelet/nodeshutdown.newPodManager
func upNewPodManager(conf *nodeshutdown.Config) *upPodManager

//go:linkname upKillPods k8s.io/kubernetes/pkg/kubelet/nodeshutdown.(*podManager).killPods
func upKillPods(m *upPodManager, pods []*v1.Pod) error

var _ = nodeshutdown.NewManager // links the package for the linknames above

// shutdownPriorities are pod and group priorities at and around the
// boundaries that matter: the int32 extremes, the default priority 0, the
// system-critical priorities (2,000,000,000 and system-node-critical
// 2,000,001,000) and user priorities.
var shutdownPriorities = []int32{math.MinInt32, -1001, -1000, -1, 0, 1, 999, 1000, 1001, 100000,
	1999999999, 2000000000, 2000000001, 2000000999, 2000001000, 2000001001, math.MaxInt32}

// drawPriority draws a priority at or next to one of bounds or of
// shutdownPriorities, or anywhere.
func drawPriority(t *rapid.T, bounds []int32, l string) int32 {
	switch rapid.IntRange(0, 3).Draw(t, l+"kind") {
	case 0:
		return rapid.Int32().Draw(t, l)
	case 1:
		if len(bounds) > 0 {
			b := int64(rapid.SampledFrom(bounds).Draw(t, l+"b")) + int64(rapid.IntRange(-1, 1).Draw(t, l+"d"))
			return int32(max(math.MinInt32, min(math.MaxInt32, b)))
		}
	}
	return rapid.SampledFrom(shutdownPriorities).Draw(t, l)
}

// drawDuration draws a shutdown duration: whole and fractional
// seconds, zero, negative and out-of-range values included.
func drawDuration(t *rapid.T, l string) time.Duration {
	switch rapid.IntRange(0, 5).Draw(t, l+"kind") {
	case 0:
		return 0
	case 1:
		return time.Duration(rapid.Int64().Draw(t, l))
	case 2:
		return time.Duration(rapid.IntRange(-5, 5).Draw(t, l)) * time.Second
	}
	return time.Duration(rapid.IntRange(0, 120).Draw(t, l))*time.Second +
		time.Duration(rapid.SampledFrom([]int64{0, 0, 1, 499999999, 500000000, 999999999}).Draw(t, l+"ns"))
}

func fromUpPeriods(ps []kubeletconfig.ShutdownGracePeriodByPodPriority) []node.ShutdownPeriod {
	if ps == nil {
		return nil
	}
	out := make([]node.ShutdownPeriod, len(ps))
	for i, p := range ps {
		out[i] = node.ShutdownPeriod{Priority: p.Priority, Seconds: p.ShutdownGracePeriodSeconds}
	}
	return out
}

// TestNodeDiffShutdownMigrate compares MigrateShutdownConfig with the
// kubelet's migrateConfig on random shutdownGracePeriod and
// shutdownGracePeriodCriticalPods (fractional seconds, critical above the
// total, zero and negative durations, the int64 extremes).
func TestNodeDiffShutdownMigrate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req, crit := drawDuration(t, "requested"), drawDuration(t, "critical")
		want := fromUpPeriods(upMigrateConfig(req, crit))
		got := node.MigrateShutdownConfig(req, crit)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("MigrateShutdownConfig(%v, %v) = %v, upstream %v", req, crit, got, want)
		}
	})
}

// drawPeriods draws a sorted shutdownGracePeriodByPodPriority of 1–6
// entries (duplicates kept when dups).
func drawPeriods(t *rapid.T, dups bool) ([]node.ShutdownPeriod, []kubeletconfig.ShutdownGracePeriodByPodPriority) {
	n := rapid.IntRange(1, 6).Draw(t, "groups")
	var kps []node.ShutdownPeriod
	seen := map[int32]bool{}
	for i := 0; i < n; i++ {
		p := drawPriority(t, nil, "groupPriority")
		if seen[p] && !dups {
			continue
		}
		seen[p] = true
		s := rapid.SampledFrom([]int64{0, 1, 5, 10, 20, 30, 60, 120}).Draw(t, "groupSeconds")
		kps = append(kps, node.ShutdownPeriod{Priority: p, Seconds: s})
	}
	slices.SortStableFunc(kps, func(a, b node.ShutdownPeriod) int {
		return int(int64(a.Priority) - int64(b.Priority))
	})
	ups := make([]kubeletconfig.ShutdownGracePeriodByPodPriority, len(kps))
	for i, p := range kps {
		ups[i] = kubeletconfig.ShutdownGracePeriodByPodPriority{Priority: p.Priority, ShutdownGracePeriodSeconds: p.Seconds}
	}
	return kps, ups
}

// drawShutdownPods draws 0–maxPods pods named p0, p1, … with
// priorities around the groups' boundaries (or none) and
// terminationGracePeriodSeconds around the group periods (or none).
func drawShutdownPods(t *rapid.T, periods []node.ShutdownPeriod, maxPods int) ([]*podstatus.Pod, []*v1.Pod) {
	var bounds []int32
	secs := []int64{0, 1, 30}
	for _, p := range periods {
		bounds = append(bounds, p.Priority)
		secs = append(secs, max(0, p.Seconds-1), p.Seconds, p.Seconds+1)
	}
	n := rapid.IntRange(0, maxPods).Draw(t, "pods")
	kp := make([]*podstatus.Pod, n)
	up := make([]*v1.Pod, n)
	for i := range n {
		kp[i] = &podstatus.Pod{}
		kp[i].Name = fmt.Sprintf("p%d", i)
		up[i] = &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: kp[i].Name, Namespace: "ns"}}
		if rapid.IntRange(0, 4).Draw(t, "hasPriority") > 0 {
			p := drawPriority(t, bounds, "podPriority")
			kp[i].Spec.Priority, up[i].Spec.Priority = &p, &p
		}
		if rapid.IntRange(0, 3).Draw(t, "hasGrace") > 0 {
			g := rapid.SampledFrom(secs).Draw(t, "grace")
			kp[i].Spec.TerminationGracePeriodSeconds, up[i].Spec.TerminationGracePeriodSeconds = &g, &g
		}
	}
	return kp, up
}

// TestNodeDiffShutdownGroups compares GroupForPriority and Shutdown's
// grouping with the kubelet's groupByPriority: random sorted groups
// (duplicate priorities included for GroupForPriority), pods with
// priorities at and next to every boundary, and no priority.
func TestNodeDiffShutdownGroups(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dups := rapid.Bool().Draw(t, "dups")
		kps, ups := drawPeriods(t, dups)
		kpods, upods := drawShutdownPods(t, kps, 12)
		groups := upGroupByPriority(ups, upods)
		want := make(map[string]int)
		for gi, g := range groups {
			for _, p := range g.Pods {
				want[p.Name] = gi
			}
		}
		for _, p := range kpods {
			var prio int32
			if p.Spec.Priority != nil {
				prio = *p.Spec.Priority
			}
			if got := node.GroupForPriority(kps, prio); got != want[p.Name] {
				t.Fatalf("GroupForPriority(%v, %d) = %d, upstream %d", kps, prio, got, want[p.Name])
			}
		}
		if dups {
			return // Shutdown rejects repeated priorities, as kubelet validation does
		}
		got, err := node.Shutdown(kps, kpods)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(groups) {
			t.Fatalf("%d groups, upstream %d", len(got), len(groups))
		}
		for i := range got {
			var names []string
			for _, p := range groups[i].Pods {
				names = append(names, p.Name)
			}
			var gotNames []string
			for _, p := range got[i].Pods {
				gotNames = append(gotNames, p.Name)
			}
			if !slices.Equal(gotNames, names) || got[i].Priority != groups[i].Priority || got[i].Seconds != groups[i].ShutdownGracePeriodSeconds {
				t.Fatalf("group %d = %v %v, upstream %v %v", i, got[i].ShutdownPeriod, gotNames, groups[i].ShutdownGracePeriodByPodPriority, names)
			}
		}
	})
}

// shutdownRecorder is the fake world killPods runs in: it records the
// grace period each pod is killed with, each group's pods (the kubelet
// waits for a group's volumes to unmount before the next group) and each
// group's wait (the timer it sets). Timers never fire: every kill returns
// at once, so each group ends when its pods are gone.
type shutdownRecorder struct {
	volumemanager.VolumeManager
	clock.Clock
	mu     sync.Mutex
	grace  map[string]int64
	groups [][]string
	waits  []time.Duration
}

func (r *shutdownRecorder) kill(pod *v1.Pod, _ bool, grace *int64, _ func(*v1.PodStatus)) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.grace[pod.Name] = *grace
	return nil
}

func (r *shutdownRecorder) WaitForAllPodsUnmount(_ context.Context, pods []*v1.Pod) error {
	var names []string
	for _, p := range pods {
		names = append(names, p.Name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.groups = append(r.groups, names)
	return nil
}

func (r *shutdownRecorder) NewTimer(d time.Duration) clock.Timer {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.waits = append(r.waits, d)
	return silentTimer{}
}

type silentTimer struct{}

func (silentTimer) C() <-chan time.Time { return nil }

func (silentTimer) Stop() bool { return true }

func (silentTimer) Reset(time.Duration) bool { return true }

// podManagerType is the unexported podManager type, taken from a
// manager NewManager builds.
var podManagerType = sync.OnceValue(func() reflect.Type {
	mgr := nodeshutdown.NewManager(&nodeshutdown.Config{Logger: klog.Background(), ShutdownGracePeriodRequested: 30 * time.Second})
	return reflect.ValueOf(mgr).Elem().FieldByName("podManager").Type().Elem()
})

// upPeriods reads the groups a podManager settled on (after the
// migration and the sort).
func upPeriods(m *upPodManager) []kubeletconfig.ShutdownGracePeriodByPodPriority {
	f := reflect.NewAt(podManagerType(), unsafe.Pointer(m)).Elem().FieldByName("shutdownGracePeriodByPodPriority")
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().([]kubeletconfig.ShutdownGracePeriodByPodPriority)
}

// TestNodeDiffShutdownManager runs the kubelet's own shutdown pod manager
// (newPodManager: the config migration, the gate, the sort; killPods: the
// grouping, the per-pod grace, the group order and waits) on fakes, and
// compares with ShutdownPeriods and Shutdown: the groups settled on, the
// pods of each non-empty group in the order the kubelet shuts them down,
// each group's wait, and every pod's grace period. Configurations are
// either the two legacy durations (fractional seconds, critical above the
// total) or up to six priority groups with boundaries at and around the
// system-critical priorities; pods carry priorities at and next to those
// boundaries and terminationGracePeriodSeconds below, at and above their
// group's period. An empty configuration disables the manager upstream
// (NewManager returns a stub, so killPods never runs); those draws only
// compare the settled groups.
func TestNodeDiffShutdownManager(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var byPriority []node.ShutdownPeriod
		var upByPriority []kubeletconfig.ShutdownGracePeriodByPodPriority
		var req, crit time.Duration
		if rapid.Bool().Draw(t, "legacy") {
			req, crit = drawDuration(t, "requested"), drawDuration(t, "critical")
		} else {
			byPriority, upByPriority = drawPeriods(t, false)
			// the configuration is given unsorted; both sort it
			perm := rapid.Permutation(upByPriority).Draw(t, "order")
			upByPriority = perm
			byPriority = fromUpPeriods(perm)
		}
		rec := &shutdownRecorder{Clock: clock.RealClock{}, grace: map[string]int64{}}
		m := upNewPodManager(&nodeshutdown.Config{
			Logger: klog.Background(), VolumeManager: rec, KillPodFunc: rec.kill, Clock: rec,
			ShutdownGracePeriodRequested: req, ShutdownGracePeriodCriticalPods: crit,
			ShutdownGracePeriodByPodPriority: upByPriority,
		})
		periods := node.ShutdownPeriods(byPriority, req, crit)
		if want := fromUpPeriods(upPeriods(m)); !reflect.DeepEqual(periods, want) &&
			!(len(periods) == 0 && len(want) == 0) {
			t.Fatalf("ShutdownPeriods(%v, %v, %v) = %v, upstream %v", byPriority, req, crit, periods, want)
		}
		if len(periods) == 0 {
			return
		}
		kpods, upods := drawShutdownPods(t, periods, 20)
		if err := upKillPods(m, upods); err != nil {
			t.Fatal(err)
		}
		groups, err := node.Shutdown(periods, kpods)
		if err != nil {
			t.Fatal(err)
		}
		var gotGroups [][]string
		var gotWaits []time.Duration
		var end time.Duration
		for _, g := range groups {
			if len(g.Pods) == 0 {
				if g.End != g.Start {
					t.Fatalf("empty group %v takes %v", g.ShutdownPeriod, g.End-g.Start)
				}
				continue
			}
			var names []string
			for _, p := range g.Pods {
				names = append(names, p.Name)
				if want := rec.grace[p.Name]; p.GracePeriodSeconds != want {
					t.Fatalf("pod %s in group %v: grace %d, upstream %d", p.Name, g.ShutdownPeriod, p.GracePeriodSeconds, want)
				}
			}
			gotGroups = append(gotGroups, names)
			gotWaits = append(gotWaits, g.End-g.Start)
			end = g.End
		}
		if !reflect.DeepEqual(gotGroups, rec.groups) {
			t.Fatalf("groups %v, upstream %v", gotGroups, rec.groups)
		}
		if !slices.Equal(gotWaits, rec.waits) {
			t.Fatalf("waits %v, upstream %v", gotWaits, rec.waits)
		}
		var sum time.Duration
		for _, w := range rec.waits {
			sum += w
		}
		if end != sum {
			t.Fatalf("shutdown ends at %v, upstream waits %v", end, sum)
		}
		if len(rec.grace) != len(kpods) {
			t.Fatalf("%d pods killed upstream, %d pods", len(rec.grace), len(kpods))
		}
	})
}
