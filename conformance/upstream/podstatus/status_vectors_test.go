package podstatus_test

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	"k8s.io/kubernetes/pkg/features"
	kubestatus "k8s.io/kubernetes/pkg/kubelet/status"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/podstatus"
)

// TestPodStatusStatusVectorsUpstream replays every podstatus.Status vector
// through the kubelet's own phase and condition generators, assembled as
// generateAPIPodStatus and the status manager do (upstreamGenerate),
// under the vector's feature gates, and every
// podstatus.AllContainersRestartingCondition and podstatus.CanRestartAll
// vector through GenerateAllContainersRestartingCondition and
// AllContainersCouldRestart. The vector's want must be upstream's answer.
// PODSTATUS_PRINT_UPSTREAM=1 prints upstream's answer for differing
// vectors.
func TestPodStatusStatusVectorsUpstream(t *testing.T) {
	vs, err := conformance.Load(kubesem.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, v := range vs {
		switch v.Decision {
		case "podstatus.Generate", "podstatus.AllContainersRestartingCondition", "podstatus.CanRestartAll":
		default:
			continue
		}
		var opts podstatus.Options
		if len(v.Options) > 0 {
			if err := json.Unmarshal(v.Options, &opts); err != nil {
				t.Fatalf("%s: options: %v", v.Name, err)
			}
		}
		t.Run(v.Name, func(t *testing.T) {
			if opts.DisableRestartAllContainersOnContainerExits {
				featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.RestartAllContainersOnContainerExits, false)
			}
			var in struct {
				Pod      podstatus.Pod                `json:"pod"`
				Observed podstatus.Observed           `json:"observed"`
				Now      time.Time                    `json:"now"`
				Runtime  []podstatus.RuntimeContainer `json:"runtime"`
				Phase    podstatus.Phase              `json:"phase"`
			}
			if err := json.Unmarshal(v.Input, &in); err != nil {
				t.Fatal(err)
			}
			u := phaseToV1(&in.Pod)
			var got any
			switch v.Decision {
			case "podstatus.Generate":
				got = upstreamGenerate(u, in.Observed, in.Now)
			case "podstatus.CanRestartAll":
				got = map[string]bool{"canRestartAll": podutil.AllContainersCouldRestart(&u.Spec)}
			default:
				c := kubestatus.GenerateAllContainersRestartingCondition(u, runtimeStatus(in.Runtime), &u.Status, v1.PodPhase(in.Phase))
				got = fromV1Conds([]v1.PodCondition{c})[0]
			}
			var gm, wm any
			_ = json.Unmarshal(mustJSON(got), &gm)
			_ = json.Unmarshal(v.Want, &wm)
			if d := cmp.Diff(wm, gm); d != "" {
				if os.Getenv("PODSTATUS_PRINT_UPSTREAM") != "" {
					t.Logf("UPSTREAM %s %s", v.Name, mustJSON(got))
				}
				t.Errorf("%s: upstream differs from the vector (-vector +upstream):\n%s", v.Name, d)
			}
		})
		counts[v.Decision]++
	}
	if counts["podstatus.Generate"] < 100 || counts["podstatus.AllContainersRestartingCondition"] < 6 {
		t.Fatalf("too few vectors replayed: %v", counts)
	}
	t.Logf("replayed through the kubelet: %v", counts)
}
