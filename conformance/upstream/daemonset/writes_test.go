package daemonset_test

import (
	"fmt"
	"slices"
	"testing"

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	core "k8s.io/client-go/testing"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// TestDaemonSetWritesUpstream replays every daemonset.Step vector of
// testdata/daemonset/step.json and check-*.json through one syncDaemonSet of v1.36.3 on a
// fake clientset and compares daemonset.Plan.Writes with the actions the
// clientset received:
//
//   - the sequence of (verb, resource, subresource), runs of one kind
//     compared as multisets of their objects (upstream creates and
//     deletes pods concurrently): a pod create by its target node, a
//     revision create by its name, the others by name; when upstream's
//     picks are its choice (tie sets, the burst cap) only the counts;
//   - every created pod as kubesem models it (metadata: namespace,
//     generateName, labels, annotations, finalizers, owner references;
//     spec: node affinity, tolerations and every other modelled field),
//     upstream's converted with k8s.FromPod;
//   - every created or updated ControllerRevision: metadata, revision
//     number and the data's template (its modelled fields);
//   - the status update: subresource status, the DaemonSet's name, the
//     status written.
func TestDaemonSetWritesUpstream(t *testing.T) {
	vs := readStepVectors(t)
	n, creates := 0, 0
	for i := range vs {
		v := &vs[i]
		if v.Decision != "daemonset.Step" || v.WantError != nil {
			continue
		}
		n++
		t.Run(v.Name, func(t *testing.T) {
			opts := decodeOptions(t, v.Options)
			in := &v.Input
			// The DaemonSet as the API server stores it (defaulted), the
			// object upstream builds its pods from.
			uc0 := caseFromInput(t, in)
			ds, err := k8s.FromDaemonSet(uc0.ds)
			if err != nil {
				t.Fatal(err)
			}
			kp, err := daemonset.Step(ds, in.Nodes, in.Pods, in.History, in.Backoff, in.Now, opts)
			if err != nil {
				t.Fatalf("Step: %v", err)
			}
			kw, err := kp.Writes(ds, in.Pods, in.History)
			if err != nil {
				t.Fatalf("Writes: %v", err)
			}
			up, res := upstreamPlan(t, in, opts)
			// A write sent from a stale cached copy is refused and ends
			// upstream's sync there.
			if i := slices.IndexFunc(kw, func(w plan.Write) bool { return w.FromCache }); i >= 0 {
				kw = kw[:i+1]
			}
			// A revision upstream creates under its own hash of the
			// template is named by the vector's hash, and so is the
			// revision label of the pods it creates from it.
			for _, a := range res.Actions {
				if cr, ok := a.(core.CreateAction); ok && a.GetVerb() == "create" {
					switch o := cr.GetObject().(type) {
					case *apps.ControllerRevision:
						if h, ok := uc0.back[o.Labels[apps.DefaultDaemonSetUniqueLabelKey]]; ok {
							o.Name = ds.Name + "-" + h
							o.Labels[apps.DefaultDaemonSetUniqueLabelKey] = h
						}
					case *v1.Pod:
						if h, ok := uc0.back[o.Labels[apps.DefaultDaemonSetUniqueLabelKey]]; ok {
							o.Labels[apps.DefaultDaemonSetUniqueLabelKey] = h
						}
					}
				}
			}
			uc, kc := comparablePlan(t, up), comparablePlan(t, kp)
			revSeen := map[string]int{} // (writes of each revision compared so far)
			sameChoice := uc["create"] == kc["create"] && uc["delete"] == kc["delete"]
			ug, kg := upGroups(t, res.Actions), ksGroups(t, kw)
			if len(ug) != len(kg) {
				t.Fatalf("writes:\n\tupstream %v\n\tkubesem  %v", ug, kg)
			}
			for j := range ug {
				if ug[j].key != kg[j].key || len(ug[j].ids) != len(kg[j].ids) || sameChoice && !slices.Equal(ug[j].ids, kg[j].ids) {
					t.Fatalf("writes:\n\tupstream %v\n\tkubesem  %v", ug, kg)
				}
			}
			// created pods, by node
			mine := map[string]*podstatus.Pod{}
			for _, w := range kw {
				if w.Verb == plan.VerbCreate && w.Resource == "pods" {
					pod := w.Object.(*podstatus.Pod)
					mine[podNode(pod)] = pod
				}
			}
			for _, a := range res.Actions {
				ca, ok := a.(core.CreateAction)
				if !ok || a.GetVerb() != "create" {
					continue
				}
				switch obj := ca.GetObject().(type) {
				case *v1.Pod:
					creates++
					got, err := k8s.FromPod(obj)
					if err != nil {
						t.Fatal(err)
					}
					got.Namespace = ca.GetNamespace()
					want := mine[podNode(got)]
					if want == nil {
						if sameChoice {
							t.Fatalf("upstream created a pod for node %s; kubesem none", podNode(got))
						}
						continue
					}
					if d := difftest.JSONDiff(t, got, want); d != "" {
						t.Errorf("created pod for node %s: %s", podNode(got), d)
					}
				case *apps.ControllerRevision:
					checkRevision(t, obj, kw, revSeen)
				}
			}
			for _, a := range res.Actions {
				switch a := a.(type) {
				case core.UpdateAction:
					if a.GetVerb() != "update" {
						continue
					}
					switch obj := a.GetObject().(type) {
					case *apps.ControllerRevision:
						checkRevision(t, obj, kw, revSeen)
					case *apps.DaemonSet:
						var w *plan.Write
						for j := range kw {
							if kw[j].Resource == "daemonsets" {
								w = &kw[j]
							}
						}
						if w == nil || a.GetSubresource() != "status" || w.Name != obj.Name || w.Namespace != obj.Namespace {
							t.Fatalf("status update %s/%s (%s); kubesem %+v", obj.Namespace, obj.Name, a.GetSubresource(), w)
						}
						st, err := k8s.FromDaemonSet(obj)
						if err != nil {
							t.Fatal(err)
						}
						if d := difftest.JSONDiff(t, st.Status, w.Object.(*daemonset.DaemonSet).Status); d != "" {
							t.Errorf("status written: %s", d)
						}
					}
				}
			}
		})
	}
	if n < 65 || creates == 0 {
		t.Fatalf("only %d Step vectors replayed, %d pod creates compared", n, creates)
	}
	t.Logf("%d vectors, %d created pods compared", n, creates)
}

// writeGroup is a run of writes of one (verb, resource, subresource),
// its objects sorted.
type writeGroup struct {
	key string
	ids []string
}

func (g writeGroup) String() string { return g.key + fmt.Sprint(g.ids) }

func group(keys, ids []string) []writeGroup {
	var out []writeGroup
	for i, k := range keys {
		if n := len(out); n == 0 || out[n-1].key != k {
			out = append(out, writeGroup{key: k})
		}
		out[len(out)-1].ids = append(out[len(out)-1].ids, ids[i])
	}
	for i := range out {
		slices.Sort(out[i].ids)
	}
	return out
}

func upGroups(t *testing.T, acts []core.Action) []writeGroup {
	var keys, ids []string
	for _, a := range acts {
		keys = append(keys, a.GetVerb()+" "+a.GetResource().Resource+"/"+a.GetSubresource())
		id := ""
		switch a := a.(type) {
		case core.CreateAction:
			if a.GetVerb() == "update" {
				if o, ok := a.GetObject().(interface{ GetName() string }); ok {
					id = o.GetName()
				}
				break
			}
			switch obj := a.GetObject().(type) {
			case *v1.Pod:
				p, err := k8s.FromPod(obj)
				if err != nil {
					t.Fatal(err)
				}
				id = podNode(p)
			case *apps.ControllerRevision:
				id = obj.Name
			}
		case core.UpdateAction:
			if o, ok := a.GetObject().(interface{ GetName() string }); ok {
				id = o.GetName()
			}
		case core.DeleteAction:
			id = a.GetName()
		case core.PatchAction:
			id = a.GetName()
		}
		ids = append(ids, id)
	}
	return group(keys, ids)
}

func ksGroups(t *testing.T, ws []plan.Write) []writeGroup {
	var keys, ids []string
	for _, w := range ws {
		keys = append(keys, string(w.Verb)+" "+w.Resource+"/"+w.Subresource)
		id := w.Name
		switch obj := w.Object.(type) {
		case *podstatus.Pod:
			if w.Verb == plan.VerbCreate {
				id = podNode(obj)
			}
		case *history.ControllerRevision:
			id = obj.Name
		}
		ids = append(ids, id)
	}
	return group(keys, ids)
}

// podNode is the node a daemon pod's required node affinity pins it to.
func podNode(p *podstatus.Pod) string {
	name, err := daemonset.TargetNodeName(&p.Spec)
	if err != nil {
		return "?" + err.Error()
	}
	return name
}

// checkRevision compares a revision upstream wrote with kubesem's write
// of that name.
func checkRevision(t *testing.T, obj *apps.ControllerRevision, kw []plan.Write, seen map[string]int) {
	t.Helper()
	var mine *history.ControllerRevision
	created := false
	n := 0 // (upstream's n-th write of the revision is kubesem's n-th)
	for _, w := range kw {
		if r, ok := w.Object.(*history.ControllerRevision); ok && r.Name == obj.Name && w.Verb != plan.VerbPatch {
			if n == seen[obj.Name] {
				mine, created = r, w.Verb == plan.VerbCreate
			}
			n++
		}
	}
	seen[obj.Name]++
	if mine == nil {
		t.Fatalf("upstream wrote revision %s; kubesem did not", obj.Name)
	}
	got := k8s.FromControllerRevision(obj)
	if got.Data == nil {
		t.Fatalf("revision %s: upstream's data %s does not decode", obj.Name, obj.Data.Raw)
	}
	switch {
	case mine.Data != nil: // an updated revision given without data keeps none
		gt, mt := got.Data.Template, mine.Data.Template
		if d := difftest.JSONDiff(t, []any{gt.ObjectMeta, gt.Spec}, []any{mt.ObjectMeta, mt.Spec}); d != "" {
			t.Errorf("revision %s data: %s", obj.Name, d)
		}
	case created:
		t.Fatalf("revision %s: kubesem's has no data", obj.Name)
	}
	if !created {
		// The rig stores the vector's revisions with the metadata
		// upstream would give them; an update carries the given
		// revision renumbered: compare the number.
		if got.Revision != mine.Revision {
			t.Errorf("revision %s renumbered %d; kubesem %d", obj.Name, got.Revision, mine.Revision)
		}
		if g, m := obj.Labels[apps.DefaultDaemonSetUniqueLabelKey], mine.Labels[history.HashLabel]; g != m {
			t.Errorf("revision %s labelled %q; kubesem %q", obj.Name, g, m)
		}
		return
	}
	mine2 := *mine
	got.Data, mine2.Data = nil, nil
	if d := difftest.JSONDiff(t, got, mine2); d != "" {
		t.Errorf("revision %s: %s", obj.Name, d)
	}
}
