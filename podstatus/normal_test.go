package podstatus_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kubesem/kubesem/podstatus"
)

func decodeTemplate(t *testing.T, s string) podstatus.Template {
	t.Helper()
	var tpl podstatus.Template
	if err := json.Unmarshal([]byte(s), &tpl); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return tpl
}

// TestComparableReadsAsTheAPIServer: the spellings issue 21 names (and a
// few more) compare as v1.36.3 decodes and defaults them, and real changes
// still differ; the template as written (MarshalJSON) is untouched.
func TestComparableReadsAsTheAPIServer(t *testing.T) {
	t.Parallel()
	c := func(fields string) string {
		return `{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.25"` + fields + `}]}}`
	}
	tests := []struct {
		a, b string
		same bool
	}{
		{c(``), c(`,"resources":{}`), true},
		{c(``), c(`,"env":[]`), true},
		{c(`,"env":null`), c(`,"env":[]`), true},
		{c(`,"resources":{"requests":{"cpu":"0.5"}}`), c(`,"resources":{"requests":{"cpu":"500m"}}`), true},
		{c(`,"resources":{"requests":{"cpu":0.5}}`), c(`,"resources":{"requests":{"cpu":"500m"}}`), true},
		{c(`,"resources":{"limits":{"memory":"1Gi"}}`), c(`,"resources":{"limits":{"memory":"1073741824"}}`), true},
		{c(`,"resources":{"limits":{"cpu":"0.0001"}}`), c(`,"resources":{"limits":{"cpu":"1m"}}`), true},
		{c(`,"resources":{"requests":{"cpu":"0.5"}}`), c(`,"resources":{"requests":{"cpu":"600m"}}`), false},
		{c(`,"ports":[{"containerPort":80}]`), c(`,"ports":[{"containerPort":80,"protocol":"TCP","hostPort":0}]`), true},
		{c(``), c(`,"imagePullPolicy":"IfNotPresent","terminationMessagePath":"/dev/termination-log"`), true},
		{c(``), c(`,"imagePullPolicy":"Always"`), false},
		{c(``), c(`,"securityContext":{}`), false},
		{c(`,"env":[{"name":"A","value":"x"}]`), c(`,"env":[{"name":"A","value":"y"}]`), false},
		{c(`,"env":[{"name":"A"}]`), c(`,"env":[{"name":"A","value":""}]`), true},
		{c(`,"env":[{"name":"A"}]`), c(``), false},
		{c(`,"ports":[{"containerPort":8080}]`), c(`,"ports":[{"containerPort":"8080"}]`), false},
	}
	for _, tc := range tests {
		a, b := decodeTemplate(t, tc.a), decodeTemplate(t, tc.b)
		ca, cb := a.Comparable(), b.Comparable()
		if got := reflect.DeepEqual(ca, cb); got != tc.same {
			t.Errorf("Comparable: same(%s, %s) = %v; want %v", tc.a, tc.b, got, tc.same)
		}
		if got := podstatus.Equal(&a, &b); got != tc.same {
			t.Errorf("Equal(%s, %s) = %v; want %v", tc.a, tc.b, got, tc.same)
		}
	}
	// The template is written back as it was given.
	in := c(`,"resources":{"requests":{"cpu":"0.5"}},"env":[]`)
	tpl := decodeTemplate(t, in)
	out, err := json.Marshal(tpl)
	if err != nil {
		t.Fatal(err)
	}
	var x, y any
	json.Unmarshal([]byte(in), &x)
	json.Unmarshal(out, &y)
	if !reflect.DeepEqual(x, y) {
		t.Errorf("MarshalJSON = %s; want %s", out, in)
	}
}

// TestComparableGoBuilt: a template built in Go compares equal to its own
// JSON decoded (both are defaulted the same way).
func TestComparableGoBuilt(t *testing.T) {
	t.Parallel()
	var built podstatus.Template
	built.Labels = map[string]string{"app": "web"}
	built.Spec.Containers = []podstatus.Container{{Name: "web", Image: "nginx"}}
	b, err := json.Marshal(built)
	if err != nil {
		t.Fatal(err)
	}
	decoded := decodeTemplate(t, string(b))
	built.Spec.Tolerations = []podstatus.Toleration{} // empty, not nil: the same template
	if !podstatus.Equal(&built, &decoded) {
		t.Errorf("a Go-built template and its JSON are not Equal")
	}
	built.Spec.Tolerations = nil
	if !reflect.DeepEqual(built.Comparable(), decoded.Comparable()) {
		t.Errorf("a Go-built template and its JSON compare different:\n%+v\n%+v", built.Comparable(), decoded.Comparable())
	}
}
