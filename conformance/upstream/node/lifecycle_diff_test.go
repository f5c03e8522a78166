package node_test

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/spf13/pflag"
	coordv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	core "k8s.io/client-go/testing"
	nodetopology "k8s.io/component-helpers/node/topology"
	kcmoptions "k8s.io/kubernetes/cmd/kube-controller-manager/app/options"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle"
	nodelifecycleconfig "k8s.io/kubernetes/pkg/controller/nodelifecycle/config"
	nodeutil "k8s.io/kubernetes/pkg/controller/util/node"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
)

//go:linkname upTryUpdateNodeHealth k8s.io/kubernetes/pkg/controller/nodelifecycle.(*Controller).tryUpdateNodeHealth
func upTryUpdateNodeHealth(nc *nodelifecycle.Controller, ctx context.Context, n *v1.Node) (time.Duration, v1.NodeCondition, *v1.NodeCondition, error)

//go:linkname upNoScheduleTaintingPass k8s.io/kubernetes/pkg/controller/nodelifecycle.(*Controller).doNoScheduleTaintingPass
func upNoScheduleTaintingPass(nc *nodelifecycle.Controller, ctx context.Context, nodeName string) error

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

type upController struct {
	nc      *nodelifecycle.Controller
	client  *fake.Clientset
	factory informers.SharedInformerFactory
	now     *time.Time
}

// upConfig is the node lifecycle controller's configuration as
// kube-controller-manager builds it with no flags set: the component
// config's defaulting (grace periods, monitor period) and the flag defaults
// of its node lifecycle options (eviction rates and thresholds). The
// differentials configure upstream with it, never with kubesem's
// constants.
type upConfig struct {
	nodelifecycleconfig.NodeLifecycleControllerConfiguration
	MonitorPeriod time.Duration
}

var upDefaults = sync.OnceValue(func() upConfig {
	cfg, err := kcmoptions.NewDefaultComponentConfig()
	if err != nil {
		panic(err)
	}
	o := &kcmoptions.NodeLifecycleControllerOptions{NodeLifecycleControllerConfiguration: &cfg.NodeLifecycleController}
	o.AddFlags(pflag.NewFlagSet("node-lifecycle", pflag.PanicOnError))
	var out upConfig
	if err := o.ApplyTo(&out.NodeLifecycleControllerConfiguration); err != nil {
		panic(err)
	}
	out.MonitorPeriod = cfg.KubeCloudShared.NodeMonitorPeriod.Duration
	return out
})

// newController builds the node lifecycle controller over client with
// upstream's default configuration; opts.NodeMonitorGracePeriod, when set,
// stands for the --node-monitor-grace-period flag.
func newController(t interface {
	Fatal(...any)
	difftest.Cleaner
}, client *fake.Clientset, opts node.Options) *upController {
	factory := informers.NewSharedInformerFactory(client, 0)
	cfg := upDefaults()
	grace := cfg.NodeMonitorGracePeriod.Duration
	if opts.NodeMonitorGracePeriod != 0 {
		grace = opts.NodeMonitorGracePeriod
	}
	nc, err := nodelifecycle.NewNodeLifecycleController(context.Background(), factory.Coordination().V1().Leases(), factory.Core().V1().Pods(),
		factory.Core().V1().Nodes(), factory.Apps().V1().DaemonSets(), client, cfg.MonitorPeriod, cfg.NodeStartupGracePeriod.Duration, grace,
		cfg.NodeEvictionRate, cfg.SecondaryNodeEvictionRate, cfg.LargeClusterSizeThreshold, cfg.UnhealthyZoneThreshold)
	if err != nil {
		t.Fatal(err)
	}
	difftest.StopOn(t, nc)
	c := &upController{nc: nc, client: client, factory: factory, now: new(time.Time)}
	f := reflect.ValueOf(nc).Elem().FieldByName("now")
	nowFn := func() metav1.Time { return metav1.NewTime(*c.now) }
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(nowFn))
	return c
}

func toUp(n *node.Node) *v1.Node { return difftest.Must(k8s.ToNode(n)) }

func condFromUp(c v1.NodeCondition) node.Condition {
	return node.Condition{Type: node.ConditionType(c.Type), Status: node.ConditionStatus(c.Status), LastHeartbeatTime: c.LastHeartbeatTime.Time.UTC(),
		LastTransitionTime: c.LastTransitionTime.Time.UTC(), Reason: c.Reason, Message: c.Message}
}

func sameCond(a, b node.Condition) bool {
	return a.Type == b.Type && a.Status == b.Status && a.Reason == b.Reason && a.Message == b.Message &&
		a.LastHeartbeatTime.Equal(b.LastHeartbeatTime) && a.LastTransitionTime.Equal(b.LastTransitionTime)
}

// TestNodeDiffZoneState compares ComputeZoneState, ReducedRate and
// HealthyRate with the controller's ComputeZoneState, ReducedQPSFunc and
// HealthyQPSFunc over zones of 0–200 nodes and around the large-cluster
// threshold.
func TestNodeDiffZoneState(t *testing.T) {
	up := newController(t, fake.NewSimpleClientset(), node.Options{})
	statuses := []v1.ConditionStatus{v1.ConditionTrue, v1.ConditionFalse, v1.ConditionUnknown, ""}
	rapid.Check(t, func(t *rapid.T) {
		size := rapid.OneOf(rapid.IntRange(0, 200), rapid.IntRange(45, 56)).Draw(t, "size")
		pTrue := rapid.IntRange(0, 100).Draw(t, "pTrue")
		var upConds []*v1.NodeCondition
		var ready []node.ConditionStatus
		for i := 0; i < size; i++ {
			var s v1.ConditionStatus
			if rapid.IntRange(0, 99).Draw(t, "r") < pTrue {
				s = v1.ConditionTrue
			} else {
				s = statuses[rapid.IntRange(1, 3).Draw(t, "s")]
			}
			if s == "" {
				upConds = append(upConds, nil)
			} else {
				upConds = append(upConds, &v1.NodeCondition{Type: v1.NodeReady, Status: s})
			}
			ready = append(ready, node.ConditionStatus(s))
		}
		wantN, wantS := up.nc.ComputeZoneState(upConds)
		gotN, gotS := node.ComputeZoneState(ready, node.Options{})
		if wantN != gotN || string(wantS) != string(gotS) {
			t.Fatalf("ComputeZoneState = %d %s, upstream %d %s", gotN, gotS, wantN, wantS)
		}
		if got, want := node.ReducedRate(size, node.Options{}), up.nc.ReducedQPSFunc(size); got != want {
			t.Fatalf("ReducedRate(%d) = %v, upstream %v", size, got, want)
		}
		if got, want := node.HealthyRate(size, node.Options{}), up.nc.HealthyQPSFunc(size); got != want {
			t.Fatalf("HealthyRate(%d) = %v, upstream %v", size, got, want)
		}
	})
}

// TestNodeDiffHealth drives one node through three health checks with the
// controller's tryUpdateNodeHealth (on a fake client, its clock set to
// each check's time) and with UpdateHealth carrying Health between checks:
// heartbeats and lease renewals at and around the 50 s grace boundary,
// checks at exactly the end of a grace period and 1 ns either side,
// nodes without a Ready condition (startup grace), conditions appearing.
func TestNodeDiffHealth(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := &node.Node{}
		n.Name = "n"
		n.CreationTimestamp = t0.Add(-time.Duration(rapid.IntRange(0, 120).Draw(t, "age")) * time.Second)
		statuses := []node.ConditionStatus{node.ConditionTrue, node.ConditionFalse, node.ConditionUnknown}
		setConds := func(at time.Time) {
			n.Status.Conditions = nil
			if rapid.IntRange(0, 5).Draw(t, "noReady") == 0 {
				return
			}
			for _, ct := range []node.ConditionType{node.Ready, node.MemoryPressure, node.DiskPressure, node.PIDPressure, node.NetworkUnavailable} {
				if ct != node.Ready && rapid.IntRange(0, 3).Draw(t, "skip") == 0 {
					continue
				}
				n.Status.Conditions = append(n.Status.Conditions, node.Condition{Type: ct, Status: rapid.SampledFrom(statuses).Draw(t, "st"),
					LastHeartbeatTime: at, LastTransitionTime: t0.Add(-time.Hour), Reason: "KubeletReady"})
			}
		}
		setConds(t0)
		client := fake.NewSimpleClientset(toUp(n))
		c := newController(t, client, node.Options{})
		var mem *node.Health
		now := t0
		var lease *node.Lease
		for step := 0; step < 3; step++ {
			now = drawHealthTime(t, now, n, mem)
			switch rapid.IntRange(0, 3).Draw(t, "kubelet") {
			case 0: // heartbeat
				for i := range n.Status.Conditions {
					n.Status.Conditions[i].LastHeartbeatTime = now.Add(-time.Duration(rapid.IntRange(0, 3).Draw(t, "lag")) * time.Second)
				}
			case 1: // new status
				setConds(now)
			}
			switch rapid.IntRange(0, 3).Draw(t, "lease") {
			case 0:
				lease = nil
			case 1:
				rt := now.Add(-time.Duration(rapid.IntRange(0, 60).Draw(t, "leaseAge")) * time.Second)
				lease = &node.Lease{ObjectMeta: meta.ObjectMeta{Name: "n"}, Spec: node.LeaseSpec{RenewTime: &rt}}
			}
			// upstream
			*c.now = now
			store := c.factory.Coordination().V1().Leases().Informer().GetStore()
			for _, o := range store.List() {
				_ = store.Delete(o)
			}
			if lease != nil {
				rt := metav1.NewMicroTime(*lease.Spec.RenewTime)
				_ = store.Add(&coordv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: "n", Namespace: v1.NamespaceNodeLease}, Spec: coordv1.LeaseSpec{RenewTime: &rt}})
			}
			upNode := toUp(n)
			if _, err := client.CoreV1().Nodes().Update(context.Background(), upNode, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			client.ClearActions()
			_, obs, cur, err := upTryUpdateNodeHealth(c.nc, context.Background(), upNode)
			if err != nil {
				t.Fatal(err)
			}
			wrote := false
			var written *v1.Node
			for _, a := range client.Actions() {
				if u, ok := a.(core.UpdateAction); ok && a.GetSubresource() == "status" {
					wrote = true
					written = u.GetObject().(*v1.Node)
				}
			}
			// kubesem
			got := node.UpdateHealth(n, lease, mem, now, node.Options{})
			mem = &got.Health
			if got.Write != wrote {
				t.Fatalf("step %d: write = %v, upstream %v (node %+v, mem %+v)", step, got.Write, wrote, n.Status.Conditions, mem)
			}
			if !sameCond(got.Observed, condFromUp(obs)) {
				t.Fatalf("step %d: observed %+v, upstream %+v", step, got.Observed, obs)
			}
			if (got.Current == nil) != (cur == nil) || cur != nil && !sameCond(*got.Current, condFromUp(*cur)) {
				t.Fatalf("step %d: current %+v, upstream %+v", step, got.Current, cur)
			}
			if wrote {
				if len(written.Status.Conditions) != len(got.Conditions) {
					t.Fatalf("step %d: wrote %d conditions, upstream %d", step, len(got.Conditions), len(written.Status.Conditions))
				}
				for i := range got.Conditions {
					if !sameCond(got.Conditions[i], condFromUp(written.Status.Conditions[i])) {
						t.Fatalf("step %d: condition %d = %+v, upstream %+v", step, i, got.Conditions[i], written.Status.Conditions[i])
					}
				}
				n.Status.Conditions = got.Conditions
			}
		}
	})
}

// drawHealthTime draws the time of the next health check after prev:
// whole seconds later (around the 50 s grace period), or exactly at the
// end of a grace period, 1 ns before or 1 ns after it — upstream's monitor
// or startup grace (its own defaults) counted from the last probe time the
// controller recorded, or from the node's creation.
func drawHealthTime(t *rapid.T, prev time.Time, n *node.Node, mem *node.Health) time.Time {
	if rapid.IntRange(0, 2).Draw(t, "atBoundary") == 0 {
		cfg := upDefaults()
		grace := cfg.NodeMonitorGracePeriod.Duration
		if rapid.Bool().Draw(t, "startupGrace") {
			grace = cfg.NodeStartupGracePeriod.Duration
		}
		base := n.CreationTimestamp
		if mem != nil && rapid.IntRange(0, 3).Draw(t, "fromCreation") > 0 {
			base = mem.ProbeTime
		}
		at := base.Add(grace + time.Duration(rapid.IntRange(-1, 1).Draw(t, "delta")))
		if !at.Before(prev) {
			return at
		}
	}
	return prev.Add(time.Duration(rapid.SampledFrom([]int{0, 1, 5, 10, 49, 50, 51, 55, 60, 61, 100}).Draw(t, "dt")) * time.Second)
}

// TestNodeDiffConditionTaints compares ConditionTaintDiff with the
// controller's doNoScheduleTaintingPass on a fake client: the node's taints
// after the pass, by key and effect, in order.
func TestNodeDiffConditionTaints(t *testing.T) {
	keys := []string{node.TaintNotReady, node.TaintUnreachable, node.TaintMemoryPressure, node.TaintDiskPressure, node.TaintPIDPressure, node.TaintNetworkUnavailable, node.TaintUnschedulable, "custom"}
	effects := []node.TaintEffect{node.NoSchedule, node.NoExecute, node.PreferNoSchedule}
	statuses := []node.ConditionStatus{node.ConditionTrue, node.ConditionFalse, node.ConditionUnknown}
	rapid.Check(t, func(t *rapid.T) {
		n := &node.Node{}
		n.Name = "n"
		n.Spec.Unschedulable = rapid.Bool().Draw(t, "unsched")
		seen := map[string]bool{}
		for range rapid.IntRange(0, 4).Draw(t, "nt") {
			tt := node.Taint{Key: rapid.SampledFrom(keys).Draw(t, "k"), Effect: rapid.SampledFrom(effects).Draw(t, "e")}
			if seen[tt.Key+string(tt.Effect)] {
				continue
			}
			seen[tt.Key+string(tt.Effect)] = true
			n.Spec.Taints = append(n.Spec.Taints, tt)
		}
		for _, ct := range []node.ConditionType{node.Ready, node.MemoryPressure, node.DiskPressure, node.PIDPressure, node.NetworkUnavailable} {
			if rapid.Bool().Draw(t, "has") {
				n.Status.Conditions = append(n.Status.Conditions, node.Condition{Type: ct, Status: rapid.SampledFrom(statuses).Draw(t, "s")})
			}
		}
		up := toUp(n)
		client := fake.NewSimpleClientset(up)
		c := newController(t, client, node.Options{})
		_ = c.factory.Core().V1().Nodes().Informer().GetStore().Add(up)
		if err := upNoScheduleTaintingPass(c.nc, context.Background(), "n"); err != nil {
			t.Fatal(err)
		}
		after, _ := client.CoreV1().Nodes().Get(context.Background(), "n", metav1.GetOptions{})
		add, remove := node.ConditionTaintDiff(n)
		var want []node.Taint
		for _, x := range n.Spec.Taints {
			drop := false
			for _, r := range remove {
				if r.MatchTaint(x) {
					drop = true
				}
			}
			if !drop {
				want = append(want, x)
			}
		}
		want = append(want, add...)
		if len(want) != len(after.Spec.Taints) {
			t.Fatalf("taints %+v, upstream %+v", want, after.Spec.Taints)
		}
		for _, w := range want {
			found := false
			for _, u := range after.Spec.Taints {
				if u.Key == w.Key && string(u.Effect) == string(w.Effect) {
					found = true
				}
			}
			if !found {
				t.Fatalf("taints %+v, upstream %+v", want, after.Spec.Taints)
			}
		}
	})
}

// TestNodeDiffZoneKeys compares Zone with GetZoneKey, and ZoneStates with
// monitorNodeHealth's grouping (exclusion label, zone key, Ready
// condition) followed by ComputeZoneState, on clusters of up to 100 nodes
// with both label generations, empty values and excluded nodes; a quarter
// of the clusters draw random label values (up to 20 characters, often
// more than 32 zones).
func TestNodeDiffZoneKeys(t *testing.T) {
	up := newController(t, fake.NewSimpleClientset(), node.Options{})
	labelKeys := []string{node.LabelTopologyZone, node.LabelFailureZone, node.LabelTopologyRegion, node.LabelFailureRegion, node.LabelExcludeDisruption, "other"}
	rapid.Check(t, func(t *rapid.T) {
		// few values (zones shared by many nodes) or many (more zones than
		// ZoneStates' built-in table holds, values longer than 8 bytes)
		values := rapid.SampledFrom([]string{"", "a", "b"})
		if rapid.IntRange(0, 3).Draw(t, "manyZones") == 0 {
			values = rapid.StringMatching(`[a-z0-9.-]{0,20}`)
		}
		var knodes []*node.Node
		zones := map[string][]*v1.NodeCondition{}
		for i := range rapid.IntRange(0, 100).Draw(t, "n") {
			n := &node.Node{}
			n.Name = string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
			n.Labels = map[string]string{}
			for _, k := range labelKeys {
				if rapid.IntRange(0, 2).Draw(t, "has") == 0 {
					n.Labels[k] = values.Draw(t, "v")
				}
			}
			if rapid.IntRange(0, 4).Draw(t, "ready") > 0 {
				n.Status.Conditions = []node.Condition{{Type: node.Ready, Status: rapid.SampledFrom([]node.ConditionStatus{node.ConditionTrue, node.ConditionFalse, node.ConditionUnknown}).Draw(t, "s")}}
			}
			un := toUp(n)
			if got, want := node.Zone(n), nodetopology.GetZoneKey(un); got != want {
				t.Fatalf("Zone(%v) = %q, upstream %q", n.Labels, got, want)
			}
			knodes = append(knodes, n)
			if _, ok := un.Labels[node.LabelExcludeDisruption]; ok {
				continue
			}
			_, c := nodeutil.GetNodeCondition(&un.Status, v1.NodeReady)
			k := nodetopology.GetZoneKey(un)
			zones[k] = append(zones[k], c)
		}
		got := node.ZoneStates(knodes, node.Options{})
		if len(got) != len(zones) {
			t.Fatalf("%d zones, upstream %d", len(got), len(zones))
		}
		for _, z := range got {
			n, st := up.nc.ComputeZoneState(zones[z.Zone])
			if z.NotReady != n || string(z.State) != string(st) || z.Size != len(zones[z.Zone]) {
				t.Fatalf("zone %q = %+v, upstream %d %s of %d", z.Zone, z, n, st, len(zones[z.Zone]))
			}
		}
	})
}
