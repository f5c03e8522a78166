package statefulset_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/statefulset"
)

// A Pod as the API server returns it keeps its claim volumes; the former
// flattened top-level "volumes" list is not read.
func TestPodJSONVolumes(t *testing.T) {
	t.Parallel()
	api := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0","namespace":"default"},
	  "spec":{"containers":[{"name":"nginx","image":"nginx"}],
	    "volumes":[{"name":"www","persistentVolumeClaim":{"claimName":"www-web-0"}},{"name":"kube-api-access-x","projected":{"sources":[]}}]},
	  "status":{"phase":"Running"}}`
	var p podstatus.Pod
	if err := json.Unmarshal([]byte(api), &p); err != nil {
		t.Fatal(err)
	}
	want := []podstatus.Volume{{Name: "www", PersistentVolumeClaim: &podstatus.PersistentVolumeClaimVolumeSource{ClaimName: "www-web-0"}}, {Name: "kube-api-access-x"}}
	if diff := cmp.Diff(want, p.Spec.Volumes); diff != "" || p.Name != "web-0" || p.Status.Phase != "Running" || len(p.Spec.Containers) != 1 {
		t.Errorf("API pod: volumes (-want +got):\n%s\npod %+v", diff, p)
	}
	if got := p.Spec.Volumes[0].ClaimName(); got != "www-web-0" {
		t.Errorf("ClaimName() = %q", got)
	}
	if got := p.Spec.Volumes[1].ClaimName(); got != "" {
		t.Errorf("ClaimName() of a projected volume = %q", got)
	}
	var q podstatus.Pod
	if err := json.Unmarshal([]byte(`{"metadata":{"name":"web-1"},"volumes":[{"name":"www","claimName":"www-web-1"}]}`), &q); err != nil {
		t.Fatal(err)
	}
	if len(q.Spec.Volumes) != 0 {
		t.Errorf("flat volumes read: %+v", q.Spec.Volumes)
	}
	if err := json.Unmarshal([]byte(`{"spec":{"volumes":"x"}}`), &q); err == nil {
		t.Error("malformed spec.volumes decoded without error")
	}
}

// A PersistentVolumeClaim as the API server returns it keeps its name, UID,
// deletion timestamp and owners; the former flat form is not read.
func TestClaimJSON(t *testing.T) {
	t.Parallel()
	var c statefulset.Claim
	api := `{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"www-web-0","uid":"u1","deletionTimestamp":"2026-01-01T00:00:00Z",
	  "ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet","name":"web","uid":"s"}]},"spec":{"accessModes":["ReadWriteOnce"]},"status":{"phase":"Bound"}}`
	if err := json.Unmarshal([]byte(api), &c); err != nil {
		t.Fatal(err)
	}
	if c.Name != "www-web-0" || c.UID != "u1" || c.DeletionTimestamp == nil || len(c.OwnerReferences) != 1 || c.OwnerReferences[0].Name != "web" {
		t.Errorf("API claim: %+v", c)
	}
	var f statefulset.Claim
	if err := json.Unmarshal([]byte(`{"name":"www-web-1","uid":"u2"}`), &f); err != nil || f.Name != "" || f.UID != "" {
		t.Errorf("flat claim read: %+v, %v", f, err)
	}
}
