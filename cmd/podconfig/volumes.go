package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/internal/terminal"
	"github.com/podconfig/podconfig/manifest"
	"github.com/podconfig/podconfig/volumes"
)

// jsonVolume is one volume whose files kubelet writes: configMap, secret, downwardAPI, projected.
type jsonVolume struct {
	Name  string     `json:"name"`
	Type  string     `json:"type"`
	Files []jsonFile `json:"files"`
}

// jsonFile is one file of a volume. Secret data and tokens show only their size unless
// --show-secrets; offline a token is volumes.PlaceholderToken.
type jsonFile struct {
	Path    string  `json:"path"`
	Mode    string  `json:"mode"`
	Owner   *int64  `json:"owner,omitempty"`
	Size    int     `json:"size"`
	Content *string `json:"content,omitempty"`
}

// renderVolumes builds the files of the pod's volumes as kubelet's plugins would write them. A
// volume kubelet could not set up fails the pod (kubelet never starts it), added to errs; a
// ConfigMap or Secret the input lacks is named with the remedy, as a missing env reference is.
func (r *renderer) renderVolumes(ctx context.Context, pod *v1.Pod, on *offlineNode, errs *podErrors) []jsonVolume {
	// The Generator's own getters: the input's objects unless --allow-missing put placeholders.
	src := r.volumeSources(on)
	remaining := src.MaxPayloadBytes
	var out []jsonVolume
	for i := range pod.Spec.Volumes {
		vol := &pod.Spec.Volumes[i]
		typ := ""
		switch {
		case vol.ConfigMap != nil:
			typ = "configMap"
		case vol.Secret != nil:
			typ = "secret"
		case vol.DownwardAPI != nil:
			typ = "downwardAPI"
		case vol.Projected != nil:
			typ = "projected"
		default:
			continue
		}
		// What is left of the pod's bound is this volume's (at least 1: 0 would be no bound).
		src.MaxPayloadBytes = max(remaining, 1)
		payload, err := src.Payload(ctx, pod, vol)
		if err != nil {
			// The error names the volume and the pod, as kubelet's FailedMount event does.
			hint := ""
			switch {
			case apierrors.IsNotFound(err):
				hint = missingObjectHint
			case errors.Is(err, volumes.ErrPayloadTooLarge):
				errs.add(err, fmt.Sprintf("render bounds the files of a pod's volumes to %d MiB in all, as it bounds its input", maxPodVolumeBytes>>20), nil, "")
				return out
			}
			errs.add(err, hint, err, pod.Namespace)
			continue
		}
		for _, f := range payload {
			remaining -= int64(len(f.Data))
		}
		hidden := r.secretPaths(ctx, src, pod, vol)
		jv := jsonVolume{Name: vol.Name, Type: typ, Files: []jsonFile{}}
		for _, f := range payload {
			jf := jsonFile{Path: f.Path, Mode: fmt.Sprintf("%04o", uint32(f.Mode.Perm())), Owner: f.Owner, Size: len(f.Data)}
			if r.cfg.showSecrets || !hidden[f.Path] {
				s := string(f.Data)
				jf.Content = &s
			}
			jv.Files = append(jv.Files, jf)
		}
		out = append(out, jv)
	}
	return out
}

// volumeSources are what the files of the volumes of pods rendered on on are made of: the
// Generator's own getters (the input's objects unless --allow-missing put placeholders), a
// placeholder kube-root-ca.crt, the node, placeholder tokens.
func (r *renderer) volumeSources(on *offlineNode) volumes.Sources {
	o := &on.node.Options
	return volumes.Sources{
		ConfigMaps: rootCAFallback{objects: on.store, next: o.ConfigMaps},
		Secrets:    o.Secrets, Node: on.node.Objects, Tokens: volumes.PlaceholderTokens{},
		MaxPayloadBytes: maxPodVolumeBytes,
	}
}

// maxPodVolumeBytes bounds the files of one pod's configMap, secret, downwardAPI and projected
// volumes together, as manifest.MaxInputSize bounds the input: a pod can name one large object
// in many items or sources, each a copy, and render holds every file in memory (-o crictl also
// writes them to disk), where kubelet writes into a tmpfs the pod's memory bounds.
const maxPodVolumeBytes = manifest.MaxInputSize

// secretPaths are the paths of vol that hold secret data or tokens: every file of a secret
// volume; in a projected volume those its secret, serviceAccountToken and podCertificate sources
// write.
func (r *renderer) secretPaths(ctx context.Context, src volumes.Sources, pod *v1.Pod, vol *v1.Volume) map[string]bool {
	hidden := map[string]bool{}
	switch {
	case vol.Secret != nil:
		p, _ := src.Payload(ctx, pod, vol)
		for _, f := range p {
			hidden[f.Path] = true
		}
	case vol.Projected != nil:
		only := vol.DeepCopy()
		only.Projected.Sources = nil
		for _, s := range vol.Projected.Sources {
			if s.Secret != nil || s.ServiceAccountToken != nil || s.PodCertificate != nil {
				only.Projected.Sources = append(only.Projected.Sources, s)
			}
		}
		p, _ := src.Payload(ctx, pod, only)
		for _, f := range p {
			hidden[f.Path] = true
		}
	}
	return hidden
}

// rootCAConfigMap is the ConfigMap the cluster's root-CA publisher keeps in every namespace, which
// every kube-api-access volume reads.
const rootCAConfigMap = "kube-root-ca.crt"

// placeholderRootCA is the ca.crt of a kube-root-ca.crt ConfigMap the input lacks: offline there
// is no cluster CA, as there is no token.
const placeholderRootCA = "placeholder-cluster-ca-not-a-certificate\n"

// rootCAFallback serves a placeholder kube-root-ca.crt where the input has none, as every
// namespace of a cluster has one; it asks the input's objects for it before next, so that
// --allow-missing does not make it a missing-object placeholder. Other ConfigMaps come from next.
type rootCAFallback struct {
	objects volumes.ConfigMapGetter
	next    volumes.ConfigMapGetter
}

func (f rootCAFallback) GetConfigMap(ctx context.Context, namespace, name string) (*v1.ConfigMap, error) {
	if name != rootCAConfigMap {
		return f.next.GetConfigMap(ctx, namespace, name)
	}
	cm, err := f.objects.GetConfigMap(ctx, namespace, name)
	if apierrors.IsNotFound(err) {
		return &v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Data: map[string]string{"ca.crt": placeholderRootCA}}, nil
	}
	return cm, err
}

// podErrors are the errors of one pod in the order its stages found them, the remedies they
// call for, and what they say the input lacks.
type podErrors struct {
	pod   *v1.Pod
	list  []string
	hints []string
	// lacks counts what the input lacks (the renderer's count, shared by every pod); named
	// records the objects this pod was counted for.
	lacks *lacked
	named map[string]bool
}

// lacked counts, per object the input lacks that a pod needs, the pods that need it, and the pods
// that need any.
type lacked struct {
	objects map[string]int
	pods    int
}

// newPodErrors returns the errors of pod, counting what it lacks in lacks.
func newPodErrors(pod *v1.Pod, lacks *lacked) *podErrors {
	return &podErrors{pod: pod, lacks: lacks}
}

// add records err, and hint, the remedy, once however many errors call for it. cause, when it is
// an API NotFound error, names an object the input lacks, in namespace.
func (e *podErrors) add(err error, hint string, cause error, namespace string) {
	e.list = append(e.list, err.Error())
	if hint != "" && !slices.Contains(e.hints, hint) {
		e.hints = append(e.hints, hint)
	}
	var status apierrors.APIStatus
	if cause == nil || !apierrors.IsNotFound(cause) || !errors.As(cause, &status) || status.Status().Details == nil || e.lacks == nil {
		return
	}
	d := status.Status().Details
	obj := d.Kind + " " + namespace + "/" + d.Name
	if d.Kind == "priorityclasses" || d.Kind == "runtimeclasses" {
		obj = d.Kind + " " + d.Name // cluster-scoped
	}
	if !e.named[obj] {
		if e.named == nil {
			e.named = map[string]bool{}
			e.lacks.pods++
		}
		e.named[obj] = true
		e.lacks.objects[obj]++
	}
}

// err is the pod's errors as one line naming the pod once, then each error and each remedy, or
// nil when there are none.
func (e *podErrors) err() error {
	if len(e.list) == 0 {
		return nil
	}
	// Named as the pod is once its namespace is known (the render identity gives one).
	name := "pod " + terminal.Escape(e.pod.Namespace+"/"+e.pod.Name)
	sep := ": "
	if strings.HasPrefix(e.list[0], "container ") {
		sep = ", " // pod ns/name, container c: ..., as warnings name a container
	}
	return errors.New(name + sep + strings.Join(append(slices.Clone(e.list), e.hints...), "; "))
}
