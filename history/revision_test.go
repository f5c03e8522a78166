package history_test

import (
	"encoding/json"
	"testing"

	"github.com/kubesem/kubesem/history"
)

// A ControllerRevision as the API server returns it keeps its name, labels,
// creation time and revision; its data is not read.
func TestControllerRevisionJSON(t *testing.T) {
	t.Parallel()
	var r history.ControllerRevision
	api := `{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"web-5d8b7f9c6","creationTimestamp":"2026-01-01T00:00:00Z",
	  "labels":{"controller.kubernetes.io/hash":"5d8b7f9c6"}},"data":{"spec":{"template":{"$patch":"replace"}}},"revision":3}`
	if err := json.Unmarshal([]byte(api), &r); err != nil {
		t.Fatal(err)
	}
	if r.Name != "web-5d8b7f9c6" || r.Revision != 3 || r.CreationTimestamp.IsZero() || r.Labels["controller.kubernetes.io/hash"] != "5d8b7f9c6" {
		t.Errorf("API revision: %+v", r)
	}
	var flat history.ControllerRevision
	if err := json.Unmarshal([]byte(`{"name":"web-v1","revision":1}`), &flat); err != nil || flat.Name != "" || flat.Revision != 1 {
		t.Errorf("a flattened name must not be read: %+v, %v", flat, err)
	}
}
