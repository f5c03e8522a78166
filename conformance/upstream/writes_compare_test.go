package upstream_test

import (
	"encoding/json"
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/api/meta"
	clienttesting "k8s.io/client-go/testing"

	"github.com/kubesem/kubesem/plan"
)

// writeKey is what the Writes replays compare of one API request: verb,
// resource, subresource, namespace, name, the uid it names (a patch's or
// delete's precondition, an update's object's uid) and a delete's grace
// period ("" when the request leaves it to the object).
type writeKey struct {
	Verb, Resource, Subresource, Namespace, Name, UID, Grace string
}

func (k writeKey) String() string {
	s := k.Verb + " " + k.Resource
	if k.Subresource != "" {
		s += "/" + k.Subresource
	}
	s += " " + k.Namespace + "/" + k.Name
	if k.UID != "" {
		s += " uid=" + k.UID
	}
	if k.Grace != "" {
		s += " grace=" + k.Grace
	}
	return s
}

// writeKeyOfAction reads a fake clientset's action as a writeKey; ok is
// false for reads (get, list, watch).
func writeKeyOfAction(a clienttesting.Action) (k writeKey, ok bool, err error) {
	k = writeKey{Verb: a.GetVerb(), Resource: a.GetResource().Resource, Subresource: a.GetSubresource(), Namespace: a.GetNamespace()}
	switch x := a.(type) {
	case clienttesting.DeleteAction:
		k.Name = x.GetName()
		o := x.GetDeleteOptions()
		if o.GracePeriodSeconds != nil {
			k.Grace = strconv.FormatInt(*o.GracePeriodSeconds, 10)
		}
		if o.Preconditions != nil && o.Preconditions.UID != nil {
			k.UID = string(*o.Preconditions.UID)
		}
	case clienttesting.PatchAction:
		k.Name = x.GetName()
		var p struct {
			Metadata struct {
				UID string `json:"uid"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(x.GetPatch(), &p); err != nil {
			return k, false, fmt.Errorf("patch %s: %v", x.GetPatch(), err)
		}
		k.UID = p.Metadata.UID
	case clienttesting.UpdateAction:
		m, err := meta.Accessor(x.GetObject())
		if err != nil {
			return k, false, err
		}
		k.Name, k.UID = m.GetName(), string(m.GetUID())
	case clienttesting.CreateAction:
		m, err := meta.Accessor(x.GetObject())
		if err != nil {
			return k, false, err
		}
		k.Name = m.GetName()
	default:
		return k, false, nil
	}
	return k, true, nil
}

// writeKeyOf reads a kubesem plan.Write as a writeKey.
func writeKeyOf(w plan.Write) writeKey {
	k := writeKey{Verb: string(w.Verb), Resource: w.Resource, Subresource: w.Subresource, Namespace: w.Namespace, Name: w.Name, UID: w.UID}
	if w.GracePeriodSeconds != nil {
		k.Grace = strconv.FormatInt(*w.GracePeriodSeconds, 10)
	}
	return k
}

// writeKeysOfActions reads every write among actions, in order.
func writeKeysOfActions(as []clienttesting.Action) ([]writeKey, error) {
	var out []writeKey
	for _, a := range as {
		k, ok, err := writeKeyOfAction(a)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, k)
		}
	}
	return out, nil
}
