package podstatus_test

import (
	"encoding/json"
	"testing"

	v1 "k8s.io/api/core/v1"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	kubestatus "k8s.io/kubernetes/pkg/kubelet/status"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/podstatus"
)

// TestPodStatusVectorsUpstream replays every KubeletPhase and condition
// vector through the kubelet's own getPhase and condition generators and
// matches the vector's want.
func TestPodStatusVectorsUpstream(t *testing.T) {
	vs, err := conformance.Load(kubesem.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range vs {
		var in struct {
			Pod        podstatus.Pod         `json:"pod"`
			Observed   podstatus.Observed    `json:"observed"`
			Phase      podstatus.Phase       `json:"phase"`
			Conditions []podstatus.Condition `json:"conditions"`
		}
		switch v.Decision {
		case "podstatus.KubeletPhase", "podstatus.ContainersReadyCondition", "podstatus.ReadyCondition", "podstatus.InitializedCondition":
		case "podstatus.ShouldRestart", "podstatus.MatchRule":
			var rin struct {
				Container     podstatus.Container     `json:"container"`
				RestartPolicy podstatus.RestartPolicy `json:"restartPolicy"`
				ExitCode      int32                   `json:"exitCode"`
			}
			if err := json.Unmarshal(v.Input, &rin); err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
			uc := v1Containers([]podstatus.Container{rin.Container})[0]
			var got any
			if v.Decision == "podstatus.MatchRule" {
				r, ok := podutil.FindMatchingContainerRestartRule(uc, rin.ExitCode)
				out := map[string]any{"found": ok}
				if ok {
					out["rule"] = r
				}
				got = out
			} else {
				got = map[string]any{"restart": podutil.ContainerShouldRestart(uc, v1.PodSpec{RestartPolicy: v1.RestartPolicy(rin.RestartPolicy)}, rin.ExitCode)}
			}
			var gm, wm map[string]any
			_ = json.Unmarshal(mustJSON(got), &gm)
			_ = json.Unmarshal(v.Want, &wm)
			if string(mustJSON(gm)) != string(mustJSON(wm)) {
				t.Errorf("%s: upstream %s, vector %s", v.Name, mustJSON(gm), mustJSON(wm))
			}
			n++
			continue
		default:
			continue
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		u := phaseToV1(&in.Pod)
		var got any
		if v.Decision == "podstatus.KubeletPhase" {
			init := podstatus.AnyRegularStarted(&in.Pod)
			if in.Observed.Initialized != nil {
				init = *in.Observed.Initialized
			}
			got = struct {
				Phase podstatus.Phase `json:"phase"`
			}{upstreamPhase(u, in.Observed.Terminal, init)}
		} else {
			// The generators' list: init statuses, then regular ones.
			// The kubelet's append(init, regular...) is nil only when the
			// init list is nil and the regular one empty.
			var all []v1.ContainerStatus
			if u.Status.InitContainerStatuses != nil || len(u.Status.ContainerStatuses) > 0 {
				all = append(append([]v1.ContainerStatus{}, u.Status.InitContainerStatuses...), u.Status.ContainerStatuses...)
			}
			old := &v1.PodStatus{}
			var c v1.PodCondition
			switch v.Decision {
			case "podstatus.ContainersReadyCondition":
				c = kubestatus.GenerateContainersReadyCondition(u, old, all, v1.PodPhase(in.Phase))
			case "podstatus.ReadyCondition":
				var conds []v1.PodCondition
				for _, x := range in.Conditions {
					conds = append(conds, v1.PodCondition{Type: v1.PodConditionType(x.Type), Status: v1.ConditionStatus(x.Status)})
				}
				c = kubestatus.GeneratePodReadyCondition(u, old, conds, all, v1.PodPhase(in.Phase))
			default:
				c = kubestatus.GeneratePodInitializedCondition(u, old, all, v1.PodPhase(in.Phase))
			}
			got = struct {
				Type    string `json:"type"`
				Status  string `json:"status"`
				Reason  string `json:"reason,omitempty"`
				Message string `json:"message,omitempty"`
			}{string(c.Type), string(c.Status), c.Reason, c.Message}
		}
		b, _ := json.Marshal(got)
		var gm, wm map[string]any
		_ = json.Unmarshal(b, &gm)
		_ = json.Unmarshal(v.Want, &wm)
		if string(mustJSON(gm)) != string(mustJSON(wm)) {
			t.Errorf("%s: upstream %s, vector %s", v.Name, mustJSON(gm), mustJSON(wm))
		}
		n++
	}
	if n < 150 {
		t.Fatalf("only %d vectors replayed", n)
	}
	t.Logf("%d vectors replayed through the kubelet", n)
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
