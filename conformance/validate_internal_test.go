package conformance

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/rolloutstatus"
)

// TestInputsValidate: every decision whose input holds an API object kubesem
// validates (a Deployment, ReplicaSet, Job or rollout-status view) checks it
// before the rule runs, so that input the API server rejects is an error,
// never a number. Step decisions validate inside the library.
func TestInputsValidate(t *testing.T) {
	apiTypes := map[reflect.Type]bool{
		reflect.TypeFor[rollout.Deployment]():            true,
		reflect.TypeFor[replicaset.ReplicaSet]():         true,
		reflect.TypeFor[job.Job]():                       true,
		reflect.TypeFor[rolloutstatus.StatefulSetView](): true,
		reflect.TypeFor[rolloutstatus.DaemonSetView]():   true,
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
		// cronjob's inputs are checked by the cronjob rules themselves.
		if strings.HasSuffix(d.Name, ".Step") || strings.HasPrefix(d.Name, "cronjob.") || d.Input.Kind() != reflect.Struct || !holds(d.Input) {
			continue
		}
		if !reflect.PointerTo(d.Input).Implements(vt) {
			t.Errorf("%s: input %v holds an API object but does not validate it", d.Name, d.Input)
		}
	}
}
