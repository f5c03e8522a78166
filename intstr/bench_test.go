package intstr_test

import (
	"testing"

	"github.com/kubesem/kubesem/intstr"
)

var sinkInt int32

func BenchmarkScaled(b *testing.B) {
	b.Run("int", func(b *testing.B) {
		b.ReportAllocs()
		v := intstr.Int(5)
		for b.Loop() {
			sinkInt, _ = intstr.Scaled(v, 10, intstr.Up)
		}
	})
	b.Run("percent", func(b *testing.B) {
		b.ReportAllocs()
		v := intstr.Percent(25)
		for b.Loop() {
			sinkInt, _ = intstr.Scaled(v, 1000, intstr.Up)
		}
	})
}

func BenchmarkValidate(b *testing.B) {
	b.ReportAllocs()
	v := intstr.Percent(125)
	for b.Loop() {
		if intstr.Validate(v, "spec.strategy.rollingUpdate.maxSurge") != nil {
			b.Fatal("unexpected error")
		}
	}
}

func BenchmarkValidateAtMost100Percent(b *testing.B) {
	b.ReportAllocs()
	v := intstr.Percent(25)
	for b.Loop() {
		if intstr.ValidateAtMost100Percent(v, "spec.strategy.rollingUpdate.maxUnavailable") != nil {
			b.Fatal("unexpected error")
		}
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		v, _ := intstr.Parse("25%")
		sinkInt = v.IntValue()
	}
}

func BenchmarkUnmarshalJSON(b *testing.B) {
	b.ReportAllocs()
	in := []byte(`"25%"`)
	for b.Loop() {
		var v intstr.Value
		if err := v.UnmarshalJSON(in); err != nil {
			b.Fatal(err)
		}
	}
}
