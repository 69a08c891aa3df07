package main

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
)

// placeholders serves, for --allow-missing, the ConfigMaps and Secrets a pod refers to that the
// input lacks: each key the pod reads holds "<missing Kind namespace/name key KEY>", so the output
// shows where a value would come from, and a warning names the object.
type placeholders struct {
	objects *configgentest.Objects
	pod     *v1.Pod
	warn    func(*v1.Container, configgen.Warning)
	warned  map[string]bool
}

func (p *placeholders) configMap(ctx context.Context, namespace, name string) (*v1.ConfigMap, error) {
	cm, err := p.objects.GetConfigMap(ctx, namespace, name)
	if !apierrors.IsNotFound(err) {
		return cm, err
	}
	data := map[string]string{}
	for _, key := range p.keys("ConfigMap", name) {
		data[key] = placeholderValue("ConfigMap", namespace, name, key)
	}
	p.warnMissing("ConfigMap", namespace, name)
	return &v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Data: data}, nil
}

func (p *placeholders) secret(ctx context.Context, namespace, name string) (*v1.Secret, error) {
	s, err := p.objects.GetSecret(ctx, namespace, name)
	if !apierrors.IsNotFound(err) {
		return s, err
	}
	data := map[string][]byte{}
	for _, key := range p.keys("Secret", name) {
		data[key] = []byte(placeholderValue("Secret", namespace, name, key))
	}
	p.warnMissing("Secret", namespace, name)
	return &v1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Data: data}, nil
}

// reasonPlaceholder is the warning reason of an object --allow-missing stands in for.
const reasonPlaceholder = "MissingObjectPlaceholder"

func placeholderValue(kind, namespace, name, key string) string {
	return fmt.Sprintf("<missing %s %s/%s key %s>", kind, namespace, name, key)
}

func (p *placeholders) warnMissing(kind, namespace, name string) {
	id := kind + " " + namespace + "/" + name
	if p.warned == nil {
		p.warned = map[string]bool{}
	}
	if !p.warned[id] {
		p.warned[id] = true
		p.warn(nil, configgen.Warning{Reason: reasonPlaceholder, Message: id + " is not in the input: rendered as a placeholder (--allow-missing)"})
	}
}

// keys are the keys the pod's containers read from the named object with a key reference.
func (p *placeholders) keys(kind, name string) []string {
	var keys []string
	each := func(c *v1.Container) {
		for _, e := range c.Env {
			if e.ValueFrom == nil {
				continue
			}
			if r := e.ValueFrom.ConfigMapKeyRef; kind == "ConfigMap" && r != nil && r.Name == name {
				keys = append(keys, r.Key)
			}
			if r := e.ValueFrom.SecretKeyRef; kind == "Secret" && r != nil && r.Name == name {
				keys = append(keys, r.Key)
			}
		}
	}
	for i := range p.pod.Spec.InitContainers {
		each(&p.pod.Spec.InitContainers[i])
	}
	for i := range p.pod.Spec.Containers {
		each(&p.pod.Spec.Containers[i])
	}
	for i := range p.pod.Spec.EphemeralContainers {
		c := v1.Container(p.pod.Spec.EphemeralContainers[i].EphemeralContainerCommon)
		each(&c)
	}
	return keys
}
