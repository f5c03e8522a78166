package rolloutstatus_test

import (
	"encoding/json"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubectl/pkg/polymorphichelpers"
	appsdefaults "k8s.io/kubernetes/pkg/apis/apps/v1"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
)

// TestRolloutStatusVectorsUpstream replays every rolloutstatus vector with a
// want through kubectl v0.36.3's status viewers, on the object as the API
// server stores it (v1 defaulting applied), and checks the vector's message,
// done and error against kubectl's. The exit code and --watch are kubectl's
// command, not its viewer, and are left to the seed and the rollout status
// command's source the vectors cite.
func TestRolloutStatusVectorsUpstream(t *testing.T) {
	vs, err := conformance.Load(kubesem.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range vs {
		var in struct {
			Deployment  *appsv1.Deployment  `json:"deployment"`
			DaemonSet   *appsv1.DaemonSet   `json:"daemonSet"`
			StatefulSet *appsv1.StatefulSet `json:"statefulSet"`
			Revision    int64               `json:"revision"`
		}
		var want struct {
			Message *string `json:"message"`
			Done    *bool   `json:"done"`
			Err     string  `json:"error"`
		}
		switch v.Decision {
		case "rolloutstatus.Deployment", "rolloutstatus.DaemonSet", "rolloutstatus.StatefulSet":
		default:
			continue
		}
		if v.Want == nil {
			continue
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatalf("%s: input: %v", v.Name, err)
		}
		if err := json.Unmarshal(v.Want, &want); err != nil {
			t.Fatalf("%s: want: %v", v.Name, err)
		}
		var (
			obj  any
			view polymorphichelpers.StatusViewer
		)
		switch {
		case in.Deployment != nil:
			appsdefaults.SetObjectDefaults_Deployment(in.Deployment)
			obj, view = in.Deployment, &polymorphichelpers.DeploymentStatusViewer{}
		case in.DaemonSet != nil:
			appsdefaults.SetObjectDefaults_DaemonSet(in.DaemonSet)
			obj, view = in.DaemonSet, &polymorphichelpers.DaemonSetStatusViewer{}
		case in.StatefulSet != nil:
			appsdefaults.SetObjectDefaults_StatefulSet(in.StatefulSet)
			obj, view = in.StatefulSet, &polymorphichelpers.StatefulSetStatusViewer{}
		default:
			t.Fatalf("%s: no object in the input", v.Name)
		}
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			t.Fatal(err)
		}
		msg, done, verr := view.Status(&unstructured.Unstructured{Object: m}, in.Revision)
		gotErr := ""
		if verr != nil {
			gotErr = verr.Error()
		}
		n++
		if want.Message != nil && *want.Message != msg {
			t.Errorf("%s: message %q, kubectl %q", v.Name, *want.Message, msg)
		}
		if want.Done != nil && *want.Done != done {
			t.Errorf("%s: done %v, kubectl %v", v.Name, *want.Done, done)
		}
		if want.Err != gotErr {
			t.Errorf("%s: error %q, kubectl %q", v.Name, want.Err, gotErr)
		}
	}
	if n < 29 {
		t.Fatalf("replayed %d rolloutstatus vectors, want at least 29", n)
	}
}
