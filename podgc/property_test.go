package podgc_test

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
	"pgregory.net/rapid"
)

// A Running pod without a deletion timestamp on a node that exists is never
// deleted; every deletion not already terminal is patched Failed first.
func checkNeverDeletesLiveRunning(t *rapid.T) {
	pods, nodes, unlisted, mem, o := genState(t)
	p := mustStep(t, pods, nodes, unlisted, mem, t0, o)
	exists := map[string]bool{}
	for _, n := range nodes {
		exists[n.Name] = true
	}
	byName := map[string]*podstatus.Pod{}
	for _, q := range pods {
		byName[q.Name] = q
	}
	patched := map[string]bool{}
	for _, pa := range p.Patch {
		patched[pa.Name] = true
	}
	for _, d := range p.Delete {
		q := byName[d.Name]
		if q.Status.Phase == podstatus.Running && q.DeletionTimestamp == nil && exists[q.Spec.NodeName] {
			t.Fatalf("deleted running pod %s on live node %s", q.Name, q.Spec.NodeName)
		}
		if !podstatus.IsTerminal(q) && !patched[q.Name] {
			t.Fatalf("deleted %s without marking it Failed", q.Name)
		}
	}
}

// Shuffling pods and nodes does not change the Plan.
func checkOrderIndependent(t *rapid.T) {
	pods, nodes, unlisted, mem, o := genState(t)
	want := mustStep(t, pods, nodes, unlisted, mem, t0, o)
	r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
	r.Shuffle(len(pods), func(i, j int) { pods[i], pods[j] = pods[j], pods[i] })
	r.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
	r.Shuffle(len(unlisted), func(i, j int) { unlisted[i], unlisted[j] = unlisted[j], unlisted[i] })
	r.Shuffle(len(mem.Quarantine), func(i, j int) { mem.Quarantine[i], mem.Quarantine[j] = mem.Quarantine[j], mem.Quarantine[i] })
	if d := cmp.Diff(want, mustStep(t, pods, nodes, unlisted, mem, t0, o)); d != "" {
		t.Fatalf("order changed the plan:\n%s", d)
	}
}

// EvictedFirst is a strict total order on pods with distinct namespace,
// name and UID: irreflexive, asymmetric and transitive, and one of a, b
// comes first.
func checkEvictedFirstOrder(t *rapid.T) {
	gen := rapid.Custom(func(t *rapid.T) *podstatus.Pod {
		p := &podstatus.Pod{}
		p.Namespace = rapid.SampledFrom([]string{"a", "b"}).Draw(t, "ns")
		p.Name = rapid.SampledFrom([]string{"x", "y"}).Draw(t, "name")
		p.UID = rapid.SampledFrom([]string{"1", "2"}).Draw(t, "uid")
		p.CreationTimestamp = t0.Add(time.Duration(rapid.IntRange(0, 2).Draw(t, "created")) * time.Second)
		p.Status.Phase = rapid.SampledFrom([]podstatus.Phase{podstatus.Failed, podstatus.Succeeded}).Draw(t, "phase")
		if rapid.Bool().Draw(t, "evicted") {
			p.Status.Reason = podgc.EvictedReason
		}
		return p
	})
	a, b, c := gen.Draw(t, "a"), gen.Draw(t, "b"), gen.Draw(t, "c")
	if podgc.EvictedFirst(a, a) {
		t.Fatalf("EvictedFirst(a, a) for %+v", a)
	}
	ab, ba := podgc.EvictedFirst(a, b), podgc.EvictedFirst(b, a)
	if ab && ba {
		t.Fatalf("both orders: %+v, %+v", a, b)
	}
	distinct := a.Namespace != b.Namespace || a.Name != b.Name || a.UID != b.UID
	if distinct && !ab && !ba {
		t.Fatalf("neither first: %+v, %+v", a, b)
	}
	if ab && podgc.EvictedFirst(b, c) && !podgc.EvictedFirst(a, c) {
		t.Fatalf("not transitive: %+v, %+v, %+v", a, b, c)
	}
}

func TestProperties(t *testing.T) {
	t.Parallel()
	t.Run("NeverDeletesLiveRunning", func(t *testing.T) { rapid.Check(t, checkNeverDeletesLiveRunning) })
	t.Run("OrderIndependent", func(t *testing.T) { rapid.Check(t, checkOrderIndependent) })
	t.Run("EvictedFirstOrder", func(t *testing.T) { rapid.Check(t, checkEvictedFirstOrder) })
}

func genState(t *rapid.T) ([]*podstatus.Pod, []*node.Node, []string, podgc.Memory, podgc.Options) {
	names := []string{"n1", "n2", "n3"}
	var nodes []*node.Node
	var unlisted []string
	for _, name := range names {
		if rapid.IntRange(0, 3).Draw(t, "missing") == 0 {
			continue
		}
		if rapid.IntRange(0, 4).Draw(t, "unlisted") == 0 {
			unlisted = append(unlisted, name)
			continue
		}
		n := &node.Node{}
		n.Name = name
		n.Status.Conditions = []node.Condition{{Type: node.Ready, Status: rapid.SampledFrom([]meta.ConditionStatus{"True", "False"}).Draw(t, "ready")}}
		if rapid.Bool().Draw(t, "oos") {
			n.Spec.Taints = []node.Taint{{Key: podgc.OutOfServiceTaint, Effect: node.NoExecute}}
		}
		nodes = append(nodes, n)
	}
	var pods []*podstatus.Pod
	for i := range rapid.IntRange(0, 10).Draw(t, "pods") {
		p := &podstatus.Pod{}
		p.Name, p.UID = "p"+strconv.Itoa(i), "u"+strconv.Itoa(i)
		p.CreationTimestamp = t0.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, "created")) * time.Hour)
		p.Spec.NodeName = rapid.SampledFrom(append([]string{""}, names...)).Draw(t, "node")
		p.Status.Phase = rapid.SampledFrom([]podstatus.Phase{"", podstatus.Pending, podstatus.Running, podstatus.Succeeded, podstatus.Failed, podstatus.Unknown}).Draw(t, "phase")
		if rapid.Bool().Draw(t, "deleting") {
			p.DeletionTimestamp = &t0
		}
		pods = append(pods, p)
	}
	var mem podgc.Memory
	for _, name := range names {
		if rapid.Bool().Draw(t, "queued") {
			mem.Quarantine = append(mem.Quarantine, podgc.Quarantined{Node: name, ReadyAt: t0.Add(time.Duration(rapid.IntRange(-40, 40).Draw(t, "readyIn")) * time.Second)})
		}
	}
	th := rapid.IntRange(-1, 5).Draw(t, "threshold")
	return pods, nodes, unlisted, mem, podgc.Options{TerminatedPodThreshold: &th}
}
