package statefulset

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// Condemned pods (ordinals past the range) go from the highest down:
// OrderedReady one at a time and only a healthy one or the first
// unavailable pod, Parallel all at once.
func TestCondemned(t *testing.T) {
	t.Parallel()
	four := func(states ...string) []*podstatus.Pod {
		ps := []*podstatus.Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1")}
		for i, s := range states {
			ps = append(ps, gpod(int32(2+i), s, "web-v1"))
		}
		return ps
	}
	for _, c := range []struct {
		name    string
		set     StatefulSet
		pods    []*podstatus.Pod
		want    []string
		outcome Reason
	}{
		{"OrderedReady: the highest first, one at a time", gset(2), four(running, running), []string{"web-3:Condemned"}, ReasonScaling},
		{"OrderedReady: a terminating highest pod blocks", gset(2), four(running, terminated), nil, ReasonBlocked},
		{"OrderedReady: the first unavailable pod may go", gset(2), four(running, notReady), []string{"web-3:Condemned"}, ReasonScaling},
		{"OrderedReady: an unhealthy pod that is not the first unavailable waits", gset(2), four(notReady, notReady), nil, ReasonBlocked},
		// Parallel does not stop: the sync goes on to the rolling update.
		{"Parallel: all, from the highest", gset(2, parallel), four(running, notReady), []string{"web-3:Condemned", "web-2:Condemned"}, ReasonRollingUpdate},
		{"Parallel: a terminating pod is skipped", gset(2, parallel), four(running, terminated), []string{"web-2:Condemned"}, ReasonRollingUpdate},
		{"none condemned: the update is reached", gset(2), four(), nil, ReasonRollingUpdate},
	} {
		p := mustStep(t, c.set, c.pods, revs("web-v1"), nil, Options{})
		if got := deleted(p); !slices.Equal(got, c.want) || p.Outcome != c.outcome {
			t.Errorf("%s: %v, %s; want %v, %s", c.name, got, p.Outcome, c.want, c.outcome)
		}
	}
}

// A condemned pod's claims get the retention policy's owner references
// (whenScaled Delete: the pod) before the pod is deleted.
func TestCondemnedClaims(t *testing.T) {
	t.Parallel()
	set := gset(2, claims("www"), retention(Retain, Delete))
	pods := []*podstatus.Pod{gpod(0, running, "web-v1", "www"), gpod(1, running, "web-v1", "www"), gpod(2, running, "web-v1", "www")}
	var cs []*Claim
	for _, n := range []string{"www-web-0", "www-web-1", "www-web-2"} {
		cs = append(cs, &Claim{ObjectMeta: meta.ObjectMeta{Name: n}})
	}
	p := mustStep(t, set, pods, revs("web-v1"), cs, Options{})
	want := []ClaimWrite{{Verb: ClaimUpdate, Name: "www-web-2", Pod: "web-2", Reason: ReasonRetention,
		OwnerReferences: []meta.OwnerReference{meta.NewControllerRef(podAPIVersion, podKind, "web-2", "uid-web-2")}}}
	if diff := cmp.Diff(want, p.Claims); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
	if got := deleted(p); !slices.Equal(got, []string{"web-2:Condemned"}) {
		t.Errorf("deleted %v", got)
	}
}
