package pdb_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
)

func ref(apiVersion, kind, name string) meta.OwnerReference {
	return meta.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: name + "-uid", Controller: ptr(true)}
}

func ctl(apiVersion, kind, name string, replicas *int32, owner *meta.OwnerReference) pdb.Controller {
	c := pdb.Controller{APIVersion: apiVersion, Kind: kind, ObjectMeta: meta.ObjectMeta{Name: name, UID: name + "-uid"}, Spec: pdb.ControllerSpec{Replicas: replicas}}
	if owner != nil {
		c.OwnerReferences = []meta.OwnerReference{*owner}
	}
	return c
}

func TestControllerScale(t *testing.T) {
	t.Parallel()
	dep := ref("apps/v1", "Deployment", "d")
	cs := []pdb.Controller{
		ctl("v1", "ReplicationController", "rc", ptr(int32(3)), nil),
		ctl("apps/v1", "Deployment", "d", ptr(int32(5)), nil),
		ctl("apps/v1", "ReplicaSet", "rs-of-d", ptr(int32(2)), &dep),
		ctl("apps/v1", "ReplicaSet", "rs", ptr(int32(4)), nil),
		ctl("apps/v1", "ReplicaSet", "rs-of-missing", ptr(int32(6)), &meta.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "gone", UID: "gone-uid", Controller: ptr(true)}),
		ctl("apps/v1", "StatefulSet", "ss", ptr(int32(7)), nil),
		ctl("apps/v1", "ReplicaSet", "rs-of-other", ptr(int32(9)), &meta.OwnerReference{APIVersion: "example.com/v1", Kind: "Rollout", Name: "r", UID: "r-uid", Controller: ptr(true)}),
		ctl("example.com/v1", "Scalable", "x", ptr(int32(8)), nil),
		ctl("example.com/v1", "Thing", "y", nil, nil),
	}
	tests := []struct {
		name    string
		ref     meta.OwnerReference
		uid     string
		scale   int32
		found   bool
		wantErr bool
	}{
		{"ReplicationController", ref("v1", "ReplicationController", "rc"), "rc-uid", 3, true, false},
		{"ReplicaSet of a Deployment counts the Deployment", ref("apps/v1", "ReplicaSet", "rs-of-d"), "d-uid", 5, true, false},
		{"bare ReplicaSet", ref("apps/v1", "ReplicaSet", "rs"), "rs-uid", 4, true, false},
		{"bare ReplicaSet, extensions group", ref("extensions/v1beta1", "ReplicaSet", "rs"), "rs-uid", 4, true, false},
		{"ReplicaSet whose Deployment is missing: its own scale", ref("apps/v1", "ReplicaSet", "rs-of-missing"), "rs-of-missing-uid", 6, true, false},
		{"StatefulSet", ref("apps/v1", "StatefulSet", "ss"), "ss-uid", 7, true, false},
		{"ReplicaSet owned by another kind: its own scale", ref("apps/v1", "ReplicaSet", "rs-of-other"), "rs-of-other-uid", 9, true, false},
		{"custom resource with scale", ref("example.com/v1", "Scalable", "x"), "x-uid", 8, true, false},
		{"custom resource without scale", ref("example.com/v1", "Thing", "y"), "", 0, false, true},
		{"missing ReplicaSet", ref("apps/v1", "ReplicaSet", "none"), "", 0, false, false},
		{"UID mismatch", meta.OwnerReference{APIVersion: "v1", Kind: "ReplicationController", Name: "rc", UID: "other"}, "", 0, false, false},
		{"custom resource, UID mismatch", meta.OwnerReference{APIVersion: "example.com/v1", Kind: "Scalable", Name: "x", UID: "other"}, "", 0, false, false},
		{"custom resource, other group", ref("other.com/v1", "Scalable", "x"), "", 0, false, false},
		{"custom resource, version not served", ref("example.com/v2", "Scalable", "x"), "", 0, false, false},
		{"ReplicaSet whose Deployment is missing, version not served: no scale mapping", ref("apps/v1beta2", "ReplicaSet", "rs-of-missing"), "", 0, false, false},
		{"bare ReplicaSet, version not served: found by group", ref("apps/v1beta2", "ReplicaSet", "rs"), "rs-uid", 4, true, false},
		{"bad apiVersion", ref("a/b/c", "ReplicaSet", "rs"), "", 0, false, true},
		{"StatefulSet outside apps", ref("v1", "StatefulSet", "ss"), "", 0, false, false},
	}
	for _, tc := range tests {
		uid, scale, found, err := pdb.ControllerScale(tc.ref, cs)
		if uid != tc.uid || scale != tc.scale || found != tc.found || (err != nil) != tc.wantErr {
			t.Errorf("ControllerScale(%s) = %q, %d, %v, %v; want %q, %d, %v, error %v", tc.name, uid, scale, found, err, tc.uid, tc.scale, tc.found, tc.wantErr)
		}
	}
}

func TestExpectedScale(t *testing.T) {
	t.Parallel()
	dep := ref("apps/v1", "Deployment", "d")
	cs := []pdb.Controller{
		ctl("apps/v1", "Deployment", "d", ptr(int32(5)), nil),
		ctl("apps/v1", "ReplicaSet", "old", ptr(int32(2)), &dep),
		ctl("apps/v1", "ReplicaSet", "new", ptr(int32(3)), &dep),
		rs("rs", 4),
	}
	pods := []*podstatus.Pod{
		readyPod("b", true, rsRef("old")), readyPod("a", true, rsRef("new")), readyPod("c", true, rsRef("rs")),
		readyPod("z-bare", true, nil), readyPod("c2", true, rsRef("rs")), nil, readyPod("m-bare", true, nil),
	}
	count, unmanaged, err := pdb.ExpectedScale(pods, cs)
	if err != nil || count != 9 || !slices.Equal(unmanaged, []string{"m-bare", "z-bare"}) {
		t.Errorf("ExpectedScale = %d, %v, %v; want 9 (the Deployment once, rs once), [m-bare z-bare], nil", count, unmanaged, err)
	}
	// The first failing pod by name is reported, whatever the input order.
	bad := []*podstatus.Pod{readyPod("y", true, rsRef("none")), readyPod("x", true, rsRef("gone")), readyPod("a", true, rsRef("rs"))}
	_, _, err = pdb.ExpectedScale(bad, cs)
	var se *pdb.ScaleError
	if !errors.As(err, &se) || se.Pod != "x" || se.Message != `found no controllers for pod "x"` {
		t.Errorf("ExpectedScale(missing controllers) = %v; want ScaleError for pod x", err)
	}
	// Only the UID of the controller found is remembered: a pod whose
	// reference names a ReplicaSet counted through its Deployment is looked
	// up again, and a reference of another group fails.
	coreRef := &meta.OwnerReference{APIVersion: "v1", Kind: "ReplicaSet", Name: "old", UID: "old-uid", Controller: ptr(true)}
	_, _, err = pdb.ExpectedScale([]*podstatus.Pod{readyPod("a", true, rsRef("old")), readyPod("b", true, coreRef)}, cs)
	if !errors.As(err, &se) || se.Pod != "b" {
		t.Errorf("ExpectedScale(ReplicaSet of a Deployment, then a core-group reference to it) = %v; want ScaleError for pod b", err)
	}
	// A sum past int32 wraps, as upstream's int32 sum does, in either
	// walk (pods in any order, or in name order when two references
	// share a UID).
	big := []pdb.Controller{rs("r1", 1<<31-1), rs("r2", 1), rs("r3", 1<<31-1)}
	count, _, err = pdb.ExpectedScale([]*podstatus.Pod{readyPod("a", true, rsRef("r1")), readyPod("b", true, rsRef("r2"))}, big)
	if err != nil || count != -1<<31 {
		t.Errorf("ExpectedScale(MaxInt32+1) = %d, %v; want -2147483648", count, err)
	}
	alias := *rsRef("r3")
	alias.Name = "r3-alias"
	count, _, err = pdb.ExpectedScale([]*podstatus.Pod{readyPod("a", true, rsRef("r1")), readyPod("b", true, rsRef("r3")), readyPod("c", true, &alias)}, big)
	if err != nil || count != -2 {
		t.Errorf("ExpectedScale(2 × MaxInt32, in name order) = %d, %v; want -2", count, err)
	}
	count, _, err = pdb.ExpectedScale([]*podstatus.Pod{readyPod("a", true, rsRef("r1"))}, big)
	if err != nil || count != 1<<31-1 {
		t.Errorf("ExpectedScale(MaxInt32) = %d, %v; want 2147483647", count, err)
	}
}

func TestExpectedPods(t *testing.T) {
	t.Parallel()
	cs := []pdb.Controller{rs("rs", 10)}
	pods := []*podstatus.Pod{readyPod("a", true, rsRef("rs")), readyPod("b", false, rsRef("rs")), readyPod("c", true, nil)}
	tests := []struct {
		name           string
		min, max       *intstr.Value
		count, desired int32
		unmanaged      []string
	}{
		{"integer minAvailable: selected pods, minAvailable", ptr(intstr.Int(7)), nil, 3, 7, nil},
		{"percentage minAvailable: scale, rounded up", ptr(intstr.Percent(25)), nil, 10, 3, []string{"c"}},
		{"maxUnavailable integer", nil, ptr(intstr.Int(4)), 10, 6, []string{"c"}},
		{"maxUnavailable percentage rounds up", nil, ptr(intstr.Percent(25)), 10, 7, []string{"c"}},
		{"maxUnavailable beyond the scale: desired 0", nil, ptr(intstr.Int(11)), 10, 0, []string{"c"}},
		{"neither field", nil, nil, 0, 0, nil},
	}
	for _, tc := range tests {
		e, err := pdb.ExpectedPods(budget(tc.min, tc.max), pods, cs)
		if err != nil || e.Count != tc.count || e.DesiredHealthy != tc.desired || !slices.Equal(e.Unmanaged, tc.unmanaged) {
			t.Errorf("ExpectedPods(%s) = %+v, %v; want %d, %d, %v", tc.name, e, err, tc.count, tc.desired, tc.unmanaged)
		}
	}
	// A controller that cannot be found fails only the scale-based counts.
	lost := []*podstatus.Pod{readyPod("a", true, rsRef("none"))}
	if e, err := pdb.ExpectedPods(budget(ptr(intstr.Int(1)), nil), lost, cs); err != nil || e.Count != 1 {
		t.Errorf("ExpectedPods(int minAvailable, lost controller) = %+v, %v; want 1 expected, no error", e, err)
	}
	var se *pdb.ScaleError
	if _, err := pdb.ExpectedPods(budget(nil, ptr(intstr.Int(1))), lost, cs); !errors.As(err, &se) {
		t.Errorf("ExpectedPods(maxUnavailable, lost controller) = %v; want a *ScaleError", err)
	}
}
