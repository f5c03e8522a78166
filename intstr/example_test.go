package intstr_test

import (
	"fmt"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
)

// A Deployment of 3 replicas with the default maxSurge and maxUnavailable of
// 25%: surge rounds up to 1 and unavailable rounds down to 0, so the rollout
// runs between 3 and 4 pods (seed 000:L1983-1995).
func ExampleScaled() {
	v, _ := intstr.Parse("25%")
	surge, _ := intstr.Scaled(v, 3, intstr.Up)
	unavailable, _ := intstr.Scaled(v, 3, intstr.Down)
	fmt.Println("surge", surge, "unavailable", unavailable)
	fmt.Println("pods between", 3-unavailable, "and", 3+surge)
	// Output:
	// surge 1 unavailable 0
	// pods between 3 and 4
}

// An integer is used as is; the string "5" is not a percentage. Scaled does
// not know which field it was handed, so the caller names it with field.At.
func ExampleScaled_errors() {
	n, err := intstr.Scaled(intstr.Int(5), 10, intstr.Down)
	fmt.Println(n, err)
	_, err = intstr.Scaled(intstr.String("5"), 10, intstr.Down)
	fmt.Println(field.At(err, "spec.strategy.rollingUpdate.maxSurge"))
	// Output:
	// 5 <nil>
	// spec.strategy.rollingUpdate.maxSurge: "5": invalid value
}

// maxSurge has no limit on percentages; maxUnavailable stops at 100%.
func ExampleValidate() {
	fmt.Println(intstr.Validate(intstr.Percent(101), "spec.strategy.rollingUpdate.maxSurge"))
	fmt.Println(intstr.Validate(intstr.Int(-1), "spec.strategy.rollingUpdate.maxSurge"))
	// Output:
	// <nil>
	// spec.strategy.rollingUpdate.maxSurge: "-1": must be non-negative
}

func ExampleValidateAtMost100Percent() {
	err := intstr.ValidateAtMost100Percent(intstr.Percent(101), "spec.strategy.rollingUpdate.maxUnavailable")
	fmt.Println(err)
	// Output:
	// spec.strategy.rollingUpdate.maxUnavailable: "101%": invalid value
}
