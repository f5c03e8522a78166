package live

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestServerUp(t *testing.T) {
	nodes, err := client.CoreV1().Nodes().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes.Items) != len(nodeNames) {
		t.Fatalf("%d nodes, want %d", len(nodes.Items), len(nodeNames))
	}
}
