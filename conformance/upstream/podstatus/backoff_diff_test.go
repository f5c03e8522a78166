package podstatus_test

import (
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/kubernetes/pkg/kubelet/kuberuntime"
	testingclock "k8s.io/utils/clock/testing"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/podstatus"
)

// TestPodStatusBackoffDifferential: RestartBackoff, fed the same exits,
// keeps the same memory and answers as client-go's Backoff configured the
// way the kubelet configures it, driven as doBackOff drives it. Upstream's
// initial delay and cap come from upstream alone (kubeletBounds: the
// kubelet configuration's v1beta1 defaulting and conversion, then
// newCrashLoopBackOff under the drawn feature gates, which picks among the
// kubelet's initialCrashLoopBackOff/MaxCrashLoopBackOff and their reduced
// variants); kubesem's CrashLoopBounds is never consulted, so a change to
// kubesem's constants makes this test fail. The 600s expiry is the kubelet's
// own HasExpiredFunc (NewMainKubelet), which lives in a closure and is
// restated here.
func TestPodStatusBackoffDifferential(t *testing.T) {
	type key struct {
		maxPeriod       time.Duration
		reduced, noGate bool
	}
	type bounds struct{ initial, max time.Duration }
	memo := map[key]bounds{}
	upstreamBounds := func(o podstatus.BackoffOptions) (time.Duration, time.Duration) {
		k := key{o.MaxContainerRestartPeriod, o.ReducedDecay, o.DisableMaxGate}
		b, ok := memo[k]
		if !ok {
			period := ""
			if o.MaxContainerRestartPeriod != 0 {
				period = o.MaxContainerRestartPeriod.String()
			}
			b.initial, b.max = kubeletBounds(t, period, o.ReducedDecay, !o.DisableMaxGate)
			memo[k] = b
		}
		return b.initial, b.max
	}
	rapid.Check(t, func(t *rapid.T) {
		o := podstatus.BackoffOptions{ReducedDecay: rapid.Bool().Draw(t, "reduced"), DisableMaxGate: rapid.IntRange(0, 3).Draw(t, "noGate") == 0}
		if rapid.Bool().Draw(t, "configured") {
			o.MaxContainerRestartPeriod = time.Duration(rapid.IntRange(1, 300).Draw(t, "maxS")) * time.Second
		}
		initial, max := upstreamBounds(o)
		clock := testingclock.NewFakeClock(difftest.PodT0)
		bo := flowcontrol.NewFakeBackOff(initial, max, clock)
		bo.HasExpiredFunc = func(eventTime, lastUpdate time.Time, _ time.Duration) bool {
			return eventTime.Sub(lastUpdate) > 600*time.Second
		}
		var entry *podstatus.BackoffEntry
		now := difftest.PodT0
		for i := range rapid.IntRange(1, 12).Draw(t, "exits") {
			// The container exits, then the kubelet looks at it.
			now = now.Add(time.Duration(rapid.IntRange(0, 900_000).Draw(t, "runMs")) * time.Millisecond)
			finished := now
			now = now.Add(time.Duration(rapid.OneOf(rapid.IntRange(0, 20_000), rapid.IntRange(0, 700_000)).Draw(t, "lookMs")) * time.Millisecond)
			clock.SetTime(now)
			want := podstatus.RestartDecision{}
			if bo.IsInBackOffSince("k", finished) {
				want.InBackoff, want.Until = true, finished.Add(bo.Get("k"))
			} else {
				bo.Next("k", finished)
			}
			got := podstatus.RestartBackoff(entry, finished, now, o)
			if got.InBackoff != want.InBackoff || !got.Until.Equal(want.Until) || got.Entry.Delay != bo.Get("k") {
				t.Fatalf("exit %d: got %+v, client-go in backoff %v until %v delay %v", i, got, want.InBackoff, want.Until, bo.Get("k"))
			}
			e := got.Entry
			entry = &e
			if got.InBackoff {
				// The kubelet looks again when the backoff ends; that
				// restart is a new decision at a later time.
				now = got.Until
				clock.SetTime(now)
				if bo.IsInBackOffSince("k", finished) {
					t.Fatalf("still in backoff at %v", now)
				}
				bo.Next("k", finished)
				got = podstatus.RestartBackoff(entry, finished, now, o)
				if got.InBackoff || got.Entry.Delay != bo.Get("k") {
					t.Fatalf("restart after backoff: got %+v, client-go delay %v", got, bo.Get("k"))
				}
				e := got.Entry
				entry = &e
			}
		}
	})
}

// TestPodStatusBackoffKey: BackoffKey is the kubelet's GetBackoffKey for
// containers without resources.
func TestPodStatusBackoffKey(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringMatching(`[a-z0-9./-]{0,12}`)
		p := &podstatus.Pod{}
		p.Name, p.Namespace, p.UID = s.Draw(t, "name"), s.Draw(t, "ns"), s.Draw(t, "uid")
		c := podstatus.Container{Name: s.Draw(t, "c"), Image: s.Draw(t, "image")}
		u := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace, UID: "x"}}
		u.UID = types.UID(p.UID)
		uc := v1.Container{Name: c.Name, Image: c.Image}
		if got, want := podstatus.BackoffKey(p, &c), kuberuntime.GetBackoffKey(u, &uc); got != want {
			t.Fatalf("BackoffKey = %s, GetBackoffKey = %s", got, want)
		}
	})
}
