package upstream_test

import (
	"context"
	"reflect"
	"testing"
	"time"
	"unsafe"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/tainteviction"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

//go:linkname nodeUpProcessPodOnNode k8s.io/kubernetes/pkg/controller/tainteviction.(*Controller).processPodOnNode
func nodeUpProcessPodOnNode(tc *tainteviction.Controller, ctx context.Context, pod types.NamespacedName, nodeName string, tolerations []v1.Toleration, taints []v1.Taint, now time.Time)

//go:linkname nodeUpCancelWork k8s.io/kubernetes/pkg/controller/tainteviction.(*Controller).cancelWorkWithEvent
func nodeUpCancelWork(tc *tainteviction.Controller, logger klog.Logger, pod types.NamespacedName)

// TestNodeDiffEvictionStep drives one pod through three node updates with
// the taint-eviction controller (processPodOnNode, or the cancellation
// handleNodeUpdate does when no NoExecute taint is left) and with
// EvictionStep carrying the scheduled evictions: the scheduled work's
// creation and fire times after each update. Toleration times are at least
// a minute, so upstream's real-time timers never fire during the test;
// immediate evictions are compared by kind.
func TestNodeDiffEvictionStep(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		upPod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}, Spec: v1.PodSpec{NodeName: "n"}}
		client := fake.NewSimpleClientset(upPod)
		factory := informers.NewSharedInformerFactory(client, 0)
		tc, err := tainteviction.New(ctx, client, factory.Core().V1().Pods(), factory.Core().V1().Nodes(), "taint-eviction")
		if err != nil {
			t.Fatal(err)
		}
		q := reflect.ValueOf(tc).Elem().FieldByName("taintEvictionQueue")
		queue := reflect.NewAt(q.Type(), unsafe.Pointer(q.UnsafeAddr())).Elem().Interface().(*tainteviction.TimedWorkerQueue)
		key := types.NamespacedName{Namespace: "ns", Name: "p"}
		keys := []string{node.TaintNotReady, node.TaintUnreachable, "custom"}
		var scheduled []node.ScheduledEviction
		now := nodeT0
		for step := 0; step < 3; step++ {
			now = now.Add(time.Duration(rapid.IntRange(0, 30).Draw(t, "dt")) * time.Second)
			var utaints []v1.Taint
			var ktaints []node.Taint
			for _, k := range keys {
				if rapid.IntRange(0, 2).Draw(t, "taint") == 0 {
					utaints = append(utaints, v1.Taint{Key: k, Effect: v1.TaintEffectNoExecute})
					ktaints = append(ktaints, node.Taint{Key: k, Effect: node.NoExecute})
				}
			}
			var utols []v1.Toleration
			var ktols []node.Toleration
			for _, k := range append(keys, "") {
				if rapid.IntRange(0, 2).Draw(t, "tol") == 0 {
					op := v1.TolerationOpExists
					var secs *int64
					if rapid.IntRange(0, 3).Draw(t, "forever") > 0 {
						s := rapid.SampledFrom([]int64{60, 120, 300, 600}).Draw(t, "secs")
						secs = &s
					}
					utols = append(utols, v1.Toleration{Key: k, Operator: op, Effect: v1.TaintEffectNoExecute, TolerationSeconds: secs})
					ktols = append(ktols, node.Toleration{Key: k, Operator: string(op), Effect: string(node.NoExecute), TolerationSeconds: secs})
				}
			}
			if len(utaints) == 0 {
				nodeUpCancelWork(tc, klog.Background(), key)
			} else {
				nodeUpProcessPodOnNode(tc, ctx, key, "n", utols, utaints, now)
			}
			kn := &node.Node{}
			kn.Name, kn.Spec.Taints = "n", ktaints
			kp := &podstatus.Pod{}
			kp.Name, kp.Namespace, kp.Spec.NodeName, kp.Spec.Tolerations = "p", "ns", "n", ktols
			plan, err := node.EvictionStep(kn, []*podstatus.Pod{kp}, scheduled, now, node.Options{})
			if err != nil {
				t.Fatal(err)
			}
			w := queue.GetWorkerUnsafe(key.String())
			if len(plan.Delete) > 0 {
				// evicted now: upstream added work firing now (it may
				// already have run and left the queue)
				if w != nil && !w.FireAt.Equal(now) {
					t.Fatalf("step %d: kubesem deletes now, upstream fires at %v", step, w.FireAt)
				}
				return
			}
			scheduled = plan.Scheduled
			if (w == nil) != (len(scheduled) == 0) {
				t.Fatalf("step %d: scheduled %+v, upstream worker %v", step, scheduled, w)
			}
			if w != nil && (!w.CreatedAt.Equal(scheduled[0].CreatedAt) || !w.FireAt.Equal(scheduled[0].FireAt)) {
				t.Fatalf("step %d: scheduled %+v, upstream created %v fires %v", step, scheduled[0], w.CreatedAt, w.FireAt)
			}
		}
	})
}
