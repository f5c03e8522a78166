package deployment_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	intstr "github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// wrapIn is the union of the inputs the wrap vectors' decisions take.
type wrapIn struct {
	MaxSurge       *intstr.Value              `json:"maxSurge"`
	MaxUnavailable *intstr.Value              `json:"maxUnavailable"`
	Replicas       int32                      `json:"replicas"`
	Deployment     rollout.Deployment         `json:"deployment"`
	AllReplicaSets []*replicaset.ReplicaSet   `json:"allReplicaSets"`
	OldReplicaSets []*replicaset.ReplicaSet   `json:"oldReplicaSets"`
	ReplicaSets    []*replicaset.ReplicaSet   `json:"replicaSets"`
	NewReplicaSet  *replicaset.ReplicaSet     `json:"newReplicaSet"`
	Pods           []json.RawMessage          `json:"pods"`
	Extra          map[string]json.RawMessage `json:"-"`
}

// TestRolloutWrapVectorsUpstream checks every vector of
// testdata/rollout/wrap.json (int32 wrap and truncation on API-valid input)
// against the upstream function the decision mirrors, so each expectation
// is upstream's answer. rollout.Step vectors there are covered by
// TestRolloutStepDifferential's wide mode instead (upstream computes its own
// template hashes); they are counted, not skipped silently.
func TestRolloutWrapVectorsUpstream(t *testing.T) {
	b, err := os.ReadFile(difftest.Repo("testdata", "rollout", "wrap.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []difftest.FoundationVector
	difftest.DecodeJSON(t, b, &vs)
	checked, steps := 0, 0
	for _, v := range vs {
		var in wrapIn
		difftest.DecodeJSON(t, v.Input, &in)
		d := toDeployment(&in.Deployment)
		got := map[string]any{}
		var uerr error
		switch v.Decision {
		case "rollout.Fenceposts":
			s, u, e := deploymentutil.ResolveFenceposts(upIntOrString(in.MaxSurge), upIntOrString(in.MaxUnavailable), in.Replicas)
			got["surge"], got["unavailable"], uerr = s, u, e
		case "rollout.Bounds":
			got["maxSurge"], got["maxUnavailable"], got["minAvailable"] = deploymentutil.MaxSurge(*d), deploymentutil.MaxUnavailable(*d), deploymentutil.MinAvailable(d)
		case "rollout.NewReplicaSetReplicas":
			n, e := deploymentutil.NewRSNewReplicas(d, toReplicaSets(in.AllReplicaSets), toReplicaSet(in.NewReplicaSet))
			got["replicas"], uerr = n, e
		case "rollout.ScaleDownOld":
			dc, c := newController()
			if _, err := scaleDownOld(dc, context.Background(), toReplicaSets(in.AllReplicaSets), toReplicaSets(in.OldReplicaSets), d); err != nil {
				t.Fatalf("%s: upstream: %v", v.Name, err)
			}
			got["scales"] = wrapScales(updates(c))
		case "rollout.ReconcileOldReplicaSets":
			dc, c := newController()
			scaled, _ := reconcileOld(dc, context.Background(), toReplicaSets(in.AllReplicaSets), toReplicaSets(in.OldReplicaSets), toReplicaSet(in.NewReplicaSet), d)
			got["scaled"], got["scales"] = scaled, wrapScales(updates(c))
		case "rollout.OldPodsRunning":
			if len(in.Pods) > 0 {
				t.Fatalf("%s: pods are not converted here", v.Name)
			}
			got["value"] = oldPodsRunning(toReplicaSet(in.NewReplicaSet), toReplicaSets(in.OldReplicaSets), map[types.UID][]*corev1.Pod{})
		case "rollout.Proportional":
			dc, c := newController()
			if err := upScale(dc, context.Background(), d, toReplicaSet(in.NewReplicaSet), toReplicaSets(in.OldReplicaSets)); err != nil {
				t.Fatalf("%s: upstream: %v", v.Name, err)
			}
			sizes := map[string]int32{}
			for _, rs := range append(append([]*replicaset.ReplicaSet{}, in.OldReplicaSets...), in.NewReplicaSet) {
				sizes[rs.Name] = rs.Replicas()
			}
			for _, u := range updates(c) {
				sizes[u.Name] = u.Replicas
			}
			got["sizes"] = sizes
		case "rollout.ComputeStatus":
			all := toReplicaSets(in.ReplicaSets)
			for i, rs := range in.ReplicaSets {
				all[i].Status.ReadyReplicas = rs.Status.ReadyReplicas
			}
			var newRS *appsv1.ReplicaSet
			for _, rs := range all {
				if in.NewReplicaSet != nil && rs.Name == in.NewReplicaSet.Name {
					newRS = rs
				}
			}
			st := difftest.DeploymentCalculateStatus(all, newRS, d)
			got["replicas"], got["updatedReplicas"], got["readyReplicas"] = st.Replicas, st.UpdatedReplicas, st.ReadyReplicas
			got["availableReplicas"], got["unavailableReplicas"] = st.AvailableReplicas, st.UnavailableReplicas
		case "rollout.Step":
			steps++
			continue
		default:
			t.Fatalf("%s: no upstream check for %s", v.Name, v.Decision)
		}
		checked++
		if v.WantError != nil {
			if uerr == nil {
				t.Errorf("%s: vector wants error %s; upstream answers %v", v.Name, v.WantError.Kind, got)
			}
			continue
		}
		if uerr != nil {
			t.Errorf("%s: upstream fails (%v); vector wants %s", v.Name, uerr, v.Want)
			continue
		}
		gb, _ := json.Marshal(got)
		if ok, why := wrapMatch(v.Want, gb); !ok {
			t.Errorf("%s: upstream %s; vector %s: %s", v.Name, gb, v.Want, why)
		}
	}
	if checked < 15 {
		t.Fatalf("checked %d wrap vectors against upstream; want every non-Step one (>= 15)", checked)
	}
	t.Logf("%d wrap vectors checked against upstream, %d Step vectors left to TestRolloutStepDifferential", checked, steps)
}

func wrapScales(us []update) []map[string]any {
	out := []map[string]any{}
	for _, u := range us {
		out = append(out, map[string]any{"name": u.Name, "replicas": u.Replicas})
	}
	return out
}

// wrapMatch reports whether every key upstream answered has the vector's
// value (the vector may hold more keys, e.g. scale reasons).
func wrapMatch(want, got []byte) (bool, string) {
	var w, g map[string]any
	if err := json.Unmarshal(want, &w); err != nil {
		return false, err.Error()
	}
	if err := json.Unmarshal(got, &g); err != nil {
		return false, err.Error()
	}
	for k, gv := range g {
		wv, ok := w[k]
		if !ok {
			return false, "vector lacks " + k
		}
		if !wrapSame(wv, gv) {
			return false, fmt.Sprintf("%s: vector %v, upstream %v", k, wv, gv)
		}
	}
	return true, ""
}

// wrapSame compares JSON values; in lists of objects only the keys upstream
// reports are compared.
func wrapSame(w, g any) bool {
	switch gv := g.(type) {
	case []any:
		wl, ok := w.([]any)
		if !ok || len(wl) != len(gv) {
			return false
		}
		for i := range gv {
			if !wrapSame(wl[i], gv[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		wm, ok := w.(map[string]any)
		if !ok {
			return false
		}
		for k, x := range gv {
			if !wrapSame(wm[k], x) {
				return false
			}
		}
		return true
	}
	return fmt.Sprint(w) == fmt.Sprint(g)
}
