package configgen_test

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/mounts"
)

// FuzzMakeEnvironmentVariables feeds hostile values, field paths, resource names, file paths and
// env files through every source: it must never panic and must give the same answer twice.
func FuzzMakeEnvironmentVariables(f *testing.F) {
	f.Add("$(A)-$$(B)-$(", "metadata.labels['app']", "limits.cpu", "1m", "sub/../x.env", "A='v'\n", "svc-1")
	f.Add("", "spec.host", "requests.hugepages-2Mi", "0", "/abs.env", "A= 'x'\nB='", "kubernetes")
	f.Add("$()", "metadata.annotations['']", "limits.", "-1", "..", "\x00='x'", "")
	f.Add("$(KUBERNETES_SERVICE_HOST)", "status.podIPs", "cpu", "1n", "link.env", "A='multi\nline' # c\n", "A-b")
	f.Fuzz(func(t *testing.T, value, fieldPath, res, divisor, path, content, svcName string) {
		fsys := hostfs.NewMemory()
		if err := fsys.MkdirAll("/vol", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := fsys.WriteFile("/vol/x.env", []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		_ = fsys.Symlink("x.env", "/vol/link.env")
		sel := &v1.ResourceFieldSelector{Resource: res}
		if q, err := resource.ParseQuantity(divisor); err == nil {
			sel.Divisor = q
		}
		pod := testPod(
			lit("A", value),
			v1.EnvVar{Name: value, Value: value},
			fieldEnv("F", fieldPath),
			v1.EnvVar{Name: "R", ValueFrom: &v1.EnvVarSource{ResourceFieldRef: sel}},
			fileEnv("E", "vol", path, "A", true),
			cmKey(value, "cfg", value, true),
		)
		pod.Labels[value] = value
		in := envInput(pod)
		in.PodIPs = []string{value, "10.0.0.1"}
		in.Volumes = mounts.VolumeMap{"vol": {HostPath: "/vol"}}
		in.Files = fsys
		in.ConfigMaps = configMaps(cm("ns", "cfg", map[string]string{value: value}))
		in.Services = services(svc("ns", svcName, value, port(value, 80, v1.Protocol(value))), kubernetesService())
		in.Node = staticNode(&v1.Node{Status: v1.NodeStatus{Addresses: []v1.NodeAddress{{Type: v1.NodeInternalIP, Address: value}}}})

		first, _, err1 := configgen.MakeEnvironmentVariables(context.Background(), in)
		again, _, err2 := configgen.MakeEnvironmentVariables(context.Background(), in)
		if (err1 == nil) != (err2 == nil) || len(first) != len(again) {
			t.Fatalf("two calls differ: %v / %v", err1, err2)
		}
		for i := range first {
			if first[i] != again[i] {
				t.Fatalf("two calls differ at %d: %v / %v", i, first[i], again[i])
			}
		}
		seen := map[string]bool{}
		for _, e := range first {
			if seen[e.Name] {
				t.Fatalf("variable %q appears twice", e.Name)
			}
			seen[e.Name] = true
		}
	})
}
