package meta_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/meta"
)

func TestMatches(t *testing.T) {
	t.Parallel()
	labels := map[string]string{"app": "web", "tier": "front"}
	req := func(key string, op meta.Operator, values ...string) *meta.LabelSelector {
		return &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: key, Operator: op, Values: values}}}
	}
	tests := []struct {
		name   string
		s      *meta.LabelSelector
		labels map[string]string
		want   bool
	}{
		{"nil selector matches nothing", nil, labels, false},
		{"empty selector matches everything", &meta.LabelSelector{}, labels, true},
		{"empty selector matches no labels", &meta.LabelSelector{}, nil, true},
		{"matchLabels equal", &meta.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, labels, true},
		{"matchLabels all pairs", &meta.LabelSelector{MatchLabels: labels}, labels, true},
		{"matchLabels different value", &meta.LabelSelector{MatchLabels: map[string]string{"app": "db"}}, labels, false},
		{"matchLabels missing key", &meta.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}, labels, false},
		{"matchLabels empty value vs missing", &meta.LabelSelector{MatchLabels: map[string]string{"env": ""}}, labels, false},
		{"matchLabels empty value present", &meta.LabelSelector{MatchLabels: map[string]string{"env": ""}}, map[string]string{"env": ""}, true},
		{"In with the value", req("app", meta.OpIn, "db", "web"), labels, true},
		{"In without the value", req("app", meta.OpIn, "db"), labels, false},
		{"In with the key missing", req("env", meta.OpIn, "prod"), labels, false},
		{"NotIn with the value", req("app", meta.OpNotIn, "web"), labels, false},
		{"NotIn without the value", req("app", meta.OpNotIn, "db"), labels, true},
		{"NotIn with the key missing", req("env", meta.OpNotIn, "prod"), labels, true},
		{"Exists present", req("tier", meta.OpExists), labels, true},
		{"Exists missing", req("env", meta.OpExists), labels, false},
		{"DoesNotExist present", req("tier", meta.OpDoesNotExist), labels, false},
		{"DoesNotExist missing", req("env", meta.OpDoesNotExist), labels, true},
		{"unknown operator matches nothing", req("app", "Gt", "1"), labels, false},
		{"labels and expressions both hold", &meta.LabelSelector{
			MatchLabels:      map[string]string{"app": "web"},
			MatchExpressions: []meta.Requirement{{Key: "tier", Operator: meta.OpIn, Values: []string{"front"}}, {Key: "env", Operator: meta.OpDoesNotExist}},
		}, labels, true},
		{"one expression fails", &meta.LabelSelector{
			MatchLabels:      map[string]string{"app": "web"},
			MatchExpressions: []meta.Requirement{{Key: "tier", Operator: meta.OpIn, Values: []string{"front"}}, {Key: "app", Operator: meta.OpNotIn, Values: []string{"web"}}},
		}, labels, false},
		{"SelectorFromSet matches a superset", meta.SelectorFromSet(map[string]string{"app": "web"}), labels, true},
		{"SelectorFromSet needs every pair", meta.SelectorFromSet(map[string]string{"app": "web", "env": "prod"}), labels, false},
	}
	for _, tc := range tests {
		if got := tc.s.Matches(tc.labels); got != tc.want {
			t.Errorf("Matches(%s) = %v; want %v", tc.name, got, tc.want)
		}
		if got := tc.s.Matcher()(tc.labels); got != tc.want {
			t.Errorf("Matcher()(%s) = %v; want %v", tc.name, got, tc.want)
		}
	}
}

func TestIsEmpty(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    *meta.LabelSelector
		want bool
	}{
		{nil, true},
		{&meta.LabelSelector{}, true},
		{&meta.LabelSelector{MatchLabels: map[string]string{}}, true},
		{&meta.LabelSelector{MatchLabels: map[string]string{"a": "b"}}, false},
		{&meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "a", Operator: meta.OpExists}}}, false},
	}
	for _, tc := range tests {
		if got := tc.s.IsEmpty(); got != tc.want {
			t.Errorf("IsEmpty(%+v) = %v; want %v", tc.s, got, tc.want)
		}
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	const path = "spec.selector"
	tests := []struct {
		name     string
		s        *meta.LabelSelector
		wantPath string
		want     error
	}{
		{"nil", nil, "", nil},
		{"empty", &meta.LabelSelector{}, "", nil},
		{"valid", &meta.LabelSelector{MatchExpressions: []meta.Requirement{
			{Key: "a", Operator: meta.OpIn, Values: []string{"x"}},
			{Key: "b", Operator: meta.OpNotIn, Values: []string{"y"}},
			{Key: "c", Operator: meta.OpExists},
			{Key: "d", Operator: meta.OpDoesNotExist},
		}}, "", nil},
		{"In without values", &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "a", Operator: meta.OpIn}}},
			"spec.selector.matchExpressions[0].values", field.ErrRequired},
		{"NotIn without values, second entry", &meta.LabelSelector{MatchExpressions: []meta.Requirement{
			{Key: "a", Operator: meta.OpExists}, {Key: "b", Operator: meta.OpNotIn, Values: []string{}},
		}}, "spec.selector.matchExpressions[1].values", field.ErrRequired},
		{"Exists with values", &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "a", Operator: meta.OpExists, Values: []string{"x"}}}},
			"spec.selector.matchExpressions[0].values", field.ErrForbidden},
		{"DoesNotExist with values", &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "a", Operator: meta.OpDoesNotExist, Values: []string{"x"}}}},
			"spec.selector.matchExpressions[0].values", field.ErrForbidden},
		{"unknown operator", &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "a", Operator: "Gt", Values: []string{"1"}}}},
			"spec.selector.matchExpressions[0].operator", field.ErrInvalid},
		{"empty operator", &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "a"}}},
			"spec.selector.matchExpressions[0].operator", field.ErrInvalid},
		{"empty key", &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Operator: meta.OpExists}}},
			"spec.selector.matchExpressions[0].key", field.ErrInvalid},
		{"qualified keys and label values", &meta.LabelSelector{MatchLabels: map[string]string{"example.com/app": "A.b_c-1", "x": ""},
			MatchExpressions: []meta.Requirement{{Key: strings.Repeat("k", 63), Operator: meta.OpIn, Values: []string{strings.Repeat("v", 63), ""}}}}, "", nil},
		{"key with two slashes", &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "a/b/c", Operator: meta.OpExists}}},
			"spec.selector.matchExpressions[0].key", field.ErrInvalid},
		{"key of 64 characters", &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: strings.Repeat("k", 64), Operator: meta.OpExists}}},
			"spec.selector.matchExpressions[0].key", field.ErrInvalid},
		{"uppercase key prefix", &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "Example.com/a", Operator: meta.OpExists}}},
			"spec.selector.matchExpressions[0].key", field.ErrInvalid},
		{"value starting with a dash", &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "app", Operator: meta.OpIn, Values: []string{"web", "-bad"}}}},
			"spec.selector.matchExpressions[0].values[1]", field.ErrInvalid},
		{"value of 64 characters", &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "app", Operator: meta.OpNotIn, Values: []string{strings.Repeat("v", 64)}}}},
			"spec.selector.matchExpressions[0].values[0]", field.ErrInvalid},
		{"matchLabels key", &meta.LabelSelector{MatchLabels: map[string]string{"-bad": "web"}},
			"spec.selector.matchLabels", field.ErrInvalid},
		{"matchLabels empty key", &meta.LabelSelector{MatchLabels: map[string]string{"": "web"}},
			"spec.selector.matchLabels", field.ErrInvalid},
		{"matchLabels value", &meta.LabelSelector{MatchLabels: map[string]string{"app": "a b"}},
			"spec.selector.matchLabels", field.ErrInvalid},
	}
	for _, tc := range tests {
		err := tc.s.Validate(path)
		if tc.want == nil {
			if err != nil {
				t.Errorf("Validate(%s) = %v; want nil", tc.name, err)
			}
			continue
		}
		var fe *field.Error
		if !errors.As(err, &fe) || !errors.Is(err, tc.want) || fe.Path != tc.wantPath {
			t.Errorf("Validate(%s) = %v; want %s: %v", tc.name, err, tc.wantPath, tc.want)
		}
	}
}
