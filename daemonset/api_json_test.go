package daemonset_test

import (
	"encoding/json"
	"testing"

	"github.com/kubesem/kubesem/daemonset"
)

// A ControllerRevision as the API server returns it gives its name, number
// and hash label (its name when unlabelled); the flat form still decodes.
func TestRevisionJSON(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want daemonset.Revision
	}{
		{`{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"agent-6c8d7b9f4","labels":{"controller-revision-hash":"6c8d7b9f4"}},"revision":2}`,
			daemonset.Revision{Name: "agent-6c8d7b9f4", Revision: 2, Hash: "6c8d7b9f4"}},
		{`{"metadata":{"name":"agent-old"},"revision":1}`, daemonset.Revision{Name: "agent-old", Revision: 1, Hash: "agent-old"}},
		{`{"name":"agent-v1","revision":1,"hash":"v1"}`, daemonset.Revision{Name: "agent-v1", Revision: 1, Hash: "v1"}},
	} {
		var r daemonset.Revision
		if err := json.Unmarshal([]byte(c.in), &r); err != nil || r != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.in, r, err, c.want)
		}
	}
}
