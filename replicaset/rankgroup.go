package replicaset

import "github.com/kubesem/kubesem/podstatus"

func podName(p *podstatus.Pod) string {
	if p == nil {
		return ""
	}
	return p.Name
}

func podUID(p *podstatus.Pod) string {
	if p == nil {
		return ""
	}
	return p.UID
}

// toLogarithmic turns keys sorted in the exact mode into logarithmic-mode
// keys, in place: pods that reach a time criterion with exactly the same
// time (the same words up to it, so adjacent) share a group, the one with
// the smallest UID. Only such runs of two or more pods compare UIDs.
func toLogarithmic(keys []sortKey, pods []*podstatus.Pod) {
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[i].same(&keys[j], wordReadyLo+1) {
			j++
		}
		for a := i; a < j; {
			b := a + 1
			for b < j && keys[a].same(&keys[b], keyWords) {
				b++
			}
			g := leastUID(keys[a:b], pods)
			for m := a; m < b; m++ {
				k := &keys[m]
				k.createdGroup = g.idx
				k.w[wordCreatedHi], k.w[wordCreatedLo] = timeWords(k.w[wordCreatedHi], k.w[wordCreatedLo], k.createdBucket, g.uid)
			}
			a = b
		}
		g := leastUID(keys[i:j], pods)
		for m := i; m < j; m++ {
			k := &keys[m]
			k.readyGroup = g.idx
			k.w[wordReadyHi], k.w[wordReadyLo] = timeWords(k.w[wordReadyHi], k.w[wordReadyLo], k.readyBucket, g.uid)
		}
		i = j
	}
}

// group is the pod of a group: its UID prefix and input position.
type group struct {
	uid [2]uint64
	idx int32
}

// leastUID returns the pod of run with the smallest UID, comparing UID
// prefixes first.
func leastUID(run []sortKey, pods []*podstatus.Pod) group {
	least := group{run[0].uid, run[0].idx}
	for m := 1; m < len(run); m++ {
		k := &run[m]
		if k.uid != least.uid {
			if k.uid[0] < least.uid[0] || k.uid[0] == least.uid[0] && k.uid[1] < least.uid[1] {
				least = group{k.uid, k.idx}
			}
		} else if podUID(pods[k.idx]) < podUID(pods[least.idx]) {
			least = group{k.uid, k.idx}
		}
	}
	return least
}
