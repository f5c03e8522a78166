package statefulset

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
)

// Validate returns the first field error v1.36.3 API validation reports for
// the fields Step reads, on the set as API defaulting leaves it: negative
// replicas, ordinals.start, minReadySeconds or partition, unknown pod
// management policy, update strategy (reported at spec.updateStrategy, as
// upstream does) or retention policy values, a rollingUpdate block with
// OnDelete, a maxUnavailable that is negative, zero or above 100%. Empty
// enumerations are what defaulting fills and are accepted. A last ordinal
// beyond int32 is accepted, as the API accepts it
// ([Options].RefuseOrdinalsPastInt32 refuses it in [Step]). A nil set is
// Required.
//
// Source: upstream pkg/apis/apps/validation/validation.go
// ValidateStatefulSetSpec, ValidatePersistentVolumeClaimRetentionPolicy,
// ValidatePositiveIntOrPercent, IsNotMoreThan100Percent;
// pkg/apis/apps/v1/defaults.go SetDefaults_StatefulSet (v1.36.3).
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
	us := set.Spec.UpdateStrategy.Defaulted(Options{})
	switch us.Type {
	case OnDelete:
		if us.RollingUpdate != nil {
			return field.New("spec.updateStrategy.rollingUpdate", "set", field.ErrInvalid)
		}
	case RollingUpdate:
		if ru := us.RollingUpdate; ru != nil {
			if ru.Partition != nil && *ru.Partition < 0 {
				return field.Int("spec.updateStrategy.rollingUpdate.partition", int64(*ru.Partition), field.ErrNegative)
			}
			if ru.MaxUnavailable != nil {
				const path = "spec.updateStrategy.rollingUpdate.maxUnavailable"
				if err := intstr.ValidateAtMost100Percent(*ru.MaxUnavailable, path); err != nil {
					return err
				}
				if n, _ := intstr.ScaledInt(*ru.MaxUnavailable, 100, intstr.Down); n == 0 {
					return field.New(path, ru.MaxUnavailable.String(), field.ErrInvalid)
				}
			}
		}
	default:
		return field.New("spec.updateStrategy", string(us.Type), field.ErrInvalid)
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
