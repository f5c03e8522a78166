package meta_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
)

func boolPtr(b bool) *bool { return &b }

func TestControllerRef(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		refs    []meta.OwnerReference
		wantUID string // "" means no controller
	}{
		{"no owners", nil, ""},
		{"owner without controller field", []meta.OwnerReference{{UID: "a"}}, ""},
		{"owner with controller false", []meta.OwnerReference{{UID: "a", Controller: boolPtr(false)}}, ""},
		{"controller owner", []meta.OwnerReference{{UID: "a", Controller: boolPtr(true)}}, "a"},
		{"controller after a plain owner", []meta.OwnerReference{{UID: "a"}, {UID: "b", Controller: boolPtr(true)}}, "b"},
		{"first of two controllers", []meta.OwnerReference{{UID: "a", Controller: boolPtr(true)}, {UID: "b", Controller: boolPtr(true)}}, "a"},
	}
	for _, tc := range tests {
		m := meta.ObjectMeta{OwnerReferences: tc.refs}
		ref := m.ControllerRef()
		switch {
		case tc.wantUID == "" && ref != nil:
			t.Errorf("ControllerRef(%s) = %+v; want nil", tc.name, ref)
		case tc.wantUID != "" && (ref == nil || ref.UID != tc.wantUID):
			t.Errorf("ControllerRef(%s) = %+v; want UID %q", tc.name, ref, tc.wantUID)
		}
		if tc.wantUID != "" && ref != &m.OwnerReferences[indexOf(tc.refs, tc.wantUID)] {
			t.Errorf("ControllerRef(%s) does not point into the object's references", tc.name)
		}
		if got := m.IsControlledBy(tc.wantUID); got != (tc.wantUID != "") {
			t.Errorf("IsControlledBy(%s, %q) = %v; want %v", tc.name, tc.wantUID, got, tc.wantUID != "")
		}
		if m.IsControlledBy("other") {
			t.Errorf("IsControlledBy(%s, other) = true; want false", tc.name)
		}
	}
}

func indexOf(refs []meta.OwnerReference, uid string) int {
	for i, r := range refs {
		if r.UID == uid {
			return i
		}
	}
	return -1
}

func TestIsController(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ref  meta.OwnerReference
		want bool
	}{
		{meta.OwnerReference{}, false},
		{meta.OwnerReference{Controller: boolPtr(false)}, false},
		{meta.OwnerReference{Controller: boolPtr(true)}, true},
	}
	for _, tc := range tests {
		if got := tc.ref.IsController(); got != tc.want {
			t.Errorf("IsController(%v) = %v; want %v", tc.ref.Controller, got, tc.want)
		}
	}
}

func TestIsDeleting(t *testing.T) {
	t.Parallel()
	ts := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	if (&meta.ObjectMeta{}).IsDeleting() {
		t.Errorf("IsDeleting(no timestamp) = true; want false")
	}
	if !(&meta.ObjectMeta{DeletionTimestamp: &ts}).IsDeleting() {
		t.Errorf("IsDeleting(timestamp) = false; want true")
	}
}

func TestObjectMetaJSON(t *testing.T) {
	t.Parallel()
	in := `{"name":"web-0","namespace":"default","uid":"u1","creationTimestamp":"2025-01-01T00:00:00Z",` +
		`"labels":{"app":"web"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet","name":"web","uid":"s1","controller":true}]}`
	var m meta.ObjectMeta
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	if !m.IsControlledBy("s1") || m.Labels["app"] != "web" || m.CreationTimestamp.IsZero() {
		t.Errorf("Unmarshal(%s) = %+v", in, m)
	}
	out, err := json.Marshal(m)
	if err != nil || string(out) != in {
		t.Errorf("Marshal = %s, %v; want %s", out, err, in)
	}
}

func TestMergeAndRemoveOwnerRef(t *testing.T) {
	t.Parallel()
	owner := meta.NewControllerRef("apps/v1", "ReplicaSet", "web", "u-web")
	other := meta.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "cm", UID: "u-cm"}
	stale := meta.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "old-name", UID: "u-web"}

	// An orphan gains the reference, after those it has.
	got := meta.MergeOwnerRef([]meta.OwnerReference{other}, owner)
	if len(got) != 2 || got[0].UID != "u-cm" || got[1].UID != "u-web" || !got[1].IsController() {
		t.Errorf("merge into an orphan: %+v", got)
	}
	// A reference with the same UID is replaced in place (merge key uid).
	got = meta.MergeOwnerRef([]meta.OwnerReference{stale, other}, owner)
	if len(got) != 2 || got[0].Name != "web" || !got[0].IsController() || got[1].UID != "u-cm" {
		t.Errorf("merge over the same UID: %+v", got)
	}
	// A release removes every reference to the UID and keeps the others.
	got = meta.RemoveOwnerRef([]meta.OwnerReference{owner, other, stale}, "u-web")
	if len(got) != 1 || got[0].UID != "u-cm" {
		t.Errorf("remove: %+v", got)
	}
	if got := meta.RemoveOwnerRef(nil, "u-web"); len(got) != 0 {
		t.Errorf("remove from none: %+v", got)
	}
}
