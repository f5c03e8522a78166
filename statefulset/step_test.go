package statefulset

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

func mustStep(t *testing.T, s StatefulSet, pods []*podstatus.Pod, rs []history.ControllerRevision, cs []*Claim, opts Options) Plan {
	t.Helper()
	p, err := Step(&s, pods, rs, cs, genNow, opts)
	require.NoError(t, err)
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

func TestStepPastInt32(t *testing.T) {
	t.Parallel()
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
