package pdb_test

import (
	"encoding/json"
	"testing"

	"github.com/kubesem/kubesem/pdb"
)

// A Deployment or ReplicaSet as the API server returns it is a Controller:
// name, UID, its own controller reference and spec.replicas; the former
// flat form is not read.
func TestControllerJSON(t *testing.T) {
	t.Parallel()
	var c pdb.Controller
	api := `{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"web-59b5d5558c","uid":"rs-uid",
	  "ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"x","uid":"x"},{"apiVersion":"apps/v1","kind":"Deployment","name":"web","uid":"d-uid","controller":true}]},
	  "spec":{"replicas":3,"selector":{}},"status":{"replicas":3}}`
	if err := json.Unmarshal([]byte(api), &c); err != nil {
		t.Fatal(err)
	}
	if c.Kind != "ReplicaSet" || c.Name != "web-59b5d5558c" || c.UID != "rs-uid" || c.ControllerRef() == nil || c.ControllerRef().Name != "web" || c.Spec.Replicas == nil || *c.Spec.Replicas != 3 {
		t.Errorf("API controller: %+v", c)
	}
	var f pdb.Controller
	if err := json.Unmarshal([]byte(`{"apiVersion":"apps/v1","kind":"StatefulSet","name":"db","uid":"u","replicas":2}`), &f); err != nil || f.Name != "" || f.Spec.Replicas != nil {
		t.Errorf("flat controller read: %+v, %v", f, err)
	}
}
