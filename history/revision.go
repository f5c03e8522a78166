package history

import (
	"encoding/json"

	"github.com/kubesem/kubesem/internal/apijson"
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// ControllerRevision is the subset of an apps/v1 ControllerRevision the
// workload controllers read and write. JSON tags follow the API, so a
// real revision's JSON decodes as is.
type ControllerRevision struct {
	meta.ObjectMeta `json:"metadata"`
	// Data is the stored pod template; nil when the revision was given
	// without it (the decisions read only the metadata and the number).
	Data *Data `json:"data,omitempty"`
	// Revision is the revision number: higher is newer.
	Revision int64 `json:"revision"`
}

// Data is a revision's data as the StatefulSet and DaemonSet controllers
// store it: the owner's pod template under spec.template, marked
// "$patch": "replace", a strategic merge patch that restores the template.
//
// Source: getPatch, pkg/controller/statefulset/stateful_set_utils.go and
// pkg/controller/daemon/update.go (v1.36.3).
type Data struct {
	// Template is spec.template of the patch (its "$patch" marker aside).
	Template podstatus.Template
}

// dataJSON is Data's JSON form.
type dataJSON struct {
	Spec struct {
		Template json.RawMessage `json:"template"`
	} `json:"spec"`
}

// MarshalJSON writes {"spec":{"template":{…,"$patch":"replace"}}}.
func (d Data) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(d.Template)
	if err != nil {
		return nil, err
	}
	var t map[string]json.RawMessage
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, err
	}
	t["$patch"] = json.RawMessage(`"replace"`)
	var out dataJSON
	if out.Spec.Template, err = json.Marshal(t); err != nil {
		return nil, err
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads the template under spec.template.
func (d *Data) UnmarshalJSON(b []byte) error {
	var raw dataJSON
	if err := apijson.Unmarshal(b, &raw); err != nil {
		return err
	}
	var t podstatus.Template
	if len(raw.Spec.Template) > 0 && string(raw.Spec.Template) != "null" {
		if err := json.Unmarshal(raw.Spec.Template, &t); err != nil {
			return err
		}
	}
	*d = Data{Template: t}
	return nil
}

// New returns the ControllerRevision a controller creates for owner (its
// controller reference ownerRef) from template: named name in
// namespace ns, labelled with the template's labels plus hashLabel=hash,
// annotated with annotations, numbered revision, holding template as its
// data. Nothing of its arguments is shared with the result.
//
// Source: DaemonSetsController.snapshot, pkg/controller/daemon/update.go,
// and newRevision with history.NewControllerRevision,
// pkg/controller/statefulset and pkg/controller/history (v1.36.3).
func New(name, ns string, template *podstatus.Template, hashLabel, hash string, annotations map[string]string, ownerRef meta.OwnerReference, revision int64) *ControllerRevision {
	r := &ControllerRevision{Revision: revision}
	r.Name, r.Namespace = name, ns
	r.Labels = make(map[string]string, len(template.Labels)+1)
	for k, v := range template.Labels {
		r.Labels[k] = v
	}
	r.Labels[hashLabel] = hash
	if len(annotations) > 0 {
		r.Annotations = make(map[string]string, len(annotations))
		for k, v := range annotations {
			r.Annotations[k] = v
		}
	}
	r.OwnerReferences = []meta.OwnerReference{deepcopy.Copy(ownerRef)}
	r.Data = &Data{Template: deepcopy.Copy(*template)}
	return r
}
