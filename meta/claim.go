package meta

// Ownership is what a controller does with an object it lists.
type Ownership string

// Ownerships.
const (
	// Owned: the controller controls the object and claims it.
	Owned Ownership = "Owned"
	// Adopt: the object has no controller and the controller claims it;
	// the controller becomes its controller.
	Adopt Ownership = "Adopt"
	// Release: the controller controls the object but no longer claims
	// it; it removes its controller reference.
	Release Ownership = "Release"
	// Ignore: the controller leaves the object alone.
	Ignore Ownership = "Ignore"
)

// ClaimObject decides what the controller owner does with obj, which it
// lists; claims says whether owner's claim holds for obj (its selector
// selects obj's labels, and whatever else the controller requires). An
// object whose controller reference names owner's UID is Owned while
// claimed, else released unless owner is being deleted (then ignored); an
// orphan claimed is adopted unless owner or obj is being deleted or obj
// lives outside owner's namespace (an owner without namespace checks
// none); any other object is ignored.
//
// Source: upstream pkg/controller/controller_ref_manager.go
// BaseControllerRefManager.ClaimObject (v1.36.3).
func ClaimObject(owner, obj *ObjectMeta, claims bool) Ownership {
	if ref := obj.ControllerRef(); ref != nil {
		switch {
		case ref.UID != owner.UID:
			return Ignore
		case claims:
			return Owned
		case owner.IsDeleting():
			return Ignore
		}
		return Release
	}
	if owner.IsDeleting() || !claims || obj.IsDeleting() {
		return Ignore
	}
	if owner.Namespace != "" && owner.Namespace != obj.Namespace {
		return Ignore
	}
	return Adopt
}
