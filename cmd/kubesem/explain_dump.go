package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/internal/apijson"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// Objects are read in their API form (what kubectl get -o json|yaml and the
// API server print) straight into the world's models, whose JSON tags follow
// the API: the same decoding the k8s adapter's conversions go through, with
// the API server's strictness (case-sensitive keys, a repeated key is an
// error naming its path).

// otherObject is an object of a kind the world does not model.
type otherObject struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

func (o otherObject) String() string {
	if o.Namespace == "" {
		return o.Kind + " " + o.Name
	}
	return o.Kind + " " + o.Namespace + "/" + o.Name
}

// objects are the objects of a dump: those the world models (a pointer to
// each kind's model) and the others.
type objects struct {
	models []any
	other  []otherObject
	// listed are the kinds of the typed Lists read (an empty
	// PersistentVolumeClaimList says the dump holds every claim: none).
	listed map[string]bool
}

// newModel returns a new model for an API kind, or nil when the world does
// not model the kind.
func newModel(kind string) any {
	switch kind {
	case "Deployment":
		return &rollout.Deployment{}
	case "ReplicaSet", "ReplicationController":
		return &replicaset.ReplicaSet{}
	case "StatefulSet":
		return &statefulset.StatefulSet{}
	case "DaemonSet":
		return &daemonset.DaemonSet{}
	case "Job":
		return &job.Job{}
	case "CronJob":
		return &cronjob.CronJob{}
	case "PodDisruptionBudget":
		return &pdb.PodDisruptionBudget{}
	case "Pod":
		return &podstatus.Pod{}
	case "Node":
		return &node.Node{}
	case "Lease":
		return &node.Lease{}
	case "ControllerRevision":
		return &history.ControllerRevision{}
	case "PersistentVolumeClaim":
		return &statefulset.Claim{}
	}
	return nil
}

// maxListDepth bounds how deep Lists may nest in a dump: kubectl prints
// one List, or a stream of them; a List inside a List inside … is refused
// beyond this depth rather than unwrapped level by level.
const maxListDepth = 4

// defaultMaxDump is the largest dump read unless --max-bytes says
// otherwise.
const defaultMaxDump = 2 << 30

// documents splits data into JSON documents: a stream of JSON values, or,
// when data does not start with '{' or '[', YAML documents separated by
// "---" (each converted to JSON). The pod logs "kubectl cluster-info dump"
// prints between its Lists ("==== START logs for container … ====" to
// "==== END logs for … ====") are skipped.
func documents(data []byte) ([][]byte, error) {
	data = stripLogs(data)
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, nil
	}
	if trimmed[0] == '{' || trimmed[0] == '[' {
		docs, err := apijson.Values(data)
		if err != nil {
			return nil, fmt.Errorf("%s", describe(err))
		}
		return docs, nil
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var docs [][]byte
	for n := 0; ; n++ {
		doc, err := r.Read()
		if err == io.EOF {
			return docs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("YAML document %d: %v", n, err)
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("YAML document %d: %v", n, err)
		}
		if string(js) == "null" {
			continue
		}
		docs = append(docs, js)
	}
}

// stripLogs removes the pod log sections of "kubectl cluster-info dump".
func stripLogs(data []byte) []byte {
	const start, end = "==== START logs for ", "==== END logs for "
	if !bytes.Contains(data, []byte(start)) {
		return data
	}
	var out bytes.Buffer
	in := false
	for line := range strings.Lines(string(data)) {
		switch {
		case strings.HasPrefix(line, start):
			in = true
		case strings.HasPrefix(line, end):
			in = false
		case !in:
			out.WriteString(line)
		}
	}
	return out.Bytes()
}

// readObjects reads the objects of a dump (at most limit bytes of FILE, or
// of stdin for "-").
func readObjects(r io.Reader, name string, limit int64) (*objects, error) {
	data, err := readInput(name, r, limit)
	if err != nil {
		return nil, err
	}
	docs, err := documents(data)
	if err != nil {
		return nil, err
	}
	o := &objects{}
	for n, raw := range docs {
		if err := o.add(raw, fmt.Sprintf("document %d", n), 0); err != nil {
			return nil, err
		}
	}
	return o, o.dedupe()
}

// dedupe drops an object listed again with the same UID (overlapping
// Lists, as "kubectl get all,deploy" prints them); the same kind, namespace
// and name with another UID is an error.
func (o *objects) dedupe() error {
	seen := make(map[cluster.Key]string, len(o.models))
	out := o.models[:0]
	for _, m := range o.models {
		k, uid := key(m), objectMeta(m).UID
		if prev, ok := seen[k]; ok {
			if prev != uid {
				return fmt.Errorf("%s appears twice, with UIDs %q and %q", objectText(k), prev, uid)
			}
			continue
		}
		seen[k] = uid
		out = append(out, m)
	}
	o.models = out
	return nil
}

// add adds one document: an object, or a List (kind List or <Kind>List, or
// any object with items) whose items are added in turn.
func (o *objects) add(raw json.RawMessage, at string, depth int) error {
	members, ok, err := apijson.Members(raw)
	if err != nil {
		return fmt.Errorf("%s: %s", at, describe(err))
	}
	if !ok {
		return fmt.Errorf("%s: not an object", at)
	}
	var kind string
	var items []byte
	for _, m := range members {
		switch m.Key {
		case "kind":
			if err := apijson.Unmarshal(m.Value, &kind); err != nil {
				return fmt.Errorf("%s: kind: %s", at, describe(err))
			}
		case "items":
			if string(m.Value) != "null" {
				items = m.Value
			}
		}
	}
	if items != nil || strings.HasSuffix(kind, "List") {
		if depth >= maxListDepth {
			return fmt.Errorf("%s: Lists nested more than %d deep", at, maxListDepth)
		}
		if items == nil {
			if k := strings.TrimSuffix(kind, "List"); k != "" {
				if o.listed == nil {
					o.listed = map[string]bool{}
				}
				o.listed[k] = true
			}
			return nil
		}
		elems, ok, err := apijson.Elements(items)
		if err != nil || !ok {
			return fmt.Errorf("%s: items: not a list", at)
		}
		// A typed list (DeploymentList …) may hold items without a kind,
		// as the API server returns them.
		itemKind := strings.TrimSuffix(kind, "List")
		if itemKind != "" {
			if o.listed == nil {
				o.listed = map[string]bool{}
			}
			o.listed[itemKind] = true
		}
		for i, it := range elems {
			if err := o.addItem(it, fmt.Sprintf("%s.items[%d]", at, i), itemKind, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if kind == "" {
		return fmt.Errorf("%s: kind: required (an API object or a List)", at)
	}
	return o.addObject(raw, at, kind)
}

func (o *objects) addItem(raw json.RawMessage, at, listKind string, depth int) error {
	if listKind != "" {
		var k struct {
			Kind string `json:"kind"`
		}
		if err := apijson.Unmarshal(raw, &k); err != nil {
			return fmt.Errorf("%s: %s", at, describe(err))
		}
		if k.Kind == "" {
			return o.addObject(raw, at, listKind)
		}
	}
	return o.add(raw, at, depth)
}

func (o *objects) addObject(raw json.RawMessage, at, kind string) error {
	m := newModel(kind)
	if m == nil {
		var x struct {
			Metadata meta.ObjectMeta `json:"metadata"`
		}
		if err := apijson.Unmarshal(raw, &x); err != nil {
			return fmt.Errorf("%s (%s): %s", at, kind, describe(err))
		}
		o.other = append(o.other, otherObject{kind, x.Metadata.Namespace, x.Metadata.Name})
		return nil
	}
	if err := apijson.Unmarshal(raw, m); err != nil {
		return fmt.Errorf("%s (%s): %s", at, kind, describe(err))
	}
	if rs, ok := m.(*replicaset.ReplicaSet); ok {
		rs.Kind = kind
		if kind == "ReplicationController" {
			// Its spec.selector is a plain label map, which the model's
			// LabelSelector does not decode: it becomes matchLabels
			// (empty: the template's labels, as API defaulting makes it).
			var x struct {
				Spec struct {
					Selector map[string]string `json:"selector"`
				} `json:"spec"`
			}
			if err := apijson.Unmarshal(raw, &x); err != nil {
				return fmt.Errorf("%s (%s): %s", at, kind, describe(err))
			}
			rs.Spec.Selector = nil
			if len(x.Spec.Selector) > 0 {
				rs.Spec.Selector = meta.SelectorFromSet(x.Spec.Selector)
			}
		}
	}
	o.models = append(o.models, m)
	return nil
}

// decodeObject decodes one API object of a modelled kind (a scenario
// event's object).
func decodeObject(raw json.RawMessage, at string) (any, error) {
	var k struct {
		Kind string `json:"kind"`
	}
	if err := apijson.Unmarshal(raw, &k); err != nil {
		return nil, fmt.Errorf("%s: %s", at, describe(err))
	}
	if newModel(k.Kind) == nil {
		return nil, fmt.Errorf("%s.kind: %q: not a kind kubesem models (want one of %s)", at, k.Kind, strings.Join(modelledKinds(), ", "))
	}
	var o objects
	if err := o.addObject(raw, at, k.Kind); err != nil {
		return nil, err
	}
	return o.models[0], nil
}

func modelledKinds() []string {
	return []string{"Deployment", "ReplicaSet", "ReplicationController", "StatefulSet", "DaemonSet", "Job", "CronJob",
		"PodDisruptionBudget", "Pod", "Node", "Lease", "ControllerRevision", "PersistentVolumeClaim"}
}

// key returns the world's key of a model.
func key(o any) cluster.Key {
	k, _ := cluster.KindOf(o)
	m := objectMeta(o)
	if m == nil {
		return cluster.Key{}
	}
	return cluster.Key{Kind: k, Namespace: m.Namespace, Name: m.Name}
}

// objectMeta returns the metadata of a model, or nil.
func objectMeta(o any) *meta.ObjectMeta {
	var m *meta.ObjectMeta
	switch x := o.(type) {
	case *rollout.Deployment:
		m = &x.ObjectMeta
	case *replicaset.ReplicaSet:
		m = &x.ObjectMeta
	case *statefulset.StatefulSet:
		m = &x.ObjectMeta
	case *daemonset.DaemonSet:
		m = &x.ObjectMeta
	case *job.Job:
		m = &x.ObjectMeta
	case *cronjob.CronJob:
		m = &x.ObjectMeta
	case *pdb.PodDisruptionBudget:
		m = &x.ObjectMeta
	case *podstatus.Pod:
		m = &x.ObjectMeta
	case *node.Node:
		m = &x.ObjectMeta
	case *node.Lease:
		m = &x.ObjectMeta
	case *history.ControllerRevision:
		m = &x.ObjectMeta
	case *statefulset.Claim:
		m = &x.ObjectMeta
	}
	return m
}
