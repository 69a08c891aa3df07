package configgen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The cache keeps an entry per namespace, serves it only for the Services it was built from, and
// starts over rather than hold more than maxCachedVars variables.
func TestServiceEnvCacheEntries(t *testing.T) {
	svc := func(ns, ip string) []*v1.Service {
		return []*v1.Service{{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "db"},
			Spec: v1.ServiceSpec{ClusterIP: ip, Ports: []v1.ServicePort{{Port: 5432}}}}}
	}
	a, b := serviceEnvKey{namespace: "a", enableServiceLinks: true}, serviceEnvKey{namespace: "b", enableServiceLinks: true}
	c := &serviceEnvCache{}
	c.store(a, svc("a", "10.0.0.1"), serviceEnvVars(svc("a", "10.0.0.1")), true)
	c.store(b, svc("b", "10.0.0.2"), serviceEnvVars(svc("b", "10.0.0.2")), true)

	assert.NotNil(t, c.lookup(a, svc("a", "10.0.0.1")), "each namespace keeps its entry")
	assert.NotNil(t, c.lookup(b, svc("b", "10.0.0.2")), "each namespace keeps its entry")
	assert.Nil(t, c.lookup(a, svc("a", "10.0.0.9")), "a changed Service is built again")
	assert.Nil(t, c.lookup(serviceEnvKey{namespace: "a"}, svc("a", "10.0.0.1")), "without service links a pod sees other Services")
	var none *serviceEnvCache
	assert.Nil(t, none.lookup(a, svc("a", "10.0.0.1")), "no cache, no entry")

	huge := make([]EnvVar, maxCachedVars)
	c.store(serviceEnvKey{namespace: "huge"}, svc("huge", "10.0.0.3"), huge, true)
	assert.Nil(t, c.lookup(a, svc("a", "10.0.0.1")), "past the bound the cache starts over")
	assert.NotNil(t, c.lookup(serviceEnvKey{namespace: "huge"}, svc("huge", "10.0.0.3")))
	assert.Equal(t, maxCachedVars, c.vars)
	c.store(serviceEnvKey{namespace: "huge"}, svc("huge", "10.0.0.3"), huge[:1], true)
	assert.Equal(t, 1, c.vars, "a replaced entry no longer counts")
}
