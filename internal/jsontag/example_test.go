package jsontag_test

import (
	"fmt"
	"reflect"

	"github.com/kubesem/kubesem/internal/jsontag"
)

func ExampleFields() {
	type Meta struct {
		Name string `json:"name"`
	}
	type Object struct {
		Meta
		Replicas *int32 `json:"replicas,omitempty"`
		Note     string `json:"-"`
		Paused   bool
	}
	for _, f := range jsontag.Fields(reflect.TypeFor[Object]()) {
		fmt.Println(f.Name, f.Index, f.Type, f.Optional())
	}
	// Output:
	// name [0 0] string false
	// replicas [1] *int32 true
	// Paused [3] bool false
}
