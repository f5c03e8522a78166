package statefulset

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

type propState struct {
	set    StatefulSet
	pods   []*podstatus.Pod
	revs   []history.ControllerRevision
	claims []*Claim
	opts   Options
}

func drawState(t *rapid.T) propState {
	var s propState
	set := gset(int32(rapid.IntRange(0, 6).Draw(t, "replicas")))
	if rapid.Bool().Draw(t, "start") {
		set.Spec.Ordinals = &OrdinalsSpec{Start: int32(rapid.IntRange(0, 3).Draw(t, "startv"))}
	}
	if rapid.Bool().Draw(t, "parallel") {
		set.Spec.PodManagementPolicy = Parallel
	}
	if rapid.IntRange(0, 3).Draw(t, "ondelete") == 0 {
		set.Spec.UpdateStrategy = UpdateStrategy{Type: OnDelete}
	} else {
		set.Spec.UpdateStrategy.RollingUpdate.Partition = i32(int32(rapid.IntRange(0, 4).Draw(t, "partition")))
		if rapid.Bool().Draw(t, "mu") {
			v := intstr.Int(int32(rapid.IntRange(1, 3).Draw(t, "muv")))
			set.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = &v
		}
	}
	set.Spec.MinReadySeconds = rapid.SampledFrom([]int32{0, 10}).Draw(t, "mrs")
	set.Spec.TemplateRevision = rapid.SampledFrom([]string{"web-v1", "web-v2"}).Draw(t, "tmpl")
	set.Status.CurrentRevision = rapid.SampledFrom([]string{"web-v1", "web-v2", ""}).Draw(t, "cur")
	if rapid.Bool().Draw(t, "claims") {
		set.Spec.VolumeClaimTemplates = templates("www")
		set.Spec.PersistentVolumeClaimRetentionPolicy = &RetentionPolicy{
			WhenDeleted: rapid.SampledFrom([]RetentionPolicyType{Retain, Delete}).Draw(t, "wd"),
			WhenScaled:  rapid.SampledFrom([]RetentionPolicyType{Retain, Delete}).Draw(t, "ws")}
	}
	s.set = set
	s.revs = revs("web-v1", "web-v2")[:rapid.IntRange(0, 2).Draw(t, "nrevs")]
	states := []string{running, running, running, notReady, pending, failed, readyJust, terminated}
	for o := int32(0); o < set.Start()+set.Replicas()+2; o++ {
		if rapid.Bool().Draw(t, "pod") {
			p := gpod(o, rapid.SampledFrom(states).Draw(t, "state"), rapid.SampledFrom([]string{"web-v1", "web-v2"}).Draw(t, "rev"), templateNames(set.Spec.VolumeClaimTemplates)...)
			s.pods = append(s.pods, p)
		}
		if len(set.Spec.VolumeClaimTemplates) > 0 && rapid.Bool().Draw(t, "claim") {
			c := &Claim{ObjectMeta: meta.ObjectMeta{Name: ClaimName("www", "web", o), UID: "c" + strconv.Itoa(int(o))}}
			if rapid.Bool().Draw(t, "ref") {
				tr := true
				c.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", UID: "set-uid", Controller: &tr}}
			}
			s.claims = append(s.claims, c)
		}
	}
	s.opts.MaxUnavailableStatefulSet = rapid.Bool().Draw(t, "gate")
	return s
}

func encode(t *rapid.T, p Plan) []byte {
	b, err := plan.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Step's Plan does not depend on the order of pods, revisions or claims;
// neither do its Writes, which succeed on the inputs Step read (given the
// revisions' data) and modify none of them.
func checkOrderIndependent(t *rapid.T) {
	s := drawState(t)
	for i := range s.revs {
		s.revs[i].Data = &history.Data{}
		s.revs[i].Data.Template.Labels = map[string]string{"rev": s.revs[i].Name}
	}
	before := encodeAny(t, []any{s.set, s.pods, s.revs, s.claims})
	p1, err := Step(&s.set, s.pods, s.revs, s.claims, genNow, s.opts)
	if err != nil {
		t.Fatal(err)
	}
	pods := rapid.Permutation(s.pods).Draw(t, "pods")
	rv := rapid.Permutation(s.revs).Draw(t, "revs")
	cl := rapid.Permutation(s.claims).Draw(t, "claims")
	p2, err := Step(&s.set, pods, rv, cl, genNow, s.opts)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := encode(t, p1), encode(t, p2); !bytes.Equal(a, b) {
		t.Fatalf("order changes the plan:\n%s\n%s", a, b)
	}
	w1, err := p1.Writes(&s.set, s.pods, s.revs, s.claims)
	if err != nil {
		t.Fatalf("Writes: %v", err)
	}
	w2, err := p2.Writes(&s.set, pods, rv, cl)
	if err != nil {
		t.Fatalf("Writes: %v", err)
	}
	if a, b := encodeAny(t, w1), encodeAny(t, w2); !bytes.Equal(a, b) {
		t.Fatalf("order changes the writes:\n%s\n%s", a, b)
	}
	if after := encodeAny(t, []any{s.set, s.pods, s.revs, s.claims}); !bytes.Equal(before, after) {
		t.Fatal("Step or Writes modified its inputs")
	}
}

func TestPropertyOrderIndependent(t *testing.T) { t.Parallel(); rapid.Check(t, checkOrderIndependent) }

func encodeAny(t *rapid.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// OrderedReady never creates a pod while a lower ordinal of the range is
// missing, not Running and Ready, not available or terminating.
func checkOrderedReadyPredecessorsHealthy(t *rapid.T) {
	s := drawState(t)
	s.set.Spec.PodManagementPolicy = OrderedReady
	p, err := Step(&s.set, s.pods, s.revs, s.claims, genNow, s.opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Create.Objects) > 1 {
		t.Fatalf("OrderedReady created %d pods", len(p.Create.Objects))
	}
	for _, c := range p.Create.Objects {
		for o := s.set.Start(); o < c.Ordinal; o++ {
			pd := findPod(s.pods, o)
			if pd == nil || !isRunningAndReady(pd) || pd.IsDeleting() || !isAvailable(pd, s.set.Spec.MinReadySeconds, genNow) {
				t.Fatalf("created %s while web-%d is not healthy", c.Name, o)
			}
		}
	}
}

func TestPropertyOrderedReadyPredecessorsHealthy(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkOrderedReadyPredecessorsHealthy)
}

// With the gate, a rolling update never deletes more outdated pods than
// maxUnavailable minus the pods of the range already unavailable; without
// it, at most one, and only when every pod above it is available.
func checkRollingUpdateWithinAllowance(t *rapid.T) {
	s := drawState(t)
	p, err := Step(&s.set, s.pods, s.revs, s.claims, genNow, s.opts)
	if err != nil {
		t.Fatal(err)
	}
	outdated := 0
	for _, d := range p.Delete {
		if d.Reason == ReasonOutdated {
			outdated++
		}
	}
	if outdated == 0 {
		return
	}
	if !s.opts.MaxUnavailableStatefulSet {
		if outdated > 1 {
			t.Fatalf("deleted %d outdated pods without the gate", outdated)
		}
		return
	}
	n := s.set.Replicas()
	maxU, _ := MaxUnavailable(s.set.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable, n)
	unavail := 0
	for o := s.set.Start(); o < s.set.Start()+n; o++ {
		pd := findPod(s.pods, o)
		if pd == nil || IsUnavailable(pd, s.set.Spec.MinReadySeconds, genNow) {
			unavail++
		}
	}
	if int64(unavail+outdated) > maxU {
		t.Fatalf("%d unavailable + %d deleted > maxUnavailable %d", unavail, outdated, maxU)
	}
}

func TestPropertyRollingUpdateWithinAllowance(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkRollingUpdateWithinAllowance)
}

// Driving Step to a fixed point (created pods become Running and Ready,
// deleted pods disappear) leaves exactly the ordinals [start, start+replicas),
// all at the update revision for RollingUpdate without partition.
func checkConvergesToOrdinalRange(t *rapid.T) {
	s := drawState(t)
	s.set.Spec.MinReadySeconds = 0
	if s.set.Spec.UpdateStrategy.RollingUpdate != nil {
		s.set.Spec.UpdateStrategy.RollingUpdate.Partition = i32(0)
	}
	pods, revs, claims := s.pods, s.revs, s.claims
	status := s.set.Status
	for i := 0; ; i++ {
		if i > 200 {
			t.Fatal("no fixed point after 200 syncs")
		}
		set := s.set
		set.Status = status
		p, err := Step(&set, pods, revs, claims, genNow, s.opts)
		if err != nil {
			t.Fatal(err)
		}
		status = p.Status
		claims = applyClaims(claims, p.Claims)
		revs = applyRevisions(revs, p.Revisions)
		next, acted := applyPods(pods, p, templateNames(s.set.Spec.VolumeClaimTemplates))
		pods = next
		if !acted && len(p.Revisions) == 0 {
			break
		}
	}
	first, end, _ := Ordinals(s.set.Replicas(), s.set.Start())
	if int64(len(pods)) != end-int64(first) {
		t.Fatalf("%d pods for %d replicas", len(pods), end-int64(first))
	}
	for _, pd := range pods {
		o := ParseOrdinal(pd.Name)
		if o < first || int64(o) >= end {
			t.Fatalf("pod %s outside [%d,%d)", pd.Name, first, end)
		}
		if s.set.Strategy() == RollingUpdate && PodRevision(pd) != s.set.Spec.TemplateRevision {
			t.Fatalf("pod %s at %s after a rolling update to %s", pd.Name, PodRevision(pd), s.set.Spec.TemplateRevision)
		}
	}
}

func TestPropertyConvergesToOrdinalRange(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkConvergesToOrdinalRange)
}

func applyClaims(cs []*Claim, ws []ClaimWrite) []*Claim {
	byName := map[string]*Claim{}
	var out []*Claim
	for _, c := range cs {
		c2 := *c
		byName[c.Name] = &c2
		out = append(out, &c2)
	}
	for _, w := range ws {
		if c, ok := byName[w.Name]; ok {
			c.OwnerReferences = w.OwnerReferences
			continue
		}
		c := &Claim{ObjectMeta: meta.ObjectMeta{Name: w.Name, UID: "new-" + w.Name, OwnerReferences: w.OwnerReferences}}
		byName[w.Name] = c
		out = append(out, c)
	}
	return out
}

func findPod(ps []*podstatus.Pod, o int32) *podstatus.Pod {
	for _, p := range ps {
		if ParseOrdinal(p.Name) == o {
			return p
		}
	}
	return nil
}

func applyRevisions(revs []history.ControllerRevision, ws []history.Write) []history.ControllerRevision {
	out := append([]history.ControllerRevision(nil), revs...)
	for _, w := range ws {
		switch w.Verb {
		case plan.VerbCreate:
			out = append(out, rev(w.Name, w.Revision))
		case plan.VerbUpdate:
			for i := range out {
				if out[i].Name == w.Name {
					out[i].Revision = w.Revision
				}
			}
		case plan.VerbDelete:
			for i := range out {
				if out[i].Name == w.Name {
					out = append(out[:i], out[i+1:]...)
					break
				}
			}
		}
	}
	return out
}

// applyPods makes deleted pods disappear and created pods Running and
// Ready; pods not yet healthy become healthy, so the walk always progresses.
func applyPods(pods []*podstatus.Pod, p Plan, templates []string) ([]*podstatus.Pod, bool) {
	updated := map[string]bool{}
	for _, u := range p.Update {
		updated[u.Name] = true
	}
	gone := map[string]bool{}
	for _, d := range p.Delete {
		gone[d.Name] = true
	}
	var out []*podstatus.Pod
	acted := len(p.Delete) > 0 || len(p.Create.Objects) > 0 || len(p.Update) > 0 || len(p.Claims) > 0
	for _, pd := range pods {
		if gone[pd.Name] || pd.IsDeleting() || pd.Status.Phase == podstatus.Failed {
			acted = true
			continue
		}
		if !isRunningAndReady(pd) || updated[pd.Name] {
			acted = true
			pd = gpod(ParseOrdinal(pd.Name), running, PodRevision(pd), templates...)
		}
		out = append(out, pd)
	}
	for _, c := range p.Create.Objects {
		out = append(out, gpod(c.Ordinal, running, c.Revision, templates...))
	}
	_ = time.Second
	return out, acted
}
