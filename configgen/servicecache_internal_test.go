package configgen

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// The cache keeps an entry per namespace, serves it only for the Services it was built from, and
// starts over rather than hold more than maxCachedVars variables.
func TestServiceEnvCacheEntries(t *testing.T) {
	svc := func(ns, ip string) []*v1.Service {
		return []*v1.Service{{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "db"},
			Spec: v1.ServiceSpec{ClusterIP: ip, Ports: []v1.ServicePort{{Port: 5432}}}}}
	}
	a, b := serviceEnvKey{namespace: "a", enableServiceLinks: true}, serviceEnvKey{namespace: "b", enableServiceLinks: true}
	c := &ServiceEnvCache{}
	c.store(a, svc("a", "10.0.0.1"), serviceEnvVars(svc("a", "10.0.0.1")), true)
	c.store(b, svc("b", "10.0.0.2"), serviceEnvVars(svc("b", "10.0.0.2")), true)

	assert.NotNil(t, c.lookup(a, svc("a", "10.0.0.1")), "each namespace keeps its entry")
	assert.NotNil(t, c.lookup(b, svc("b", "10.0.0.2")), "each namespace keeps its entry")
	assert.Nil(t, c.lookup(a, svc("a", "10.0.0.9")), "a changed Service is built again")
	assert.Nil(t, c.lookup(serviceEnvKey{namespace: "a"}, svc("a", "10.0.0.1")), "without service links a pod sees other Services")
	var none *ServiceEnvCache
	assert.Nil(t, none.lookup(a, svc("a", "10.0.0.1")), "no cache, no entry")

	huge := make([]EnvVar, maxCachedVars)
	c.store(serviceEnvKey{namespace: "huge"}, svc("huge", "10.0.0.3"), huge, true)
	assert.Nil(t, c.lookup(a, svc("a", "10.0.0.1")), "past the bound the cache starts over")
	assert.NotNil(t, c.lookup(serviceEnvKey{namespace: "huge"}, svc("huge", "10.0.0.3")))
	assert.Equal(t, maxCachedVars, c.vars)
	c.store(serviceEnvKey{namespace: "huge"}, svc("huge", "10.0.0.3"), huge[:1], true)
	assert.Equal(t, 1, c.vars, "a replaced entry no longer counts")
}

// A ServiceEnvCache a provider keeps is where MakePodEnvironmentVariables stores the variables it
// builds and where the next call for the same Services finds them, not building them again.
func TestServiceEnvCacheKeptByPodCalls(t *testing.T) {
	services := ServiceListerFunc(func(_ context.Context, ns string) ([]*v1.Service, error) {
		return []*v1.Service{{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "db"},
			Spec: v1.ServiceSpec{ClusterIP: "10.0.0.1", Ports: []v1.ServicePort{{Port: 5432}}}}}, nil
	})
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "p"},
		Spec: v1.PodSpec{EnableServiceLinks: ptr.To(true), Containers: []v1.Container{{Name: "a"}, {Name: "b"}}}}
	c := &ServiceEnvCache{}
	key := serviceEnvKey{namespace: "shop", enableServiceLinks: true}
	_, _, err := MakePodEnvironmentVariables(context.Background(), PodEnvInput{Pod: pod, Services: services, ServiceEnvCache: c})
	require.NoError(t, err)
	first := c.entries[key]
	require.NotNil(t, first, "the first call stores the variables")
	_, _, err = MakePodEnvironmentVariables(context.Background(), PodEnvInput{Pod: pod, Services: services, ServiceEnvCache: c})
	require.NoError(t, err)
	assert.Same(t, first, c.entries[key], "the next call reuses them")
}
