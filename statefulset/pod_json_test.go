package statefulset_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubesem/kubesem/statefulset"
)

// A Pod as the API server returns it keeps its claim volumes; kubesem's own
// flattened "volumes" list still decodes as before.
func TestPodJSONVolumes(t *testing.T) {
	t.Parallel()
	api := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0","namespace":"default"},
	  "spec":{"containers":[{"name":"nginx","image":"nginx"}],
	    "volumes":[{"name":"www","persistentVolumeClaim":{"claimName":"www-web-0"}},{"name":"kube-api-access-x","projected":{"sources":[]}}]},
	  "status":{"phase":"Running"}}`
	var p statefulset.Pod
	if err := json.Unmarshal([]byte(api), &p); err != nil {
		t.Fatal(err)
	}
	want := []statefulset.Volume{{Name: "www", ClaimName: "www-web-0"}, {Name: "kube-api-access-x"}}
	if diff := cmp.Diff(want, p.Volumes); diff != "" || p.Name != "web-0" || p.Status.Phase != "Running" || len(p.Spec.Containers) != 1 {
		t.Errorf("API pod: volumes (-want +got):\n%s\npod %+v", diff, p.Pod)
	}
	var q statefulset.Pod
	if err := json.Unmarshal([]byte(`{"metadata":{"name":"web-1"},"volumes":[{"name":"www","claimName":"www-web-1"}]}`), &q); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]statefulset.Volume{{Name: "www", ClaimName: "www-web-1"}}, q.Volumes); diff != "" {
		t.Errorf("kubesem form (-want +got):\n%s", diff)
	}
	if err := json.Unmarshal([]byte(`{"spec":{"volumes":"x"}}`), &q); err == nil {
		t.Error("malformed spec.volumes decoded without error")
	}
}
