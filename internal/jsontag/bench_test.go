package jsontag_test

import (
	"reflect"
	"testing"

	"github.com/kubesem/kubesem/internal/jsontag"
)

// benchType is shaped like an API object: metadata embedded, a spec and a
// status, some members optional.
type benchType struct {
	benchMeta `json:"metadata"`
	Spec      struct {
		Replicas *int32 `json:"replicas,omitempty"`
		Paused   bool   `json:"paused,omitempty"`
		Selector map[string]string
	} `json:"spec"`
	Status struct {
		Replicas      int32 `json:"replicas"`
		ReadyReplicas int32 `json:"readyReplicas,omitzero"`
	} `json:"status"`
	Inner
}

type benchMeta struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels,omitempty"`
}

// BenchmarkFields is the cached path every walk takes: no allocation.
func BenchmarkFields(b *testing.B) {
	t := reflect.TypeFor[benchType]()
	b.ReportAllocs()
	for b.Loop() {
		_ = jsontag.Fields(t)
	}
}

// BenchmarkResolve is the first walk of a type, before the cache has it.
func BenchmarkResolve(b *testing.B) {
	t := reflect.TypeFor[benchType]()
	b.ReportAllocs()
	for b.Loop() {
		_ = jsontag.Resolve(t)
	}
}

// BenchmarkValue reads a member inside an embedded struct.
func BenchmarkValue(b *testing.B) {
	fields := jsontag.Fields(reflect.TypeFor[benchType]())
	f := &fields[len(fields)-1]
	v := reflect.ValueOf(benchType{})
	b.ReportAllocs()
	for b.Loop() {
		_, _ = f.Value(v)
	}
}
