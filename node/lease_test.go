package node_test

import (
	"encoding/json"
	"testing"

	"github.com/kubesem/kubesem/node"
)

// A Lease as the API server returns it gives its name and renew time; the
// former flat form is not read.
func TestLeaseJSON(t *testing.T) {
	t.Parallel()
	var l node.Lease
	api := `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"node-1","namespace":"kube-node-lease"},
	  "spec":{"holderIdentity":"node-1","leaseDurationSeconds":40,"renewTime":"2026-11-23T11:59:50.123456Z"}}`
	if err := json.Unmarshal([]byte(api), &l); err != nil {
		t.Fatal(err)
	}
	if l.Name != "node-1" || l.Spec.RenewTime == nil || l.Spec.RenewTime.Nanosecond() != 123456000 {
		t.Errorf("API lease: %+v", l)
	}
	var f node.Lease
	if err := json.Unmarshal([]byte(`{"name":"node-2","renewTime":"2026-11-23T12:00:00Z"}`), &f); err != nil || f.Name != "" || f.Spec.RenewTime != nil {
		t.Errorf("flat lease read: %+v, %v", f, err)
	}
}
