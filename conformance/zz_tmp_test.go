package conformance_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/plan"
)

func TestTmpList(t *testing.T) {
	for _, d := range conformance.Registry() {
		o := d.Output
		emb := ""
		if o.Kind() == reflect.Struct {
			for i := range o.NumField() {
				if o.Field(i).Anonymous {
					emb += o.Field(i).Type.String() + " "
				}
			}
		}
		b, err := plan.Encode(reflect.New(o).Elem().Interface())
		fmt.Println(d.Name, o.String(), "emb:", emb, string(b), err)
	}
}
