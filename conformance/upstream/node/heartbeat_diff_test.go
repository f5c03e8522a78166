package node_test

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
	"unsafe"

	coordv1 "k8s.io/api/coordination/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/component-helpers/apimachinery/lease"
	kubeletv1beta1 "k8s.io/kubelet/config/v1beta1"
	"k8s.io/kubernetes/pkg/kubelet"
	kubeletdefaults "k8s.io/kubernetes/pkg/kubelet/apis/config/v1beta1"
	testingclock "k8s.io/utils/clock/testing"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/node"
)

// The kubelet's heartbeat rules are unexported or local: the node status
// report period check and random delay (methods of *kubelet.Kubelet,
// reached by linkname on a Kubelet whose fields are set by reflection),
// the lease controller's minDuration (linkname), and three constants read
// from the upstream source itself (nodeLeaseRenewIntervalFraction,
// maxBackoff and backoffEnsureLease's first sleep).

//go:linkname upIsUpdateStatusPeriodExpired k8s.io/kubernetes/pkg/kubelet.(*Kubelet).isUpdateStatusPeriodExpired
func upIsUpdateStatusPeriodExpired(kl *kubelet.Kubelet) bool

//go:linkname upCalculateDelay k8s.io/kubernetes/pkg/kubelet.(*Kubelet).calculateDelay
func upCalculateDelay(kl *kubelet.Kubelet) time.Duration

//go:linkname upMinDuration k8s.io/component-helpers/apimachinery/lease.minDuration
func upMinDuration(a, b time.Duration) time.Duration

// sourceFile returns the file upstream function fn is defined in.
func sourceFile(t testing.TB, fn any) string {
	f := runtime.FuncForPC(reflect.ValueOf(fn).Pointer())
	if f == nil {
		t.Fatal("no func info")
	}
	file, _ := f.FileLine(f.Entry())
	return file
}

// evalConst evaluates the constant expressions upstream uses for
// these rules: number literals, time units and products of them.
func evalConst(t testing.TB, e ast.Expr) float64 {
	switch e := e.(type) {
	case *ast.BasicLit:
		v, err := strconv.ParseFloat(e.Value, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	case *ast.ParenExpr:
		return evalConst(t, e.X)
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok && x.Name == "time" {
			units := map[string]time.Duration{"Nanosecond": time.Nanosecond, "Microsecond": time.Microsecond,
				"Millisecond": time.Millisecond, "Second": time.Second, "Minute": time.Minute, "Hour": time.Hour}
			if u, ok := units[e.Sel.Name]; ok {
				return float64(u)
			}
		}
	case *ast.BinaryExpr:
		if e.Op == token.MUL {
			return evalConst(t, e.X) * evalConst(t, e.Y)
		}
	}
	t.Fatalf("cannot evaluate %T", e)
	return 0
}

// upstreamConst reads package-level constant name from file; when fn
// is set, the value of the first `name := …` in function fn instead.
func upstreamConst(t testing.TB, file, fn, name string) float64 {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var found ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncDecl:
			return fn != "" && n.Name.Name == fn
		case *ast.ValueSpec:
			if fn == "" {
				for i, id := range n.Names {
					if id.Name == name && i < len(n.Values) {
						found = n.Values[i]
					}
				}
			}
		case *ast.AssignStmt:
			if fn != "" && n.Tok == token.DEFINE {
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == name && i < len(n.Rhs) {
						found = n.Rhs[i]
					}
				}
			}
		}
		return true
	})
	if found == nil {
		t.Fatalf("%s not found in %s", name, file)
	}
	return evalConst(t, found)
}

type leaseConsts struct {
	fraction   float64       // kubelet nodeLeaseRenewIntervalFraction
	maxBackoff time.Duration // lease controller maxBackoff
	firstSleep time.Duration // backoffEnsureLease's initial sleep
}

var leaseConstsOnce sync.Once

var leaseConstsVal leaseConsts

func upLeaseConsts(t testing.TB) leaseConsts {
	leaseConstsOnce.Do(func() {
		kubeletGo := sourceFile(t, kubelet.NewMainKubelet)
		leaseGo := sourceFile(t, lease.NewController)
		leaseConstsVal = leaseConsts{
			fraction:   upstreamConst(t, kubeletGo, "", "nodeLeaseRenewIntervalFraction"),
			maxBackoff: time.Duration(upstreamConst(t, leaseGo, "", "maxBackoff")),
			firstSleep: time.Duration(upstreamConst(t, leaseGo, "backoffEnsureLease", "sleep")),
		}
	})
	if leaseConstsVal.fraction == 0 {
		t.Fatal("upstream lease constants not read")
	}
	return leaseConstsVal
}

// upRetryBackoff is backoffEnsureLease's wait before the attempt-th
// retry: its sleep doubled attempt times through the controller's own
// minDuration against maxBackoff.
func upRetryBackoff(c leaseConsts, attempt int) time.Duration {
	if attempt < 1 {
		return 0 // no retry yet: no wait
	}
	sleep := c.firstSleep
	for i := 0; i < attempt; i++ {
		sleep = upMinDuration(2*sleep, c.maxBackoff)
	}
	return sleep
}

// upRenewInterval is the kubelet's lease renew interval for a
// NodeLeaseDurationSeconds (NewMainKubelet's computation).
func upRenewInterval(c leaseConsts, seconds int32) time.Duration {
	return time.Duration(float64(time.Duration(seconds)*time.Second) * c.fraction)
}

// TestNodeDiffHeartbeatDefaults compares the heartbeat defaults with the
// kubelet's configuration defaulting (SetDefaults_KubeletConfiguration):
// the lease duration, status update and report frequencies, and the renew
// interval of the default lease. Upstream defaults the report frequency
// to the update frequency when only the latter is set; StatusUpdate takes
// the defaulted value.
func TestNodeDiffHeartbeatDefaults(t *testing.T) {
	var cfg kubeletv1beta1.KubeletConfiguration
	kubeletdefaults.SetDefaults_KubeletConfiguration(&cfg)
	if got, want := node.DefaultNodeLeaseDuration, time.Duration(cfg.NodeLeaseDurationSeconds)*time.Second; got != want {
		t.Errorf("DefaultNodeLeaseDuration = %v, upstream %v", got, want)
	}
	if got, want := node.DefaultNodeStatusUpdateFrequency, cfg.NodeStatusUpdateFrequency.Duration; got != want {
		t.Errorf("DefaultNodeStatusUpdateFrequency = %v, upstream %v", got, want)
	}
	if got, want := node.DefaultNodeStatusReportFrequency, cfg.NodeStatusReportFrequency.Duration; got != want {
		t.Errorf("DefaultNodeStatusReportFrequency = %v, upstream %v", got, want)
	}
	c := upLeaseConsts(t)
	if got, want := node.LeaseRenewInterval(0), upRenewInterval(c, cfg.NodeLeaseDurationSeconds); got != want {
		t.Errorf("LeaseRenewInterval(default) = %v, upstream %v", got, want)
	}
	if got, want := node.LeaseRetryMaxBackoff, c.maxBackoff; got != want {
		t.Errorf("LeaseRetryMaxBackoff = %v, upstream %v", got, want)
	}
	for _, upd := range []time.Duration{time.Second, 4 * time.Second, time.Minute} {
		cfg := kubeletv1beta1.KubeletConfiguration{}
		cfg.NodeStatusUpdateFrequency.Duration = upd
		kubeletdefaults.SetDefaults_KubeletConfiguration(&cfg)
		if got, want := node.StatusReportFrequency(upd, 0), cfg.NodeStatusReportFrequency.Duration; got != want {
			t.Errorf("StatusReportFrequency(%v, 0) = %v, upstream %v", upd, got, want)
		}
	}
}

// TestNodeDiffStatusReportFrequency compares StatusReportFrequency with
// the kubelet's defaulting of nodeStatusReportFrequency on random update
// and report frequencies (either unset).
func TestNodeDiffStatusReportFrequency(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := func(l string) time.Duration {
			if rapid.Bool().Draw(t, l+"unset") {
				return 0
			}
			return time.Duration(rapid.Int64Range(1, int64(time.Hour)).Draw(t, l))
		}
		upd, rep := d("update"), d("report")
		cfg := kubeletv1beta1.KubeletConfiguration{}
		cfg.NodeStatusUpdateFrequency.Duration, cfg.NodeStatusReportFrequency.Duration = upd, rep
		kubeletdefaults.SetDefaults_KubeletConfiguration(&cfg)
		if got, want := node.StatusReportFrequency(upd, rep), cfg.NodeStatusReportFrequency.Duration; got != want {
			t.Fatalf("StatusReportFrequency(%v, %v) = %v, upstream %v", upd, rep, got, want)
		}
	})
}

// TestNodeDiffLeaseRenewInterval compares LeaseRenewInterval and
// NextLeaseRenewal with the kubelet's renew interval on every kind of
// NodeLeaseDurationSeconds the configuration accepts (1 … 2^31−1).
func TestNodeDiffLeaseRenewInterval(t *testing.T) {
	c := upLeaseConsts(t)
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(rapid.Int32Range(1, 400), rapid.Int32Range(1, 1<<31-1)).Draw(t, "seconds")
		d := time.Duration(s) * time.Second
		want := upRenewInterval(c, s)
		if got := node.LeaseRenewInterval(d); got != want {
			t.Fatalf("LeaseRenewInterval(%v) = %v, upstream %v", d, got, want)
		}
		if got := node.NextLeaseRenewal(t0, d); !got.Equal(t0.Add(want)) {
			t.Fatalf("NextLeaseRenewal(%v) = %v, upstream %v", d, got, t0.Add(want))
		}
	})
}

// TestNodeDiffLeaseRetryBackoff compares LeaseRetryBackoff with the lease
// controller's backoff (its first sleep doubled through its minDuration,
// capped at its maxBackoff) for attempts −1 … 100.
func TestNodeDiffLeaseRetryBackoff(t *testing.T) {
	c := upLeaseConsts(t)
	for a := -1; a <= 100; a++ {
		if got, want := node.LeaseRetryBackoff(a), upRetryBackoff(c, a); got != want {
			t.Fatalf("LeaseRetryBackoff(%d) = %v, upstream %v", a, got, want)
		}
	}
}

// TestNodeDiffLeaseRetryTiming runs the real lease controller on a fake
// client whose Lease GETs fail, and measures the waits between its first
// four attempts (real time: 200 + 400 + 800 ms): each is at least
// LeaseRetryBackoff(i) and well short of the next doubling. A wait can only
// be stretched by a loaded machine, never shortened, so a run that misses
// the upper bound is measured again (three runs at most); a wait below the
// bound fails at once.
func TestNodeDiffLeaseRetryTiming(t *testing.T) {
	if testing.Short() {
		t.Skip("real-time test")
	}
	var late []string
	for run := 0; run < 3; run++ {
		late = leaseRetryRun(t)
		if len(late) == 0 {
			return
		}
	}
	for _, l := range late {
		t.Error(l)
	}
}

// leaseRetryRun measures one run; it fails t on a wait shorter than
// LeaseRetryBackoff and returns the waits too long to tell from the next
// doubling.
func leaseRetryRun(t *testing.T) []string {
	const attempts = 4
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := fake.NewSimpleClientset()
	var mu sync.Mutex
	var at []time.Time
	client.PrependReactor("get", "leases", func(k8stesting.Action) (bool, k8sruntime.Object, error) {
		mu.Lock()
		defer mu.Unlock()
		at = append(at, time.Now())
		if len(at) == attempts {
			cancel()
		}
		return true, (*coordv1.Lease)(nil), errors.New("injected failure")
	})
	c := lease.NewController(testingclock.NewFakeClock(t0), client, "n", 40, nil, 10*time.Second, "n", "kube-node-lease", nil)
	done := make(chan struct{})
	go func() { c.Run(ctx); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("lease controller did not stop")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(at) < attempts {
		t.Fatalf("%d attempts", len(at))
	}
	var late []string
	for i := 1; i < attempts; i++ {
		gap, want := at[i].Sub(at[i-1]), node.LeaseRetryBackoff(i)
		switch {
		case gap < want:
			t.Fatalf("wait before retry %d: %v, shorter than LeaseRetryBackoff %v", i, gap, want)
		case gap >= want*3/2:
			late = append(late, fmt.Sprintf("wait before retry %d: %v, LeaseRetryBackoff %v", i, gap, want))
		}
	}
	return late
}

// setField sets an unexported field of a Kubelet.
func setField(kl *kubelet.Kubelet, name string, v any) {
	f := reflect.ValueOf(kl).Elem().FieldByName(name)
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(v))
}

// upStatusUpdate is tryUpdateNodeStatus's decision on a Kubelet set
// to the state: the patch when the status changed or the report period
// (its isUpdateStatusPeriodExpired) expired, and a new random delay drawn
// when the status changed or nothing was reported yet (else reset to 0).
func upStatusUpdate(changed bool, last time.Time, delay, freq time.Duration, now time.Time) node.StatusReport {
	kl := &kubelet.Kubelet{}
	setField(kl, "clock", testingclock.NewFakeClock(now))
	setField(kl, "lastStatusReportTime", last)
	setField(kl, "nodeStatusReportFrequency", freq)
	setField(kl, "delayAfterNodeStatusChange", delay)
	if !(changed || upIsUpdateStatusPeriodExpired(kl)) {
		return node.StatusReport{}
	}
	return node.StatusReport{Patch: true, NewDelay: changed || last.IsZero()}
}

// TestNodeDiffStatusUpdate compares StatusUpdate with the kubelet's
// report-period check (isUpdateStatusPeriodExpired on a Kubelet set to the
// state): report frequencies from 1 s to an hour, delays in the kubelet's
// range, now at and one nanosecond either side of lastReport + frequency +
// delay, changed or not, never reported. It also checks the kubelet's
// random delay (calculateDelay) stays within [−frequency/2,
// +frequency/2), as StatusUpdate documents.
func TestNodeDiffStatusUpdate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		freq := rapid.SampledFrom([]time.Duration{time.Second, 10 * time.Second, time.Minute, 5 * time.Minute,
			time.Duration(rapid.Int64Range(1, int64(time.Hour)).Draw(t, "anyFreq"))}).Draw(t, "freq")
		var delay time.Duration
		switch rapid.IntRange(0, 3).Draw(t, "delayKind") {
		case 1:
			delay = time.Duration(rapid.Int64Range(-int64(freq/2), int64(freq/2)).Draw(t, "delay"))
		case 2:
			delay = rapid.SampledFrom([]time.Duration{-freq / 2, freq/2 - 1}).Draw(t, "delayEdge")
		case 3:
			kl := &kubelet.Kubelet{}
			setField(kl, "nodeStatusReportFrequency", freq)
			delay = upCalculateDelay(kl)
			if delay < -freq/2 || delay > freq/2 {
				t.Fatalf("calculateDelay(%v) = %v, outside ±%v", freq, delay, freq/2)
			}
		}
		var last time.Time
		if rapid.IntRange(0, 7).Draw(t, "reported") > 0 {
			last = t0
		}
		now := t0.Add(freq + delay)
		switch rapid.IntRange(0, 3).Draw(t, "nowKind") {
		case 0:
			now = now.Add(time.Duration(rapid.IntRange(-1, 1).Draw(t, "ns")))
		case 1:
			now = now.Add(time.Duration(rapid.Int64Range(-int64(2*freq), int64(2*freq)).Draw(t, "dt")))
		case 2:
			now = t0.Add(time.Duration(rapid.IntRange(0, 60).Draw(t, "s")) * time.Second)
		}
		changed := rapid.IntRange(0, 3).Draw(t, "changed") == 0
		want := upStatusUpdate(changed, last, delay, freq, now)
		if got := node.StatusUpdate(node.StatusChange(changed), last, delay, freq, now); got != want {
			t.Fatalf("StatusUpdate(%v, %v, %v, %v, %v) = %+v, upstream %+v", changed, last, delay, freq, now, got, want)
		}
	})
}
