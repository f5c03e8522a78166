package podgc_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubesem/kubesem/internal/fuzzlimit"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
	"pgregory.net/rapid"
)

var t0 = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

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

// mustStep is podgc.Step on inputs the test knows valid.
func mustStep(t interface{ Fatalf(string, ...any) }, pods []*podstatus.Pod, nodes []*node.Node, unlisted []string, mem podgc.Memory, now time.Time, o podgc.Options) podgc.Plan {
	p, err := podgc.Step(pods, nodes, unlisted, mem, now, o)
	if err != nil {
		t.Fatalf("Step: %v", err)
	}
	return p
}

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

func TestProperties(t *testing.T) {
	t.Parallel()
	t.Run("NeverDeletesLiveRunning", func(t *testing.T) { rapid.Check(t, checkNeverDeletesLiveRunning) })
	t.Run("OrderIndependent", func(t *testing.T) { rapid.Check(t, checkOrderIndependent) })
}

func FuzzNeverDeletesLiveRunning(f *testing.F) { fuzzlimit.Rapid(f, checkNeverDeletesLiveRunning) }
func FuzzOrderIndependent(f *testing.F)        { fuzzlimit.Rapid(f, checkOrderIndependent) }

// FuzzStep decodes arbitrary JSON as a pass's input: Step never panics,
// and the Writes of a pass it accepts never fail.
func FuzzStep(f *testing.F) {
	f.Add([]byte(`{"pods":[null,{"spec":{"nodeName":"x"}}],"nodes":[null,{"metadata":{"name":"y"}}],"unlisted":["x"],"memory":{"quarantine":[{"node":"x","readyAt":"2025-01-01T12:00:00Z"}]}}`), int64(0), 1)
	f.Fuzz(func(t *testing.T, b []byte, offset int64, threshold int) {
		var in struct {
			Pods     []*podstatus.Pod `json:"pods"`
			Nodes    []*node.Node     `json:"nodes"`
			Unlisted []string         `json:"unlisted"`
			Memory   podgc.Memory     `json:"memory"`
		}
		if json.Unmarshal(b, &in) != nil {
			return
		}
		p, err := podgc.Step(in.Pods, in.Nodes, in.Unlisted, in.Memory, t0.Add(time.Duration(offset)), podgc.Options{TerminatedPodThreshold: &threshold, Quarantine: time.Duration(offset)})
		if err != nil {
			return
		}
		// the writes of a valid pass always name given pods
		if _, err := p.Writes(in.Pods); err != nil {
			t.Fatalf("Writes: %v", err)
		}
	})
}

func BenchmarkStep20000(b *testing.B) {
	var nodes []*node.Node
	for i := range 50 {
		n := &node.Node{}
		n.Name = "node-" + strconv.Itoa(i)
		n.Status.Conditions = []node.Condition{{Type: node.Ready, Status: node.ConditionTrue}}
		nodes = append(nodes, n)
	}
	pods := make([]*podstatus.Pod, 20000)
	for i := range pods {
		p := &podstatus.Pod{}
		p.Name = "pod-" + strconv.Itoa(i)
		p.CreationTimestamp = t0.Add(time.Duration(i%5000) * time.Second)
		p.Spec.NodeName = "node-" + strconv.Itoa(i%51)
		p.Status.Phase = podstatus.Succeeded
		pods[i] = p
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = mustStep(b, pods, nodes, nil, podgc.Memory{}, t0, podgc.Options{})
	}
}

func BenchmarkEvictedFirst(b *testing.B) {
	x := &podstatus.Pod{Status: podstatus.Status{Phase: podstatus.Failed, Reason: podgc.EvictedReason}}
	y := &podstatus.Pod{Status: podstatus.Status{Phase: podstatus.Failed}}
	b.ReportAllocs()
	for b.Loop() {
		_ = podgc.EvictedFirst(x, y)
	}
}

// A node was deleted; the collector first quarantines it for 40s, then
// marks its running pod Failed with DisruptionTarget and deletes it.
func ExampleStep() {
	p := &podstatus.Pod{}
	p.Name, p.Spec.NodeName, p.Status.Phase = "web-1", "node-2", podstatus.Running
	pass1, _ := podgc.Step([]*podstatus.Pod{p}, nil, nil, podgc.Memory{}, t0, podgc.Options{})
	fmt.Println(len(pass1.Delete), pass1.Memory.Quarantine[0].ReadyAt.Sub(t0))
	pass2, _ := podgc.Step([]*podstatus.Pod{p}, nil, nil, pass1.Memory, t0.Add(40*time.Second), podgc.Options{})
	fmt.Println(pass2.Delete[0].Name, pass2.Delete[0].Reason, pass2.Patch[0].Phase, pass2.Patch[0].Condition.Reason)
	// Output:
	// 0 40s
	// web-1 Orphaned Failed DeletionByPodGC
}
