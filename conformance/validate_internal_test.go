package conformance

import (
	"reflect"
	"strings"
	"testing"

	root "github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// TestInputsValidate: every decision whose input holds an API object kubesem
// validates (a Deployment, ReplicaSet, Job, CronJob, StatefulSet, DaemonSet
// or PodDisruptionBudget) checks it before the rule runs, so that input the
// API server rejects is an error, never a number. Step decisions validate
// inside the library, and validation decisions (Validate, ValidateCreate)
// are the check itself.
func TestInputsValidate(t *testing.T) {
	apiTypes := map[reflect.Type]bool{
		reflect.TypeFor[rollout.Deployment]():      true,
		reflect.TypeFor[replicaset.ReplicaSet]():   true,
		reflect.TypeFor[job.Job]():                 true,
		reflect.TypeFor[statefulset.StatefulSet](): true,
		reflect.TypeFor[daemonset.DaemonSet]():     true,
		reflect.TypeFor[cronjob.CronJob]():         true,
		reflect.TypeFor[pdb.PodDisruptionBudget](): true,
	}
	holds := func(in reflect.Type) bool {
		for i := range in.NumField() {
			ft := in.Field(i).Type
			for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
				ft = ft.Elem()
			}
			if apiTypes[ft] {
				return true
			}
		}
		return false
	}
	vt := reflect.TypeFor[validator]()
	for _, d := range Registry() {
		if strings.HasSuffix(d.Name, ".Step") || strings.HasSuffix(d.Name, ".Validate") || strings.HasSuffix(d.Name, ".ValidateCreate") || d.Input.Kind() != reflect.Struct || !holds(d.Input) {
			continue
		}
		if !reflect.PointerTo(d.Input).Implements(vt) {
			t.Errorf("%s: input %v holds an API object but does not validate it", d.Name, d.Input)
		}
	}
}

// TestErrorPathsFromInput: every vector's wantError names its field from
// the top of the decision's input ("deployment.spec.replicas", not
// "spec.replicas"), so that the CLI can print input.<field>, or names an
// option (options.<key>).
func TestErrorPathsFromInput(t *testing.T) {
	vs, err := Load(root.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Decision{}
	for _, d := range Registry() {
		byName[d.Name] = d
	}
	for _, v := range vs {
		if v.WantError == nil || v.WantError.Field == "" {
			continue
		}
		d := byName[v.Decision]
		first := v.WantError.Field
		if i := strings.IndexAny(first, ".["); i >= 0 {
			first = first[:i]
		}
		if _, ok := jsonKeys(d.Input)[first]; !ok && first != "options" && d.Input.Kind() == reflect.Struct {
			t.Errorf("%s/%s: error field %q does not start with an input key of %v", v.Package, v.Name, v.WantError.Field, d.Input)
		}
	}
}
