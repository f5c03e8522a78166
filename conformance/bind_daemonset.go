package conformance

import (
	"strconv"
	"time"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

type dsEligibilityIn struct {
	Node      node.Node           `json:"node"`
	DaemonSet daemonset.DaemonSet `json:"daemonSet"`
}

type dsNumbersIn struct {
	DaemonSet daemonset.DaemonSet `json:"daemonSet"`
	Desired   int32               `json:"desired"`
}

type dsUpdatedIn struct {
	Labels             map[string]string `json:"labels,omitempty"`
	Hash               string            `json:"hash"`
	TemplateGeneration *int64            `json:"templateGeneration"`
}

type dsUpdatedOut struct {
	Updated bool `json:"updated"`
}

type dsTargetIn struct {
	Pod podstatus.Pod `json:"pod"`
}

type dsTargetOut struct {
	Node string `json:"node"`
}

type dsPinIn struct {
	Affinity *node.Affinity `json:"affinity"`
	Node     string         `json:"node"`
}

type dsPinOut struct {
	Affinity *node.Affinity `json:"affinity"`
}

type dsTolerationsIn struct {
	Spec podstatus.Spec `json:"spec"`
}

type dsTolerationsOut struct {
	Tolerations []node.Toleration `json:"tolerations"`
}

type dsNewPodIn struct {
	DaemonSet daemonset.DaemonSet `json:"daemonSet"`
	Node      string              `json:"node"`
	Hash      string              `json:"hash"`
}

type dsValidateIn struct {
	DaemonSet daemonset.DaemonSet `json:"daemonSet"`
}

type dsValidateOut struct {
	Valid bool `json:"valid"`
}

type dsStepIn struct {
	DaemonSet daemonset.DaemonSet `json:"daemonSet"`
	Nodes     []*node.Node        `json:"nodes"`
	Pods      []*podstatus.Pod    `json:"pods"`
	History   daemonset.History   `json:"history"`
	Backoff   daemonset.Backoff   `json:"memory,omitempty"`
	Now       time.Time           `json:"now"`
}

// daemonsetDecisions returns the daemonset decisions the vectors in testdata/daemonset name.
func daemonsetDecisions() []Decision {
	return []Decision{
		Bind("daemonset.NodeShouldRunDaemonPod", func(in dsEligibilityIn, opts daemonset.Options) (daemonset.Eligibility, error) {
			if err := daemonset.ValidateTemplate(&in.DaemonSet, opts); err != nil {
				return daemonset.Eligibility{}, underDaemonSet(err)
			}
			return daemonset.NodeShouldRunDaemonPod(&in.Node, &in.DaemonSet, opts), nil
		}),
		Bind("daemonset.UnavailableNumbers", func(in dsNumbersIn, _ struct{}) (daemonset.Budget, error) {
			return daemonset.UnavailableNumbers(&in.DaemonSet, in.Desired)
		}),
		Bind("daemonset.IsPodUpdated", func(in dsUpdatedIn, _ struct{}) (dsUpdatedOut, error) {
			pod := &podstatus.Pod{}
			pod.Labels = in.Labels
			ds := &daemonset.DaemonSet{}
			if g := in.TemplateGeneration; g != nil {
				ds.Annotations = map[string]string{daemonset.AnnotationTemplateGeneration: strconv.FormatInt(*g, 10)}
			}
			return dsUpdatedOut{daemonset.IsPodUpdated(pod, in.Hash, ds)}, nil
		}),
		Bind("daemonset.TargetNodeName", func(in dsTargetIn, _ struct{}) (dsTargetOut, error) {
			n, err := daemonset.TargetNodeName(&in.Pod.Spec)
			return dsTargetOut{n}, err
		}),
		Bind("daemonset.PinToNode", func(in dsPinIn, _ struct{}) (dsPinOut, error) {
			return dsPinOut{daemonset.PinToNode(in.Affinity, in.Node)}, nil
		}),
		Bind("daemonset.PodTolerations", func(in dsTolerationsIn, _ struct{}) (dsTolerationsOut, error) {
			return dsTolerationsOut{daemonset.PodTolerations(&in.Spec)}, nil
		}),
		Bind("daemonset.NewPod", func(in dsNewPodIn, opts daemonset.Options) (podstatus.Template, error) {
			if err := daemonset.ValidateTemplate(&in.DaemonSet, opts); err != nil {
				return podstatus.Template{}, underDaemonSet(err)
			}
			return daemonset.NewPod(&in.DaemonSet, in.Node, in.Hash), nil
		}),
		Bind("daemonset.Validate", func(in dsValidateIn, opts daemonset.Options) (dsValidateOut, error) {
			if err := daemonset.Validate(&in.DaemonSet, opts); err != nil {
				return dsValidateOut{}, err
			}
			return dsValidateOut{Valid: true}, nil
		}),
		Bind("daemonset.Step", func(in dsStepIn, opts daemonset.Options) (daemonset.Plan, error) {
			return daemonset.Step(&in.DaemonSet, in.Nodes, in.Pods, in.History, in.Backoff, in.Now, opts)
		}),
		// A refused update is the error ValidateUpdate returns, under "new".
		Bind("daemonset.ValidateUpdate", func(in dsUpdateIn, opts daemonset.Options) (validOut, error) {
			if err := daemonset.ValidateUpdate(&in.Old, &in.New, opts); err != nil {
				return validOut{}, field.Under("new", err)
			}
			return validOut{Valid: true}, nil
		}),
	}
}

// dsUpdateIn is an update of a DaemonSet: old as stored, new as sent.
type dsUpdateIn struct {
	Old daemonset.DaemonSet `json:"old"`
	New daemonset.DaemonSet `json:"new"`
}

// The stored DaemonSet is one the API server accepted (with either
// setting of the comparison-operator option, as for the other inputs).
func (in *dsUpdateIn) validate() error {
	return field.Under("old", daemonset.Validate(&in.Old, dsAnyOperator))
}

// The template's tolerations may use Lt and Gt only with the
// TaintTolerationComparisonOperators option: validate admits them here and
// the decision checks them again with the caller's options.
var dsAnyOperator = daemonset.Options{TaintTolerationComparisonOperators: true}

func (in *dsEligibilityIn) validate() error {
	if err := node.ValidateTaints(in.Node.Spec.Taints, "node.spec.taints"); err != nil {
		return err
	}
	return underDaemonSet(daemonset.ValidateTemplate(&in.DaemonSet, dsAnyOperator))
}

func (in *dsNumbersIn) validate() error {
	return underDaemonSet(daemonset.ValidateUpdateStrategy(&in.DaemonSet))
}

func (in *dsNewPodIn) validate() error {
	return underDaemonSet(daemonset.ValidateTemplate(&in.DaemonSet, dsAnyOperator))
}

func underDaemonSet(err error) error {
	if err == nil {
		return nil
	}
	return field.Under("daemonSet", err)
}
