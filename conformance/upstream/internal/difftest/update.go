package difftest

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
)

// UpdateStrategy is what a registry strategy does with an update before
// storing it.
type UpdateStrategy interface {
	PrepareForUpdate(ctx context.Context, obj, old runtime.Object)
	ValidateUpdate(ctx context.Context, obj, old runtime.Object) utilfield.ErrorList
}

// RegistryUpdate runs the API server's update path for one resource on
// oldV1 (as stored) and newV1 (as sent, defaulted): both converted into
// the internal objects oldIn and newIn, then the strategy's
// PrepareForUpdate and ValidateUpdate, under a request for group/v1
// resource. It fails t when a conversion fails.
func RegistryUpdate(t interface{ Fatalf(string, ...any) }, s UpdateStrategy, group, resource string, oldV1, newV1, oldIn, newIn runtime.Object) utilfield.ErrorList {
	if err := legacyscheme.Scheme.Convert(oldV1, oldIn, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	if err := legacyscheme.Scheme.Convert(newV1, newIn, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	ctx := genericapirequest.WithRequestInfo(context.Background(), &genericapirequest.RequestInfo{APIGroup: group, APIVersion: "v1", Resource: resource})
	s.PrepareForUpdate(ctx, newIn, oldIn)
	return s.ValidateUpdate(ctx, newIn, oldIn)
}
