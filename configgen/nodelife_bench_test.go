package configgen_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/internal/benchpod"
	"github.com/podconfig/podconfig/security"
)

// Shape of BenchmarkNodeLife's node: kubelet's default of 110 pods, 3 containers each, spread
// over 20 namespaces that hold 1,000 Services between them.
const (
	lifePods       = 110
	lifeContainers = 3
	lifeNamespaces = 20
	lifeServices   = 1000
	lifeConfigs    = 100_000
	lifeWarmup     = 10_000
)

// BenchmarkNodeLife runs one Generator as a busy node runs it, on hostfs.OS over a tmpfs
// directory: 110 pods of 3 containers (env from a ConfigMap, a Secret key and the service links
// of their namespace's 50 Services), each container's config made again and again as pods are
// replaced by new ones (a new UID, the old pod's directory removed), for 100,000 container
// configs. It fails if the heap after a GC grows more than 5% between the 10,000th config and
// the last, or if goroutines or open descriptors grow; it reports configs per second of CPU time
// (user + system, so one core's worth however the work was spread).
func BenchmarkNodeLife(b *testing.B) {
	parent := ""
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		parent = "/dev/shm"
	}
	dir, err := os.MkdirTemp(parent, "nodelife")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	root := filepath.Join(dir, "root")

	var objects []interface{}
	for ns := range lifeNamespaces {
		namespace := fmt.Sprintf("team-%02d", ns)
		objects = append(objects,
			&v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: "settings"}, Data: map[string]string{"MODE": "prod", "REGION": "eu-west-1", "WORKERS": "8"}},
			&v1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: "db"}, Data: map[string][]byte{"password": []byte("s3cret")}})
	}
	for i := range lifeServices {
		objects = append(objects, &v1.Service{
			ObjectMeta: metav1.ObjectMeta{Namespace: fmt.Sprintf("team-%02d", i%lifeNamespaces), Name: fmt.Sprintf("svc-%d", i)},
			Spec: v1.ServiceSpec{ClusterIP: fmt.Sprintf("10.96.%d.%d", 1+i/250, i%250), Ports: []v1.ServicePort{
				{Name: "http", Port: 80, Protocol: v1.ProtocolTCP},
			}},
		})
	}
	node := configgentest.NewNode(objects...)
	node.Options.Files = hostfs.OS{}
	node.Options.RootDir, node.Options.PodLogsDir = root, filepath.Join(dir, "logs")
	node.Options.TerminationMessageRand = nil
	node.ImageUsers["registry.example/app:1"] = security.ImageUser{UID: ptr.To(int64(1000))}
	gen, err := node.Generator()
	if err != nil {
		b.Fatal(err)
	}

	ctx := context.Background()
	serial := 0
	newPod := func(slot int) *v1.Pod {
		serial++
		pod := &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{
				Namespace: fmt.Sprintf("team-%02d", slot%lifeNamespaces), Name: fmt.Sprintf("app-%d", serial),
				UID: types.UID(fmt.Sprintf("00000000-0000-4000-8000-%012d", serial)),
			},
			Spec: v1.PodSpec{NodeName: "node", EnableServiceLinks: ptr.To(true)},
		}
		for c := range lifeContainers {
			pod.Spec.Containers = append(pod.Spec.Containers, v1.Container{
				Name: fmt.Sprintf("c%d", c), Image: "registry.example/app:1",
				EnvFrom: []v1.EnvFromSource{{ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "settings"}}}},
				Env: []v1.EnvVar{
					{Name: "DB_PASSWORD", ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: "db"}, Key: "password"}}},
					{Name: "URL", Value: "http://$(SVC_0_SERVICE_HOST):80/"},
				},
				TerminationMessagePath:   v1.TerminationMessagePathDefault,
				TerminationMessagePolicy: v1.TerminationMessageReadFile,
				ImagePullPolicy:          v1.PullIfNotPresent,
			})
		}
		return pod
	}
	pods := make([]*v1.Pod, lifePods)
	for i := range pods {
		pods[i] = newPod(i)
	}

	heapAfterGC := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	openFDs := func() int {
		entries, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			return -1
		}
		return len(entries)
	}

	b.ReportAllocs()
	for b.Loop() {
		var warmHeap uint64
		var warmGoroutines, warmFDs int
		cpu := benchpod.ProcessCPU()
		start := time.Now()
		for n := range lifeConfigs {
			// Each round makes every container's config once; a pod is replaced every 30 configs,
			// so the node sees ~3,300 pods come and go.
			slot := (n / lifeContainers) % lifePods
			pod := pods[slot]
			c := &pod.Spec.Containers[n%lifeContainers]
			_, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{
				Pod: pod, Container: c, PodIPs: []string{fmt.Sprintf("10.244.0.%d", 2+slot)}, ImageRef: "sha256:app",
			})
			if err != nil {
				b.Fatal(err)
			}
			if n%30 == 29 {
				victim := (n / 30) % lifePods
				old := pods[victim]
				if err := os.RemoveAll(filepath.Join(root, "pods", string(old.UID))); err != nil {
					b.Fatal(err)
				}
				if err := os.RemoveAll(filepath.Join(dir, "logs", old.Namespace+"_"+old.Name+"_"+string(old.UID))); err != nil {
					b.Fatal(err)
				}
				pods[victim] = newPod(victim)
			}
			if n+1 == lifeWarmup {
				warmHeap, warmGoroutines, warmFDs = heapAfterGC(), runtime.NumGoroutine(), openFDs()
			}
		}
		elapsed := time.Since(start)
		cpuUsed := benchpod.ProcessCPU() - cpu
		heap, goroutines, fds := heapAfterGC(), runtime.NumGoroutine(), openFDs()
		growth := 100 * (float64(heap) - float64(warmHeap)) / float64(warmHeap)
		b.ReportMetric(float64(lifeConfigs)/cpuUsed.Seconds(), "configs/cpu-s")
		b.ReportMetric(float64(lifeConfigs)/elapsed.Seconds(), "configs/s")
		b.ReportMetric(growth, "heap-growth-%")
		b.ReportMetric(float64(heap)/(1<<20), "heap-MiB")
		b.ReportMetric(float64(goroutines-warmGoroutines), "goroutines-delta")
		b.ReportMetric(float64(fds-warmFDs), "fds-delta")
		if growth > 5 {
			b.Errorf("heap after GC grew %.1f%% from the %dth config (%d B) to the last (%d B)", growth, lifeWarmup, warmHeap, heap)
		}
		if goroutines > warmGoroutines || fds > warmFDs {
			b.Errorf("goroutines %d -> %d, open descriptors %d -> %d", warmGoroutines, goroutines, warmFDs, fds)
		}
	}
}
