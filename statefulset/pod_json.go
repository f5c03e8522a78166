package statefulset

import "encoding/json"

// UnmarshalJSON decodes a pod as encoding/json does and, when the input
// has no kubesem "volumes" list, reads the volumes from spec.volumes as the
// API server returns them (a persistentVolumeClaim volume gives its
// claimName), so that a real Pod object keeps its claims.
func (p *Pod) UnmarshalJSON(b []byte) error {
	type plain Pod
	var x plain
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	if x.Volumes == nil {
		var api struct {
			Spec struct {
				Volumes []struct {
					Name                  string `json:"name"`
					PersistentVolumeClaim *struct {
						ClaimName string `json:"claimName"`
					} `json:"persistentVolumeClaim"`
				} `json:"volumes"`
			} `json:"spec"`
		}
		if err := json.Unmarshal(b, &api); err != nil {
			return err
		}
		for _, v := range api.Spec.Volumes {
			vol := Volume{Name: v.Name}
			if v.PersistentVolumeClaim != nil {
				vol.ClaimName = v.PersistentVolumeClaim.ClaimName
			}
			x.Volumes = append(x.Volumes, vol)
		}
	}
	*p = Pod(x)
	return nil
}
