package statefulset

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/podstatus"
)

type member struct {
	pod *podstatus.Pod
	ord int32
}

// memberPods returns the set's pods sorted by ordinal, and their ordinals;
// a duplicate ordinal is an error, which names, for the lowest ordinal
// pods share, the one whose name sorts last (whatever the order of pods).
// unparsed are the pods upstream's isMemberOf still claims (the set's name,
// a dash, digits) whose ordinal does not fit int32: getOrdinal gives them
// -1, so the sync ignores them and so does the status it writes, except
// for a set being deleted; their revisions stay live and they count for
// the minReadySeconds requeue.
func memberPods(set *StatefulSet, pods []*podstatus.Pod) (members []*podstatus.Pod, ords []int32, unparsed []*podstatus.Pod, err error) {
	ms := make([]member, 0, len(pods))
	sorted := true
	for _, p := range pods {
		if p == nil {
			continue
		}
		parent, o, ok := ParentAndOrdinal(p.Name)
		if parent != set.Name {
			continue
		}
		if !ok {
			unparsed = append(unparsed, p)
			continue
		}
		if n := len(ms); n > 0 && ms[n-1].ord >= o {
			sorted = false
		}
		ms = append(ms, member{p, o})
	}
	if !sorted {
		slices.SortFunc(ms, func(a, b member) int {
			if c := cmp.Compare(a.ord, b.ord); c != 0 {
				return c
			}
			return cmp.Compare(a.pod.Name, b.pod.Name)
		})
	}
	members = make([]*podstatus.Pod, len(ms))
	ords = make([]int32, len(ms))
	for i := range ms {
		if i > 0 && ms[i].ord == ms[i-1].ord {
			j := i
			for j+1 < len(ms) && ms[j+1].ord == ms[i].ord {
				j++
			}
			return nil, nil, nil, duplicateOrdinal(ms[j].pod.Name)
		}
		members[i], ords[i] = ms[i].pod, ms[i].ord
	}
	return members, ords, unparsed, nil
}

// duplicateOrdinal is the error for pods sharing an ordinal: upstream keeps
// whichever its informer lists last, so no answer would be order-free.
func duplicateOrdinal(pod string) error {
	return field.New("pods", pod, fmt.Errorf("another pod has the ordinal of this one: %w", field.ErrDuplicate))
}
