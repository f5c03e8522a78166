package statefulset

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// The claim writes of a sync: a missing or pending pod's claims are
// created in template order before the pod; a claim being deleted fails
// the sync; a stale claim holds the creation back; an existing claim is
// brought to the retention policy with an update of its pod.
func TestSyncClaims(t *testing.T) {
	t.Parallel()
	deleting := genNow.Add(-time.Second)
	claim := func(name string, refs ...meta.OwnerReference) *Claim {
		return &Claim{ObjectMeta: meta.ObjectMeta{Name: name, OwnerReferences: refs}}
	}
	created := func(name, pod string) ClaimWrite {
		return ClaimWrite{Verb: ClaimCreate, Name: name, Pod: pod, Reason: ReasonClaimMissing}
	}
	for _, c := range []struct {
		name    string
		set     StatefulSet
		pods    []*podstatus.Pod
		claims  []*Claim
		want    []ClaimWrite
		update  []PodUpdate
		create  int32
		outcome Reason
	}{
		{"missing pod: its claims in template order, then the pod", gset(1, claims("www", "data")), nil, nil,
			[]ClaimWrite{created("www-web-0", "web-0"), created("data-web-0", "web-0")}, nil, 1, ReasonScaling},
		{"an existing claim is not created again", gset(1, claims("www", "data")), nil, []*Claim{claim("data-web-0")},
			[]ClaimWrite{created("www-web-0", "web-0")}, nil, 1, ReasonScaling},
		{"pending pod: its missing claim", gset(1, claims("www")), []*podstatus.Pod{gpod(0, pending, "web-v1", "www")}, nil,
			[]ClaimWrite{created("www-web-0", "web-0")}, nil, 0, ReasonBlocked},
		{"a claim being deleted fails the sync", gset(1, claims("www")), nil, []*Claim{{ObjectMeta: meta.ObjectMeta{Name: "www-web-0", DeletionTimestamp: &deleting}}},
			nil, nil, 0, ReasonError},
		{"a stale claim holds the creation back", gset(1, claims("www"), retention(Retain, Delete)), nil, []*Claim{claim("www-web-0", ctlRef(podAPIVersion, podKind, "web-0", "old"))},
			nil, nil, 0, ReasonBlocked},
		{"whenDeleted Delete: the set becomes the claim's owner, with an update of the pod", gset(1, claims("www"), retention(Delete, Retain)),
			[]*podstatus.Pod{gpod(0, running, "web-v1", "www")}, []*Claim{claim("www-web-0")},
			[]ClaimWrite{{Verb: ClaimUpdate, Name: "www-web-0", Pod: "web-0", Reason: ReasonRetention,
				OwnerReferences: []meta.OwnerReference{meta.NewControllerRef(setAPIVersion, setKind, "web", "set-uid")}}},
			[]PodUpdate{{Name: "web-0", Reasons: []Reason{ReasonRetention}}}, 0, ReasonRollingUpdate},
	} {
		p := mustStep(t, c.set, c.pods, revs("web-v1"), c.claims, Options{})
		if diff := cmp.Diff(c.want, p.Claims); diff != "" {
			t.Errorf("%s: claims (-want +got):\n%s", c.name, diff)
		}
		if diff := cmp.Diff(c.update, p.Update); diff != "" {
			t.Errorf("%s: pod updates (-want +got):\n%s", c.name, diff)
		}
		if p.Create.Count != c.create || p.Outcome != c.outcome {
			t.Errorf("%s: %d created, %s; want %d, %s", c.name, p.Create.Count, p.Outcome, c.create, c.outcome)
		}
	}
}
