package rolloutstatus

import (
	"strconv"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// Status is one answer of `kubectl rollout status`: what it prints for
// one observed state of the object, and whether it stops.
type Status struct {
	// Message is printed on standard output (with its final newline); empty
	// when Err is set.
	Message string `json:"message"`
	// Done says the rollout is finished; kubectl stops watching.
	Done bool `json:"done"`
	// Err is kubectl's error, printed on standard error as "error: " + Err;
	// kubectl then exits 1. Empty when there is none.
	Err string `json:"error,omitempty"`
}

// Mode says whether kubectl rollout status watches (--watch, its default)
// or reports once.
type Mode bool

// Modes.
const (
	Once  Mode = false // --watch=false
	Watch Mode = true  // the default
)

// ExitCode returns the exit code kubectl rollout status gives when it stops
// on s, and whether it stops: 1 on an error; 0 when the rollout is done, or
// at once in mode Once; otherwise it keeps watching (false).
//
// Source: kubectl v0.36.3 pkg/cmd/rollout/rollout_status.go Run and
// pkg/cmd/util/helpers.go CheckErr (DefaultErrorExitCode 1); seed 000
// "디플로이먼트 완료" / "디플로이먼트 실패" (exit codes 0 and 1).
func (s Status) ExitCode(mode Mode) (code int, stops bool) {
	switch {
	case s.Err != "":
		return 1, true
	case s.Done || mode == Once:
		return 0, true
	}
	return 0, false
}

// Deployment returns what kubectl rollout status prints for d,
// pinned to revision when revision > 0:
//
//   - revision > 0 and d's revision annotation unparsable or different: error;
//   - generation > observedGeneration: waiting for the spec to be observed;
//   - Progressing reason ProgressDeadlineExceeded: error "exceeded its
//     progress deadline";
//   - spec.replicas set and updated < spec.replicas, then replicas >
//     updated, then available < updated: waiting;
//   - else done.
//
// kubectl reads the object as the API server stores it, so an unset
// spec.replicas is 1 (SetDefaults_Deployment). A negative revision is rejected as kubectl's flag
// validation does.
//
// Source: kubectl v0.36.3 pkg/polymorphichelpers/rollout_status.go
// DeploymentStatusViewer.Status; seed 000:L1146, L1800-1920.
func Deployment(d *rollout.Deployment, revision int64) Status {
	name := strconv.Quote(d.Name)
	if revision < 0 {
		return Status{Err: "revision must be a positive integer: " + strconv.FormatInt(revision, 10)}
	}
	if revision > 0 {
		var have int64
		if v, ok := d.Annotations[rollout.RevisionAnnotation]; ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return Status{Err: "cannot get the revision of deployment " + name + ": " + err.Error()}
			}
			have = n
		}
		if have != revision {
			return Status{Err: "desired revision (" + itoa(revision) + ") is different from the running revision (" + itoa(have) + ")"}
		}
	}
	if d.Generation > d.Status.ObservedGeneration {
		return Status{Message: "Waiting for deployment spec update to be observed...\n"}
	}
	st := d.Status
	if c, ok := st.Conditions.Find(rollout.Progressing); ok && c.Reason == rollout.ReasonProgressDeadlineExceeded {
		return Status{Err: "deployment " + name + " exceeded its progress deadline"}
	}
	wait := "Waiting for deployment " + name + " rollout to finish: "
	switch {
	case st.UpdatedReplicas < d.Replicas():
		return Status{Message: wait + itoa(int64(st.UpdatedReplicas)) + " out of " + itoa(int64(d.Replicas())) + " new replicas have been updated...\n"}
	case st.Replicas > st.UpdatedReplicas:
		return Status{Message: wait + itoa(int64(st.Replicas-st.UpdatedReplicas)) + " old replicas are pending termination...\n"}
	case st.AvailableReplicas < st.UpdatedReplicas:
		return Status{Message: wait + itoa(int64(st.AvailableReplicas)) + " of " + itoa(int64(st.UpdatedReplicas)) + " updated replicas are available...\n"}
	}
	return Status{Message: "deployment " + name + " successfully rolled out\n", Done: true}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// DaemonSet returns what kubectl rollout status prints for ds, read as the
// API server stores it (an empty strategy type is RollingUpdate): an error
// (done) unless the update strategy is RollingUpdate; waiting for
// the spec to be observed while generation > observedGeneration; waiting
// while updatedNumberScheduled, then numberAvailable, is below
// desiredNumberScheduled; else done.
//
// Source: kubectl v0.36.3 pkg/polymorphichelpers/rollout_status.go
// DaemonSetStatusViewer.Status.
func DaemonSet(ds *daemonset.DaemonSet) Status {
	// The API server defaults an empty strategy type to RollingUpdate
	// (SetDefaults_DaemonSet); kubectl only ever sees the stored object.
	if t := ds.Spec.UpdateStrategy.Type; t != daemonset.RollingUpdate && t != "" {
		return Status{Done: true, Err: "rollout status is only available for RollingUpdate strategy type"}
	}
	if ds.Generation > ds.Status.ObservedGeneration {
		return Status{Message: "Waiting for daemon set spec update to be observed...\n"}
	}
	st := ds.Status
	wait := "Waiting for daemon set " + strconv.Quote(ds.Name) + " rollout to finish: "
	switch {
	case st.UpdatedNumberScheduled < st.DesiredNumberScheduled:
		return Status{Message: wait + itoa(int64(st.UpdatedNumberScheduled)) + " out of " + itoa(int64(st.DesiredNumberScheduled)) + " new pods have been updated...\n"}
	case st.NumberAvailable < st.DesiredNumberScheduled:
		return Status{Message: wait + itoa(int64(st.NumberAvailable)) + " of " + itoa(int64(st.DesiredNumberScheduled)) + " updated pods are available...\n"}
	}
	return Status{Message: "daemon set " + strconv.Quote(ds.Name) + " successfully rolled out\n", Done: true}
}

// StatefulSet returns what kubectl rollout status prints for ss, read as
// the API server stores it (SetDefaults_StatefulSet: an absent strategy is
// RollingUpdate, a rollingUpdate block's partition 0, replicas 1): an error
// (done) unless the update strategy is RollingUpdate; waiting
// while observedGeneration is 0 or behind generation; waiting while fewer
// than spec.replicas pods are ready; with spec.updateStrategy.rollingUpdate
// set, waiting while updatedReplicas < replicas - partition (when both are
// set), else done as a partitioned roll out; without it, waiting until
// updateRevision equals currentRevision.
//
// Source: kubectl v0.36.3 pkg/polymorphichelpers/rollout_status.go
// StatefulSetStatusViewer.Status.
func StatefulSet(ss *statefulset.StatefulSet) Status {
	// kubectl reads the stored object, which API defaulting
	// (SetDefaults_StatefulSet) completed: an absent strategy is stored as
	// RollingUpdate with partition 0, a rollingUpdate block without a
	// partition with partition 0, unset replicas as 1.
	strategy := ss.Spec.UpdateStrategy.Defaulted(statefulset.Options{})
	if strategy.Type != statefulset.RollingUpdate {
		return Status{Done: true, Err: "rollout status is only available for RollingUpdate strategy type"}
	}
	st := ss.Status
	if st.ObservedGeneration == 0 || ss.Generation > st.ObservedGeneration {
		return Status{Message: "Waiting for statefulset spec update to be observed...\n"}
	}
	replicas := ss.Spec.Replicas
	if replicas == nil {
		one := int32(1)
		replicas = &one
	}
	if st.ReadyReplicas < *replicas {
		return Status{Message: "Waiting for " + itoa(int64(*replicas-st.ReadyReplicas)) + " pods to be ready...\n"}
	}
	if ru := strategy.RollingUpdate; ru != nil {
		if ru.Partition != nil {
			if want := *replicas - *ru.Partition; st.UpdatedReplicas < want {
				return Status{Message: "Waiting for partitioned roll out to finish: " + itoa(int64(st.UpdatedReplicas)) + " out of " + itoa(int64(want)) + " new pods have been updated...\n"}
			}
		}
		return Status{Message: "partitioned roll out complete: " + itoa(int64(st.UpdatedReplicas)) + " new pods have been updated...\n", Done: true}
	}
	if st.UpdateRevision != st.CurrentRevision {
		return Status{Message: "waiting for statefulset rolling update to complete " + itoa(int64(st.UpdatedReplicas)) + " pods at revision " + st.UpdateRevision + "...\n"}
	}
	return Status{Message: "statefulset rolling update complete " + itoa(int64(st.CurrentReplicas)) + " pods at revision " + st.CurrentRevision + "...\n", Done: true}
}

// ValidateStatefulSet returns a *field.Error for what API validation
// rejects in the fields [StatefulSet] reads: a negative spec.replicas,
// spec.updateStrategy.rollingUpdate.partition or status count. It checks
// only those fields, as kubectl reads a partial object; statefulset.Validate
// checks a whole set.
//
// Source: upstream pkg/apis/apps/validation/validation.go
// ValidateStatefulSetSpec, ValidateStatefulSetStatus (v1.36.3).
func ValidateStatefulSet(ss *statefulset.StatefulSet) error {
	if r := ss.Spec.Replicas; r != nil && *r < 0 {
		return field.Int("spec.replicas", int64(*r), field.ErrNegative)
	}
	if ru := ss.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil && *ru.Partition < 0 {
		return field.Int("spec.updateStrategy.rollingUpdate.partition", int64(*ru.Partition), field.ErrNegative)
	}
	st := ss.Status
	return firstNegative(
		count{"status.observedGeneration", st.ObservedGeneration},
		count{"status.readyReplicas", int64(st.ReadyReplicas)},
		count{"status.currentReplicas", int64(st.CurrentReplicas)},
		count{"status.updatedReplicas", int64(st.UpdatedReplicas)},
	)
}

// ValidateDaemonSet returns a *field.Error for what API validation rejects
// in the fields [DaemonSet] reads: a negative status count. It checks only
// those fields, as kubectl reads a partial object; daemonset.Validate
// checks a whole DaemonSet.
//
// Source: upstream pkg/apis/apps/validation/validation.go
// ValidateDaemonSetStatus (v1.36.3).
func ValidateDaemonSet(ds *daemonset.DaemonSet) error {
	st := ds.Status
	return firstNegative(
		count{"status.observedGeneration", st.ObservedGeneration},
		count{"status.desiredNumberScheduled", int64(st.DesiredNumberScheduled)},
		count{"status.updatedNumberScheduled", int64(st.UpdatedNumberScheduled)},
		count{"status.numberAvailable", int64(st.NumberAvailable)},
	)
}

type count struct {
	path string
	n    int64
}

func firstNegative(cs ...count) error {
	for _, c := range cs {
		if c.n < 0 {
			return field.Int(c.path, c.n, field.ErrNegative)
		}
	}
	return nil
}
