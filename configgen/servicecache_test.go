package configgen_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
)

// A Generator reuses the service variables it built while the Services are unchanged; every
// change of a field the variables are made of, in a new object or the same one, and a pod that
// sees other Services, give the variables MakeEnvironmentVariables builds from scratch.
func TestGeneratorServiceVariablesFollowServices(t *testing.T) {
	node, gen := sampleNode(t)
	svc := func(ns, name, ip string, ports ...v1.ServicePort) *v1.Service {
		return &v1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec: v1.ServiceSpec{ClusterIP: ip, Ports: ports}}
	}
	web := svc("shop", "web", "10.96.0.10", v1.ServicePort{Name: "http", Port: 80})
	node.Objects.Add(svc("default", "kubernetes", "10.96.0.1", v1.ServicePort{Name: "https", Port: 443}))
	node.Objects.Add(web)
	node.Objects.Add(svc("other", "db", "10.96.0.20", v1.ServicePort{Port: 5432}))

	steps := []struct {
		name   string
		change func()
		ns     string
	}{
		{name: "first call", change: func() {}},
		{name: "unchanged", change: func() {}},
		{name: "cluster IP changed in place", change: func() { web.Spec.ClusterIP = "10.96.0.11" }},
		{name: "port number changed in place", change: func() { web.Spec.Ports[0].Port = 8080 }},
		{name: "port name changed in place", change: func() { web.Spec.Ports[0].Name = "web" }},
		{name: "protocol changed in place", change: func() { web.Spec.Ports[0].Protocol = v1.ProtocolUDP }},
		{name: "port added in place", change: func() { web.Spec.Ports = append(web.Spec.Ports, v1.ServicePort{Port: 9090}) }},
		{name: "replaced by a new object", change: func() {
			web = svc("shop", "web", "10.96.0.12", v1.ServicePort{Name: "http", Port: 81})
			node.Objects.Add(web)
		}},
		{name: "a Service added", change: func() { node.Objects.Add(svc("shop", "cache", "10.96.0.13", v1.ServicePort{Port: 6379})) }},
		{name: "a pod in another namespace", change: func() {}, ns: "other"},
		{name: "back in the first namespace", change: func() {}},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			step.change()
			pod := samplePod()
			pod.Spec.EnableServiceLinks = ptr.To(true)
			if step.ns != "" {
				pod.Namespace = step.ns
			}
			ctx := context.Background()
			cfg, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0],
				PodIPs: []string{"10.244.1.17"}, ImageRef: "sha256:abc", Volumes: node.Volumes(pod)})
			require.NoError(t, err)
			want, _, err := configgen.MakeEnvironmentVariables(ctx, configgen.EnvInput{Pod: pod, Container: &pod.Spec.Containers[0],
				PodIPs: []string{"10.244.1.17"}, Services: node.Objects})
			require.NoError(t, err)
			got := make([]configgen.EnvVar, len(cfg.Envs))
			for i, kv := range cfg.Envs {
				got[i] = configgen.EnvVar{Name: kv.Key, Value: string(kv.Value)}
			}
			assert.Equal(t, want, got)
		})
	}
}

// Service variables a Generator reuses are checked like any other variable: a hostile Service
// fails every call, the one that builds its variables and the ones that find them cached, and a
// checked entry is not reused for a Service that changed.
func TestGeneratorCachedServiceVariablesAreChecked(t *testing.T) {
	node, gen := sampleNode(t)
	web := &v1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web"},
		Spec: v1.ServiceSpec{ClusterIP: "10.96.0.10", Ports: []v1.ServicePort{{Name: "http", Port: 80}}}}
	node.Objects.Add(&v1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "kubernetes"},
		Spec: v1.ServiceSpec{ClusterIP: "10.96.0.1", Ports: []v1.ServicePort{{Name: "https", Port: 443}}}})
	node.Objects.Add(web)
	generate := func() error {
		pod := samplePod()
		pod.Spec.EnableServiceLinks = ptr.To(true)
		_, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0],
			PodIPs: []string{"10.244.1.17"}, ImageRef: "sha256:abc", Volumes: node.Volumes(pod)})
		if err == nil {
		}
		return err
	}
	steps := []struct {
		name    string
		change  func()
		wantErr string
	}{
		{name: "valid Services", change: func() {}},
		{name: "valid Services again, from the cache", change: func() {}},
		{name: "a NUL in the cluster IP", change: func() { web.Spec.ClusterIP = "10.96.0.10\x00x" },
			wantErr: `invalid value of environment variable "WEB_PORT": must not contain a NUL byte (at byte 16)`},
		{name: "the same Service again, from the cache", change: func() {},
			wantErr: `invalid value of environment variable "WEB_PORT": must not contain a NUL byte (at byte 16)`},
		{name: "a NUL in a port name", change: func() { web.Spec.ClusterIP, web.Spec.Ports[0].Name = "10.96.0.10", "h\x00t" },
			wantErr: `invalid environment variable name "WEB_SERVICE_PORT_H\x00T": must not contain a NUL byte`},
		{name: "the same port name again, from the cache", change: func() {},
			wantErr: `invalid environment variable name "WEB_SERVICE_PORT_H\x00T": must not contain a NUL byte`},
		{name: "valid once more", change: func() { web.Spec.Ports[0].Name = "http" }},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			step.change()
			err := generate()
			if step.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, configgen.ErrInvalidPod)
			assert.ErrorContains(t, err, step.wantErr)
		})
	}
}
