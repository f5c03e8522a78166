package statefulset_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	khistory "github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/statefulset"
)

// TestStatefulSetWritesUpstream replays every statefulset.Step vector of
// testdata/statefulset/step.json through upstream's UpdateStatefulSet
// (the newFake of diff_test.go records each write it
// accepts, in call order) and compares statefulset.Plan.Writes with it.
// Step and Writes read the vector's set given the template and selector
// upstream's set has (upSet) and its revisions given the data
// upstream's revisions hold; upstream's revision names are mapped back to
// the vector's.
//
//   - The sequence of (verb, resource, subresource, name): exactly for an
//     OrderedReady set, except that one pod's claim creations (made from
//     a Go map upstream) are compared as a set; for a Parallel set, whose
//     pod and claim writes upstream sends from goroutines, the pod and
//     claim writes as a multiset between the revision writes before them
//     and the status and revision deletes after them.
//   - Every created pod whole, as kubesem models it (metadata, identity
//     labels, controller-revision-hash, hostname, subdomain, claim volumes
//     compared as a set, owner reference, the revision's template),
//     upstream's converted by k8s.FromPod; every updated pod likewise.
//   - Every created claim's metadata (name, namespace, labels, owner
//     references); every updated claim's owner references.
//   - Every created ControllerRevision's metadata (but its hash label,
//     upstream's own hash), revision number and data template; an updated
//     revision's number.
//
// A write upstream sends and the fake refuses (a pod that exists
// already, an update of a pod not there) is not compared: the Plan lists
// no such write (its failure is the Plan's outcome).
//
// The statefulset.Step vectors of testdata/statefulset/check-*.json (the
// decisions along a model-checker counterexample, kubesem check
// --vectors) are compared the same way, upstream run at each vector's now
// (step.json's at t0, their now).
func TestStatefulSetWritesUpstream(t *testing.T) {
	vs := readVectors(t, "step.json")
	fromStep := len(vs)
	for _, f := range difftest.CheckFiles(t, "statefulset") {
		for _, v := range readVectors(t, filepath.Base(f)) {
			if v.Decision == "statefulset.Step" {
				vs = append(vs, v)
			}
		}
	}
	n, nc, pods, claims := 0, 0, 0, 0
	for i, v := range vs {
		if v.WantError != nil {
			continue
		}
		check := i >= fromStep
		if check {
			nc++
		}
		opts := opts(v.Options)
		t.Run(v.Name, func(t *testing.T) {
			defer setGate(opts.MaxUnavailableStatefulSet)()
			var in vectorInput
			if err := json.Unmarshal(v.Input, &in); err != nil {
				t.Fatal(err)
			}
			if check {
				// observe runs upstream at t0.
				saved := t0
				t0 = in.Now
				defer func() { t0 = saved }()
			}
			ownedBySet(&in)
			c, back := caseFromVector(&in)
			mb := func(s string) string {
				if b, ok := back[s]; ok {
					return b
				}
				return s
			}
			// kubesem's inputs with the template, selector and revision
			// data upstream's objects have.
			set := deepcopy.Copy(in.Set)
			set.Spec.Selector = &meta.LabelSelector{MatchLabels: c.upSet.Spec.Selector.MatchLabels}
			decode(t, c.upSet.Spec.Template, &set.Spec.Template)
			revs := deepcopy.Copy(in.Revisions)
			for i := range revs {
				r := k8s.FromControllerRevision(c.upRevs[i])
				if r.Data == nil {
					t.Fatalf("revision %s: no data", c.upRevs[i].Name)
				}
				revs[i].Data = r.Data
			}
			p, err := statefulset.Step(&set, in.Pods, revs, in.Claims, in.Now, opts)
			if err != nil {
				t.Fatalf("Step: %v", err)
			}
			kw, err := p.Writes(&set, in.Pods, revs, in.Claims)
			if err != nil {
				t.Fatalf("Writes: %v", err)
			}
			o := observe(c)
			parallel := c.upSet.Spec.PodManagementPolicy == apps.ParallelPodManagement
			ug, kg := upSeq(o.f.acts, mb), ksSeq(kw)
			ug, kg = canon(ug, parallel), canon(kg, parallel)
			if !slices.Equal(ug, kg) {
				t.Fatalf("writes:\n\tupstream %v\n\tkubesem  %v", ug, kg)
			}
			// objects, matched by (verb, resource, name)
			mine := map[string]plan.Write{}
			for _, w := range kw {
				mine[ksKey(w)] = w
			}
			for _, a := range o.f.acts {
				key := a.verb + " " + a.resource + " " + mb(a.name)
				w := mine[key]
				switch obj := a.obj.(type) {
				case *v1.Pod:
					pods++
					got := difftest.Must(k8s.FromPod(obj))
					if h, ok := got.Labels[khistory.HashLabel]; ok {
						got.Labels[khistory.HashLabel] = mb(h)
					}
					want := deepcopy.Copy(*w.Object.(*podstatus.Pod))
					sortVolumes(got)
					sortVolumes(&want)
					if d := difftest.JSONDiff(t, got, &want); d != "" {
						t.Errorf("%s: %s", key, d)
					}
				case *v1.PersistentVolumeClaim:
					claims++
					got := difftest.Must(k8s.FromPersistentVolumeClaim(obj))
					want := w.Object.(*statefulset.Claim)
					if a.verb == "update" {
						if d := difftest.JSONDiff(t, got.OwnerReferences, want.OwnerReferences); d != "" {
							t.Errorf("%s: owner references %s", key, d)
						}
						continue
					}
					if d := difftest.JSONDiff(t, got, want); d != "" {
						t.Errorf("%s: %s", key, d)
					}
				case *apps.ControllerRevision:
					got := k8s.FromControllerRevision(obj)
					want := deepcopy.Copy(*w.Object.(*khistory.ControllerRevision))
					if got.Revision != want.Revision {
						t.Errorf("%s: revision %d; kubesem %d", key, got.Revision, want.Revision)
					}
					if a.verb == "update" {
						continue
					}
					if got.Data == nil || want.Data == nil {
						t.Fatalf("%s: data upstream %v kubesem %v", key, got.Data, want.Data)
					}
					gt, mt := got.Data.Template, want.Data.Template
					if d := difftest.JSONDiff(t, []any{gt.ObjectMeta, gt.Spec}, []any{mt.ObjectMeta, mt.Spec}); d != "" {
						t.Errorf("%s data: %s", key, d)
					}
					got.Name, got.Data, want.Data = mb(got.Name), nil, nil
					delete(got.Labels, khistory.RevisionHashLabel)
					delete(want.Labels, khistory.RevisionHashLabel)
					if d := difftest.JSONDiff(t, got, want); d != "" {
						t.Errorf("%s: %s", key, d)
					}
				}
			}
			n++
		})
	}
	if n-nc < 120 || nc == 0 || pods == 0 || claims == 0 {
		t.Fatalf("only %d Step vectors replayed, %d of check-*.json (%d pods, %d claims compared)", n, nc, pods, claims)
	}
	t.Logf("%d vectors (%d of check-*.json), %d pod and %d claim writes compared whole", n, nc, pods, claims)
}

func decode(t *testing.T, from, to any) {
	t.Helper()
	b, err := json.Marshal(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, to); err != nil {
		t.Fatal(err)
	}
}

func sortVolumes(p *podstatus.Pod) {
	sort.SliceStable(p.Spec.Volumes, func(i, j int) bool { return p.Spec.Volumes[i].Name < p.Spec.Volumes[j].Name })
}

func upSeq(acts []act, mb func(string) string) []string {
	var out []string
	for _, a := range acts {
		out = append(out, a.verb+" "+a.resource+"/"+a.sub+" "+mb(a.name))
	}
	return out
}

func ksKey(w plan.Write) string {
	name := w.Name
	if w.Verb == plan.VerbCreate {
		switch o := w.Object.(type) {
		case *podstatus.Pod:
			name = o.Name
		case *statefulset.Claim:
			name = o.Name
		case *khistory.ControllerRevision:
			name = o.Name
		}
	}
	return string(w.Verb) + " " + w.Resource + " " + name
}

func ksSeq(ws []plan.Write) []string {
	var out []string
	for _, w := range ws {
		name := strings.SplitN(ksKey(w), " ", 3)[2]
		if w.Subresource == "status" {
			name = ""
		}
		out = append(out, string(w.Verb)+" "+w.Resource+"/"+w.Subresource+" "+name)
	}
	return out
}

// canon sorts what upstream's order does not fix: runs of claim
// creations and, for a Parallel set, all pod and claim writes.
func canon(seq []string, parallel bool) []string {
	seq = slices.Clone(seq)
	podOrClaim := func(s string) bool {
		return strings.Contains(s, " pods/") || strings.Contains(s, " persistentvolumeclaims/")
	}
	run := func(in func(string) bool) {
		for i := 0; i < len(seq); {
			j := i
			for j < len(seq) && in(seq[j]) {
				j++
			}
			if j > i {
				slices.Sort(seq[i:j])
				i = j
			} else {
				i++
			}
		}
	}
	if parallel {
		run(podOrClaim)
	} else {
		run(func(s string) bool { return strings.HasPrefix(s, "create persistentvolumeclaims/") })
	}
	return seq
}

// ownedBySet gives the vector's pods and revisions without a controller
// the set's controller reference and the selector's labels upstream's set
// has (app=web), the pods only when named as its members: UpdateStatefulSet,
// which this differential runs, reads the pods and revisions the sync
// claimed, and kubesem's Step, given that selector, claims them too.
func ownedBySet(in *vectorInput) {
	tr := true
	ref := meta.OwnerReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: in.Set.Name, UID: in.Set.UID, Controller: &tr, BlockOwnerDeletion: &tr}
	label := func(m *meta.ObjectMeta) {
		if m.ControllerRef() != nil {
			return
		}
		m.OwnerReferences = append(slices.Clone(m.OwnerReferences), ref)
		l := map[string]string{"app": "web"}
		for k, v := range m.Labels {
			l[k] = v
		}
		m.Labels = l
	}
	for i, p := range in.Pods {
		// (a pod not named as the set's member, which the sync would not
		// claim, stays as given)
		if p != nil && statefulset.IsMemberOf(in.Set.Name, p.Name) {
			c := *p
			label(&c.ObjectMeta)
			in.Pods[i] = &c
		}
	}
	for i := range in.Revisions {
		label(&in.Revisions[i].ObjectMeta)
	}
}
