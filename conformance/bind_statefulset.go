package conformance

import (
	"fmt"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/statefulset"
)

type statefulsetStepIn struct {
	Set       statefulset.StatefulSet      `json:"set"`
	Pods      []*podstatus.Pod             `json:"pods,omitempty"`
	Revisions []history.ControllerRevision `json:"revisions,omitempty"`
	Claims    []*statefulset.Claim         `json:"claims,omitempty"`
	Now       time.Time                    `json:"now"`
}

type statefulsetMaxUnavailableIn struct {
	MaxUnavailable *intstr.Value `json:"maxUnavailable"`
	Replicas       int32         `json:"replicas"`
}

type statefulsetMaxUnavailableOut struct {
	MaxUnavailable int64 `json:"maxUnavailable"`
}

type statefulsetClaimIn struct {
	Claim      statefulset.Claim           `json:"claim"`
	Policy     statefulset.RetentionPolicy `json:"policy"`
	Set        statefulset.Owner           `json:"set"`
	Pod        statefulset.Owner           `json:"pod"`
	ScaledDown bool                        `json:"scaledDown"`
}

// claimSet is the StatefulSet a claim rule reads for in: named and owned
// as in.Set, with in.Policy, and a range of ordinals that holds none
// (0 replicas) when in.ScaledDown, else exactly the ordinal the pod's name
// carries (start there, 1 replica); a pod whose name carries no ordinal
// is in no set's range, so it must be scaledDown.
func (in statefulsetClaimIn) claimSet() (*statefulset.StatefulSet, error) {
	policy := in.Policy
	set := &statefulset.StatefulSet{Spec: statefulset.Spec{Replicas: new(int32), PersistentVolumeClaimRetentionPolicy: &policy}}
	set.Name, set.UID = in.Set.Name, in.Set.UID
	if !in.ScaledDown {
		o := statefulset.ParseOrdinal(in.Pod.Name)
		if o < 0 {
			return nil, field.New("pod.name", in.Pod.Name, fmt.Errorf("%w: a pod whose name carries no ordinal is scaled down", field.ErrInvalid))
		}
		*set.Spec.Replicas = 1
		set.Spec.Ordinals = &statefulset.OrdinalsSpec{Start: o}
	}
	return set, nil
}

type statefulsetUpToDateOut struct {
	UpToDate bool `json:"upToDate"`
}

type statefulsetRefsOut struct {
	OwnerReferences []meta.OwnerReference `json:"ownerReferences"`
}

type statefulsetStaleOut struct {
	Stale bool `json:"stale"`
}

type statefulsetOrdinalsIn struct {
	Replicas int32 `json:"replicas"`
	Start    int32 `json:"start"`
}

type statefulsetOrdinalsOut struct {
	First int32 `json:"first"`
	End   int64 `json:"end"`
}

type statefulsetParseIn struct {
	Pod string `json:"pod"`
}

type statefulsetParseOut struct {
	Parent  string `json:"parent"`
	Ordinal int32  `json:"ordinal"`
	OK      bool   `json:"ok"`
}

type statefulsetIdentityIn struct {
	Set       string   `json:"set"`
	Ordinal   int32    `json:"ordinal"`
	Service   string   `json:"service"`
	Namespace string   `json:"namespace"`
	Domain    string   `json:"domain"`
	Claims    []string `json:"claims"`
}

// statefulsetDecisions returns the statefulset decisions the vectors in testdata/statefulset name.
func statefulsetDecisions() []Decision {
	return []Decision{
		Bind("statefulset.Step", func(in statefulsetStepIn, o statefulset.Options) (statefulset.Plan, error) {
			return statefulset.Step(&in.Set, in.Pods, in.Revisions, in.Claims, in.Now, o)
		}),
		Bind("statefulset.MaxUnavailable", func(in statefulsetMaxUnavailableIn, _ statefulset.Options) (statefulsetMaxUnavailableOut, error) {
			n, err := statefulset.MaxUnavailable(in.MaxUnavailable, in.Replicas)
			return statefulsetMaxUnavailableOut{n}, err
		}),
		Bind("statefulset.ClaimOwnerUpToDate", func(in statefulsetClaimIn, _ statefulset.Options) (statefulsetUpToDateOut, error) {
			set, err := in.claimSet()
			if err != nil {
				return statefulsetUpToDateOut{}, err
			}
			return statefulsetUpToDateOut{statefulset.ClaimOwnerUpToDate(&in.Claim, set, in.Pod)}, nil
		}),
		Bind("statefulset.ClaimOwnerRefs", func(in statefulsetClaimIn, _ statefulset.Options) (statefulsetRefsOut, error) {
			set, err := in.claimSet()
			if err != nil {
				return statefulsetRefsOut{}, err
			}
			return statefulsetRefsOut{statefulset.ClaimOwnerRefs(&in.Claim, set, in.Pod)}, nil
		}),
		Bind("statefulset.ClaimIsStale", func(in statefulsetClaimIn, _ statefulset.Options) (statefulsetStaleOut, error) {
			in.ScaledDown = true // the pod's place in the range is not read
			set, err := in.claimSet()
			if err != nil {
				return statefulsetStaleOut{}, err
			}
			return statefulsetStaleOut{statefulset.ClaimIsStale(&in.Claim, set, in.Pod)}, nil
		}),
		Bind("statefulset.Ordinals", func(in statefulsetOrdinalsIn, _ statefulset.Options) (statefulsetOrdinalsOut, error) {
			f, e, err := statefulset.Ordinals(in.Replicas, in.Start)
			return statefulsetOrdinalsOut{First: f, End: e}, err
		}),
		Bind("statefulset.ParentAndOrdinal", func(in statefulsetParseIn, _ statefulset.Options) (statefulsetParseOut, error) {
			p, o, ok := statefulset.ParentAndOrdinal(in.Pod)
			return statefulsetParseOut{Parent: p, Ordinal: o, OK: ok}, nil
		}),
		Bind("statefulset.Identity", func(in statefulsetIdentityIn, _ statefulset.Options) (statefulset.PodIdentity, error) {
			return statefulset.Identity(in.Set, in.Ordinal, in.Service, in.Namespace, in.Domain, in.Claims), nil
		}),
		// A refused create is the error ValidateCreate returns, under "set".
		Bind("statefulset.ValidateCreate", func(in statefulsetCreateIn, _ struct{}) (validOut, error) {
			if err := statefulset.ValidateCreate(&in.Set); err != nil {
				return validOut{}, field.Under("set", err)
			}
			return validOut{Valid: true}, nil
		}),
		// A refused update is the error ValidateUpdate returns, under "new".
		Bind("statefulset.ValidateUpdate", func(in statefulsetUpdateIn, _ struct{}) (validOut, error) {
			if err := statefulset.ValidateUpdate(&in.Old, &in.New); err != nil {
				return validOut{}, field.Under("new", err)
			}
			return validOut{Valid: true}, nil
		}),
	}
}

// statefulsetCreateIn is a StatefulSet as sent to be created.
type statefulsetCreateIn struct {
	Set statefulset.StatefulSet `json:"set"`
}

// statefulsetUpdateIn is an update of a StatefulSet: old as stored, new as sent.
type statefulsetUpdateIn struct {
	Old statefulset.StatefulSet `json:"old"`
	New statefulset.StatefulSet `json:"new"`
}

// The stored StatefulSet is one the API server accepted.
func (in *statefulsetUpdateIn) validate() error {
	return field.Under("old", statefulset.ValidateCreate(&in.Old))
}
