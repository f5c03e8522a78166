package podstatus

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/meta"

	"pgregory.net/rapid"
)

// referenceEqual is Equal as first written: the semantic comparison of the
// two Comparable forms, unmodelled parts included.
func referenceEqual(a, b *Template) bool {
	ca, cb := a.Comparable(), b.Comparable()
	return deepEqual(reflect.ValueOf(&ca).Elem(), reflect.ValueOf(&cb).Elem())
}

var (
	eqT0    = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	eqTimes = []time.Time{{}, eqT0, eqT0.In(time.FixedZone("X", 3600)), eqT0.Add(time.Second)}
)

// fillValue sets v (settable) to a small random value of its type: few
// distinct values, so that two draws are often equal; nil and empty
// slices and maps both, or (dense) every pointer set and every slice and
// map holding one or two elements; every exported field of every struct,
// so that a field added to the model is compared by this property too.
func fillValue(t *rapid.T, v reflect.Value, path string, depth int, dense bool) {
	if v.Type() == timeT {
		v.Set(reflect.ValueOf(rapid.SampledFrom(eqTimes).Draw(t, path)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(rapid.SampledFrom([]string{"", "a", "b", "Always", "OnFailure"}).Draw(t, path))
	case reflect.Bool:
		v.SetBool(rapid.Bool().Draw(t, path))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(rapid.SampledFrom([]int64{0, 1, 30}).Draw(t, path))
	case reflect.Pointer:
		if depth > 16 || (!dense && rapid.IntRange(0, 2).Draw(t, path+"?") == 0) {
			return
		}
		p := reflect.New(v.Type().Elem())
		fillValue(t, p.Elem(), path+"*", depth+1, dense)
		v.Set(p)
	case reflect.Slice:
		lo := -1
		if dense {
			lo = 1
		}
		switch n := rapid.IntRange(lo, 2).Draw(t, path+"#"); {
		case n < 0 || depth > 16:
		default:
			s := reflect.MakeSlice(v.Type(), n, n)
			for i := range n {
				fillValue(t, s.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1, dense)
			}
			v.Set(s)
		}
	case reflect.Map:
		lo := -1
		if dense {
			lo = 1
		}
		switch n := rapid.IntRange(lo, 2).Draw(t, path+"#"); {
		case n < 0 || depth > 16:
		default:
			m := reflect.MakeMap(v.Type())
			for i := range n {
				k := reflect.New(v.Type().Key()).Elem()
				fillValue(t, k, fmt.Sprintf("%s.key%d", path, i), depth+1, dense)
				e := reflect.New(v.Type().Elem()).Elem()
				fillValue(t, e, fmt.Sprintf("%s.val%d", path, i), depth+1, dense)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				fillValue(t, v.Field(i), path+"."+f.Name, depth+1, dense)
			}
		}
	}
}

// unmodelledParts are template JSON with fields kubesem does not model,
// some spelt differently but decoded alike.
var unmodelledParts = []string{
	``,
	`"dnsPolicy":"ClusterFirst"`,
	`"dnsPolicy":"Default"`,
	`"schedulerName":"default-scheduler"`,
	`"securityContext":{}`,
	`"enableServiceLinks":true`,
}

// finishTemplate returns tpl built in Go, or its JSON with an unmodelled
// field decoded.
func finishTemplate(t *rapid.T, tpl Template, label string) Template {
	extra := rapid.SampledFrom(unmodelledParts).Draw(t, label+".unmodelled")
	if !rapid.Bool().Draw(t, label+".decoded") {
		return tpl
	}
	b, err := json.Marshal(tpl)
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]any
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	if extra != "" {
		var x map[string]any
		if err := json.Unmarshal([]byte("{"+extra+"}"), &x); err != nil {
			t.Fatal(err)
		}
		spec, _ := all["spec"].(map[string]any)
		if spec == nil {
			spec = map[string]any{}
			all["spec"] = spec
		}
		for k, v := range x {
			spec[k] = v
		}
	}
	b, _ = json.Marshal(all)
	var out Template
	if err := json.Unmarshal(b, &out); err != nil {
		t.Skip(err) // a value the API would refuse
	}
	return out
}

// TestEqualMatchesComparable: Equal (field by field, the unmodelled part
// skipped for two Go-built templates) answers as the semantic comparison
// of the two Comparable forms, on random pairs — the second often the
// first rewritten in an equal spelling (nil and empty, another zone, a
// default written out) or changed in one field, each built in Go or
// decoded with an unmodelled field of its own.
func TestEqualMatchesComparable(t *testing.T) {
	t.Parallel()
	t.Run("any", func(t *testing.T) { checkEqual(t, -1) })
	// Each field changed on purpose, so that every one (a field added to
	// the model too) is compared by this property.
	n := reflect.TypeFor[meta.ObjectMeta]().NumField() + reflect.TypeFor[Spec]().NumField()
	for f := range n {
		t.Run(fmt.Sprint("field", f), func(t *testing.T) { checkEqual(t, f) })
	}
}

// checkEqual checks Equal against referenceEqual; field >= 0 changes that
// field of the second template (ObjectMeta's, then Spec's, by index).
func checkEqual(t *testing.T, field int) {
	rapid.Check(t, func(t *rapid.T) {
		var a0 Template
		fillValue(t, reflect.ValueOf(&a0).Elem(), "a", 0, field >= 0)
		var b0 Template
		pair := 1
		if field < 0 {
			pair = rapid.IntRange(0, 3).Draw(t, "pair")
		}
		switch pair {
		case 0:
			fillValue(t, reflect.ValueOf(&b0).Elem(), "b", 0, false)
		default:
			b0 = deepcopy.Copy(a0)
			if b0.Spec.RestartPolicy == "" && rapid.Bool().Draw(t, "spell restartPolicy") {
				b0.Spec.RestartPolicy = RestartAlways
			}
			if b0.Spec.TerminationGracePeriodSeconds == nil && rapid.Bool().Draw(t, "spell grace") {
				g := int64(30)
				b0.Spec.TerminationGracePeriodSeconds = &g
			}
			if len(b0.Spec.Tolerations) == 0 && rapid.Bool().Draw(t, "empty tolerations") {
				b0.Spec.Tolerations = []Toleration{}
			}
			if rapid.Bool().Draw(t, "zone") {
				b0.CreationTimestamp = b0.CreationTimestamp.In(time.FixedZone("Y", -7200))
			}
			metaFields := reflect.TypeFor[meta.ObjectMeta]().NumField()
			var f reflect.Value
			switch {
			case field >= metaFields:
				f = reflect.ValueOf(&b0.Spec).Elem().Field(field - metaFields)
			case field >= 0:
				f = reflect.ValueOf(&b0.ObjectMeta).Elem().Field(field)
			}
			if f.IsValid() {
				var leaves []reflect.Value
				collectLeaves(f, &leaves)
				mutateLeaf(t, leaves[rapid.IntRange(0, len(leaves)-1).Draw(t, "leaf")])
			}
		}
		a, b := finishTemplate(t, a0, "a"), finishTemplate(t, b0, "b")
		if got, want := Equal(&a, &b), referenceEqual(&a, &b); got != want {
			t.Fatalf("Equal = %v, comparison of Comparable forms = %v\na: %+v\nb: %+v", got, want, a, b)
		}
		if got, want := Equal(&b, &a), referenceEqual(&b, &a); got != want {
			t.Fatalf("Equal(b, a) = %v, want %v", got, want)
		}
	})
}

// collectLeaves appends the places of v one change can be made at: its
// scalars, times, nil pointers, slices and maps (to be set), set pointers,
// slices and maps (to be emptied), and the leaves within them.
func collectLeaves(v reflect.Value, out *[]reflect.Value) {
	*out = append(*out, v)
	if v.Type() == timeT {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			collectLeaves(v.Elem(), out)
		}
	case reflect.Slice:
		for i := range v.Len() {
			collectLeaves(v.Index(i), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				collectLeaves(v.Field(i), out)
			}
		}
	}
}

// mutateLeaf changes v: another scalar or instant, a nil made set, a set
// pointer, slice or map made nil (or a map given a key).
func mutateLeaf(t *rapid.T, v reflect.Value) {
	if v.Type() == timeT {
		v.Set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Second)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		} else {
			v.SetZero()
		}
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
		} else {
			v.Set(v.Slice(0, v.Len()-1))
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for it := v.MapRange(); it.Next(); {
			m.SetMapIndex(it.Key(), it.Value())
		}
		k := reflect.New(v.Type().Key()).Elem()
		k.SetString(fmt.Sprint("k", v.Len()))
		m.SetMapIndex(k, reflect.New(v.Type().Elem()).Elem())
		v.Set(m)
	case reflect.Struct:
		// A struct value has no change of its own: one of its fields.
		var leaves []reflect.Value
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				collectLeaves(v.Field(i), &leaves)
			}
		}
		if len(leaves) > 0 {
			mutateLeaf(t, leaves[rapid.IntRange(0, len(leaves)-1).Draw(t, "inner leaf")])
		}
	}
}
