package conformance

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/jsontag"
	"github.com/kubesem/kubesem/intstr"
)

// Decision is one decision kubesem answers: its name ("<package>.<Rule>"),
// the Go types its input, options and output are decoded from and encoded
// as, and the function that decides.
type Decision struct {
	Name    string
	Input   reflect.Type
	Options reflect.Type
	Output  reflect.Type
	decide  func(options, input json.RawMessage) (any, error)
}

// Bind binds f as the decision name: the vector's input decodes into In
// (strict about In's own keys; a required key absent or null is a Required
// error at its path, see [requireKeys]), its options strictly into Opt (an unknown
// or misspelt option is an Unsupported error at options.<key>), and f's
// Out is written with the canonical encoder (plan.Encode). A *field.Error
// from decoding or from f becomes the vector's {"error": {...}} answer.
func Bind[In, Opt, Out any](name string, f func(in In, opts Opt) (Out, error)) Decision {
	return Decision{
		Name:    name,
		Input:   reflect.TypeFor[In](),
		Options: reflect.TypeFor[Opt](),
		Output:  reflect.TypeFor[Out](),
		decide: func(options, input json.RawMessage) (any, error) {
			var in In
			var opts Opt
			if err := decodeInput(input, &in); err != nil {
				return nil, err
			}
			if err := decodeStrict(options, &opts); err != nil {
				return nil, field.Under("options", err)
			}
			if err := requireKeys(reflect.TypeFor[In](), input, ""); err != nil {
				return nil, err
			}
			if v, ok := any(&in).(validator); ok {
				if err := v.validate(); err != nil {
					return nil, inputPath(reflect.TypeFor[In](), err)
				}
			}
			out, err := f(in, opts)
			return out, inputPath(reflect.TypeFor[In](), err)
		},
	}
}

// validator is an input that checks itself before its decision runs: the
// API-validation rules (from the library) for the fields the decision
// reads, so that input the API server would reject is an error, never a
// number.
type validator interface{ validate() error }

// Registry returns every decision kubesem answers, sorted by name.
func Registry() []Decision {
	var all []Decision
	for _, table := range [][]Decision{
		intstrDecisions(),
		metaDecisions(),
		podstatusDecisions(),
		replicasetDecisions(),
		rolloutDecisions(),
		rolloutstatusDecisions(),
		jobDecisions(),
		cronjobDecisions(),
		statefulsetDecisions(),
		nodeDecisions(),
		daemonsetDecisions(),
		pdbDecisions(),
		podgcDecisions(),
	} {
		all = append(all, table...)
	}
	slices.SortFunc(all, func(a, b Decision) int { return strings.Compare(a.Name, b.Name) })
	return all
}

var (
	durationType = reflect.TypeFor[time.Duration]()
	timeType     = reflect.TypeFor[time.Time]()
	rawType      = reflect.TypeFor[json.RawMessage]()
	intstrType   = reflect.TypeFor[intstr.Value]()
)

// Shape describes the JSON a Go type reads or writes, for `kubesem
// decisions -v`: objects as {"field": shape, ...} ("?" marks a field that
// may be omitted; a request's own key without it is required, and decide
// refuses a request without it: see [requireKeys]), arrays as [shape], maps as {string: shape}, and the
// leaves int32, int64, number, string, bool, duration ("1m30s"), time (RFC
// 3339), int|"N%" and any. A type met again inside itself prints by name.
func Shape(t reflect.Type) string {
	if t == nil {
		return "?"
	}
	var b strings.Builder
	shape(&b, t, map[reflect.Type]bool{})
	return b.String()
}

func shape(b *strings.Builder, t reflect.Type, seen map[reflect.Type]bool) {
	switch t {
	case durationType:
		b.WriteString("duration")
		return
	case timeType:
		b.WriteString("time")
		return
	case rawType:
		b.WriteString("any")
		return
	case intstrType:
		b.WriteString(`int|"N%"`)
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		shape(b, t.Elem(), seen)
	case reflect.Bool:
		b.WriteString("bool")
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16:
		b.WriteString("int32")
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint32, reflect.Uint64:
		b.WriteString("int64")
	case reflect.Float32, reflect.Float64:
		b.WriteString("number")
	case reflect.String:
		b.WriteString("string")
	case reflect.Interface:
		b.WriteString("any")
	case reflect.Slice, reflect.Array:
		b.WriteByte('[')
		shape(b, t.Elem(), seen)
		b.WriteByte(']')
	case reflect.Map:
		b.WriteString("{string: ")
		shape(b, t.Elem(), seen)
		b.WriteByte('}')
	case reflect.Struct:
		if seen[t] {
			b.WriteString(t.Name())
			return
		}
		seen[t] = true
		defer delete(seen, t)
		b.WriteByte('{')
		shapeFields(b, t, seen)
		b.WriteByte('}')
	default:
		fmt.Fprintf(b, "%s", t)
	}
}

// shapeFields writes struct type t's JSON members (internal/jsontag).
func shapeFields(b *strings.Builder, t reflect.Type, seen map[reflect.Type]bool) {
	for i, f := range jsontag.Fields(t) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`"` + f.Name + `"`)
		if f.Optional() || f.Type.Kind() == reflect.Pointer {
			b.WriteByte('?')
		}
		b.WriteString(": ")
		shape(b, f.Type, seen)
	}
}
