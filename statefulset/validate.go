package statefulset

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
)

// Validate returns the first field error v1.36.3 API validation reports for
// the fields Step reads (ValidateStatefulSetSpec, apps/validation,
// v1.36.3): negative replicas, ordinals.start, minReadySeconds or
// partition, unknown pod management policy, update strategy or retention
// policy values, a rollingUpdate block with OnDelete, a maxUnavailable that
// is negative, zero or above 100%. Empty enumerations are the API defaults
// and accepted. It also refuses, with an Overflow error on
// spec.ordinals.start, a set whose last ordinal is beyond int32: the API
// accepts it, but upstream then names pods it can no longer parse back
// (web-2147483648 gets ordinal -1 and is ignored) and recreates them on
// every sync; kubesem does not model that.
func Validate(set *StatefulSet) error {
	if set == nil {
		return field.New("", "null", field.ErrRequired)
	}
	if _, _, err := Ordinals(set.Replicas(), set.Start()); err != nil {
		return err
	}
	if set.Spec.MinReadySeconds < 0 {
		return field.Int("spec.minReadySeconds", int64(set.Spec.MinReadySeconds), field.ErrNegative)
	}
	switch set.Spec.PodManagementPolicy {
	case "", OrderedReady, Parallel:
	default:
		return field.New("spec.podManagementPolicy", string(set.Spec.PodManagementPolicy), field.ErrInvalid)
	}
	us := set.Spec.UpdateStrategy
	switch us.Type {
	case OnDelete:
		if us.RollingUpdate != nil {
			return field.New("spec.updateStrategy.rollingUpdate", "set", field.ErrInvalid)
		}
	case "", RollingUpdate:
		if ru := us.RollingUpdate; ru != nil {
			if ru.Partition != nil && *ru.Partition < 0 {
				return field.Int("spec.updateStrategy.rollingUpdate.partition", int64(*ru.Partition), field.ErrNegative)
			}
			if ru.MaxUnavailable != nil {
				const path = "spec.updateStrategy.rollingUpdate.maxUnavailable"
				if err := intstr.Validate(*ru.MaxUnavailable, path, true); err != nil {
					return err
				}
				if n, _ := intstr.ScaledInt(*ru.MaxUnavailable, 100, intstr.Down); n == 0 {
					return field.New(path, ru.MaxUnavailable.String(), field.ErrInvalid)
				}
			}
		}
	default:
		return field.New("spec.updateStrategy.type", string(us.Type), field.ErrInvalid)
	}
	if r := set.Spec.PersistentVolumeClaimRetentionPolicy; r != nil {
		for _, f := range []struct {
			path string
			v    RetentionPolicyType
		}{{"spec.persistentVolumeClaimRetentionPolicy.whenDeleted", r.WhenDeleted}, {"spec.persistentVolumeClaimRetentionPolicy.whenScaled", r.WhenScaled}} {
			switch f.v {
			case "", Retain, Delete:
			default:
				return field.New(f.path, string(f.v), field.ErrUnsupported)
			}
		}
	}
	return nil
}

func duplicateOrdinal(pod string) error {
	return field.New("pods", pod, field.ErrDuplicate)
}
