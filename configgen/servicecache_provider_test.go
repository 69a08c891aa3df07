package configgen_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
)

// cachePod is a pod of namespace ns seeing its Services, with an init, a regular and an ephemeral
// container, one of which refers to a service variable.
func cachePod(ns string) *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web-0"},
		Spec: v1.PodSpec{
			EnableServiceLinks: ptr.To(true),
			InitContainers:     []v1.Container{{Name: "init", Env: []v1.EnvVar{lit("A", "1")}}},
			Containers:         []v1.Container{{Name: "app", Env: []v1.EnvVar{lit("URL", "http://$(WEB_SERVICE_HOST):$(WEB_SERVICE_PORT)")}}},
			EphemeralContainers: []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon{
				Name: "debug", Env: []v1.EnvVar{lit("B", "2")}}}},
		},
	}
}

// A provider's ServiceEnvCache, kept from call to call, never changes what a call returns: every
// change of a field the variables are made of, in a new object or the same one, and a pod that
// sees other Services, give what a call without the cache gives, for the whole pod and for one
// container.
func TestServiceEnvCacheFollowsServices(t *testing.T) {
	web := svc("shop", "web", "10.96.0.10", port("http", 80, v1.ProtocolTCP))
	store := services(kubernetesService(), web, svc("other", "db", "10.96.0.20", port("", 5432, "")))
	cache := &configgen.ServiceEnvCache{}
	steps := []struct {
		name   string
		change func()
		ns     string
	}{
		{name: "the first call builds the variables", change: func() {}},
		{name: "an unchanged Service reuses them", change: func() {}},
		{name: "a cluster IP changed in place builds them again", change: func() { web.Spec.ClusterIP = "10.96.0.11" }},
		{name: "a port number changed in place builds them again", change: func() { web.Spec.Ports[0].Port = 8080 }},
		{name: "a port name changed in place builds them again", change: func() { web.Spec.Ports[0].Name = "web" }},
		{name: "a protocol changed in place builds them again", change: func() { web.Spec.Ports[0].Protocol = v1.ProtocolUDP }},
		{name: "a port added in place builds them again", change: func() { web.Spec.Ports = append(web.Spec.Ports, port("", 9090, "")) }},
		{name: "a Service replaced by a new object builds them again", change: func() {
			web = svc("shop", "web", "10.96.0.12", port("http", 81, v1.ProtocolTCP))
			store.services[1] = web
		}},
		{name: "a Service added builds them again", change: func() {
			store.services = append(store.services, svc("shop", "cache", "10.96.0.13", port("", 6379, "")))
		}},
		{name: "a Service removed builds them again", change: func() { store.services = store.services[:len(store.services)-1] }},
		{name: "a pod of another namespace gets its own", change: func() {}, ns: "other"},
		{name: "back in the first namespace", change: func() {}},
	}
	ctx := context.Background()
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			step.change()
			ns := "shop"
			if step.ns != "" {
				ns = step.ns
			}
			pod := cachePod(ns)
			want, _, err := configgen.MakePodEnvironmentVariables(ctx, configgen.PodEnvInput{Pod: pod, Services: store})
			require.NoError(t, err)
			got, _, err := configgen.MakePodEnvironmentVariables(ctx, configgen.PodEnvInput{Pod: pod, Services: store, ServiceEnvCache: cache})
			require.NoError(t, err)
			assert.Equal(t, want, got)
			one, _, err := configgen.MakeEnvironmentVariables(ctx, configgen.EnvInput{Pod: pod, Container: &pod.Spec.Containers[0], Services: store, ServiceEnvCache: cache})
			require.NoError(t, err)
			assert.Equal(t, want[1].Vars, one)
		})
	}
}

// One ServiceEnvCache shared by calls running at once for pods of namespaces that see other
// Services (the entries replaced back and forth) gives each pod what a call without it gives.
func TestServiceEnvCacheConcurrentCalls(t *testing.T) {
	const namespaces, rounds = 4, 30
	store := services(kubernetesService())
	for n := range namespaces {
		for s := 0; s <= n; s++ {
			store.services = append(store.services, svc(fmt.Sprintf("ns%d", n), fmt.Sprintf("s%d", s), fmt.Sprintf("10.1.%d.%d", n, s), port("p", int32(80+n), v1.ProtocolTCP)))
		}
		store.services = append(store.services, svc(fmt.Sprintf("ns%d", n), "web", fmt.Sprintf("10.2.%d.1", n), port("", 80, "")))
	}
	ctx := context.Background()
	want := make([]configgen.PodEnv, namespaces)
	for n := range namespaces {
		var err error
		want[n], _, err = configgen.MakePodEnvironmentVariables(ctx, configgen.PodEnvInput{Pod: cachePod(fmt.Sprintf("ns%d", n)), Services: store})
		require.NoError(t, err)
	}
	cache := &configgen.ServiceEnvCache{}
	var wg sync.WaitGroup
	failures := make(chan string, 2*namespaces*rounds)
	for n := range namespaces {
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range rounds {
					got, _, err := configgen.MakePodEnvironmentVariables(ctx, configgen.PodEnvInput{Pod: cachePod(fmt.Sprintf("ns%d", n)), Services: store, ServiceEnvCache: cache})
					if err != nil || !assert.ObjectsAreEqual(want[n], got) {
						failures <- fmt.Sprintf("ns%d round %d: error %v, or another environment than without the cache", n, r, err)
					}
				}
			}()
		}
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
}
