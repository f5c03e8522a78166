// Package intstr decides what an int-or-percent value ("5" or "25%") comes
// to against a total, with the rounding direction stated by the caller.
//
// Reference semantics: Kubernetes v1.36.3, apimachinery
// pkg/util/intstr GetScaledValueFromIntOrPercent. A percentage is computed
// the way upstream computes it, in float64, then rounded up or down; an
// integer is used as is. Which direction each setting rounds is the caller's
// business: Deployment maxSurge rounds up and maxUnavailable down, DaemonSet
// maxUnavailable up, StatefulSet maxUnavailable down, PDB percentages up.
//
// # Rules
//
//   - Values: [Int], [Percent], [String], [Parse]
//   - Scaling: [Scaled], [ScaledInt]
//   - Validation: [Validate], [ValidateAtMost100Percent]
//
// # Divergences
//
// Upstream's scaling helper accepts percentages that API validation rejects
// ("+5%", "-5%"); kubesem applies validation's stricter grammar
// (`^[0-9]+%$`, so "05%" is 5%) so every value it scales is one the API
// server would store. For the same reason a negative integer is an error
// (field.ErrNegative) where upstream returns it unchanged. On every value
// validation accepts, [ScaledInt] equals upstream's result and [Scaled]
// equals its int32 conversion, wrap included (checked by the differential
// in conformance/upstream); a percentage beyond int64, which the API
// accepts and upstream cannot parse, is an error in both.
//
// # Inputs
//
// Pure functions on values; safe for concurrent use.
//
// # Errors
//
// [Scaled], [Validate] and [ValidateAtMost100Percent] return a
// *field.Error wrapping field.ErrInvalid (not a percentage, not a number),
// field.ErrNegative or (Scaled only, a percentage beyond int64)
// field.ErrOverflow.
// [Scaled] leaves the path empty for the caller to fill with field.At.
//
// Vectors: testdata/intstr.
package intstr
