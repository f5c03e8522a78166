package job

import "strconv"

// MatchSuccessPolicy returns the message of the first success policy rule
// the succeeded indexes satisfy, "Matched rules at index N", and whether one
// did. A rule with succeededIndexes (parsed against completions; a rule
// whose indexes parse to nothing is passed over) is satisfied when every one
// of its indexes succeeded, or when at least succeededCount of them did; a
// rule with only succeededCount is satisfied when that many indexes
// succeeded in total. A nil policy or no succeeded index never matches.
//
// Source: upstream pkg/controller/job/success_policy.go matchSuccessPolicy,
// matchSucceededIndexesRule (v1.36.3).
func MatchSuccessPolicy(policy *SuccessPolicy, completions int32, succeeded Indexes) (string, bool) {
	if policy == nil || len(succeeded) == 0 {
		return "", false
	}
	for i, r := range policy.Rules {
		if r.SucceededIndexes != nil {
			want := ParseIndexes(*r.SucceededIndexes, int(completions))
			if len(want) == 0 {
				continue
			}
			if ruleSatisfied(want, succeeded, r.SucceededCount) {
				return "Matched rules at index " + strconv.Itoa(i), true
			}
		} else if r.SucceededCount != nil && succeeded.Total() >= int(*r.SucceededCount) {
			return "Matched rules at index " + strconv.Itoa(i), true
		}
	}
	return "", false
}

// ruleSatisfied counts the overlap of the rule's indexes with the succeeded
// ones by walking both lists together.
func ruleSatisfied(want, got Indexes, count *int32) bool {
	overlap, w, g := 0, 0, 0
	for w < len(want) && g < len(got) {
		if o := min(want[w].Last, got[g].Last) - max(want[w].First, got[g].First) + 1; o > 0 {
			overlap += o
		}
		switch {
		case got[g].Last < want[w].Last:
			g++
		case got[g].Last > want[w].Last:
			w++
		default:
			g++
			w++
		}
	}
	return overlap == want.Total() || (count != nil && overlap >= int(*count))
}
