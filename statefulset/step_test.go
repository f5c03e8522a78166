package statefulset

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

func mustStep(t *testing.T, s StatefulSet, pods []*podstatus.Pod, rs []history.ControllerRevision, cs []*Claim, opts Options) Plan {
	t.Helper()
	p, err := Step(&s, pods, rs, cs, genNow, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func created(p Plan) []string {
	var out []string
	for _, c := range p.Create.Objects {
		out = append(out, c.Name+"@"+c.Revision)
	}
	return out
}

func deleted(p Plan) []string {
	var out []string
	for _, d := range p.Delete {
		out = append(out, d.Name+":"+string(d.Reason))
	}
	return out
}

// The duplicate-ordinal error names, for the lowest ordinal pods share,
// the pod whose name sorts last, whatever the order of the pods.
func TestPropertyDuplicateOrdinalError(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		set := gset(int32(rapid.IntRange(0, 4).Draw(t, "replicas")))
		var pods []*podstatus.Pod
		byOrd := map[int32][]string{}
		for o := int32(0); o < 5; o++ {
			for _, zeros := range rapid.SliceOfNDistinct(rapid.IntRange(0, 2), 0, 3, rapid.ID[int]).Draw(t, "names") {
				name := "web-" + strings.Repeat("0", zeros) + strconv.Itoa(int(o))
				if o == 0 && zeros > 0 {
					name = "web-" + strings.Repeat("0", zeros+1)
				}
				pods = append(pods, renamed(gpod(o, rapid.SampledFrom([]string{running, pending, failed}).Draw(t, "state"), "web-v1"), name))
				byOrd[o] = append(byOrd[o], name)
			}
		}
		want := ""
		for o := int32(0); o < 5 && want == ""; o++ {
			if names := byOrd[o]; len(names) > 1 {
				want = slices.Max(names)
			}
		}
		for i := 0; i < 3; i++ {
			_, err := Step(&set, rapid.Permutation(pods).Draw(t, "order"), revs("web-v1"), nil, genNow, Options{})
			var fe *field.Error
			switch {
			case want == "" && err != nil:
				t.Fatalf("no duplicates, error %v", err)
			case want == "":
			case !errors.As(err, &fe) || fe.Path != "pods" || fe.Value != want || !errors.Is(err, field.ErrDuplicate):
				t.Fatalf("error %v; want a Duplicate naming %s", err, want)
			}
		}
	})
}

func TestStepPastInt32(t *testing.T) {
	top := int32(math.MaxInt32)
	// OrderedReady: the pod for ordinal 2^31 is web--1 with the claims of
	// ordinal 1, and the claim's owner is web--1 without a UID.
	s := gset(2, start(top), claims("www"), retention(Retain, Delete))
	p := mustStep(t, s, []*podstatus.Pod{gpod(top, running, "web-v1", "www")}, revs("web-v1"), []*Claim{{ObjectMeta: meta.ObjectMeta{Name: "www-web-1"}}}, Options{})
	if len(p.Create.Objects) != 1 || p.Create.Objects[0] != (NewPod{Name: "web--1", Ordinal: -1, Revision: "web-v1"}) {
		t.Errorf("created %+v", p.Create.Objects)
	}
	if len(p.Claims) != 1 || p.Claims[0].Name != "www-web-1" || p.Claims[0].Pod != "web--1" || len(p.Claims[0].OwnerReferences) != 1 ||
		p.Claims[0].OwnerReferences[0].Name != "web--1" || p.Claims[0].OwnerReferences[0].UID != "" {
		t.Errorf("claims %+v", p.Claims)
	}
	// The last ordinal exactly MaxInt32 is an ordinary pod.
	p = mustStep(t, gset(1, start(top)), nil, revs("web-v1"), nil, Options{})
	if got := created(p); !slices.Equal(got, []string{"web-2147483647@web-v1"}) || p.Create.Objects[0].Ordinal != top {
		t.Errorf("last ordinal MaxInt32: %v", p.Create.Objects)
	}
	// web--1 exists: the creation fails.
	p = mustStep(t, gset(2, start(top)), []*podstatus.Pod{gpod(top, running, "web-v1"), renamed(gpod(0, running, "web-v1"), "web--1")}, revs("web-v1"), nil, Options{})
	if p.Outcome != ReasonError || len(p.Create.Objects) != 0 || p.Requeue[0].Reason != ReasonAlreadyExists {
		t.Errorf("web--1 exists: %+v", p)
	}
	// Parallel, two ordinals past int32: one creation, then the identity
	// update to web-1 fails first, the second creation fails after.
	p = mustStep(t, gset(3, start(top), parallel), []*podstatus.Pod{gpod(top, running, "web-v1")}, revs("web-v1"), nil, Options{})
	if got := created(p); !slices.Equal(got, []string{"web--1@web-v1"}) || p.Outcome != ReasonError || p.Requeue[0].Reason != ReasonPodNotFound {
		t.Errorf("parallel past int32: %v %s %+v", got, p.Outcome, p.Requeue)
	}
	// Refused with the option.
	_, err := Step(&s, nil, revs("web-v1"), nil, genNow, Options{RefuseOrdinalsPastInt32: true})
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Path != "spec.ordinals.start" || !errors.Is(err, field.ErrOverflow) {
		t.Errorf("RefuseOrdinalsPastInt32: %v", err)
	}
	if _, err := Step(&s, nil, revs("web-v1"), nil, genNow, Options{RefuseOrdinalsPastInt32: true}); err == nil {
		t.Error("refused once, accepted twice")
	}
	ok := gset(1, start(top))
	if _, err := Step(&ok, nil, revs("web-v1"), nil, genNow, Options{RefuseOrdinalsPastInt32: true}); err != nil {
		t.Errorf("last ordinal MaxInt32 refused: %v", err)
	}
}

// A missing pod's revision at the boundaries: start+partition, and
// start+status.currentReplicas for RollingUpdate without a block.
func TestNewPodRevision(t *testing.T) {
	two := func(mods ...func(*StatefulSet)) StatefulSet {
		return gset(4, append([]func(*StatefulSet){start(3), parallel, template("web-v2"), current("web-v1", "web-v2")}, mods...)...)
	}
	for _, c := range []struct {
		name string
		set  StatefulSet
		want []string
	}{
		{"partition 2 from start 3: web-3, web-4 current", two(partition(2)), []string{"web-3@web-v1", "web-4@web-v1", "web-5@web-v2", "web-6@web-v2"}},
		{"partition 0", two(partition(0)), []string{"web-3@web-v2", "web-4@web-v2", "web-5@web-v2", "web-6@web-v2"}},
		{"partition past the range", two(partition(9)), []string{"web-3@web-v1", "web-4@web-v1", "web-5@web-v1", "web-6@web-v1"}},
		{"no block, currentReplicas 1", two(func(s *StatefulSet) {
			s.Spec.UpdateStrategy.RollingUpdate = nil
			s.Status.CurrentReplicas = 1
		}), []string{"web-3@web-v1", "web-4@web-v2", "web-5@web-v2", "web-6@web-v2"}},
		{"no updateStrategy: partition 0 whatever currentReplicas", two(func(s *StatefulSet) {
			s.Spec.UpdateStrategy = UpdateStrategy{}
			s.Status.CurrentReplicas = 4
		}), []string{"web-3@web-v2", "web-4@web-v2", "web-5@web-v2", "web-6@web-v2"}},
		{"OnDelete: update revision", two(onDelete, func(s *StatefulSet) { s.Status.CurrentReplicas = 4 }), []string{"web-3@web-v2", "web-4@web-v2", "web-5@web-v2", "web-6@web-v2"}},
	} {
		p := mustStep(t, c.set, nil, revs("web-v1", "web-v2"), nil, Options{})
		if got := created(p); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v; want %v", c.name, got, c.want)
		}
	}
}

// Parallel slow-start batches 1, 2, 4 … capped at 500; a failed write ends
// the sync after its batch.
func TestParallelBatches(t *testing.T) {
	deleting := genNow.Add(-time.Second)
	fail := func(n, at int32) int {
		cs := []*Claim{{ObjectMeta: meta.ObjectMeta{Name: ClaimName("www", "web", at), DeletionTimestamp: &deleting}}}
		p := mustStep(t, gset(n, parallel, claims("www")), nil, revs("web-v1"), cs, Options{})
		if p.Outcome != ReasonError || p.Requeue[0].Reason != ReasonClaimBeingDeleted {
			t.Fatalf("failing at %d: %s %+v", at, p.Outcome, p.Requeue)
		}
		return len(p.Create.Objects)
	}
	// batches [0] [1 2] [3..6] [7..14] …
	for _, c := range []struct{ n, at, want int32 }{
		{6, 0, 0},   // the first batch fails: nothing else
		{6, 1, 2},   // [1 2]: 0 and 2 created
		{6, 2, 2},   // [1 2]: 0 and 1
		{6, 3, 5},   // [3..6] capped at 6 replicas: 0,1,2,4,5
		{20, 7, 14}, // [7..14]: 0..14 but 7
		// 1+2+…+256 = 511 slots, then a batch of 500 (not 512): 511..1010
		{1200, 600, 1010},
	} {
		if got := fail(c.n, c.at); got != int(c.want) {
			t.Errorf("%d replicas failing at %d: %d created; want %d", c.n, c.at, got, c.want)
		}
	}
	if p := mustStep(t, gset(1200, parallel), nil, revs("web-v1"), nil, Options{}); len(p.Create.Objects) != 1200 {
		t.Errorf("1200 created in batches: %d", len(p.Create.Objects))
	}
}

func TestRollingUpdateSteps(t *testing.T) {
	v12 := revs("web-v1", "web-v2")
	for _, c := range []struct {
		name string
		set  StatefulSet
		pods []*podstatus.Pod
		opts Options
		want []string
	}{
		{"the highest outdated first", gset(3, template("web-v2")), []*podstatus.Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1")}, Options{},
			[]string{"web-2:Outdated"}},
		{"an updated unavailable pod above blocks", gset(3, template("web-v2"), current("web-v1", "web-v2"), parallel), []*podstatus.Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, notReady, "web-v2")}, Options{},
			nil},
		{"partition 2: only web-2", gset(3, template("web-v2"), partition(2), current("web-v1", "web-v2")), []*podstatus.Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v2")}, Options{},
			nil},
		{"partition 1: web-1", gset(3, template("web-v2"), partition(1), current("web-v1", "web-v2")), []*podstatus.Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v2")}, Options{},
			[]string{"web-1:Outdated"}},
		{"gate on, maxUnavailable 2: two from the top", gset(4, template("web-v2"), maxUnavail(intstr.Int(2))), []*podstatus.Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1"), gpod(3, running, "web-v1")}, Options{MaxUnavailableStatefulSet: true},
			[]string{"web-3:Outdated", "web-2:Outdated"}},
		{"gate on, maxUnavailable 2, one unavailable: one", gset(4, template("web-v2"), maxUnavail(intstr.Int(2)), parallel), []*podstatus.Pod{gpod(0, notReady, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1"), gpod(3, running, "web-v1")}, Options{MaxUnavailableStatefulSet: true},
			[]string{"web-3:Outdated"}},
		{"gate on, two unavailable of 2: none", gset(4, template("web-v2"), maxUnavail(intstr.Int(2)), parallel), []*podstatus.Pod{gpod(0, notReady, "web-v1"), gpod(1, notReady, "web-v1"), gpod(2, running, "web-v1"), gpod(3, running, "web-v1")}, Options{MaxUnavailableStatefulSet: true},
			nil},
		{"gate on skips terminating and updated pods", gset(4, template("web-v2"), maxUnavail(intstr.Int(3)), parallel), []*podstatus.Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v2"), gpod(3, running, "web-v1")}, Options{MaxUnavailableStatefulSet: true},
			[]string{"web-3:Outdated", "web-1:Outdated", "web-0:Outdated"}},
		{"OnDelete: none", gset(3, template("web-v2"), onDelete), []*podstatus.Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1")}, Options{},
			nil},
	} {
		p := mustStep(t, c.set, c.pods, v12, nil, c.opts)
		if got := deleted(p); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v; want %v", c.name, got, c.want)
		}
	}
}

// A pod whose name is not "<set>-<ordinal>" (web-01) is renamed by its
// identity update to a pod that does not exist: the update fails.
func TestIdentityRename(t *testing.T) {
	p := mustStep(t, gset(2), []*podstatus.Pod{gpod(0, running, "web-v1"), renamed(gpod(1, running, "web-v1"), "web-01")}, revs("web-v1"), nil, Options{})
	if p.Outcome != ReasonError || len(p.Update) != 0 || p.Requeue[0].Reason != ReasonPodNotFound {
		t.Errorf("web-01: %s %+v %+v", p.Outcome, p.Update, p.Requeue)
	}
	// A missing pod-name label is fixed in place.
	bare := gpod(1, running, "web-v1")
	delete(bare.Labels, LabelPodName)
	p = mustStep(t, gset(2), []*podstatus.Pod{gpod(0, running, "web-v1"), bare}, revs("web-v1"), nil, Options{})
	if len(p.Update) != 1 || p.Update[0].Name != "web-1" || !slices.Equal(p.Update[0].Reasons, []Reason{ReasonIdentity}) {
		t.Errorf("label: %+v", p.Update)
	}
}

func TestDecimalNames(t *testing.T) {
	for _, c := range []struct {
		s    string
		o    int32
		want bool
	}{
		{"0", 0, true}, {"7", 7, true}, {"10", 10, true},
		{"00", 0, false}, {"07", 7, false}, {"", 0, false}, {"-1", -1, false}, {"1", -1, false},
		{"2147483647", math.MaxInt32, true}, {"02147483647", math.MaxInt32, false},
		{"12345678901", 0, false}, {"1x", 1, false},
	} {
		if got := isDecimal(c.s, c.o); got != c.want {
			t.Errorf("isDecimal(%q, %d) = %v", c.s, c.o, got)
		}
	}
	if !isPodName("web-3", "web", 3) || isPodName("web3", "web", 3) || isPodName("web-3", "we", 3) || isPodName("web-", "web", 0) {
		t.Error("isPodName")
	}
	if !isClaimName("www-web-3", "www", "web", 3) || isClaimName("www-web-3", "ww", "web", 3) || isClaimName("wwwxweb-3", "www", "web", 3) ||
		isClaimName("www-webx3", "www", "web", 3) || isClaimName("www-web-", "www", "web", 0) {
		t.Error("isClaimName")
	}
}
