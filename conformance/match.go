package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/internal/apijson"
)

// Match reports whether got satisfies want under the matching rules in the
// package doc. When it does not, the returned string names the first
// mismatching path.
func Match(want, got json.RawMessage) (bool, string) {
	w, err := decodeValue(want)
	if err != nil {
		return false, "want: " + err.Error()
	}
	g, err := decodeValue(got)
	if err != nil {
		return false, "got: " + err.Error()
	}
	return matchValue("$", w, g)
}

func decodeValue(raw json.RawMessage) (any, error) {
	if err := apijson.Valid(raw); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func matchValue(at string, want, got any) (bool, string) {
	switch w := want.(type) {
	case nil:
		if got != nil {
			return false, fmt.Sprintf("%s: want null, got %s", at, show(got))
		}
		return true, ""
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false, fmt.Sprintf("%s: want object, got %s", at, show(got))
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if ok, why := matchValue(at+"."+k, w[k], g[k]); !ok {
				return false, why
			}
		}
		return true, ""
	case []any:
		g, ok := got.([]any)
		if !ok {
			if got == nil && len(w) == 0 {
				return true, ""
			}
			return false, fmt.Sprintf("%s: want array, got %s", at, show(got))
		}
		if len(g) != len(w) {
			return false, fmt.Sprintf("%s: want %d elements, got %d: %s", at, len(w), len(g), show(got))
		}
		for i := range w {
			if ok, why := matchValue(fmt.Sprintf("%s[%d]", at, i), w[i], g[i]); !ok {
				return false, why
			}
		}
		return true, ""
	case json.Number:
		g, ok := got.(json.Number)
		if !ok || !sameNumber(w, g) {
			return false, fmt.Sprintf("%s: want %s, got %s", at, w, show(got))
		}
		return true, ""
	case string:
		g, ok := got.(string)
		if !ok || !sameString(w, g) {
			return false, fmt.Sprintf("%s: want %q, got %s", at, w, show(got))
		}
		return true, ""
	case bool:
		if got != w {
			return false, fmt.Sprintf("%s: want %v, got %s", at, w, show(got))
		}
		return true, ""
	}
	return false, fmt.Sprintf("%s: unexpected JSON value %T", at, want)
}

func sameNumber(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, ok1 := new(big.Float).SetString(string(a))
	y, ok2 := new(big.Float).SetString(string(b))
	return ok1 && ok2 && x.Cmp(y) == 0
}

func sameString(a, b string) bool {
	if a == b {
		return true
	}
	if ta, err := time.Parse(time.RFC3339Nano, a); err == nil {
		if tb, err := time.Parse(time.RFC3339Nano, b); err == nil {
			return ta.Equal(tb)
		}
	}
	if strings.ContainsAny(a, "hmsuµn") && strings.ContainsAny(b, "hmsuµn") {
		da, err1 := time.ParseDuration(a)
		db, err2 := time.ParseDuration(b)
		return err1 == nil && err2 == nil && da == db
	}
	return false
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}
