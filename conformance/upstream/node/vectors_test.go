package node_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	nodetopology "k8s.io/component-helpers/node/topology"
	schedhelper "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/klog/v2"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
)

// TestNodeVectorsUpstream replays the testdata/node vectors whose decision
// has a direct v1.36.3 counterpart through upstream and checks the vector's
// want: toleration and taint predicates, required node affinity (the match
// and whether an error is reported), getMinTolerationTime, zone keys and
// ComputeZoneState.
func TestNodeVectorsUpstream(t *testing.T) {
	logger := klog.Background()
	up := newController(t, fake.NewSimpleClientset(), node.Options{})
	files, _ := filepath.Glob(difftest.Repo("testdata/node/*.json"))
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var vs []struct {
			Decision  string          `json:"decision"`
			Name      string          `json:"name"`
			Options   json.RawMessage `json:"options"`
			Input     json.RawMessage `json:"input"`
			Want      json.RawMessage `json:"want"`
			WantError json.RawMessage `json:"wantError"`
		}
		if err := json.Unmarshal(data, &vs); err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			var gate struct {
				Gate      bool     `json:"taintTolerationComparisonOperators"`
				Threshold *float32 `json:"unhealthyZoneThreshold"`
			}
			_ = json.Unmarshal(v.Options, &gate)
			fail := func(got, want any) { t.Errorf("%s %s: upstream %v, vector %v", f, v.Name, got, want) }
			switch v.Decision {
			case "node.ToleratesTaint":
				var in struct {
					Toleration v1.Toleration `json:"toleration"`
					Taint      v1.Taint      `json:"taint"`
				}
				var want struct{ Tolerated bool }
				_ = json.Unmarshal(v.Input, &in)
				_ = json.Unmarshal(v.Want, &want)
				if got := in.Toleration.ToleratesTaint(logger, &in.Taint, gate.Gate); got != want.Tolerated {
					fail(got, want.Tolerated)
				}
			case "node.FindUntoleratedTaint":
				var in struct {
					Taints      []v1.Taint       `json:"taints"`
					Tolerations []v1.Toleration  `json:"tolerations"`
					Effects     []v1.TaintEffect `json:"effects"`
				}
				var want struct {
					Found bool
					Taint *v1.Taint
				}
				_ = json.Unmarshal(v.Input, &in)
				_ = json.Unmarshal(v.Want, &want)
				var filter func(*v1.Taint) bool
				if len(in.Effects) > 0 {
					filter = func(t *v1.Taint) bool {
						for _, e := range in.Effects {
							if t.Effect == e {
								return true
							}
						}
						return false
					}
				}
				got, ok := schedhelper.FindMatchingUntoleratedTaint(logger, in.Taints, in.Tolerations, filter, gate.Gate)
				if ok != want.Found || ok && got.Key != want.Taint.Key {
					fail(got, want)
				}
			case "node.MatchesNodeSelector":
				var in struct {
					NodeSelector map[string]string `json:"nodeSelector"`
					Affinity     *v1.Affinity      `json:"affinity"`
					Node         v1.Node           `json:"node"`
				}
				var want struct{ Matches bool }
				_ = json.Unmarshal(v.Input, &in)
				_ = json.Unmarshal(v.Want, &want)
				pod := &v1.Pod{Spec: v1.PodSpec{NodeSelector: in.NodeSelector, Affinity: in.Affinity}}
				got, err := nodeaffinity.GetRequiredNodeAffinity(pod).Match(&in.Node)
				if (err != nil) != (v.WantError != nil) || got != want.Matches {
					fail([]any{got, err}, string(v.Want)+string(v.WantError))
				}
			case "node.MinTolerationTime":
				var in struct {
					Tolerations []v1.Toleration `json:"tolerations"`
				}
				var want struct {
					Forever bool
					Time    string
				}
				_ = json.Unmarshal(v.Input, &in)
				_ = json.Unmarshal(v.Want, &want)
				got := upMinTolerationTime(in.Tolerations)
				// upstream's "forever" is exactly -1; other negative
				// durations are wrapped seconds, stated as a time.
				if (got == -1) != want.Forever || got != -1 && got.String() != want.Time {
					fail(got, want)
				}
			case "node.EvictionFor":
				var in struct {
					Tolerations []v1.Toleration `json:"tolerations"`
					Taints      []v1.Taint      `json:"taints"`
					Seen        time.Time       `json:"seen"`
				}
				_ = json.Unmarshal(v.Input, &in)
				if got := upEvictionFor(in.Tolerations, in.Taints, in.Seen); !sameJSON(got, v.Want) {
					fail(toJSON(got), string(v.Want))
				}
			case "node.EvictionStep":
				var in struct {
					Node      v1.Node                  `json:"node"`
					Pods      []*v1.Pod                `json:"pods"`
					Scheduled []node.ScheduledEviction `json:"memory"`
					Now       time.Time                `json:"now"`
				}
				_ = json.Unmarshal(v.Input, &in)
				if got := upEvictionStep(t, &in.Node, in.Pods, in.Scheduled, in.Now); !sameJSON(got, v.Want) {
					fail(toJSON(got), string(v.Want))
				}
			case "node.Zone":
				var in struct {
					Node v1.Node `json:"node"`
				}
				var want struct{ Zone string }
				_ = json.Unmarshal(v.Input, &in)
				_ = json.Unmarshal(v.Want, &want)
				if got := nodetopology.GetZoneKey(&in.Node); got != want.Zone {
					fail(got, want.Zone)
				}
			case "node.ComputeZoneState":
				if gate.Threshold != nil {
					continue
				}
				var in struct {
					Ready []v1.ConditionStatus `json:"ready"`
				}
				var want struct {
					NotReady int
					State    string
				}
				_ = json.Unmarshal(v.Input, &in)
				_ = json.Unmarshal(v.Want, &want)
				var conds []*v1.NodeCondition
				for _, s := range in.Ready {
					if s == "" {
						conds = append(conds, nil)
					} else {
						conds = append(conds, &v1.NodeCondition{Type: v1.NodeReady, Status: s, LastHeartbeatTime: metav1.Now()})
					}
				}
				n, st := up.nc.ComputeZoneState(conds)
				if n != want.NotReady || string(st) != want.State {
					fail([]any{n, st}, want)
				}
			default:
				continue
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("checked only %d vectors", checked)
	}
	t.Logf("%d vectors replayed through upstream", checked)
}

// sameJSON reports whether got, encoded as kubesem encodes it, is the
// JSON want: every key, no more, no fewer.
func sameJSON(got any, want json.RawMessage) bool {
	raw, err := plan.Encode(got)
	var a, b any
	if err != nil || json.Unmarshal(raw, &a) != nil || json.Unmarshal(want, &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

func toJSON(v any) string {
	raw, err := plan.Encode(v)
	if err != nil {
		return err.Error()
	}
	return string(raw)
}
