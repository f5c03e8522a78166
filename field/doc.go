// Package field holds the one error type every kubesem package returns for
// invalid input: the field path, the offending value, and a sentinel that
// errors.Is can match.
//
// Paths are written the way Kubernetes validation writes them
// ("spec.strategy.rollingUpdate.maxSurge", "pods[3].metadata.uid"). Tests and
// conformance vectors check the path and the sentinel, never the message.
//
// # Sentinels
//
//   - [ErrInvalid]: the value is malformed ("abc%", an unparsable schedule).
//   - [ErrNegative]: a count or duration that must be non-negative is not.
//   - [ErrOverflow]: the value, or a result derived from it, does not fit in int32.
//   - [ErrRequired]: a required value is missing (a nil object, an empty name).
//   - [ErrUnsupported]: the value is well formed but not one kubesem (or
//     Kubernetes) accepts here, such as an unknown strategy type.
//   - [ErrDuplicate]: a value that must be unique is repeated.
//
// # Divergences
//
// Kubernetes validation reports a list of errors
// (k8s.io/apimachinery/pkg/util/validation/field.ErrorList); kubesem
// reports the first, with the same path, and its message is its own.
package field
