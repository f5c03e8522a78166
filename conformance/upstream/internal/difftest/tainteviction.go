package difftest

import (
	"context"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/tainteviction"
	_ "unsafe" // go:linkname
)

//go:linkname TaintEvictionHandlePodUpdate k8s.io/kubernetes/pkg/controller/tainteviction.(*Controller).handlePodUpdate
func TaintEvictionHandlePodUpdate(tc *tainteviction.Controller, ctx context.Context, item TaintEvictionPodItem)

//go:linkname TaintEvictionHandleNodeUpdate k8s.io/kubernetes/pkg/controller/tainteviction.(*Controller).handleNodeUpdate
func TaintEvictionHandleNodeUpdate(tc *tainteviction.Controller, ctx context.Context, item TaintEvictionNodeItem)

// TaintEvictionPodItem and TaintEvictionNodeItem have the layout of the
// taint eviction controller's podUpdateItem and nodeUpdateItem.
type (
	TaintEvictionPodItem  struct{ PodName, PodNamespace, NodeName string }
	TaintEvictionNodeItem struct{ NodeName string }
)

//go:linkname TaintEvictionProcessPodOnNode k8s.io/kubernetes/pkg/controller/tainteviction.(*Controller).processPodOnNode
func TaintEvictionProcessPodOnNode(tc *tainteviction.Controller, ctx context.Context, pod types.NamespacedName, nodeName string, tolerations []v1.Toleration, taints []v1.Taint, now time.Time)

//go:linkname TaintEvictionCancelWork k8s.io/kubernetes/pkg/controller/tainteviction.(*Controller).cancelWorkWithEvent
func TaintEvictionCancelWork(tc *tainteviction.Controller, logger klog.Logger, pod types.NamespacedName)
