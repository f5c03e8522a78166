package difftest

import (
	"bytes"
	"encoding/json"
	"github.com/kubesem/kubesem/internal/jsontag"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/workqueue"

	"github.com/kubesem/kubesem/conformance"
)

// WriteVectorsEnv is the environment variable that lets the replay tests fill
// the Plan keys a vector's want leaves out with upstream's answer.
const WriteVectorsEnv = "KUBESEM_WRITE_VECTORS"

// QueueRecorder is a rate-limited queue that records what a sync puts in it.
type QueueRecorder struct {
	workqueue.TypedRateLimitingInterface[string]
	After       []time.Duration
	RateLimited int
	Added       int
}

func (q *QueueRecorder) Add(string) { q.Added++ }

func (q *QueueRecorder) AddAfter(_ string, d time.Duration) { q.After = append(q.After, d) }

func (q *QueueRecorder) AddRateLimited(string) { q.RateLimited++ }

func (q *QueueRecorder) Forget(string) {}

func (q *QueueRecorder) NumRequeues(string) int { return 0 }

func (q *QueueRecorder) ShutDownWithDrain() {}

func (q *QueueRecorder) Done(string) {}

func (q *QueueRecorder) ShuttingDown() bool { return false }

func (q *QueueRecorder) Len() int { return 0 }

func (q *QueueRecorder) ShutDown() {}

func (q *QueueRecorder) Get() (string, bool) { return "", true }

// ReplicaSetStatus renders a ReplicaSet status as the replicaset.Step decision
// writes it.
func ReplicaSetStatus(s apps.ReplicaSetStatus) map[string]any {
	conds := []map[string]any{}
	for _, c := range s.Conditions {
		conds = append(conds, VectorCondition(string(c.Type), string(c.Status), nil, nil, &c.LastTransitionTime, c.Reason, c.Message))
	}
	out := map[string]any{"replicas": s.Replicas, "fullyLabeledReplicas": s.FullyLabeledReplicas, "readyReplicas": s.ReadyReplicas,
		"availableReplicas": s.AvailableReplicas, "terminatingReplicas": nil, "observedGeneration": s.ObservedGeneration, "conditions": conds}
	if s.TerminatingReplicas != nil {
		out["terminatingReplicas"] = *s.TerminatingReplicas
	}
	return out
}

// VectorCondition renders a condition as kubesem's vectors write it: the
// time fields a kind has, omitted when zero; reason and message omitted
// when empty.
func VectorCondition(typ, status string, probe, update, transition *metav1.Time, reason, message string) map[string]any {
	m := map[string]any{"type": typ, "status": status}
	for k, tm := range map[string]*metav1.Time{"lastProbeTime": probe, "lastUpdateTime": update, "lastTransitionTime": transition} {
		if tm != nil && !tm.IsZero() {
			m[k] = tm.UTC().Format(time.RFC3339Nano)
		}
	}
	if reason != "" {
		m["reason"] = reason
	}
	if message != "" {
		m["message"] = message
	}
	return m
}

// OrderedRaw encodes the object m with its keys in order (keys order does
// not list after, sorted).
func OrderedRaw(m map[string]json.RawMessage, order []string) json.RawMessage {
	keys := slices.Collect(maps.Keys(m))
	rank := func(k string) int {
		if i := slices.Index(order, strings.TrimPrefix(k, "?")); i >= 0 {
			return i
		}
		if i := slices.Index(order, "?"+k); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(keys, func(a, c string) int {
		if ra, rc := rank(a), rank(c); ra != rc {
			return ra - rc
		}
		return strings.Compare(a, c)
	})
	var b bytes.Buffer
	b.WriteByte('{')
	for j, k := range keys {
		if j > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(m[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}

// OrderedObject encodes m with its keys in order.
func OrderedObject(t *testing.T, m map[string]any, order []string) json.RawMessage {
	raw := map[string]json.RawMessage{}
	for k, v := range m {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		raw[k] = b
	}
	return OrderedRaw(raw, order)
}

// CompleteObject returns want (an object) with the keys it leaves out
// taken from got, and whether it left out any.
func CompleteObject(want, got any) (map[string]any, bool) {
	w, ok1 := want.(map[string]any)
	g, ok2 := got.(map[string]any)
	if !ok1 || !ok2 {
		return nil, false
	}
	out := maps.Clone(w)
	added := false
	for k, v := range g {
		if _, ok := out[k]; !ok {
			out[k] = v
			added = true
		}
	}
	return out, added
}

// PlanKeysOf returns the top-level JSON keys of a Plan type in field order,
// including those omitted when empty.
func PlanKeysOf(t reflect.Type) []string {
	var keys []string
	for _, f := range jsontag.Fields(t) {
		name := f.Name
		if f.OmitEmpty || f.OmitZero {
			name = "?" + name
		}
		keys = append(keys, name)
	}
	return keys
}

// OptionalKeys returns the keys of PlanKeysOf that are omitted when empty,
// without their "?".
func OptionalKeys(keys []string) []string {
	var out []string
	for _, k := range keys {
		if strings.HasPrefix(k, "?") {
			out = append(out, k[1:])
		}
	}
	return out
}

// RequiredKeys returns the keys of PlanKeysOf that are never omitted.
func RequiredKeys(keys []string) []string {
	return slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return strings.HasPrefix(k, "?") })
}

// WriteFills adds fills (vector name → key → value) to the wants of
// decision's vectors in file, orders each filled want's keys as order
// lists them (other keys after; a filled object value's keys as subOrder
// lists them for its key), and notes test in its source.
func WriteFills(t *testing.T, file, decision string, fills map[string]map[string]any, order []string, subOrder map[string][]string, test string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var vs []conformance.Vector
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&vs); err != nil {
		t.Fatal(err)
	}
	done := 0
	for i := range vs {
		v := &vs[i]
		fill, ok := fills[v.Name]
		if v.Decision != decision || !ok {
			continue
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(v.Want, &want); err != nil {
			t.Fatal(err)
		}
		for k, x := range fill {
			b, err := json.Marshal(x)
			if err != nil {
				t.Fatal(err)
			}
			if m, ok := x.(map[string]any); ok && subOrder[k] != nil {
				b = OrderedObject(t, m, subOrder[k])
			}
			want[k] = b
		}
		v.Want = OrderedRaw(want, order)
		note := "; whole Plan checked by conformance/upstream " + test
		if !strings.Contains(v.Source, note) {
			v.Source += note
		}
		done++
	}
	if done != len(fills) {
		t.Fatalf("filled %d vectors of %s; want %d", done, file, len(fills))
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(vs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d wants of %s", done, file)
}

// CheckFiles returns the files testdata/<pkg>/check-*.json: the decisions
// along a model-checker counterexample, as kubesem check --vectors writes
// them (each want {} until upstream fills it).
func CheckFiles(t testing.TB, pkg string) []string {
	t.Helper()
	files, err := filepath.Glob(Repo("testdata", pkg, "check-*.json"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// EmptyWant reports whether want is {}: a want kubesem check --vectors
// left for upstream to fill, which matches any object answer.
func EmptyWant(want json.RawMessage) bool {
	var b bytes.Buffer
	return json.Compact(&b, want) == nil && b.String() == "{}"
}
