package intstr_test

import (
	"testing"

	kintstr "k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kubesem/kubesem/intstr"
)

// sink keeps BenchmarkScaled's results.
var sink int

// BenchmarkScaled: maxSurge 5 and 25% of 1000 replicas, rounded up.
func BenchmarkScaled(b *testing.B) {
	for _, tc := range []struct {
		name string
		k    intstr.Value
		u    kintstr.IntOrString
	}{
		{"int", intstr.Int(5), kintstr.FromInt32(5)},
		{"percent", intstr.Percent(25), kintstr.FromString("25%")},
	} {
		b.Run(tc.name+"/kubesem", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n, _ := intstr.Scaled(tc.k, 1000, intstr.Up)
				sink = int(n)
			}
		})
		b.Run(tc.name+"/upstream", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink, _ = kintstr.GetScaledValueFromIntOrPercent(&tc.u, 1000, true)
			}
		})
	}
}
