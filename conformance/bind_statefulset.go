package conformance

import "github.com/kubesem/kubesem/statefulset"

type statefulsetOrdinalsIn struct {
	Replicas int32 `json:"replicas"`
	Start    int32 `json:"start"`
}

type statefulsetOrdinalsOut struct {
	First int32 `json:"first"`
	End   int32 `json:"end"`
}

type statefulsetParseIn struct {
	Pod string `json:"pod"`
}

type statefulsetParseOut struct {
	Parent  string `json:"parent"`
	Ordinal int32  `json:"ordinal"`
	OK      bool   `json:"ok"`
}

type statefulsetIdentityIn struct {
	Set       string   `json:"set"`
	Ordinal   int32    `json:"ordinal"`
	Service   string   `json:"service"`
	Namespace string   `json:"namespace"`
	Domain    string   `json:"domain"`
	Claims    []string `json:"claims"`
}

type statefulsetIdentityOut struct {
	Pod      string            `json:"pod"`
	Hostname string            `json:"hostname"`
	DNS      string            `json:"dns"`
	Claims   []string          `json:"claims"`
	Labels   map[string]string `json:"labels"`
}

// statefulsetDecisions returns the statefulset decisions the vectors in testdata/statefulset name.
func statefulsetDecisions() []Decision {
	return []Decision{
		Bind("statefulset.Ordinals", func(in statefulsetOrdinalsIn, _ statefulset.Options) (statefulsetOrdinalsOut, error) {
			f, e, err := statefulset.Ordinals(in.Replicas, in.Start)
			return statefulsetOrdinalsOut{First: f, End: e}, err
		}),
		Bind("statefulset.ParentAndOrdinal", func(in statefulsetParseIn, _ statefulset.Options) (statefulsetParseOut, error) {
			p, o, ok := statefulset.ParentAndOrdinal(in.Pod)
			return statefulsetParseOut{Parent: p, Ordinal: o, OK: ok}, nil
		}),
		Bind("statefulset.Identity", func(in statefulsetIdentityIn, _ statefulset.Options) (statefulsetIdentityOut, error) {
			pod := statefulset.PodName(in.Set, in.Ordinal)
			claims := make([]string, 0, len(in.Claims))
			for _, c := range in.Claims {
				claims = append(claims, statefulset.ClaimName(c, in.Set, in.Ordinal))
			}
			return statefulsetIdentityOut{
				Pod: pod, Hostname: pod,
				DNS:    statefulset.DNSName(pod, in.Service, in.Namespace, in.Domain),
				Claims: claims,
				Labels: statefulset.IdentityLabels(in.Set, in.Ordinal),
			}, nil
		}),
	}
}
