package live

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"
)

// nodeNames are the cluster's nodes, created by TestMain; the test renews
// their leases as their kubelets would.
var nodeNames = []string{"node-a", "node-b", "node-c"}

// exitAnnotation on a pod tells the fake kubelet to end its one container
// with that exit code once it has run (a Job's pods); without it a pod runs
// for ever.
const exitAnnotation = "live.kubesem.dev/exit-code"

// startNodes registers the nodes, Ready, and renews their leases every
// second (the kubelet's node lease, 40 s duration).
func startNodes(ctx context.Context, tb *mainTB) (stopped func()) {
	for _, name := range nodeNames {
		n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}}}
		n, err := client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{})
		if err != nil {
			tb.Fatalf("node %s: %v", name, err)
		}
		now := metav1.Now()
		n.Status = corev1.NodeStatus{
			Capacity:    corev1.ResourceList{corev1.ResourcePods: resource.MustParse("110"), corev1.ResourceCPU: resource.MustParse("4")},
			Allocatable: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("110"), corev1.ResourceCPU: resource.MustParse("4")},
			Conditions: []corev1.NodeCondition{{
				Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady",
				LastHeartbeatTime: now, LastTransitionTime: now,
			}},
		}
		if _, err := client.CoreV1().Nodes().UpdateStatus(ctx, n, metav1.UpdateOptions{}); err != nil {
			tb.Fatalf("node %s status: %v", name, err)
		}
		lease := &coordinationv1.Lease{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: corev1.NamespaceNodeLease},
			Spec: coordinationv1.LeaseSpec{
				HolderIdentity:       ptr.To(name),
				LeaseDurationSeconds: ptr.To[int32](40),
				RenewTime:            &metav1.MicroTime{Time: time.Now()},
			},
		}
		if _, err := client.CoordinationV1().Leases(corev1.NamespaceNodeLease).Create(ctx, lease, metav1.CreateOptions{}); err != nil {
			tb.Fatalf("lease %s: %v", name, err)
		}
	}
	for _, name := range nodeNames {
		heartbeats.set(name, true)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		wait.Until(func() {
			for _, name := range heartbeats.names() {
				renewLease(ctx, name)
			}
		}, time.Second, ctx.Done())
	}()
	return func() { <-done }
}

// heartbeats are the nodes whose kubelets run: their leases are renewed
// and the fake kubelet acts on their pods. A node whose kubelet stopped
// (a node outage) is left alone.
var heartbeats = nodeSet{m: map[string]bool{}}

type nodeSet struct {
	mu sync.Mutex
	m  map[string]bool
}

func (s *nodeSet) set(name string, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if on {
		s.m[name] = true
	} else {
		delete(s.m, name)
	}
}

func (s *nodeSet) has(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[name]
}

func (s *nodeSet) names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for n := range s.m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// dedicatedTaint keeps the pods of other tests (and their DaemonSets) off a
// node a test adds for itself: only pods that tolerate it run there.
const dedicatedTaint = "live.kubesem.dev/dedicated"

// addNode registers a Ready node of the test's own (tainted dedicatedTaint=
// value:NoSchedule) with its lease, and starts its kubelet and heartbeats.
func addNode(t *testing.T, name, value string) *corev1.Node {
	t.Helper()
	ctx := context.Background()
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
		Spec:       corev1.NodeSpec{Taints: []corev1.Taint{{Key: dedicatedTaint, Value: value, Effect: corev1.TaintEffectNoSchedule}}},
	}
	// The kubelet registers its node with its status.
	now := metav1.Now()
	n.Status = corev1.NodeStatus{
		Capacity:    corev1.ResourceList{corev1.ResourcePods: resource.MustParse("110"), corev1.ResourceCPU: resource.MustParse("4")},
		Allocatable: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("110"), corev1.ResourceCPU: resource.MustParse("4")},
		Conditions: []corev1.NodeCondition{{
			Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady",
			LastHeartbeatTime: now, LastTransitionTime: now,
		}},
	}
	n, err := client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{})
	check(t, err)
	if !nodeReady(n) {
		t.Fatalf("node %s created without its Ready condition: %s", name, jsonish(n.Status))
	}
	lease := &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: corev1.NamespaceNodeLease},
		Spec: coordinationv1.LeaseSpec{
			HolderIdentity:       ptr.To(name),
			LeaseDurationSeconds: ptr.To[int32](40),
			RenewTime:            &metav1.MicroTime{Time: time.Now()},
		},
	}
	_, err = client.CoordinationV1().Leases(corev1.NamespaceNodeLease).Create(ctx, lease, metav1.CreateOptions{})
	check(t, err)
	heartbeats.set(name, true)
	return n
}

// dedicatedTo tolerates the dedicatedTaint of addNode's node value.
func dedicatedTo(value string) corev1.Toleration {
	return corev1.Toleration{Key: dedicatedTaint, Operator: corev1.TolerationOpEqual, Value: value, Effect: corev1.TaintEffectNoSchedule}
}

func renewLease(ctx context.Context, name string) {
	l, err := client.CoordinationV1().Leases(corev1.NamespaceNodeLease).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return
	}
	l.Spec.RenewTime = &metav1.MicroTime{Time: time.Now()}
	client.CoordinationV1().Leases(corev1.NamespaceNodeLease).Update(ctx, l, metav1.UpdateOptions{})
}

// startKubelet runs the fake scheduler and kubelet on an informer of their
// own (resynced every second, so that a lost write is retried):
//   - a pending pod without a node is bound, as kube-scheduler would, to the
//     node its required node affinity names (a DaemonSet's pod) or else to
//     the Ready node, matching its nodeSelector, with the fewest pods;
//   - a bound pending pod is reported Running and Ready, its containers
//     started;
//   - a running pod whose containers are ready but which someone else
//     marked not ready is reported Ready again (at most once a second);
//   - a running pod with exitAnnotation terminates with that code;
//   - a pod being deleted is removed at once (its containers "stopped").
func startKubelet(ctx context.Context, tb *mainTB) (stopped func()) {
	f := informers.NewSharedInformerFactory(client, time.Second)
	pods := f.Core().V1().Pods()
	nodes := f.Core().V1().Nodes()
	handle := func(obj any) {
		pod, ok := obj.(*corev1.Pod)
		if !ok {
			return
		}
		go kubelet(ctx, pod, pods.Lister().List, nodes.Lister().List)
	}
	pods.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    handle,
		UpdateFunc: func(_, obj any) { handle(obj) },
	})
	nodes.Informer()
	f.Start(ctx.Done())
	f.WaitForCacheSync(ctx.Done())
	return f.Shutdown
}

func kubelet(ctx context.Context, pod *corev1.Pod, listPods func(labels.Selector) ([]*corev1.Pod, error), listNodes func(labels.Selector) ([]*corev1.Node, error)) {
	if pod.Spec.NodeName != "" && !heartbeats.has(pod.Spec.NodeName) {
		return // the node's kubelet is down (or gone)
	}
	switch {
	case pod.DeletionTimestamp != nil:
		if pod.Spec.NodeName != "" {
			client.CoreV1().Pods(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0), Preconditions: &metav1.Preconditions{UID: &pod.UID}})
		}
	case pod.Spec.NodeName == "" && pod.Status.Phase == corev1.PodPending:
		node := schedule(pod, listPods, listNodes)
		if node == "" {
			return
		}
		client.CoreV1().Pods(pod.Namespace).Bind(ctx, &corev1.Binding{
			ObjectMeta: metav1.ObjectMeta{Name: pod.Name, UID: pod.UID},
			Target:     corev1.ObjectReference{Kind: "Node", Name: node},
		}, metav1.CreateOptions{})
	case pod.Spec.NodeName != "" && pod.Status.Phase == corev1.PodPending:
		pod = pod.DeepCopy()
		now := metav1.Now()
		pod.Status.Phase = corev1.PodRunning
		pod.Status.StartTime = &now
		pod.Status.PodIP = "10.1.0.1"
		pod.Status.Conditions = nil
		for _, c := range []corev1.PodConditionType{corev1.PodScheduled, corev1.PodInitialized, corev1.ContainersReady, corev1.PodReady} {
			pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: c, Status: corev1.ConditionTrue, LastTransitionTime: now})
		}
		pod.Status.ContainerStatuses = nil
		for _, c := range pod.Spec.Containers {
			pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, corev1.ContainerStatus{
				Name: c.Name, Image: c.Image, ImageID: c.Image, Ready: true, Started: ptr.To(true),
				State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}},
			})
		}
		client.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
	case pod.Status.Phase == corev1.PodRunning && podCondition(pod, corev1.ContainersReady) == corev1.ConditionTrue &&
		podCondition(pod, corev1.PodReady) == corev1.ConditionFalse && reassert(pod):
		// Someone else marked the pod not ready (the node lifecycle
		// controller's pod worker does, for a pod it sees on a node whose
		// last status it saved was not Ready): the kubelet's status manager
		// writes the Ready condition it computes again.
		pod = pod.DeepCopy()
		for i := range pod.Status.Conditions {
			if c := &pod.Status.Conditions[i]; c.Type == corev1.PodReady {
				c.Status, c.Reason, c.Message, c.LastTransitionTime = corev1.ConditionTrue, "", "", metav1.Now()
			}
		}
		client.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
	case pod.Status.Phase == corev1.PodRunning && pod.Annotations[exitAnnotation] != "":
		var code int32
		fmt.Sscan(pod.Annotations[exitAnnotation], &code)
		pod = pod.DeepCopy()
		now := metav1.Now()
		pod.Status.Phase = corev1.PodSucceeded
		if code != 0 {
			pod.Status.Phase = corev1.PodFailed
		}
		for i := range pod.Status.Conditions {
			if t := pod.Status.Conditions[i].Type; t == corev1.PodReady || t == corev1.ContainersReady {
				pod.Status.Conditions[i].Status = corev1.ConditionFalse
				pod.Status.Conditions[i].Reason = "PodCompleted"
				pod.Status.Conditions[i].LastTransitionTime = now
			}
		}
		for i := range pod.Status.ContainerStatuses {
			cs := &pod.Status.ContainerStatuses[i]
			cs.Ready, cs.Started = false, ptr.To(false)
			reason := "Completed"
			if code != 0 {
				reason = "Error"
			}
			cs.State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code, Reason: reason, StartedAt: pod.Status.StartTime.Rfc3339Copy(), FinishedAt: now}}
		}
		client.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
	}
}

func podCondition(p *corev1.Pod, t corev1.PodConditionType) corev1.ConditionStatus {
	for _, c := range p.Status.Conditions {
		if c.Type == t {
			return c.Status
		}
	}
	return ""
}

// reasserted is when the fake kubelet last wrote a pod's Ready condition
// back, by UID: at most once a second, as a status manager's sync would.
var reasserted sync.Map

func reassert(p *corev1.Pod) bool {
	now := time.Now()
	if last, ok := reasserted.Load(p.UID); ok && now.Sub(last.(time.Time)) < time.Second {
		return false
	}
	reasserted.Store(p.UID, now)
	return true
}

// schedule picks pod's node: the one its required node affinity names, or
// else the Ready, schedulable node matching its nodeSelector whose
// NoSchedule and NoExecute taints it tolerates with the fewest pods (ties by
// name).
func schedule(pod *corev1.Pod, listPods func(labels.Selector) ([]*corev1.Pod, error), listNodes func(labels.Selector) ([]*corev1.Node, error)) string {
	nodes, _ := listNodes(labels.Everything())
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
			for _, f := range term.MatchFields {
				if f.Key == "metadata.name" && len(f.Values) == 1 {
					return f.Values[0]
				}
			}
		}
	}
	all, _ := listPods(labels.Everything())
	count := map[string]int{}
	for _, p := range all {
		count[p.Spec.NodeName]++
	}
	var fit []string
	for _, n := range nodes {
		if n.Spec.Unschedulable || !nodeReady(n) || !labels.SelectorFromSet(pod.Spec.NodeSelector).Matches(labels.Set(n.Labels)) || !tolerated(pod, n) {
			continue
		}
		fit = append(fit, n.Name)
	}
	if len(fit) == 0 {
		return ""
	}
	sort.Slice(fit, func(i, j int) bool {
		if count[fit[i]] != count[fit[j]] {
			return count[fit[i]] < count[fit[j]]
		}
		return fit[i] < fit[j]
	})
	return fit[0]
}

// tolerated reports whether pod tolerates every NoSchedule and NoExecute
// taint of n.
func tolerated(pod *corev1.Pod, n *corev1.Node) bool {
	for i := range n.Spec.Taints {
		taint := &n.Spec.Taints[i]
		if taint.Effect == corev1.TaintEffectPreferNoSchedule {
			continue
		}
		ok := false
		for j := range pod.Spec.Tolerations {
			if pod.Spec.Tolerations[j].ToleratesTaint(klog.Background(), taint, false) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func nodeReady(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// namespace creates a namespace of its own for t.
func namespace(t *testing.T) string {
	t.Helper()
	ns, err := client.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "live-"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ns.Name
}

// eventually polls cond every 20 ms until it holds or timeout passes; cond
// returns a description of what it waits for.
func eventually(t *testing.T, timeout time.Duration, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ok, what := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
