package volumes_test

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/volumes"
)

type configMaps map[string]*v1.ConfigMap

func (c configMaps) GetConfigMap(_ context.Context, namespace, name string) (*v1.ConfigMap, error) {
	return c[namespace+"/"+name], nil
}

// A provider builds the files of a pod's kube-api-access volume offline: the token from a
// TokenGetter (here a fixed one), the cluster CA from the kube-root-ca.crt ConfigMap, the
// namespace from the pod.
func ExampleSources_Payload() {
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "1234"},
		Spec: v1.PodSpec{ServiceAccountName: "default", Containers: []v1.Container{{Name: "app"}}}}
	mode := int32(0o644)
	exp := int64(3607)
	vol := &v1.Volume{Name: "kube-api-access-x7k2p", VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{
		DefaultMode: &mode,
		Sources: []v1.VolumeProjection{
			{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: &exp}},
			{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "kube-root-ca.crt"},
				Items: []v1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			{DownwardAPI: &v1.DownwardAPIProjection{Items: []v1.DownwardAPIVolumeFile{
				{Path: "namespace", FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
		},
	}}}
	src := volumes.Sources{
		ConfigMaps: configMaps{"shop/kube-root-ca.crt": {Data: map[string]string{"ca.crt": "-----BEGIN CERTIFICATE-----..."}}},
		Tokens:     volumes.PlaceholderTokens{},
	}
	payload, err := src.Payload(context.Background(), pod, vol)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range payload {
		fmt.Printf("%s %v %d bytes\n", f.Path, f.Mode, len(f.Data))
	}
	// Output:
	// ca.crt -rw-r--r-- 30 bytes
	// namespace -rw-r--r-- 4 bytes
	// token -rw-r--r-- 27 bytes
}

// The atomic writer puts a payload into a volume directory; MemoryFS keeps it offline. An
// unchanged payload is not written again.
func ExampleAtomicWriter_Write() {
	fsys := volumes.NewMemoryFS()
	w := volumes.NewAtomicWriter(fsys)
	payload := volumes.Payload{{Path: "app.conf", Data: []byte("debug=false\n"), Mode: 0o644}}
	if err := w.Write(payload, nil); err != nil {
		fmt.Println(err)
		return
	}
	link, _ := fsys.Readlink("app.conf")
	ts, _ := fsys.Readlink("..data")
	data, _ := fsys.ReadFile(ts + "/app.conf")
	fmt.Printf("app.conf -> %s: %q\n", link, data)
	// Output:
	// app.conf -> ..data/app.conf: "debug=false\n"
}

// A node sets a pod's volumes up with a Manager and hands the result to configgen's
// ContainerRequest; offline, a MemoryHost stands in for the node.
func ExampleManager_SetUpPod() {
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "1234"},
		Spec: v1.PodSpec{
			Containers: []v1.Container{{Name: "app"}},
			Volumes: []v1.Volume{
				{Name: "scratch", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
				{Name: "info", VolumeSource: v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{
					DefaultMode: ptrTo[int32](0o644),
					Items:       []v1.DownwardAPIVolumeFile{{Path: "name", FieldRef: &v1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
				}}},
			},
		}}
	host := volumes.NewMemoryHost()
	m := &volumes.Manager{RootDir: "/var/lib/kubelet", Host: host, Sources: volumes.Sources{Node: node{}}}
	_ = host.Files.MkdirAll(m.PodDir(pod), 0o750) // configgen's MakePodDataDirs on a node
	vm, err := m.SetUpPod(context.Background(), pod)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []string{"scratch", "info"} {
		mount, ok := host.Mounted(vm[name].HostPath)
		if !ok {
			mount = "on the node's disk"
		}
		fmt.Printf("%s: %s (read-only %v), %s\n", name, vm[name].HostPath, vm[name].ReadOnly, mount)
	}
	// Output:
	// scratch: /var/lib/kubelet/pods/1234/volumes/kubernetes.io~empty-dir/scratch (read-only false), on the node's disk
	// info: /var/lib/kubelet/pods/1234/volumes/kubernetes.io~downward-api/info (read-only true), tmpfs size=1073741824,noswap
}

type node struct{}

func (node) GetNode(context.Context) (*v1.Node, error) {
	return &v1.Node{Status: v1.NodeStatus{Allocatable: v1.ResourceList{v1.ResourceMemory: resource.MustParse("1Gi")}}}, nil
}

func ptrTo[T any](v T) *T { return &v }
