package node_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/spf13/pflag"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/util/flowcontrol"
	kcmoptions "k8s.io/kubernetes/cmd/kube-controller-manager/app/options"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle"
	nodelifecycleconfig "k8s.io/kubernetes/pkg/controller/nodelifecycle/config"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle/scheduler"
	"k8s.io/kubernetes/plugin/pkg/admission/defaulttolerationseconds"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/node"
)

// node.DefaultTolerations against the DefaultTolerationSeconds admission
// plugin's Admit, and node.ZoneRate against the node lifecycle
// controller's setLimiterInZone. The plugin's seconds come from its own
// flags (their defaults, or the seconds a case draws); the controller's
// rates and threshold from kube-controller-manager's flag defaults, or the
// options a case draws.

//go:linkname ruleSetLimiter k8s.io/kubernetes/pkg/controller/nodelifecycle.(*Controller).setLimiterInZone
func ruleSetLimiter(nc *nodelifecycle.Controller, zone string, zoneSize int, state nodelifecycle.ZoneState)

// ---------------------------------------------------------------------
// node.DefaultTolerations

// ruleAdmit is the DefaultTolerationSeconds plugin as kube-apiserver
// configures it: flags registered on a flag set, set or left at their
// defaults, then the plugin initialized.
type ruleAdmit struct {
	fs       *pflag.FlagSet
	defaults [2]string // the flags' defaults, read before any is set
}

var ruleAdmitOnce = sync.OnceValue(func() *ruleAdmit {
	fs := pflag.NewFlagSet("kube-apiserver", pflag.ContinueOnError)
	defaulttolerationseconds.RegisterFlags(fs)
	return &ruleAdmit{fs, [2]string{fs.Lookup("default-not-ready-toleration-seconds").DefValue,
		fs.Lookup("default-unreachable-toleration-seconds").DefValue}}
})

// admit returns the tolerations of a pod created with tolerations, after
// the plugin with both flags at seconds (nil: their defaults).
func (a *ruleAdmit) admit(tb difftest.Fataler, tolerations []v1.Toleration, seconds *int64) []v1.Toleration {
	nr, un := a.defaults[0], a.defaults[1]
	if seconds != nil {
		nr, un = strconv.FormatInt(*seconds, 10), strconv.FormatInt(*seconds, 10)
	}
	if err := a.fs.Set("default-not-ready-toleration-seconds", nr); err != nil {
		tb.Fatalf("flag: %v", err)
	}
	if err := a.fs.Set("default-unreachable-toleration-seconds", un); err != nil {
		tb.Fatalf("flag: %v", err)
	}
	p := defaulttolerationseconds.NewDefaultTolerationSeconds()
	p.InspectFeatureGates(nil)
	if err := admission.ValidateInitialization(p); err != nil {
		tb.Fatalf("plugin: %v", err)
	}
	in := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default"}, Spec: v1.PodSpec{Tolerations: tolerations}}
	var pod api.Pod
	if err := legacyscheme.Scheme.Convert(in, &pod, nil); err != nil {
		tb.Fatalf("convert: %v", err)
	}
	attrs := admission.NewAttributesRecord(&pod, nil, api.Kind("Pod").WithVersion("v1"), "default", "p",
		api.Resource("pods").WithVersion("v1"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
	if err := p.Admit(context.Background(), attrs, nil); err != nil {
		tb.Fatalf("Admit: %v", err)
	}
	var out v1.Pod
	if err := legacyscheme.Scheme.Convert(&pod, &out, nil); err != nil {
		tb.Fatalf("convert: %v", err)
	}
	return out.Spec.Tolerations
}

var ruleTolKeys = []string{"", v1.TaintNodeNotReady, v1.TaintNodeUnreachable, v1.TaintNodeNotReady, v1.TaintNodeUnreachable,
	"node.kubernetes.io/Not-Ready", "node.kubernetes.io/not-ready ", v1.TaintNodeUnschedulable, "example.com/k"}

// ruleDrawToleration draws one toleration of a pod: a key that is empty,
// one of the two the plugin adds, a near miss of them or another; any
// operator and effect (empty included); tolerationSeconds absent, 0,
// negative, 300 or at the int64 extremes.
func ruleDrawToleration(t *rapid.T, l string) v1.Toleration {
	tol := v1.Toleration{
		Key:      rapid.SampledFrom(ruleTolKeys).Draw(t, l+"key"),
		Operator: v1.TolerationOperator(rapid.SampledFrom([]string{"Exists", "Equal", "", "Lt"}).Draw(t, l+"op")),
		Value:    rapid.SampledFrom([]string{"", "", "v"}).Draw(t, l+"value"),
		Effect:   v1.TaintEffect(rapid.SampledFrom([]string{"", "NoExecute", "NoExecute", "NoSchedule", "PreferNoSchedule", "noexecute"}).Draw(t, l+"effect")),
	}
	if rapid.Bool().Draw(t, l+"secondsSet") {
		tol.TolerationSeconds = difftest.Ptr(rapid.SampledFrom([]int64{0, 1, -1, 300, 3600, math.MaxInt64, math.MinInt64}).Draw(t, l+"seconds"))
	}
	return tol
}

// TestNodeDefaultTolerationsDifferential: node.DefaultTolerations against
// the tolerations v1.36.3's DefaultTolerationSeconds admission plugin
// leaves on a pod it admits (Create), both of its flags at their defaults
// (seconds absent) or at the seconds drawn: 0, 1, 300, large, the int64
// maximum, and negative ones (the flags take any int64), over up to four
// tolerations (ruleDrawToleration) in any order. The output, decoded as
// v1 tolerations, must be upstream's, in order. Then every
// node.DefaultTolerations vector is replayed through Admit.
func TestNodeDefaultTolerationsDifferential(t *testing.T) {
	a := ruleAdmitOnce()
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		var tols []v1.Toleration
		for i := range rapid.IntRange(0, 4).Draw(t, "tolerations") {
			tols = append(tols, ruleDrawToleration(t, "t"+strconv.Itoa(i)))
		}
		in := map[string]any{"tolerations": tols}
		if tols == nil && rapid.Bool().Draw(t, "nullTolerations") {
			in["tolerations"] = nil
		}
		var seconds *int64
		if rapid.Bool().Draw(t, "secondsSet") {
			seconds = difftest.Ptr(rapid.SampledFrom([]int64{0, 1, 300, 299, 301, 86400, math.MaxInt64, -1, -300, math.MinInt64}).Draw(t, "seconds"))
			in["seconds"] = *seconds
		}
		want := a.admit(t, tols, seconds)
		var got struct {
			Tolerations []v1.Toleration `json:"tolerations"`
		}
		if e := difftest.Decide(t, "node.DefaultTolerations", nil, in, &got); e != nil {
			t.Fatalf("kubesem input error %+v", e)
		}
		if len(want) == 0 && len(got.Tolerations) == 0 || reflect.DeepEqual(got.Tolerations, want) {
			counts[fmt.Sprintf("%d added", len(want)-len(tols))]++
			return
		}
		t.Fatalf("input %s\nkubesem  %s\nupstream %s", difftest.JSON(t, in), difftest.JSON(t, got.Tolerations), difftest.JSON(t, want))
	})
	difftest.Count(t, counts)

	n := 0
	for _, v := range difftest.Vectors(t, "node", "node.DefaultTolerations") {
		var in struct {
			Tolerations []v1.Toleration `json:"tolerations"`
			Seconds     *int64          `json:"seconds"`
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatalf("%q: %v", v.Name, err)
		}
		up := a.admit(t, in.Tolerations, in.Seconds)
		if up == nil {
			up = []v1.Toleration{}
		}
		want := difftest.JSON(t, map[string]any{"tolerations": up})
		if !difftest.SameJSON(v.Want, want) {
			t.Errorf("%q: want %s, upstream %s", v.Name, v.Want, want)
		}
		n++
	}
	t.Logf("%d node.DefaultTolerations vectors replayed through Admit", n)
}

// ---------------------------------------------------------------------
// node.ZoneRate

// ruleUpConfig is the node lifecycle controller's rates and threshold as
// kube-controller-manager's flags default them (the grace periods, which
// setLimiterInZone does not read, stay zero).
var ruleUpConfig = sync.OnceValue(func() nodelifecycleconfig.NodeLifecycleControllerConfiguration {
	var cfg nodelifecycleconfig.NodeLifecycleControllerConfiguration
	o := kcmoptions.NodeLifecycleControllerOptions{NodeLifecycleControllerConfiguration: &cfg}
	o.AddFlags(pflag.NewFlagSet("kube-controller-manager", pflag.ContinueOnError))
	return cfg
})

type ruleRateKey struct {
	rate, secondary float32
	threshold       int32
}

// ruleControllers are node lifecycle controllers by configuration.
type ruleControllers map[ruleRateKey]*nodelifecycle.Controller

// get returns the controller of opts: NewNodeLifecycleController given
// upstream's defaults, each replaced by the option a case sets.
func (m ruleControllers) get(tb difftest.Fataler, opts node.Options) *nodelifecycle.Controller {
	cfg := ruleUpConfig()
	k := ruleRateKey{cfg.NodeEvictionRate, cfg.SecondaryNodeEvictionRate, cfg.LargeClusterSizeThreshold}
	if opts.EvictionRate != nil {
		k.rate = *opts.EvictionRate
	}
	if opts.SecondaryEvictionRate != nil {
		k.secondary = *opts.SecondaryEvictionRate
	}
	if opts.LargeClusterThreshold != nil {
		k.threshold = *opts.LargeClusterThreshold
	}
	if nc, ok := m[k]; ok {
		return nc
	}
	client := fake.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	nc, err := nodelifecycle.NewNodeLifecycleController(difftest.Ctx, factory.Coordination().V1().Leases(), factory.Core().V1().Pods(),
		factory.Core().V1().Nodes(), factory.Apps().V1().DaemonSets(), client,
		5*time.Second, // --node-monitor-period; setLimiterInZone does not read it
		cfg.NodeStartupGracePeriod.Duration, cfg.NodeMonitorGracePeriod.Duration, k.rate, k.secondary, k.threshold, cfg.UnhealthyZoneThreshold)
	if err != nil {
		tb.Fatalf("NewNodeLifecycleController: %v", err)
	}
	m[k] = nc
	return nc
}

func ruleField(v reflect.Value, name string) reflect.Value {
	f := v.Elem().FieldByName(name)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// ruleSentinelQPS is the rate of the limiter a zone's tainter starts a
// case with: no drawn rate has it, so a limiter with another rate, or
// another limiter, means setLimiterInZone swapped it.
const ruleSentinelQPS = float32(12345.5)

// ruleZoneRateUp runs setLimiterInZone on a zone whose tainter holds the
// sentinel limiter and reports whether it swapped the limiter and the rate
// it asked for: the argument its SwapLimiter received, recorded by
// wrapping the controller's partial and full disruption functions
// (a Normal zone gets the controller's evictionLimiterQPS). The limiter
// left in place must agree: a token bucket of that rate, or a limiter that
// never accepts for a rate of 0 or less.
func ruleZoneRateUp(tb difftest.Fataler, nc *nodelifecycle.Controller, state string, zoneSize int) (rate float32, changed bool) {
	v := reflect.ValueOf(nc)
	q := scheduler.NewRateLimitedTimedQueue(flowcontrol.NewTokenBucketRateLimiter(ruleSentinelQPS, scheduler.EvictionRateLimiterBurst))
	ruleField(v, "zoneNoExecuteTainter").Interface().(map[string]*scheduler.RateLimitedTimedQueue)["zone"] = q
	var asked *float32
	for _, name := range []string{"enterPartialDisruptionFunc", "enterFullDisruptionFunc"} {
		f := ruleField(v, name)
		orig := f.Interface().(func(int) float32)
		f.Set(reflect.ValueOf(func(n int) float32 { r := orig(n); asked = &r; return r }))
		defer f.Set(reflect.ValueOf(orig))
	}
	before := ruleField(reflect.ValueOf(q), "limiter").Interface().(flowcontrol.RateLimiter)
	ruleSetLimiter(nc, "zone", zoneSize, nodelifecycle.ZoneState(state))
	after := ruleField(reflect.ValueOf(q), "limiter").Interface().(flowcontrol.RateLimiter)
	if asked == nil {
		if after == before {
			return 0, false
		}
		// Normal: the controller's own rate.
		r := ruleField(v, "evictionLimiterQPS").Interface().(float32)
		asked = &r
	}
	never := fmt.Sprintf("%T", after) == "*flowcontrol.fakeNeverRateLimiter"
	switch {
	case *asked <= 0 && !never, *asked > 0 && (never || after.QPS() != *asked):
		tb.Fatalf("setLimiterInZone(%s, %d) asked for %v and left a %T of rate %v", state, zoneSize, *asked, after, after.QPS())
	}
	return *asked, true
}

// TestNodeZoneRateDifferential: node.ZoneRate against the rate v1.36.3's
// setLimiterInZone sets on a zone's NoExecute tainter (ruleZoneRateUp),
// and whether it sets one, for each zone state (Initial, Normal,
// PartialDisruption, FullDisruption, and states no zone has), zone sizes
// at the large-cluster threshold and one either side, 0, 1, the int32
// extremes and past them (upstream compares int32(size)); the rate options
// absent (kube-controller-manager's defaults), 0, negative, tiny, large;
// the threshold absent, 0, −1, and at the int32 extremes. Then every
// node.ZoneRate vector is replayed through setLimiterInZone.
func TestNodeZoneRateDifferential(t *testing.T) {
	ctls := ruleControllers{}
	t.Cleanup(func() {
		for _, nc := range ctls {
			difftest.Stop(nc)
		}
	})
	counts := map[string]int{}
	rates := []float32{0, 0.01, 0.1, 1, 0.5, 1e-9, 1000, -1, math.MaxFloat32, math.SmallestNonzeroFloat32}
	rapid.Check(t, func(t *rapid.T) {
		var opts node.Options
		if rapid.IntRange(0, 2).Draw(t, "rateSet") == 0 {
			opts.EvictionRate = difftest.Ptr(rapid.SampledFrom(rates).Draw(t, "rate"))
		}
		if rapid.IntRange(0, 2).Draw(t, "secondarySet") == 0 {
			opts.SecondaryEvictionRate = difftest.Ptr(rapid.SampledFrom(rates).Draw(t, "secondary"))
		}
		if rapid.IntRange(0, 2).Draw(t, "thresholdSet") == 0 {
			opts.LargeClusterThreshold = difftest.Ptr(rapid.SampledFrom([]int32{0, 1, -1, 3, 50, 100, math.MaxInt32, math.MinInt32}).Draw(t, "threshold"))
		}
		nc := ctls.get(t, opts)
		threshold := ruleUpConfig().LargeClusterSizeThreshold
		if opts.LargeClusterThreshold != nil {
			threshold = *opts.LargeClusterThreshold
		}
		var size int
		switch rapid.IntRange(0, 3).Draw(t, "sizeKind") {
		case 0:
			size = int(threshold) + rapid.IntRange(-1, 1).Draw(t, "sizeNear")
		case 1:
			size = rapid.SampledFrom([]int{0, 1, 2, 3, math.MaxInt32, math.MaxInt32 + 1, 1<<32 + 51, 1<<32 + 50, -1, math.MaxInt64, math.MinInt64}).Draw(t, "sizeEdge")
		default:
			size = rapid.IntRange(0, 200).Draw(t, "size")
		}
		state := rapid.SampledFrom([]string{"Initial", "Normal", "PartialDisruption", "PartialDisruption", "FullDisruption", "", "normal", "Unknown"}).Draw(t, "state")
		wr, wc := ruleZoneRateUp(t, nc, state, size)
		var got struct {
			Rate    *float32 `json:"rate"`
			Changes *bool    `json:"changes"`
		}
		var o any
		if opts != (node.Options{}) {
			o = opts
		}
		if e := difftest.Decide(t, "node.ZoneRate", o, map[string]any{"state": state, "zoneSize": size}, &got); e != nil {
			t.Fatalf("kubesem input error %+v", e)
		}
		if got.Rate == nil || got.Changes == nil || *got.Changes != wc || wc && *got.Rate != wr {
			t.Fatalf("state %q size %d options %s: kubesem %s, upstream rate %v changed %v", state, size, difftest.JSON(t, opts), difftest.JSON(t, got), wr, wc)
		}
		switch {
		case !wc:
			counts["limiter kept"]++
		case wr > 0:
			counts["rate > 0 set"]++
		default:
			counts["rate ≤ 0 set (evictions stop)"]++
		}
	})
	difftest.Count(t, counts)

	n := 0
	for _, v := range difftest.Vectors(t, "node", "node.ZoneRate") {
		var in struct {
			State    string `json:"state"`
			ZoneSize int    `json:"zoneSize"`
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatalf("%q: %v", v.Name, err)
		}
		var opts node.Options
		if len(v.Options) > 0 {
			if err := json.Unmarshal(v.Options, &opts); err != nil {
				t.Fatalf("%q: %v", v.Name, err)
			}
		}
		r, c := ruleZoneRateUp(t, ctls.get(t, opts), in.State, in.ZoneSize)
		want := difftest.JSON(t, map[string]any{"rate": r, "changes": c})
		if !difftest.SameJSON(v.Want, want) {
			t.Errorf("%q: want %s, upstream %s", v.Name, v.Want, want)
		}
		n++
	}
	t.Logf("%d node.ZoneRate vectors replayed through setLimiterInZone", n)
}
