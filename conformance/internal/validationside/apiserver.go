package validationside

import (
	"context"
	"fmt"
	"strings"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	core "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	"k8s.io/kubernetes/pkg/capabilities"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/batch/cronjob"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	podregistry "k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/podtemplate"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
)

// resourceOf names, for each kind validated, the API resource a create is sent to and the
// registry strategy the API server validates it with.
var resourceOf = map[schema.GroupVersionKind]registration{
	v1.SchemeGroupVersion.WithKind("Pod"):                   {"pods", podregistry.Strategy},
	v1.SchemeGroupVersion.WithKind("PodTemplate"):           {"podtemplates", podtemplate.Strategy},
	v1.SchemeGroupVersion.WithKind("ReplicationController"): {"replicationcontrollers", replicationcontroller.Strategy},
	appsv1.SchemeGroupVersion.WithKind("Deployment"):        {"deployments", deployment.Strategy},
	appsv1.SchemeGroupVersion.WithKind("ReplicaSet"):        {"replicasets", replicaset.Strategy},
	appsv1.SchemeGroupVersion.WithKind("StatefulSet"):       {"statefulsets", statefulset.Strategy},
	appsv1.SchemeGroupVersion.WithKind("DaemonSet"):         {"daemonsets", daemonset.Strategy},
	batchv1.SchemeGroupVersion.WithKind("Job"):              {"jobs", job.Strategy},
	batchv1.SchemeGroupVersion.WithKind("CronJob"):          {"cronjobs", cronjob.Strategy},
}

var allowPrivileged sync.Once

// setCapabilities gives the process kube-apiserver's --allow-privileged=true. Validation reads the
// capabilities through a sync.Once that the first reader fills with the default (privileged
// refused), so they are reset first.
func setCapabilities() {
	allowPrivileged.Do(func() {
		capabilities.ResetForTest()
		capabilities.Setup(true, 0)
	})
}

// Default applies the API server's defaulting to a v1 object in place, as it does to every object
// it decodes.
func Default(obj runtime.Object) { legacyscheme.Scheme.Default(obj) }

// Kinds returns the kinds Create validates.
func Kinds() []schema.GroupVersionKind {
	kinds := make([]schema.GroupVersionKind, 0, len(resourceOf))
	for gvk := range resourceOf {
		kinds = append(kinds, gvk)
	}
	return kinds
}

// Prepare returns obj, a defaulted v1 object, as the API server hands it to validation on
// create: converted to the internal type, through its registry strategy's PrepareForCreate (which
// drops the fields of disabled features, defaults a pod's pod-level resources, merges its
// matchLabelKeys into its affinity and spread selectors, copies AppArmor annotations to fields,
// gives a Job its generated selector, resets generation and status), and back to v1.
func Prepare(obj runtime.Object) (runtime.Object, error) {
	gvk, res, err := strategyOf(obj)
	if err != nil {
		return nil, err
	}
	internal, err := toInternal(obj, gvk)
	if err != nil {
		return nil, err
	}
	res.strategy.PrepareForCreate(requestContext(gvk, res.resource, "", namespaceOf(obj)), internal)
	return toVersioned(internal, gvk)
}

// Validate returns the errors the API server gives a prepared v1 object (Prepare) on create, and
// the group and kind it names the object by in its refusal: rest.ValidateCreate, which runs the
// registry strategy's Validate (for a Pod, ValidatePodCreate with the options of
// GetValidationOptionsFromPodSpecAndMeta and ResourceIsPod), the object metadata validation when
// that found nothing, and the declarative validation. The error is the harness's own failure (an
// unknown kind, a conversion), never a validation error.
func Validate(obj runtime.Object) (field.ErrorList, schema.GroupKind, error) {
	setCapabilities()
	gvk, res, err := strategyOf(obj)
	if err != nil {
		return nil, schema.GroupKind{}, err
	}
	internal, err := toInternal(obj, gvk)
	if err != nil {
		return nil, schema.GroupKind{}, err
	}
	ctx := requestContext(gvk, res.resource, "", namespaceOf(obj))
	return rest.ValidateCreate(ctx, internal, res.strategy), gvk.GroupKind(), nil
}

// Create is Validate of Prepare: the API server's answer to a create of a defaulted v1 object.
func Create(obj runtime.Object) (field.ErrorList, schema.GroupKind, error) {
	prepared, err := Prepare(obj)
	if err != nil {
		return nil, schema.GroupKind{}, err
	}
	return Validate(prepared)
}

// EphemeralContainers returns the errors the API server's ephemeralcontainers subresource gives
// when the ephemeral containers of pod, a prepared pod, are added to the same pod created
// without them (the subresource strategy's PrepareForUpdate, then rest.ValidateUpdate), limited
// to the ephemeral containers' own fields and to errors on no field (a static pod's refusal): the
// rest of the pod is validated as on create. It also returns the pod as the subresource stores
// it, the pod a client reads back.
func EphemeralContainers(pod *v1.Pod) (field.ErrorList, *v1.Pod, error) {
	setCapabilities()
	gvk := v1.SchemeGroupVersion.WithKind("Pod")
	withEphemeral, err := toInternal(pod, gvk)
	if err != nil {
		return nil, nil, err
	}
	newPod := withEphemeral.(*core.Pod)
	oldPod := newPod.DeepCopy()
	oldPod.Spec.EphemeralContainers = nil
	ctx := requestContext(gvk, "pods", "ephemeralcontainers", pod.Namespace)
	podregistry.EphemeralContainersStrategy.PrepareForUpdate(ctx, newPod, oldPod)
	var errs field.ErrorList
	for _, e := range rest.ValidateUpdate(ctx, newPod, oldPod, podregistry.EphemeralContainersStrategy) {
		if f := e.Field; f == "" || f == "spec.ephemeralContainers" || strings.HasPrefix(f, "spec.ephemeralContainers[") {
			errs = append(errs, e)
		}
	}
	readBack, err := toVersioned(newPod, gvk)
	if err != nil {
		return nil, nil, err
	}
	return errs, readBack.(*v1.Pod), nil
}

type registration struct {
	resource string
	strategy rest.RESTCreateStrategy
}

func strategyOf(obj runtime.Object) (schema.GroupVersionKind, registration, error) {
	gvk, err := kindOf(obj)
	if err != nil {
		return gvk, registration{}, err
	}
	res, ok := resourceOf[gvk]
	if !ok {
		return gvk, registration{}, fmt.Errorf("no API server validation for %s", gvk)
	}
	return gvk, res, nil
}

func kindOf(obj runtime.Object) (schema.GroupVersionKind, error) {
	gvks, _, err := legacyscheme.Scheme.ObjectKinds(obj)
	if err != nil {
		return schema.GroupVersionKind{}, err
	}
	for _, gvk := range gvks {
		if gvk.Version != runtime.APIVersionInternal {
			return gvk, nil
		}
	}
	return schema.GroupVersionKind{}, fmt.Errorf("%T is not a versioned object", obj)
}

func toVersioned(internal runtime.Object, gvk schema.GroupVersionKind) (runtime.Object, error) {
	out, err := legacyscheme.Scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	if err := legacyscheme.Scheme.Convert(internal, out, nil); err != nil {
		return nil, fmt.Errorf("converting %s to %s: %w", gvk.Kind, gvk.GroupVersion(), err)
	}
	return out, nil
}

func toInternal(obj runtime.Object, gvk schema.GroupVersionKind) (runtime.Object, error) {
	internal, err := legacyscheme.Scheme.New(gvk.GroupKind().WithVersion(runtime.APIVersionInternal))
	if err != nil {
		return nil, err
	}
	if err := legacyscheme.Scheme.Convert(obj.DeepCopyObject(), internal, nil); err != nil {
		return nil, fmt.Errorf("converting %s to the internal type: %w", gvk.Kind, err)
	}
	return internal, nil
}

func namespaceOf(obj runtime.Object) string {
	if m, ok := obj.(interface{ GetNamespace() string }); ok {
		return m.GetNamespace()
	}
	return ""
}

// requestContext is what the API server's handler puts in a create's context: the namespace and
// the request info declarative validation reads the API version from.
func requestContext(gvk schema.GroupVersionKind, resource, subresource, namespace string) context.Context {
	ctx := genericapirequest.WithNamespace(context.Background(), namespace)
	verb := "create"
	if subresource != "" {
		verb = "update"
	}
	return genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: verb, APIGroup: gvk.Group, APIVersion: gvk.Version,
		Namespace: namespace, Resource: resource, Subresource: subresource,
	})
}
