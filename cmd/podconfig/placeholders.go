package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/offline"
)

// placeholders serves, for --allow-missing, the ConfigMaps and Secrets a pod refers to that the
// input lacks: each key the pod reads holds "<missing Kind namespace/name key KEY>", so the output
// shows where a value would come from, and a warning names the object.
type placeholders struct {
	objects objectStore
	pod     *v1.Pod
	warn    func(*v1.Container, configgen.Warning)
	warned  map[string]bool
}

func (p *placeholders) configMap(ctx context.Context, namespace, name string) (*v1.ConfigMap, error) {
	cm, err := p.objects.GetConfigMap(ctx, namespace, name)
	if !apierrors.IsNotFound(err) || p.onlyOptional("ConfigMap", name) {
		return cm, err // kubelet skips optional references to a missing object
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
	if !apierrors.IsNotFound(err) || p.onlyOptional("Secret", name) {
		return s, err // kubelet skips optional references to a missing object
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

// onlyOptional reports whether every reference of the pod to the named object (env, envFrom,
// configMap and secret volumes, projected sources) is optional. Such an object, missing, is left
// missing, as kubelet then skips the references; one required reference makes it a placeholder
// (for the optional ones too).
func (p *placeholders) onlyOptional(kind, name string) bool {
	optional := true
	isTrue := func(b *bool) bool { return b != nil && *b }
	p.eachContainer(func(c *v1.Container) {
		for _, e := range c.Env {
			if e.ValueFrom == nil {
				continue
			}
			if r := e.ValueFrom.ConfigMapKeyRef; kind == "ConfigMap" && r != nil && r.Name == name && !isTrue(r.Optional) {
				optional = false
			}
			if r := e.ValueFrom.SecretKeyRef; kind == "Secret" && r != nil && r.Name == name && !isTrue(r.Optional) {
				optional = false
			}
		}
		for _, e := range c.EnvFrom {
			if r := e.ConfigMapRef; kind == "ConfigMap" && r != nil && r.Name == name && !isTrue(r.Optional) {
				optional = false
			}
			if r := e.SecretRef; kind == "Secret" && r != nil && r.Name == name && !isTrue(r.Optional) {
				optional = false
			}
		}
	})
	p.eachVolumeRef(kind, name, func(_ []v1.KeyToPath, opt *bool) {
		if !isTrue(opt) {
			optional = false
		}
	})
	return optional
}

// eachVolumeRef calls f with the items and optional flag of every configMap or secret volume
// and projected source of the pod that reads the named object.
func (p *placeholders) eachVolumeRef(kind, name string, f func(items []v1.KeyToPath, optional *bool)) {
	for i := range p.pod.Spec.Volumes {
		src := &p.pod.Spec.Volumes[i].VolumeSource
		if r := src.ConfigMap; kind == "ConfigMap" && r != nil && r.Name == name {
			f(r.Items, r.Optional)
		}
		if r := src.Secret; kind == "Secret" && r != nil && r.SecretName == name {
			f(r.Items, r.Optional)
		}
		if src.Projected == nil {
			continue
		}
		for _, s := range src.Projected.Sources {
			if r := s.ConfigMap; kind == "ConfigMap" && r != nil && r.Name == name {
				f(r.Items, r.Optional)
			}
			if r := s.Secret; kind == "Secret" && r != nil && r.Name == name {
				f(r.Items, r.Optional)
			}
		}
	}
}

// eachContainer calls f on every init, regular and ephemeral container of the pod.
func (p *placeholders) eachContainer(f func(*v1.Container)) {
	for i := range p.pod.Spec.InitContainers {
		f(&p.pod.Spec.InitContainers[i])
	}
	for i := range p.pod.Spec.Containers {
		f(&p.pod.Spec.Containers[i])
	}
	for i := range p.pod.Spec.EphemeralContainers {
		c := v1.Container(p.pod.Spec.EphemeralContainers[i].EphemeralContainerCommon)
		f(&c)
	}
}

// placeholderBlockDevices gives each volume a container uses as a block device (volumeDevices),
// which offline has none, a placeholder device: kubelet's map path for it, present on the offline
// node, with a warning.
func placeholderBlockDevices(pod *v1.Pod, volumes mounts.VolumeMap, node *offline.Node, warn func(configgen.Warning)) {
	root := node.Options.RootDir
	if root == "" {
		root = configgen.DefaultRootDir
	}
	done := map[string]bool{}
	for _, e := range containersOf(pod) {
		for _, d := range e.c.VolumeDevices {
			v, ok := volumes[d.Name]
			if !ok || v.BlockDevicePath != "" || done[d.Name] {
				continue
			}
			done[d.Name] = true
			v.BlockDevicePath = filepath.Join(root, "pods", string(pod.UID), "volumeDevices", "kubernetes.io~csi", d.Name)
			volumes[d.Name] = v
			node.BlockDevices.Add(v.BlockDevicePath)
			warn(configgen.Warning{Reason: reasonPlaceholder, Message: fmt.Sprintf("volume %s is a block device, which offline has no device: rendered with a placeholder at %s (--allow-missing)", d.Name, v.BlockDevicePath)})
		}
	}
}

// keys are the keys the pod reads from the named object by name: the containers' key references
// and the items of its volumes. A volume without items gets these keys too, which kubelet would
// write all of.
func (p *placeholders) keys(kind, name string) []string {
	var keys []string
	seen := map[string]bool{}
	add := func(key string) {
		if !seen[key] {
			seen[key] = true
			keys = append(keys, key)
		}
	}
	p.eachContainer(func(c *v1.Container) {
		for _, e := range c.Env {
			if e.ValueFrom == nil {
				continue
			}
			if r := e.ValueFrom.ConfigMapKeyRef; kind == "ConfigMap" && r != nil && r.Name == name {
				add(r.Key)
			}
			if r := e.ValueFrom.SecretKeyRef; kind == "Secret" && r != nil && r.Name == name {
				add(r.Key)
			}
		}
	})
	p.eachVolumeRef(kind, name, func(items []v1.KeyToPath, _ *bool) {
		for _, it := range items {
			add(it.Key)
		}
	})
	return keys
}

// placeholderEnvFiles gives each fileKeyRef variable of c whose file does not exist in its
// volume on the offline node a visible placeholder value, with a warning: such a file is
// usually written at run time by a container of the pod (an init container into an emptyDir),
// which offline has not run. A file that exists is read as kubelet reads it; a reference to a
// volume the pod lacks is left to fail. c.Env is replaced, not changed in place.
func placeholderEnvFiles(c *v1.Container, volumes mounts.VolumeMap, files *hostfs.Memory, warn func(configgen.Warning)) {
	var env []v1.EnvVar
	for i, e := range c.Env {
		ref := fileKeyRef(e)
		if ref == nil {
			continue
		}
		vol, ok := volumes[ref.VolumeName]
		if !ok || vol.HostPath == "" {
			continue
		}
		f, err := files.OpenBeneath(vol.HostPath, ref.Path)
		if err == nil {
			_ = f.Close()
			continue
		}
		if !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if env == nil {
			env = slices.Clone(c.Env)
		}
		// A literal value is $(VAR)-expanded, a file's is not: "$$" keeps a "$" in the path.
		placeholder := fmt.Sprintf("<run-time file %s of volume %s key %s>", ref.Path, ref.VolumeName, ref.Key)
		env[i] = v1.EnvVar{Name: e.Name, Value: strings.ReplaceAll(placeholder, "$", "$$")}
		warn(configgen.Warning{Reason: reasonPlaceholder, Message: fmt.Sprintf(
			"env %s reads file %s of volume %s, which does not exist offline (a container of the pod may write it at run time): rendered as a placeholder (--allow-missing)",
			e.Name, ref.Path, ref.VolumeName)})
	}
	if env != nil {
		c.Env = env
	}
}

func fileKeyRef(e v1.EnvVar) *v1.FileKeySelector {
	if e.ValueFrom == nil {
		return nil
	}
	return e.ValueFrom.FileKeyRef
}

// missingEnvFileHint is the remedy for a fileKeyRef whose file does not exist offline.
const missingEnvFileHint = "the file does not exist offline (a container of the pod may write it at run time): render with --allow-missing for a placeholder"
