package pdb_test

import (
	"bytes"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

func drawValue(t *rapid.T, label string) *intstr.Value {
	if rapid.Bool().Draw(t, label+"pct") {
		return ptr(intstr.Percent(int32(rapid.IntRange(0, 100).Draw(t, label+"p"))))
	}
	return ptr(intstr.Int(int32(rapid.IntRange(0, 12).Draw(t, label+"i"))))
}

func drawBudget(t *rapid.T) *pdb.PodDisruptionBudget {
	var b *pdb.PodDisruptionBudget
	switch rapid.IntRange(0, 2).Draw(t, "field") {
	case 0:
		b = budget(drawValue(t, "min"), nil)
	case 1:
		b = budget(nil, drawValue(t, "max"))
	default:
		b = budget(nil, nil)
	}
	if rapid.Bool().Draw(t, "always") {
		b.Spec.UnhealthyPodEvictionPolicy = ptr(pdb.AlwaysAllow)
	}
	b.Generation = int64(rapid.IntRange(1, 2).Draw(t, "gen"))
	b.Status.ObservedGeneration = int64(rapid.IntRange(0, 2).Draw(t, "observed"))
	return b
}

func drawCluster(t *rapid.T) ([]*podstatus.Pod, []pdb.Controller, map[string]time.Time) {
	var cs []pdb.Controller
	for i := range rapid.IntRange(0, 3).Draw(t, "controllers") {
		cs = append(cs, rs("rs"+strconv.Itoa(i), int32(rapid.IntRange(0, 10).Draw(t, "scale"))))
	}
	n := rapid.IntRange(0, 15).Draw(t, "pods")
	pods := make([]*podstatus.Pod, n)
	disrupted := map[string]time.Time{}
	for i := range pods {
		var owner *meta.OwnerReference
		if k := rapid.IntRange(-1, len(cs)-1).Draw(t, "owner"); k >= 0 {
			owner = rsRef(cs[k].Name)
		}
		p := readyPod("p"+strconv.Itoa(i), rapid.Bool().Draw(t, "ready"), owner)
		if rapid.IntRange(0, 5).Draw(t, "deleting") == 0 {
			p.DeletionTimestamp = ptr(now.Add(-time.Second))
		}
		if rapid.IntRange(0, 4).Draw(t, "disrupted") == 0 {
			disrupted[p.Name] = now.Add(-time.Duration(rapid.IntRange(0, 200).Draw(t, "ago")) * time.Second)
		}
		pods[i] = p
	}
	return pods, cs, disrupted
}

// Disruptions allowed is never negative and never more than current minus
// desired healthy.
func TestPropertyAllowedBounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := drawBudget(t)
		pods, cs, disrupted := drawCluster(t)
		b.Status.DisruptedPods = disrupted
		p, err := pdb.Step(b, pods, cs, now, pdb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := p.Status
		if s.DisruptionsAllowed < 0 {
			t.Fatalf("negative: %+v", s)
		}
		if p.Outcome == pdb.ReasonSynced && s.DisruptionsAllowed > 0 && s.DisruptionsAllowed != s.CurrentHealthy-s.DesiredHealthy {
			t.Fatalf("allowed %d != healthy %d - desired %d", s.DisruptionsAllowed, s.CurrentHealthy, s.DesiredHealthy)
		}
		if s.DisruptionsAllowed > max(0, s.CurrentHealthy-s.DesiredHealthy) {
			t.Fatalf("allowed above healthy-desired: %+v", s)
		}
	})
}

// An eviction the budget allows decrements it by exactly one and records the
// pod; any other answer writes nothing.
func TestPropertyEvictionDecrementsByOne(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := drawBudget(t)
		b.Status.DisruptionsAllowed = int32(rapid.IntRange(-1, 3).Draw(t, "allowed"))
		b.Status.CurrentHealthy = int32(rapid.IntRange(0, 4).Draw(t, "healthy"))
		b.Status.DesiredHealthy = int32(rapid.IntRange(0, 4).Draw(t, "desired"))
		p := readyPod("victim", rapid.Bool().Draw(t, "ready"), nil)
		if rapid.IntRange(0, 4).Draw(t, "pending") == 0 {
			p.Status.Phase = podstatus.Pending
		}
		dry := rapid.Bool().Draw(t, "dry")
		d, err := pdb.Evict(p, []pdb.PodDisruptionBudget{*b}, pdb.Request{DryRun: dry}, now)
		if err != nil {
			t.Fatal(err)
		}
		if d.Reason == pdb.ReasonBudgetDecremented {
			if d.Status == nil || d.Status.DisruptionsAllowed != b.Status.DisruptionsAllowed-1 {
				t.Fatalf("not decremented by one: %+v", d)
			}
			if _, ok := d.Status.DisruptedPods["victim"]; ok == dry {
				t.Fatalf("disruptedPods entry %v under dryRun %v", ok, dry)
			}
			if d.UpdateStatus == dry {
				t.Fatalf("updateStatus %v under dryRun %v", d.UpdateStatus, dry)
			}
		} else if d.UpdateStatus || d.Status != nil {
			t.Fatalf("wrote a status without decrementing: %+v", d)
		}
		if d.Allowed != (d.Code == 200) {
			t.Fatalf("allowed %v with code %d", d.Allowed, d.Code)
		}
	})
}

// A drain under IfHealthyBudget never takes the healthy pods below the
// desired count (or below what they were, if already below).
func TestPropertyDrainKeepsDesired(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes := nodes("n0", "n1", "n2")
		b := budget(ptr(intstr.Int(int32(rapid.IntRange(0, 6).Draw(t, "min")))), nil)
		c := pdb.Cluster{Nodes: nodes, Controllers: []pdb.Controller{rs("rs", 6)}, Budgets: []pdb.PodDisruptionBudget{*b}}
		for i := range rapid.IntRange(0, 9).Draw(t, "pods") {
			p := readyPod("p"+strconv.Itoa(i), rapid.Bool().Draw(t, "ready"), rsRef("rs"))
			p.Spec.NodeName = rapid.SampledFrom([]string{"n0", "n1", "n2"}).Draw(t, "node")
			c.Pods = append(c.Pods, *p)
		}
		script := []pdb.Action{{Kind: pdb.ActionSync}}
		for range rapid.IntRange(1, 4).Draw(t, "drains") {
			script = append(script, pdb.Action{Kind: pdb.ActionDrain, Node: rapid.SampledFrom([]string{"n0", "n1", "n2"}).Draw(t, "drain")})
		}
		steps, err := pdb.Drain(c, script, now, pdb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		healthy := func(ps []pdb.PodState) int32 {
			var n int32
			for _, p := range ps {
				if p.State == "available" {
					n++
				}
			}
			return n
		}
		before := healthy(steps[0].Pods)
		desired := steps[0].Budgets[0].DesiredHealthy
		after := healthy(steps[len(steps)-1].Pods)
		if after < min(before, desired) {
			t.Fatalf("healthy %d -> %d below desired %d", before, after, desired)
		}
	})
}

// Shuffling pods and controllers gives the same Plan.
func TestPropertyStepOrderIndependent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := drawBudget(t)
		pods, cs, disrupted := drawCluster(t)
		b.Status.DisruptedPods = disrupted
		p1, err1 := pdb.Step(b, pods, cs, now, pdb.Options{})
		pods2 := rapid.Permutation(pods).Draw(t, "pods2")
		cs2 := rapid.Permutation(cs).Draw(t, "cs2")
		p2, err2 := pdb.Step(b, pods2, cs2, now, pdb.Options{})
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("errors differ: %v / %v", err1, err2)
		}
		j1, _ := plan.Encode(p1)
		j2, _ := plan.Encode(p2)
		if !bytes.Equal(j1, j2) {
			t.Fatalf("plans differ:\n%s\n%s", j1, j2)
		}
	})
}
