package statefulset_test

import (
	"fmt"

	"github.com/kubesem/kubesem/statefulset"
)

func ExampleDNSName() {
	for o := int32(0); o < 3; o++ {
		pod := statefulset.PodName("web", o)
		fmt.Println(pod, statefulset.DNSName(pod, "nginx", "default", "cluster.local"), statefulset.ClaimName("www", "web", o))
	}
	// Output:
	// web-0 web-0.nginx.default.svc.cluster.local www-web-0
	// web-1 web-1.nginx.default.svc.cluster.local www-web-1
	// web-2 web-2.nginx.default.svc.cluster.local www-web-2
}
