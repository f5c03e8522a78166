package daemonset_test

import (
	"encoding/json"
	"testing"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
)

// A ControllerRevision as the API server returns it stands for its
// controller-revision-hash label, or its name when unlabelled; an empty
// label is the empty hash.
func TestRevisionHash(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in         string
		name, want string
	}{
		{`{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"agent-6c8d7b9f4","labels":{"controller-revision-hash":"6c8d7b9f4"}},"revision":2}`,
			"agent-6c8d7b9f4", "6c8d7b9f4"},
		{`{"metadata":{"name":"agent-old"},"revision":1}`, "agent-old", "agent-old"},
		{`{"metadata":{"name":"agent-e","labels":{"controller-revision-hash":""}},"revision":1}`, "agent-e", ""},
	} {
		var r history.ControllerRevision
		if err := json.Unmarshal([]byte(c.in), &r); err != nil || r.Name != c.name {
			t.Fatalf("%s: %+v, %v", c.in, r, err)
		}
		if got := daemonset.RevisionHash(&r); got != c.want {
			t.Errorf("%s: RevisionHash = %q; want %q", c.in, got, c.want)
		}
	}
}
