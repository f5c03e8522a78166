package pdb_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
)

// vecFile is a vector as testdata/pdb writes it, in its key order.
type vecFile struct {
	Decision  string          `json:"decision"`
	Name      string          `json:"name"`
	Source    string          `json:"source"`
	Options   json.RawMessage `json:"options,omitempty"`
	Input     json.RawMessage `json:"input"`
	Want      json.RawMessage `json:"want,omitempty"`
	WantError json.RawMessage `json:"wantError,omitempty"`
}

// stepVecIn is the input of a pdb.Step vector.
type stepVecIn struct {
	Budget      pdb.PodDisruptionBudget `json:"budget"`
	Pods        []*podstatus.Pod        `json:"pods"`
	Controllers []pdb.Controller        `json:"controllers"`
	Now         time.Time               `json:"now"`
}

// vecUpIn converts a Step vector's input to upstream's world: the budget
// and pods through the k8s adapter, each controller as the object of its
// kind in the budget's namespace (ReplicationController, ReplicaSet with its
// owner, Deployment, StatefulSet), any other kind as an object behind the
// scale subresource. Disrupted-pod entries move by shift.
func vecUpIn(in stepVecIn, opts pdb.Options, shift time.Duration) (upIn, error) {
	b := in.Budget
	b.Status.DisruptedPods = nil
	if len(in.Budget.Status.DisruptedPods) > 0 || in.Budget.Status.DisruptedPods != nil {
		b.Status.DisruptedPods = map[string]time.Time{}
		for name, at := range in.Budget.Status.DisruptedPods {
			b.Status.DisruptedPods[name] = at.Add(shift)
		}
	}
	ub, err := k8s.ToPodDisruptionBudget(&b)
	if err != nil {
		return upIn{}, err
	}
	up := upIn{budget: ub, now: in.Now, staleTimeout: opts.StalePodDisruptionTimeout}
	for _, p := range in.Pods {
		u, err := k8s.ToPod(p)
		if err != nil {
			return upIn{}, err
		}
		up.pods = append(up.pods, u)
	}
	ns := in.Budget.Namespace
	for _, c := range in.Controllers {
		gv, err := schema.ParseGroupVersion(c.APIVersion)
		if err != nil {
			return upIn{}, err
		}
		om := metav1.ObjectMeta{Name: c.Name, Namespace: ns, UID: types.UID(c.UID)}
		if o := c.ControllerRef(); o != nil {
			om.OwnerReferences = []metav1.OwnerReference{{APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name, UID: types.UID(o.UID), Controller: o.Controller}}
		}
		builtin := func() (*int32, error) {
			if c.Spec.Replicas == nil {
				return nil, fmt.Errorf("%s %s without replicas: the API server defaults them", c.Kind, c.Name)
			}
			r := *c.Spec.Replicas
			return &r, nil
		}
		switch {
		case gv.Group == "" && c.Kind == "ReplicationController":
			r, err := builtin()
			if err != nil {
				return upIn{}, err
			}
			up.rcs = append(up.rcs, &v1.ReplicationController{ObjectMeta: om, Spec: v1.ReplicationControllerSpec{Replicas: r}})
		case gv.Group == "apps" && c.Kind == "ReplicaSet":
			r, err := builtin()
			if err != nil {
				return upIn{}, err
			}
			up.rss = append(up.rss, &appsv1.ReplicaSet{ObjectMeta: om, Spec: appsv1.ReplicaSetSpec{Replicas: r}})
		case gv.Group == "apps" && c.Kind == "Deployment":
			r, err := builtin()
			if err != nil {
				return upIn{}, err
			}
			up.deps = append(up.deps, &appsv1.Deployment{ObjectMeta: om, Spec: appsv1.DeploymentSpec{Replicas: r}})
		case gv.Group == "apps" && c.Kind == "StatefulSet":
			r, err := builtin()
			if err != nil {
				return upIn{}, err
			}
			up.sss = append(up.sss, &appsv1.StatefulSet{ObjectMeta: om, Spec: appsv1.StatefulSetSpec{Replicas: r}})
		default:
			up.scales = append(up.scales, upScale{gvk: gv.WithKind(c.Kind), namespace: ns, name: c.Name, uid: types.UID(c.UID), replicas: c.Spec.Replicas})
		}
	}
	return up, nil
}

// vecRuns is how many times each vector runs through upstream: its
// listers return objects in map order, so a vector whose answer depends on
// that order shows it as runs that disagree.
const vecRuns = 4

// vecUpstreamWant returns the want upstream gives a Step vector: the Plan
// of planOf as JSON (plan.Encode's key order), with the messages kubesem
// states differently on purpose (divergentMessage) left out.
func vecUpstreamWant(t *testing.T, v vecFile) (json.RawMessage, upOut, error) {
	var in stepVecIn
	if err := json.Unmarshal(v.Input, &in); err != nil {
		return nil, upOut{}, err
	}
	var opts pdb.Options
	if len(v.Options) > 0 {
		if err := json.Unmarshal(v.Options, &opts); err != nil {
			return nil, upOut{}, err
		}
	}
	shift := shift(opts.DeletionTimeout)
	var first json.RawMessage
	var firstOut upOut
	for run := range vecRuns {
		up, err := vecUpIn(in, opts, shift)
		if err != nil {
			return nil, upOut{}, err
		}
		out := upRun(t, up)
		p, err := planOf(out, in.Budget.Status, in.Now, shift)
		if err != nil {
			return nil, upOut{}, err
		}
		stripDivergent(&p)
		got, err := json.Marshal(p)
		if err != nil {
			return nil, upOut{}, err
		}
		if run == 0 {
			first, firstOut = got, out
		} else if !bytes.Equal(got, first) {
			return nil, upOut{}, fmt.Errorf("upstream answers differ from run to run:\n%s\n%s", first, got)
		}
	}
	return first, firstOut, nil
}

// sameWrites checks pdb.Step's Plan.Writes for the vector against the
// requests upstream sent: the budget's status update (when any) first, then
// the stale-pod worker's pod status updates, which upstream sends in its
// informer's order, taken by pod name; verb, resource, subresource,
// namespace, name and uid, and each reset pod's conditions (type, status,
// reason, message) as upstream's update carries them.
func sameWrites(v vecFile, up upOut) error {
	var in stepVecIn
	if err := json.Unmarshal(v.Input, &in); err != nil {
		return err
	}
	var opts pdb.Options
	if len(v.Options) > 0 {
		if err := json.Unmarshal(v.Options, &opts); err != nil {
			return err
		}
	}
	p, err := pdb.Step(&in.Budget, in.Pods, in.Controllers, in.Now, opts)
	if err != nil {
		return err
	}
	return compareWrites(p, &in.Budget, in.Pods, in.Now, up)
}

// compareWrites is sameWrites for a Plan of b over pods at now.
func compareWrites(p pdb.Plan, b *pdb.PodDisruptionBudget, pods []*podstatus.Pod, now time.Time, up upOut) error {
	ws, err := p.Writes(b, pods, now)
	if err != nil {
		return fmt.Errorf("Writes: %v", err)
	}
	keys, err := difftest.WriteKeysOfActions(up.actions)
	if err != nil {
		return err
	}
	var budget, resets []string
	for _, k := range keys {
		if k.Resource == "pods" {
			resets = append(resets, k.String())
		} else {
			budget = append(budget, k.String())
		}
	}
	slices.Sort(resets)
	var got []string
	for _, w := range ws {
		got = append(got, difftest.WriteKeyOf(w).String())
	}
	if want := append(budget, resets...); !slices.Equal(got, want) {
		return fmt.Errorf("writes %q, upstream %q", got, want)
	}
	for _, w := range ws {
		if w.Resource != "pods" {
			continue
		}
		obj := w.Object.(*podstatus.Pod)
		for _, u := range up.resets {
			if u.Name != w.Name {
				continue
			}
			var a, b []string
			for _, c := range obj.Status.Conditions {
				a = append(a, fmt.Sprint(c.Type, c.Status, c.Reason, c.Message))
			}
			for _, c := range u.Status.Conditions {
				b = append(b, fmt.Sprint(c.Type, c.Status, c.Reason, c.Message))
			}
			if !slices.Equal(a, b) {
				return fmt.Errorf("reset %s conditions %q, upstream %q", w.Name, a, b)
			}
		}
	}
	return nil
}

// stripDivergent removes from p the sync-failure messages
// divergentMessage names, in status.conditions and in the
// CalculateExpectedPodCountFailed event.
func stripDivergent(p *pdb.Plan) {
	p.Status.Conditions = slices.Clone(p.Status.Conditions)
	for i := range p.Status.Conditions {
		if divergentMessage(p.Status.Conditions[i].Message) {
			p.Status.Conditions[i].Message = ""
		}
	}
	for i := range p.Events {
		if divergentMessage(p.Events[i].Message) {
			p.Events[i].Message = ""
		}
	}
}

// vecFiles returns the files of testdata/pdb holding vectors of decision
// (step.json, two_controllers.json, the check-*.json files of kubesem check
// --vectors for pdb.Step; evict.json and check-*.json for pdb.Evict), by
// name.
func vecFiles(t *testing.T, decision string) []string {
	t.Helper()
	paths, err := filepath.Glob(difftest.Repo("testdata", "pdb", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, p := range paths {
		file := filepath.Base(p)
		if slices.ContainsFunc(readVecs(t, file), func(v vecFile) bool { return v.Decision == decision }) {
			files = append(files, file)
		}
	}
	if len(files) == 0 {
		t.Fatalf("no %s vectors in testdata/pdb", decision)
	}
	return files
}

func readVecs(t *testing.T, file string) []vecFile {
	t.Helper()
	data, err := os.ReadFile(difftest.Repo("testdata", "pdb", file))
	if err != nil {
		t.Fatal(err)
	}
	var vs []vecFile
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestPDBStepVectorsUpstream replays every pdb.Step vector through the
// v1.36.3 disruption controller (upRun: one sync of the budget, then the
// stale-pod worker on each pod of its namespace) and requires its want to be
// exactly the Plan upstream gives (planOf), key for key: outcome,
// updateStatus, the whole status, events, requeue and
// resetDisruptionTarget. The only keys a want may leave out are the
// sync-failure messages kubesem states differently on purpose
// (divergentMessage). Each vector also runs through pdb.Step, whose Plan
// must match the want. Vectors with wantError are budgets the API server
// rejects; upstream never syncs them.
//
// With KUBESEM_WRITE_VECTORS=1 it writes upstream's Plan into every Step
// vector's want instead (inputs, names and sources untouched).
//
// Every vector's pdb.Plan.Writes are compared with the requests the fake
// clientset received (sameWrites).
func TestPDBStepVectorsUpstream(t *testing.T) {
	write := os.Getenv("KUBESEM_WRITE_VECTORS") == "1"
	n, writes := 0, 0
	for _, file := range vecFiles(t, "pdb.Step") {
		vs := readVecs(t, file)
		changed := false
		for i, v := range vs {
			if v.Decision != "pdb.Step" || v.WantError != nil {
				continue
			}
			n++
			want, up, err := vecUpstreamWant(t, v)
			if err != nil {
				t.Errorf("%s %q: %v", file, v.Name, err)
				continue
			}
			if write {
				if !bytes.Equal(difftest.CanonicalRaw(v.Want), difftest.CanonicalRaw(want)) {
					vs[i].Want, changed = want, true
				}
				continue
			}
			if got := difftest.CanonicalRaw(v.Want); !bytes.Equal(got, difftest.CanonicalRaw(want)) {
				t.Errorf("%s %q: want is not upstream's Plan\nvector:   %s\nupstream: %s", file, v.Name, got, want)
				continue
			}
			got, err := conformance.Kubesem().Decide(v.Decision, v.Options, v.Input)
			if err != nil {
				t.Errorf("%s %q: kubesem: %v", file, v.Name, err)
			} else if ok, why := conformance.Match(v.Want, got); !ok {
				t.Errorf("%s %q: kubesem: %s", file, v.Name, why)
			}
			if err := sameWrites(v, up); err != nil {
				t.Errorf("%s %q: %v", file, v.Name, err)
			}
			writes++
		}
		if write && changed {
			writeVectorFile(t, file, vs)
		}
	}
	if n < 60 {
		t.Fatalf("only %d pdb.Step vectors", n)
	}
	if !write && writes != n {
		t.Errorf("Writes checked on %d of %d vectors", writes, n)
	}
	t.Logf("%d pdb.Step vectors replayed through the disruption controller, their Writes compared with its requests", n)
}

// writeVectorFile writes vs as testdata/pdb/file, indented, HTML left
// unescaped (the fill tests' output).
func writeVectorFile(t *testing.T, file string, vs any) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(vs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(difftest.Repo("testdata", "pdb", file), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", file)
}
