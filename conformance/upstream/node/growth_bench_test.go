package node_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	coordv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/record"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
)

// benchNodes is n nodes in zones zones, every third silent since 60 s
// before t0, with their leases in both models, and the leases after the
// healthy nodes renewed theirs at t0+50s.
func benchNodes(n, zones int) (knodes []*node.Node, kleases, renewed []node.Lease, unodes []*v1.Node) {
	for i := range n {
		hb := t0
		if i%3 == 0 {
			hb = t0.Add(-60 * time.Second)
		}
		k := &node.Node{}
		k.Name = fmt.Sprintf("node-%06d", i)
		k.CreationTimestamp = t0.Add(-time.Hour)
		k.Labels = map[string]string{node.LabelTopologyZone: fmt.Sprintf("zone-%02d", i%zones)}
		k.Status.Conditions = []node.Condition{{Type: node.Ready, Status: node.ConditionTrue, LastHeartbeatTime: hb, LastTransitionTime: t0.Add(-time.Hour)}}
		knodes = append(knodes, k)
		rt := hb
		kleases = append(kleases, node.Lease{ObjectMeta: meta.ObjectMeta{Name: k.Name}, Spec: node.LeaseSpec{RenewTime: &rt}})
		rt2 := hb
		if i%3 != 0 {
			rt2 = t0.Add(50 * time.Second)
		}
		renewed = append(renewed, node.Lease{ObjectMeta: meta.ObjectMeta{Name: k.Name}, Spec: node.LeaseSpec{RenewTime: &rt2}})
		unodes = append(unodes, toUp(k))
	}
	return knodes, kleases, renewed, unodes
}

func upLease(l node.Lease) *coordv1.Lease {
	rt := metav1.NewMicroTime(*l.Spec.RenewTime)
	return &coordv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: l.Name, Namespace: v1.NamespaceNodeLease}, Spec: coordv1.LeaseSpec{RenewTime: &rt}}
}

// growthCleaner collects the cleanups a harness registers, to run them
// when the harness is rebuilt (a *testing.B would keep every rebuilt
// controller until the benchmark ends).
type growthCleaner struct{ fns []func() }

func (c *growthCleaner) Cleanup(f func()) { c.fns = append(c.fns, f) }

func (c *growthCleaner) Fatal(args ...any) { panic(fmt.Sprint(args...)) }

func (c *growthCleaner) run() {
	for _, f := range c.fns {
		f()
	}
	c.fns = nil
}

// BenchmarkGrowth (issue 24, how cost grows): node.Step against the node
// lifecycle controller's monitorNodeHealth over n nodes in three zones, a
// third of them silent since 60 s before t0: a first pass at t0 registers
// every node; the timed pass at t0+55s, after the others renewed their
// leases at t0+50s, finds the silent third past the 50 s grace period and
// marks it Unknown. Upstream's controller is rebuilt before each timed
// pass with the timer stopped (fake clientset and informer stores filled,
// the first pass run, the leases renewed in its store, its event recorder
// a fake that drops events), since a pass changes its memory; kubesem
// passes the first Step's Memory. Both must write the same number of node
// statuses.
func BenchmarkGrowth(b *testing.B) {
	difftest.Growth(b, "node", func(b *testing.B, n int) *difftest.GrowthCase {
		knodes, kleases, renewed, unodes := benchNodes(n, 3)
		first, err := node.Step(knodes, kleases, nil, node.Memory{}, t0, node.Options{})
		if err != nil {
			b.Fatal(err)
		}
		at := t0.Add(55 * time.Second)
		var p node.Plan
		var c *upController
		cl := &growthCleaner{}
		prepare := func() {
			cl.run()
			c = nil
			objs := make([]runtime.Object, 0, len(unodes))
			for _, n := range unodes {
				objs = append(objs, n.DeepCopy())
			}
			c = newController(cl, fake.NewSimpleClientset(objs...), node.Options{})
			difftest.Field(reflect.ValueOf(c.nc).Elem(), "recorder").Set(reflect.ValueOf(record.EventRecorder(&record.FakeRecorder{})))
			ns := c.factory.Core().V1().Nodes().Informer().GetStore()
			ls := c.factory.Coordination().V1().Leases().Informer().GetStore()
			for i, n := range unodes {
				_ = ns.Add(n.DeepCopy())
				_ = ls.Add(upLease(kleases[i]))
			}
			*c.now = t0
			if err := upMonitorNodeHealth(c.nc, context.Background()); err != nil {
				panic(err)
			}
			for i := range renewed {
				if i%3 != 0 {
					_ = ls.Update(upLease(renewed[i]))
				}
			}
			*c.now = at
			c.client.ClearActions()
		}
		return &difftest.GrowthCase{
			Kubesem: difftest.GrowthSide{
				Op: func() (err error) {
					p, err = node.Step(knodes, renewed, nil, first.Memory, at, node.Options{})
					return err
				},
				Outcome: func() string { return fmt.Sprintf("node status writes=%d", len(p.Conditions)) },
			},
			Upstream: difftest.GrowthSide{
				Prepare: prepare,
				Op:      func() error { return upMonitorNodeHealth(c.nc, context.Background()) },
				Outcome: func() string {
					w := 0
					for _, a := range c.client.Actions() {
						if a.GetVerb() == "update" && a.GetResource().Resource == "nodes" {
							w++
						}
					}
					return fmt.Sprintf("node status writes=%d", w)
				},
			},
			Close: func() { cl.run(); c = nil },
		}
	})
}
