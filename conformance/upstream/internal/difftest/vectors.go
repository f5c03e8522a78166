package difftest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FoundationVector is a conformance vector as stored in testdata.
type FoundationVector struct {
	Decision  string          `json:"decision"`
	Options   json.RawMessage `json:"options"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Want      json.RawMessage `json:"want"`
	WantError *struct {
		Field string `json:"field"`
		Kind  string `json:"kind"`
	} `json:"wantError"`
}

// FoundationVectors reads testdata/<pkg>/*.json.
func FoundationVectors(t *testing.T, pkg string) []FoundationVector {
	t.Helper()
	files, err := filepath.Glob(Repo("testdata", pkg, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors for %s: %v", pkg, err)
	}
	var all []FoundationVector
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var vs []FoundationVector
		DecodeJSON(t, b, &vs)
		all = append(all, vs...)
	}
	return all
}

// DecodeJSON unmarshals raw into v, failing t on an error.
func DecodeJSON(t *testing.T, raw []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("decoding %s: %v", raw, err)
	}
}
