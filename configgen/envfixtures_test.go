package configgen_test

import (
	"context"
	"errors"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/features"
)

// Test doubles for the env getters, built from the ...Func adapters.

func configMaps(objs ...*v1.ConfigMap) configgen.ConfigMapGetter {
	return configgen.ConfigMapGetterFunc(func(_ context.Context, ns, name string) (*v1.ConfigMap, error) {
		for _, o := range objs {
			if o.Namespace == ns && o.Name == name {
				return o, nil
			}
		}
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, name)
	})
}

func secrets(objs ...*v1.Secret) configgen.SecretGetter {
	return configgen.SecretGetterFunc(func(_ context.Context, ns, name string) (*v1.Secret, error) {
		for _, o := range objs {
			if o.Namespace == ns && o.Name == name {
				return o, nil
			}
		}
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "secrets"}, name)
	})
}

// serviceStore is a ServiceLister that can also say it has not synced.
type serviceStore struct {
	services []*v1.Service
	unsynced bool
	err      error
}

func (s *serviceStore) ListServices(_ context.Context, ns string) ([]*v1.Service, error) {
	if s.err != nil {
		return nil, s.err
	}
	var out []*v1.Service
	for _, svc := range s.services {
		if svc.Namespace == ns {
			out = append(out, svc)
		}
	}
	return out, nil
}

func (s *serviceStore) HasSynced() bool { return !s.unsynced }

func services(svcs ...*v1.Service) *serviceStore { return &serviceStore{services: svcs} }

func staticNode(node *v1.Node) configgen.NodeGetter {
	return configgen.NodeGetterFunc(func(context.Context) (*v1.Node, error) { return node, nil })
}

var errBoom = errors.New("boom")

func cm(ns, name string, data map[string]string) *v1.ConfigMap {
	return &v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Data: data}
}

func secret(ns, name string, data map[string]string) *v1.Secret {
	s := &v1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Data: map[string][]byte{}}
	for k, v := range data {
		s.Data[k] = []byte(v)
	}
	return s
}

func svc(ns, name, ip string, ports ...v1.ServicePort) *v1.Service {
	return &v1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       v1.ServiceSpec{ClusterIP: ip, Ports: ports},
	}
}

func port(name string, p int32, proto v1.Protocol) v1.ServicePort {
	return v1.ServicePort{Name: name, Port: p, Protocol: proto}
}

// kubernetesService is the default/kubernetes Service every pod sees.
func kubernetesService() *v1.Service {
	return svc("default", "kubernetes", "10.96.0.1", port("https", 443, v1.ProtocolTCP))
}

// kubernetesVars are its variables, sorted by name.
func kubernetesVars() []configgen.EnvVar {
	return []configgen.EnvVar{
		{Name: "KUBERNETES_PORT", Value: "tcp://10.96.0.1:443"},
		{Name: "KUBERNETES_PORT_443_TCP", Value: "tcp://10.96.0.1:443"},
		{Name: "KUBERNETES_PORT_443_TCP_ADDR", Value: "10.96.0.1"},
		{Name: "KUBERNETES_PORT_443_TCP_PORT", Value: "443"},
		{Name: "KUBERNETES_PORT_443_TCP_PROTO", Value: "tcp"},
		{Name: "KUBERNETES_SERVICE_HOST", Value: "10.96.0.1"},
		{Name: "KUBERNETES_SERVICE_PORT", Value: "443"},
		{Name: "KUBERNETES_SERVICE_PORT_HTTPS", Value: "443"},
	}
}

// testPod is a pod in namespace "ns" with one container "app" whose env is given.
func testPod(env ...v1.EnvVar) *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: "ns", Name: "web-0", UID: "uid-1",
			Labels:      map[string]string{"app": "web", "tier": `front "end"`},
			Annotations: map[string]string{"Example.com/Owner": "team-a"},
		},
		Spec: v1.PodSpec{
			EnableServiceLinks: ptr.To(true),
			NodeName:           "node-a",
			ServiceAccountName: "sa",
			Containers: []v1.Container{{
				Name: "app",
				Env:  env,
				Resources: v1.ResourceRequirements{
					Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("250m"), v1.ResourceMemory: resource.MustParse("64Mi")},
					Limits:   v1.ResourceList{v1.ResourceCPU: resource.MustParse("1500m"), v1.ResourceMemory: resource.MustParse("128Mi")},
				},
			}},
		},
	}
}

// envInput renders the pod's first container with no other source, with the default gates.
func envInput(pod *v1.Pod) configgen.EnvInput {
	return configgen.EnvInput{Pod: pod, Container: &pod.Spec.Containers[0]}
}

// gates returns the default gates changed by change.
func gates(change func(*features.Gates)) *features.Gates {
	g := features.Default()
	change(&g)
	return &g
}

func lit(name, value string) v1.EnvVar { return v1.EnvVar{Name: name, Value: value} }

func fieldEnv(name, path string) v1.EnvVar {
	return v1.EnvVar{Name: name, ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: path}}}
}

func cmKey(name, cmName, key string, optional bool) v1.EnvVar {
	return v1.EnvVar{Name: name, ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{
		LocalObjectReference: v1.LocalObjectReference{Name: cmName}, Key: key, Optional: ptr.To(optional)}}}
}

func secretKey(name, secretName, key string, optional bool) v1.EnvVar {
	return v1.EnvVar{Name: name, ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{
		LocalObjectReference: v1.LocalObjectReference{Name: secretName}, Key: key, Optional: ptr.To(optional)}}}
}

func resourceEnv(name, container, res, divisor string) v1.EnvVar {
	sel := &v1.ResourceFieldSelector{ContainerName: container, Resource: res}
	if divisor != "" {
		sel.Divisor = resource.MustParse(divisor)
	}
	return v1.EnvVar{Name: name, ValueFrom: &v1.EnvVarSource{ResourceFieldRef: sel}}
}

func fromConfigMap(name, prefix string, optional bool) v1.EnvFromSource {
	return v1.EnvFromSource{Prefix: prefix, ConfigMapRef: &v1.ConfigMapEnvSource{
		LocalObjectReference: v1.LocalObjectReference{Name: name}, Optional: ptr.To(optional)}}
}

func fromSecret(name, prefix string, optional bool) v1.EnvFromSource {
	return v1.EnvFromSource{Prefix: prefix, SecretRef: &v1.SecretEnvSource{
		LocalObjectReference: v1.LocalObjectReference{Name: name}, Optional: ptr.To(optional)}}
}

func vars(kv ...string) []configgen.EnvVar {
	out := make([]configgen.EnvVar, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, configgen.EnvVar{Name: kv[i], Value: kv[i+1]})
	}
	return out
}

// messages returns the warnings' messages, nil for none.
func messages(ws []configgen.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Message)
	}
	return out
}

// reasons returns the warnings' reasons, nil for none.
func reasons(ws []configgen.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Reason)
	}
	return out
}
