package podgc_test

import (
	"context"
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	upodgc "k8s.io/kubernetes/pkg/controller/podgc"
	testingclock "k8s.io/utils/clock/testing"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
)

// setQueue replaces the controller's node queue with one on clock, as
// TestGCOrphaned does from inside the package.
func setQueue(gcc *upodgc.PodGCController, clock *testingclock.FakeClock) workqueue.TypedDelayingInterface[string] {
	f := reflect.ValueOf(gcc).Elem().FieldByName("nodeQueue")
	q := workqueue.NewTypedDelayingQueueWithConfig(workqueue.TypedDelayingQueueConfig[string]{Clock: clock, Name: "podgc_diff"})
	old := *(*workqueue.TypedDelayingInterface[string])(unsafe.Pointer(f.UnsafeAddr()))
	old.ShutDown()
	*(*workqueue.TypedDelayingInterface[string])(unsafe.Pointer(f.UnsafeAddr())) = q
	return q
}

// drawPassTime draws the time of the next pass after prev: 0-60 s
// later, or exactly when a quarantined node's time comes, 1 ns before or
// 1 ns after it.
func drawPassTime(t *rapid.T, prev time.Time, mem podgc.Memory) time.Time {
	if len(mem.Quarantine) > 0 && rapid.Bool().Draw(t, "atExpiry") {
		q := mem.Quarantine[rapid.IntRange(0, len(mem.Quarantine)-1).Draw(t, "entry")]
		if at := q.ReadyAt.Add(time.Duration(rapid.IntRange(-1, 1).Draw(t, "delta"))); !at.Before(prev) {
			return at
		}
	}
	return prev.Add(time.Duration(rapid.IntRange(0, 60).Draw(t, "step")) * time.Second)
}

// TestPodGCQuarantineDifferential: three passes of Step, carrying its
// Memory, delete the same pods at the same passes as three gc passes of the
// controller (built by NewPodGC, with upstream's own quarantine time) with
// its delaying node queue on a fake clock; between passes time moves by
// 0-60 s or to exactly a quarantined node's time (or 1 ns either side),
// and nodes appear in or vanish from the cache and the API.
func TestPodGCQuarantineDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods, nodes, _ := drawState(t)
		threshold := -1
		var objs []runtime.Object
		vpods := map[string]*v1.Pod{}
		for _, p := range pods {
			u := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace, UID: types.UID(p.UID), CreationTimestamp: metav1.NewTime(p.CreationTimestamp)}}
			if p.DeletionTimestamp != nil {
				ts := metav1.NewTime(*p.DeletionTimestamp)
				u.DeletionTimestamp = &ts
			}
			u.Spec.NodeName = p.Spec.NodeName
			u.Status.Phase = v1.PodPhase(p.Status.Phase)
			vpods[p.Namespace+"/"+p.Name] = u
			objs = append(objs, u)
		}
		client := fake.NewSimpleClientset(objs...)
		factory := informers.NewSharedInformerFactory(client, 0)
		podInf, nodeInf := factory.Core().V1().Pods(), factory.Core().V1().Nodes()
		ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
		defer cancel()
		gcc := upodgc.NewPodGC(ctx, client, podInf, nodeInf, threshold) // upstream's own quarantine time
		clock := testingclock.NewFakeClock(difftest.PodT0)
		q := setQueue(gcc, clock)
		defer q.ShutDown()
		for _, u := range vpods {
			_ = podInf.Informer().GetStore().Add(u)
		}
		// Node state: listed (cache and API), API only, or gone.
		state := map[string]int{}
		for _, n := range nodes {
			state[n.Name] = 1
			if n.Unlisted {
				state[n.Name] = 2
			}
		}
		apply := func() []*clusterNode {
			var out []*clusterNode
			for _, name := range nodeNames {
				u := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
				_ = nodeInf.Informer().GetStore().Delete(u)
				_ = client.Tracker().Delete(v1.SchemeGroupVersion.WithResource("nodes"), "", name)
				if state[name] == 0 {
					continue
				}
				n := &clusterNode{}
				n.Name, n.Unlisted = name, state[name] == 2
				out = append(out, n)
				_ = client.Tracker().Add(u)
				if state[name] == 1 {
					_ = nodeInf.Informer().GetStore().Add(u)
				}
			}
			return out
		}
		mem := podgc.Memory{}
		now := difftest.PodT0
		live := append([]*podstatus.Pod(nil), pods...)
		for pass := range 3 {
			if pass > 0 {
				now = drawPassTime(t, now, mem)
				clock.SetTime(now)
				for _, name := range nodeNames {
					if rapid.IntRange(0, 3).Draw(t, "change") == 0 {
						state[name] = rapid.IntRange(0, 2).Draw(t, "state")
					}
				}
			}
			cur := apply()
			plan, err := podgc.Step(live, listed(cur), unlisted(cur), mem, now, podgc.Options{TerminatedPodThreshold: &threshold})
			if err != nil {
				t.Fatalf("Step: %v", err)
			}
			// Let the queue's goroutine move the items whose time has come.
			ready := 0
			for _, e := range mem.Quarantine {
				if !e.ReadyAt.After(now) {
					ready++
				}
			}
			for deadline := time.Now().Add(time.Second); q.Len() < ready && time.Now().Before(deadline); {
				time.Sleep(50 * time.Microsecond)
			}
			client.ClearActions()
			difftest.PodGCPass(gcc, ctx)
			want := map[string]bool{}
			for _, a := range client.Actions() {
				if a.GetVerb() == "delete" && a.GetResource().Resource == "pods" {
					d := a.(clienttesting.DeleteAction)
					want[d.GetNamespace()+"/"+d.GetName()] = true
				}
			}
			got := map[string]bool{}
			for _, d := range plan.Delete {
				got[d.Namespace+"/"+d.Name] = true
			}
			if len(got) != len(want) {
				t.Fatalf("pass %d at +%v: Step deletes %v, controller %v (memory %+v)", pass, now.Sub(difftest.PodT0), got, want, mem)
			}
			for k := range want {
				if !got[k] {
					t.Fatalf("pass %d at +%v: Step deletes %v, controller %v (memory %+v)", pass, now.Sub(difftest.PodT0), got, want, mem)
				}
			}
			mem = plan.Memory
			var next []*podstatus.Pod
			for _, p := range live {
				if key := p.Namespace + "/" + p.Name; got[key] {
					_ = podInf.Informer().GetStore().Delete(vpods[key])
				} else {
					next = append(next, p)
				}
			}
			live = next
		}
	})
}
