package conformance_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
)

// TestKubesem runs every shipped vector against kubesem itself.
func TestKubesem(t *testing.T) {
	t.Parallel()
	conformance.Run(t, conformance.Kubesem(), conformance.Suite{Vectors: kubesem.Vectors()})
}

// TestNoEmptyWant fails for a shipped vector whose want, or one of whose
// wantOneOf alternatives, is the empty object: it matches every object
// answer, so the vector states nothing (kubesem check --vectors writes
// {} for conformance/upstream to fill from v1.36.3; such a vector is not
// to be committed unfilled).
func TestNoEmptyWant(t *testing.T) {
	t.Parallel()
	vs, err := conformance.Load(kubesem.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	empty := func(raw json.RawMessage) bool {
		var b bytes.Buffer
		return json.Compact(&b, raw) == nil && b.String() == "{}"
	}
	for _, v := range vs {
		if len(v.Want) > 0 && empty(v.Want) {
			t.Errorf("%s %q: want {} states nothing (%s)", v.File, v.Name, v.Source)
		}
		for i, w := range v.WantOneOf {
			if empty(w) {
				t.Errorf("%s %q: wantOneOf[%d] {} states nothing", v.File, v.Name, i)
			}
		}
	}
}
