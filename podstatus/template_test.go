package podstatus_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kubesem/kubesem/podstatus"
)

const fullTemplate = `{"metadata":{"labels":{"app":"web"},"annotations":{"a":"b"}},"spec":{"containers":[{"name":"web","image":"web:1","env":[{"name":"MODE","value":"fast"}],"resources":{"limits":{"memory":"1Gi"}}}],"volumes":[{"name":"data","emptyDir":{}}],"futureField":{"x":1}}}`

// TestTemplateKeepsUnmodelled: a template decoded from JSON writes back
// every field it had, with the modelled fields as they are now.
func TestTemplateKeepsUnmodelled(t *testing.T) {
	t.Parallel()
	var tm podstatus.Template
	if err := json.Unmarshal([]byte(fullTemplate), &tm); err != nil {
		t.Fatal(err)
	}
	if !tm.HasUnmodelled() {
		t.Fatal("HasUnmodelled = false; want true")
	}
	tm.Spec.Containers[0].Image = "web:2"
	tm.Labels["pod-template-hash"] = "h"
	b, err := json.Marshal(tm)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"image":"web:2"`, `"pod-template-hash":"h"`, `"MODE"`, `"memory":"1Gi"`, `"emptyDir":{}`, `"futureField":{"x":1}`, `"annotations":{"a":"b"}`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("MarshalJSON = %s; want it to contain %s", b, want)
		}
	}
	if strings.Contains(string(b), "web:1") {
		t.Errorf("MarshalJSON = %s; the old image must not survive", b)
	}
	var again podstatus.Template
	if err := json.Unmarshal(b, &again); err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(again)
	if string(b2) != string(b) {
		t.Errorf("round trip changed the template:\n%s\n%s", b, b2)
	}
}

// TestTemplateModelledOnly: a template with only modelled fields has no
// unmodelled part, whether built in Go or decoded.
func TestTemplateModelledOnly(t *testing.T) {
	t.Parallel()
	var tm podstatus.Template
	if err := json.Unmarshal([]byte(`{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"web:1"}],"restartPolicy":"Always"}}`), &tm); err != nil {
		t.Fatal(err)
	}
	if tm.HasUnmodelled() {
		b, _ := json.Marshal(tm)
		t.Errorf("HasUnmodelled = true for %s; want false", b)
	}
}

// TestTemplateKeepsLargeIntegers: integers beyond float64's exact range,
// modelled (terminationGracePeriodSeconds) or not, are written back as
// they were decoded.
func TestTemplateKeepsLargeIntegers(t *testing.T) {
	t.Parallel()
	const in = `{"metadata":{},"spec":{"terminationGracePeriodSeconds":9223372036854775807,"future":9007199254740993}}`
	var tm podstatus.Template
	if err := json.Unmarshal([]byte(in), &tm); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(tm)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"terminationGracePeriodSeconds":9223372036854775807`, `"future":9007199254740993`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("MarshalJSON = %s; want it to hold %s", b, want)
		}
	}
}
