package live

import (
	"context"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/k8s"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/util/retry"
)

func nodes(t *testing.T) []*corev1.Node {
	t.Helper()
	l, err := client.CoreV1().Nodes().List(context.Background(), metav1.ListOptions{})
	check(t, err)
	var out []*corev1.Node
	for i := range l.Items {
		out = append(out, &l.Items[i])
	}
	return out
}

func controllerRevisions(t *testing.T, ns string) []*appsv1.ControllerRevision {
	t.Helper()
	l, err := client.AppsV1().ControllerRevisions(ns).List(context.Background(), metav1.ListOptions{})
	check(t, err)
	var out []*appsv1.ControllerRevision
	for i := range l.Items {
		out = append(out, &l.Items[i])
	}
	return out
}

func daemonSetStep(t *testing.T, ds *appsv1.DaemonSet, ns []*corev1.Node, ps []*corev1.Pod, revs []*appsv1.ControllerRevision) (daemonset.Plan, daemonset.History, k8s.DaemonSetWrites) {
	t.Helper()
	kds, err := k8s.FromDaemonSet(ds)
	check(t, err)
	kn, err := k8s.FromNodes(ns)
	check(t, err)
	kp, err := k8s.FromPods(ps)
	check(t, err)
	h, err := k8s.DaemonSetHistory(ds, revs)
	check(t, err)
	p, err := daemonset.Step(kds, kn, kp, h, daemonset.Backoff{}, time.Now(), daemonset.Options{})
	check(t, err)
	w, err := k8s.ToDaemonSetWrites(ds, h.Hash, p)
	check(t, err)
	return p, h, w
}

// dsSettled waits until every node runs one Ready pod of the DaemonSet at
// its current template and kubesem, fed the objects read back, has nothing to
// write.
func dsSettled(t *testing.T, ns, name string) (*appsv1.DaemonSet, []*corev1.Pod, []*appsv1.ControllerRevision) {
	t.Helper()
	var (
		ds   *appsv1.DaemonSet
		ps   []*corev1.Pod
		revs []*appsv1.ControllerRevision
	)
	eventually(t, 20*time.Second, func() (bool, string) {
		var err error
		ds, err = client.AppsV1().DaemonSets(ns).Get(context.Background(), name, metav1.GetOptions{})
		check(t, err)
		ps, revs = pods(t, ns), controllerRevisions(t, ns)
		s := ds.Status
		n := int32(len(nodeNames))
		if s.ObservedGeneration != ds.Generation || s.NumberReady != n || s.UpdatedNumberScheduled != n || s.NumberAvailable != n || len(ps) != int(n) {
			return false, "DaemonSet settled: " + jsonish(s) + "\npods: " + podLines(ps)
		}
		p, _, _ := daemonSetStep(t, ds, nodes(t), ps, revs)
		if len(p.Revisions) != 0 || p.Create.Count != 0 || len(p.Delete) != 0 || p.UpdateStatus {
			return false, "kubesem has nothing to write on the settled DaemonSet, but: " + jsonish(p) + "\nserver status " + jsonish(s)
		}
		return true, ""
	})
	return ds, ps, revs
}

// TestDaemonSetRollingUpdate creates the DaemonSet fluentd on the three
// nodes and updates its template, and checks that kubesem, fed the objects
// read back from the server, predicts the revision and the three pods the
// real controller creates (node, labels with controller-revision-hash, node
// affinity, tolerations, owner), the number of pods the update deletes in its
// first sync, and the revision every pod ends with.
func TestDaemonSetRollingUpdate(t *testing.T) {
	ctx := context.Background()
	ns := namespace(t)
	sh := startShadow(t, ns) // shadow mode alongside: zero mismatches
	wp, err := client.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{})
	podWatch := record(t, wp, err)

	ds := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "fluentd-elasticsearch", Labels: map[string]string{"k8s-app": "fluentd-logging"}},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"name": "fluentd-elasticsearch"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"name": "fluentd-elasticsearch"}},
				Spec: corev1.PodSpec{
					Tolerations: []corev1.Toleration{{Key: "node-role.kubernetes.io/control-plane", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}},
					Containers:  []corev1.Container{{Name: "fluentd-elasticsearch", Image: "quay.io/fluentd_elasticsearch/fluentd:v5.0.1"}},
				},
			},
		},
	}
	var created *appsv1.DaemonSet
	out := userWrite(t, ns, "creation", func() {
		created, err = client.AppsV1().DaemonSets(ns).Create(ctx, ds, metav1.CreateOptions{})
		check(t, err)
	})
	p, h, w := daemonSetStep(t, created, nodes(t), nil, nil)
	if got := predictedNames(out)["ControllerRevision"]; !reflect.DeepEqual(got, []string{created.Name + "-" + h.Hash}) {
		t.Errorf("creation: kubectl kubesem explain creates revisions %v, want [%s-%s]:\n%s", got, created.Name, h.Hash, out)
	}
	if h.Hash != k8s.PodTemplateHash(&created.Spec.Template, nil) {
		t.Errorf("DaemonSetHistory's hash %s, PodTemplateHash %s", h.Hash, k8s.PodTemplateHash(&created.Spec.Template, nil))
	}
	if len(p.Revisions) != 1 || p.Revisions[0].Name != created.Name+"-"+h.Hash || len(w.CreatePods) != len(nodeNames) {
		t.Fatalf("creation: kubesem's plan %+v", p)
	}
	want := map[string]*corev1.Pod{}
	for i, c := range p.Create.Objects {
		want[c.Node] = w.CreatePods[i]
	}
	for range nodeNames {
		ev, i := podWatch.find(t, 0, "a daemon pod's creation", func(ev watch.Event) bool { return ev.Type == watch.Added })
		got := ev.Object.(*corev1.Pod)
		node := affinityNode(got)
		if want[node] == nil {
			t.Fatalf("controller created pod %s for node %q, kubesem predicted pods for %v", got.Name, node, keys(want))
		}
		samePod(t, got, want[node])
		delete(want, node)
		podWatch.mu.Lock()
		podWatch.events[i].Type = "SEEN"
		podWatch.mu.Unlock()
	}
	revs := controllerRevisions(t, ns)
	if len(revs) != 1 || revs[0].Name != p.Revisions[0].Name || revs[0].Labels[history.HashLabel] != h.Hash {
		t.Errorf("controller's revisions %v, kubesem predicted %s", revNames(revs), p.Revisions[0].Name)
	}

	ds1, ps, revs := dsSettled(t, ns, ds.Name)

	// A template change: the rolling update (maxUnavailable 1) deletes one
	// old pod per sync and the controller recreates it at the new hash.
	changed := ds1.DeepCopy()
	changed.Spec.Template.Spec.Containers[0].Image = "quay.io/fluentd_elasticsearch/fluentd:v5.0.2"
	mark := podWatch.mark()
	var updated *appsv1.DaemonSet
	out = userWrite(t, ns, "update", func() {
		updated, err = client.AppsV1().DaemonSets(ns).Update(ctx, changed, metav1.UpdateOptions{})
		check(t, err)
	})
	p, h, _ = daemonSetStep(t, updated, nodes(t), ps, revs)
	if got := predictedNames(out)["ControllerRevision"]; !reflect.DeepEqual(got, []string{updated.Name + "-" + h.Hash}) {
		t.Errorf("update: kubectl kubesem explain creates revisions %v, want [%s-%s]:\n%s", got, updated.Name, h.Hash, out)
	}
	if len(p.Revisions) != 1 || p.Revisions[0].Verb != "create" || p.Revisions[0].Hash != k8s.PodTemplateHash(&updated.Spec.Template, nil) {
		t.Errorf("update: kubesem's revision writes %+v, want the creation of %s", p.Revisions, k8s.PodTemplateHash(&updated.Spec.Template, nil))
	}
	if len(p.Delete) != 1 || p.Create.Count != 0 {
		t.Fatalf("update: kubesem's first sync creates %d and deletes %+v, want one deletion", p.Create.Count, p.Delete)
	}
	ev, _ := podWatch.find(t, mark, "the first pod deletion", func(ev watch.Event) bool {
		pod, ok := ev.Object.(*corev1.Pod)
		return ok && (ev.Type == watch.Deleted || pod.DeletionTimestamp != nil)
	})
	if old := ev.Object.(*corev1.Pod); old.Labels[appsv1.ControllerRevisionHashLabelKey] == h.Hash {
		t.Errorf("update: the controller deleted a pod at the new hash %s", old.Name)
	}
	_, ps, _ = dsSettled(t, ns, ds.Name)
	for _, pod := range ps {
		if pod.Labels[appsv1.ControllerRevisionHashLabelKey] != h.Hash {
			t.Errorf("after the update pod %s has hash %s, kubesem's current hash is %s", pod.Name, pod.Labels[appsv1.ControllerRevisionHashLabelKey], h.Hash)
		}
	}
	explainSettled(t, ns, "after the update")
	sh.stop(t)
}

// affinityNode is the node a daemon pod's required node affinity pins it to.
func affinityNode(p *corev1.Pod) string {
	if a := p.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
			for _, f := range term.MatchFields {
				if f.Key == "metadata.name" && len(f.Values) == 1 {
					return f.Values[0]
				}
			}
		}
	}
	return ""
}

func keys(m map[string]*corev1.Pod) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func revNames(revs []*appsv1.ControllerRevision) []string {
	var out []string
	for _, r := range revs {
		out = append(out, r.Name)
	}
	return out
}

// setNodeReady posts name's Ready condition as its kubelet would: True
// (KubeletReady) or False (KubeletNotReady), heartbeat now.
func setNodeReady(t *testing.T, name string, ready bool) {
	t.Helper()
	ctx := context.Background()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		n, err := client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		now := metav1.Now()
		c := conditionOf(n, corev1.NodeReady)
		status, reason, msg := corev1.ConditionTrue, "KubeletReady", "kubelet is posting ready status"
		if !ready {
			status, reason, msg = corev1.ConditionFalse, "KubeletNotReady", "container runtime is down"
		}
		if c.Status != status {
			c.LastTransitionTime = now
		}
		c.Status, c.Reason, c.Message, c.LastHeartbeatTime = status, reason, msg, now
		_, err = client.CoreV1().Nodes().UpdateStatus(ctx, n, metav1.UpdateOptions{})
		return err
	})
	check(t, err)
}

// kubeletPodsNotReady reports, as node's kubelet, the namespace's pods on
// node not ready (their containers not ready).
func kubeletPodsNotReady(t *testing.T, ns, node string) {
	t.Helper()
	ctx := context.Background()
	for _, pod := range pods(t, ns) {
		if pod.Spec.NodeName != node {
			continue
		}
		err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			p, err := client.CoreV1().Pods(ns).Get(ctx, pod.Name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			now := metav1.Now()
			for i := range p.Status.Conditions {
				if c := &p.Status.Conditions[i]; c.Type == corev1.PodReady || c.Type == corev1.ContainersReady {
					c.Status, c.Reason, c.LastTransitionTime = corev1.ConditionFalse, "ContainersNotReady", now
				}
			}
			for i := range p.Status.ContainerStatuses {
				p.Status.ContainerStatuses[i].Ready = false
			}
			_, err = client.CoreV1().Pods(ns).UpdateStatus(ctx, p, metav1.UpdateOptions{})
			return err
		})
		check(t, err)
	}
}

// nodeTaints waits until name carries exactly the taints keys
// ("key:Effect", sorted).
func nodeTaints(t *testing.T, name string, keys ...string) *corev1.Node {
	t.Helper()
	var n *corev1.Node
	eventually(t, 20*time.Second, func() (bool, string) {
		n = nodeNamed(t, name)
		got := taintKeys(n.Spec.Taints)
		return equalStrings(got, sortStrings(keys)), name + " taints " + jsonish(got) + ", want " + jsonish(keys)
	})
	return n
}

// TestDaemonSetNotReadyNode runs a DaemonSet on the three nodes, makes
// node-c NotReady (its kubelet posts Ready=False and reports its pods not
// ready; the node lifecycle controller taints it not-ready, so that its
// pod runs where no new daemon pod would be placed) and updates
// the template (maxUnavailable 1). kubesem, fed the objects read back from
// the server, predicts that the first sync deletes only node-c's pod (an
// unavailable old pod is replaced without using the budget) and that no
// pod comes back there while the node is tainted; the rollout then goes
// through node-a and node-b one at a time, as the real controller does.
// Once node-c is Ready again its pod comes back at the new revision.
// Shadow mode runs alongside with zero mismatches.
func TestDaemonSetNotReadyNode(t *testing.T) {
	ctx := context.Background()
	ns := namespace(t)
	sh := startShadow(t, ns)
	wp, err := client.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{})
	podWatch := record(t, wp, err)
	t.Cleanup(func() {
		setNodeReady(t, "node-c", true)
		nodeTaints(t, "node-c")
	})

	ds := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "node-agent"},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"name": "node-agent"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"name": "node-agent"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "agent", Image: "registry.k8s.io/pause:3.9"}}},
			},
		},
	}
	_, err = client.AppsV1().DaemonSets(ns).Create(ctx, ds, metav1.CreateOptions{})
	check(t, err)
	dsSettled(t, ns, ds.Name)

	// node-c NotReady: its kubelet reports the node and its pods not
	// ready; the node lifecycle controller taints it not-ready (NoSchedule
	// at once, NoExecute at its next monitor pass); the DaemonSet
	// controller counts its pod misscheduled.
	setNodeReady(t, "node-c", false)
	kubeletPodsNotReady(t, ns, "node-c")
	nodeTaints(t, "node-c", corev1.TaintNodeNotReady+":NoExecute", corev1.TaintNodeNotReady+":NoSchedule")
	var (
		cur  *appsv1.DaemonSet
		ps   []*corev1.Pod
		revs []*appsv1.ControllerRevision
	)
	eventually(t, 20*time.Second, func() (bool, string) {
		var err error
		cur, err = client.AppsV1().DaemonSets(ns).Get(ctx, ds.Name, metav1.GetOptions{})
		check(t, err)
		ps, revs = pods(t, ns), controllerRevisions(t, ns)
		// node-c no longer fits (its NoSchedule taint): its pod, not
		// ready, still runs there (the NoExecute taint is tolerated).
		if s := cur.Status; s.DesiredNumberScheduled != 2 || s.NumberMisscheduled != 1 || s.NumberReady != 2 {
			return false, "node-c's pod misscheduled and not ready: " + jsonish(s)
		}
		p, _, _ := daemonSetStep(t, cur, nodes(t), ps, revs)
		if len(p.Revisions) != 0 || p.Create.Count != 0 || len(p.Delete) != 0 || p.UpdateStatus {
			return false, "kubesem has nothing to write with node-c NotReady, but: " + jsonish(p) + "\nserver status " + jsonish(cur.Status)
		}
		return true, ""
	})
	onNode := map[string]*corev1.Pod{}
	for _, pod := range ps {
		onNode[pod.Spec.NodeName] = pod
	}

	// The update: kubesem's first sync deletes node-c's pod only.
	changed := cur.DeepCopy()
	changed.Spec.Template.Spec.Containers[0].Image = "registry.k8s.io/pause:3.10"
	mark := podWatch.mark()
	explainSettled(t, ns, "node-c NotReady")
	var updated *appsv1.DaemonSet
	out := userWrite(t, ns, "update with node-c NotReady", func() {
		updated, err = client.AppsV1().DaemonSets(ns).Update(ctx, changed, metav1.UpdateOptions{})
		check(t, err)
	})
	p, h, _ := daemonSetStep(t, updated, nodes(t), ps, revs)
	if onNode["node-c"] != nil && !strings.Contains(out, onNode["node-c"].Name) {
		t.Errorf("update with node-c NotReady: kubectl kubesem explain does not name node-c's pod %s:\n%s", onNode["node-c"].Name, out)
	}
	if len(p.Delete) != 1 || onNode["node-c"] == nil || p.Delete[0].Name != onNode["node-c"].Name || p.Create.Count != 0 {
		t.Fatalf("update with node-c NotReady: kubesem creates %d and deletes %+v, want node-c's pod %s deleted", p.Create.Count, p.Delete, onNode["node-c"].Name)
	}
	ev, _ := podWatch.find(t, mark, "the first pod deletion", func(ev watch.Event) bool {
		pod, ok := ev.Object.(*corev1.Pod)
		return ok && (ev.Type == watch.Deleted || pod.DeletionTimestamp != nil)
	})
	if got := ev.Object.(*corev1.Pod); got.Name != p.Delete[0].Name {
		t.Errorf("update: the controller deleted %s (on %s) first, kubesem predicted %s", got.Name, got.Spec.NodeName, p.Delete[0].Name)
	}

	// The rollout goes through node-a and node-b; node-c, tainted, gets no
	// pod.
	eventually(t, 20*time.Second, func() (bool, string) {
		var err error
		cur, err = client.AppsV1().DaemonSets(ns).Get(ctx, ds.Name, metav1.GetOptions{})
		check(t, err)
		ps, revs = pods(t, ns), controllerRevisions(t, ns)
		if s := cur.Status; s.ObservedGeneration != cur.Generation || s.UpdatedNumberScheduled != 2 || s.NumberReady != 2 || len(ps) != 2 {
			return false, "rolled out on node-a and node-b: " + jsonish(s)
		}
		p, _, _ := daemonSetStep(t, cur, nodes(t), ps, revs)
		if len(p.Revisions) != 0 || p.Create.Count != 0 || len(p.Delete) != 0 || p.UpdateStatus {
			return false, "kubesem has nothing to write after the rollout, but: " + jsonish(p) + "\nserver status " + jsonish(cur.Status)
		}
		return true, ""
	})
	for _, pod := range ps {
		if pod.Spec.NodeName == "node-c" || pod.Labels[appsv1.ControllerRevisionHashLabelKey] != h.Hash {
			t.Errorf("after the rollout pod %s on %s has hash %s; kubesem's hash is %s, none on node-c", pod.Name, pod.Spec.NodeName, pod.Labels[appsv1.ControllerRevisionHashLabelKey], h.Hash)
		}
	}

	explainSettled(t, ns, "rolled out but on node-c")

	// node-c Ready again: untainted, its pod comes back at the new hash.
	setNodeReady(t, "node-c", true)
	nodeTaints(t, "node-c")
	_, ps, _ = dsSettled(t, ns, ds.Name)
	for _, pod := range ps {
		if pod.Labels[appsv1.ControllerRevisionHashLabelKey] != h.Hash {
			t.Errorf("after node-c's return pod %s on %s has hash %s, kubesem's is %s", pod.Name, pod.Spec.NodeName, pod.Labels[appsv1.ControllerRevisionHashLabelKey], h.Hash)
		}
	}
	sh.stop(t)
}

// podLines describes pods for a failure: name, node, phase, Ready, hash.
func podLines(ps []*corev1.Pod) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name+"@"+p.Spec.NodeName+" "+string(p.Status.Phase)+" ready="+string(podReady(p))+" hash="+p.Labels[appsv1.ControllerRevisionHashLabelKey]+" conditions="+jsonish(p.Status.Conditions))
	}
	return strings.Join(out, "; ")
}

// TestDaemonSetAdoptsFailedOrphan: a failed pod on node-a, an orphan the
// selector of a DaemonSet for node-a selects, then the DaemonSet. Its first
// sync adopts the pod and deletes it (a failed daemon pod), which the API
// server removes at once (a terminal pod has no grace); it creates no pod
// (the next sync does). Its status listing then finds no pod on node-a,
// whether its informer has seen the deletion or still lists the orphan
// (adopting it again gets NotFound): the first status the real controller
// writes counts none. kubesem, fed the objects read back from the server,
// predicts that status and those writes. (Without the fix of 2026-12-07
// kubesem counted the orphan, which the controller did in one run of
// eight, when its informer had delivered the adoption but not the
// deletion; the test accepts that race and fails on the others.)
func TestDaemonSetAdoptsFailedOrphan(t *testing.T) {
	ctx := context.Background()
	ns := namespace(t)
	labels := map[string]string{"name": "agent"}
	orphan := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "orphan", Labels: labels, Annotations: map[string]string{exitAnnotation: "1"}},
		Spec: corev1.PodSpec{NodeName: nodeNames[0], RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{{Name: "agent", Image: "agent:1"}}},
	}
	_, err := client.CoreV1().Pods(ns).Create(ctx, orphan, metav1.CreateOptions{})
	check(t, err)
	var failed []*corev1.Pod
	eventually(t, 20*time.Second, func() (bool, string) {
		failed = pods(t, ns)
		return len(failed) == 1 && failed[0].Status.Phase == corev1.PodFailed, "the orphan failed: " + podLines(failed)
	})
	wd, err := client.AppsV1().DaemonSets(ns).Watch(ctx, metav1.ListOptions{})
	dsWatch := record(t, wd, err)
	ds := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "agent"},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{NodeSelector: map[string]string{"kubernetes.io/hostname": nodeNames[0]},
					Containers: []corev1.Container{{Name: "agent", Image: "agent:1"}}},
			},
		},
	}
	created, err := client.AppsV1().DaemonSets(ns).Create(ctx, ds, metav1.CreateOptions{})
	check(t, err)
	p, _, _ := daemonSetStep(t, created, nodes(t), failed, nil)
	if len(p.Adopt) != 1 || p.Adopt[0].Name != "orphan" || len(p.Delete) != 1 || p.Delete[0].Name != "orphan" || p.Create.Count != 0 {
		t.Fatalf("kubesem's first sync adopts %+v, deletes %+v and creates %d; want the orphan adopted and deleted, nothing created", p.Adopt, p.Delete, p.Create.Count)
	}
	if p.Status.CurrentNumberScheduled != 0 || p.Status.DesiredNumberScheduled != 1 {
		t.Errorf("kubesem's first status %s; want no pod scheduled of 1", jsonish(p.Status))
	}
	ev, _ := dsWatch.find(t, 0, "the DaemonSet's first status", func(ev watch.Event) bool {
		d, ok := ev.Object.(*appsv1.DaemonSet)
		return ok && ev.Type == watch.Modified && d.Status.ObservedGeneration >= 1
	})
	got := ev.Object.(*appsv1.DaemonSet).Status
	want := appsv1.DaemonSetStatus{CurrentNumberScheduled: p.Status.CurrentNumberScheduled, NumberMisscheduled: p.Status.NumberMisscheduled,
		DesiredNumberScheduled: p.Status.DesiredNumberScheduled, NumberReady: p.Status.NumberReady, ObservedGeneration: p.Status.ObservedGeneration,
		UpdatedNumberScheduled: p.Status.UpdatedNumberScheduled, NumberAvailable: p.Status.NumberAvailable, NumberUnavailable: p.Status.NumberUnavailable}
	// (a real informer delivers events during a sync: when it has
	// delivered the adoption's update but not yet the deletion, the
	// status listing finds the orphan as the DaemonSet's own and counts
	// it; kubesem, as the world, reads the cache as of the sync's start,
	// which v1.36.3's controller sees in most runs)
	raced := want
	raced.CurrentNumberScheduled++
	switch {
	case reflect.DeepEqual(got, raced):
		t.Logf("the controller's informer delivered the adoption before the deletion: its first status counted the orphan %s", jsonish(got))
	case !reflect.DeepEqual(got, want):
		t.Errorf("the controller's first status %s; kubesem predicted %s", jsonish(got), jsonish(want))
	}
	// then the daemon pod on node-a, and nothing left to write
	eventually(t, 20*time.Second, func() (bool, string) {
		d, err := client.AppsV1().DaemonSets(ns).Get(ctx, ds.Name, metav1.GetOptions{})
		check(t, err)
		ps := pods(t, ns)
		if d.Status.NumberReady != 1 || d.Status.UpdatedNumberScheduled != 1 || len(ps) != 1 {
			return false, "the daemon pod on node-a: " + jsonish(d.Status) + "\npods: " + podLines(ps)
		}
		p, _, _ := daemonSetStep(t, d, nodes(t), ps, controllerRevisions(t, ns))
		if len(p.Revisions) != 0 || p.Create.Count != 0 || len(p.Delete) != 0 || p.UpdateStatus {
			return false, "kubesem has nothing to write on the settled DaemonSet, but: " + jsonish(p)
		}
		return true, ""
	})
}
