package securitytest_test

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/security"
	"github.com/podconfig/podconfig/security/securitytest"
)

// A Resolver wired with in-memory backends renders the same output on any machine: a pod with
// hostUsers: false gets its own block of host ids.
func ExampleAllocatingUserNamespaces() {
	r := security.New(security.Config{
		ThermalThrottle: securitytest.ThermalPaths{},
		UserNamespaces:  securitytest.AllocatingUserNamespaces(65536, 16),
	})
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "1f2e"},
		Spec:       v1.PodSpec{HostUsers: ptr.To(false)},
	}
	ns, err := r.NamespacesForPod(context.Background(), pod)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := ns.GetUsernsOptions()
	fmt.Println(m.GetMode(), m.GetUids()[0].GetHostId(), m.GetUids()[0].GetContainerId(), m.GetUids()[0].GetLength())
	// Output: POD 65536 0 65536
}
