package volumes

import (
	"context"
	"fmt"
	"path/filepath"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"

	"github.com/podconfig/podconfig/internal/downward"
)

// DownwardAPIRequest is what CollectDownwardAPIData reads.
type DownwardAPIRequest struct {
	// Items are the files of the downwardAPI volume or projection.
	Items []v1.DownwardAPIVolumeFile
	// Pod is the pod whose metadata and containers' resources the files show.
	Pod *v1.Pod
	// Node returns the node whose allocatable resources are the default limits of a
	// resourceFieldRef; it is asked once per resourceFieldRef item, as kubelet asks. Nil fails
	// such an item with "error retrieving node: ...".
	Node NodeGetter
	// DefaultMode and DefaultUser are the source's defaultMode and defaultUser.
	DefaultMode *int32
	DefaultUser *int64
	// UserFields is the AtomicWriteVolumeUserFields feature gate.
	UserFields bool
}

// CollectDownwardAPIData is the payload of a downwardAPI volume or projection (kubelet:
// downwardapi.CollectData). Each item's path is cleaned; a fieldRef reads the pod's metadata
// (fieldpath.ExtractFieldPathAsString: name, namespace, uid, labels, annotations, one label or
// annotation); a resourceFieldRef reads the named container's (regular, then init) limits or
// requests, a limit of cpu, memory or ephemeral-storage that is unset or zero being the node's
// allocatable amount; an item with neither is an empty file. Errors of all items are returned
// together (one: its text; several: "[e1, e2]"), and then the payload must not be written.
func CollectDownwardAPIData(ctx context.Context, req DownwardAPIRequest) (Payload, error) {
	p, err := downwardAPIProjection(ctx, req, nil)
	if err != nil {
		return nil, err
	}
	return p.payload(), nil
}

func downwardAPIProjection(ctx context.Context, req DownwardAPIRequest, b *budget) (projection, error) {
	if req.DefaultMode == nil {
		return nil, errNoDefaultMode
	}
	var errs []error
	p := make(projection, len(req.Items))
	for _, it := range req.Items {
		var data []byte
		switch {
		case it.FieldRef != nil:
			v, err := downward.PodFieldValue(req.Pod, it.FieldRef.FieldPath)
			if err != nil {
				errs = append(errs, err)
			}
			if err := b.take(len(v)); err != nil {
				return nil, err
			}
			data = []byte(v)
		case it.ResourceFieldRef != nil:
			v, err := resourceFileValue(ctx, req.Node, req.Pod, it.ResourceFieldRef)
			if err != nil {
				errs = append(errs, err)
			}
			data = []byte(v)
		}
		p.set(filepath.Clean(it.Path), data, modeOr(it.Mode, *req.DefaultMode), resolveUser(req.UserFields, req.DefaultUser, it.User))
	}
	if err := utilerrors.NewAggregate(errs); err != nil {
		return nil, err
	}
	return p, nil
}

// resourceFileValue is a resourceFieldRef's value in a volume (kubelet:
// ExtractResourceValueByContainerNameAndNodeAllocatable). Unlike the environment variable,
// an init container's limits are defaulted too, and pod-level resources are not read.
func resourceFileValue(ctx context.Context, nodes NodeGetter, pod *v1.Pod, ref *v1.ResourceFieldSelector) (string, error) {
	alloc, err := nodeAllocatable(ctx, nodes)
	if err != nil {
		return "", err
	}
	c := findContainer(pod, ref.ContainerName)
	if c == nil {
		return "", fmt.Errorf("container %s not found", ref.ContainerName)
	}
	return downward.ResourceValue(ref.Resource, ref.Divisor, c.Resources.Limits, c.Resources.Requests,
		func(rn v1.ResourceName) (resource.Quantity, bool) {
			q, ok := alloc[rn]
			return q, ok
		})
}

func nodeAllocatable(ctx context.Context, nodes NodeGetter) (v1.ResourceList, error) {
	if nodes == nil {
		return nil, fmt.Errorf("error retrieving node: %w", ErrNoNode)
	}
	node, err := nodes.GetNode(ctx)
	if err != nil {
		return nil, fmt.Errorf("error retrieving node: %v", err)
	}
	if node == nil {
		return nil, fmt.Errorf("error retrieving node: %w", ErrNoNode)
	}
	return node.Status.Allocatable, nil
}

func findContainer(pod *v1.Pod, name string) *v1.Container {
	for i := range pod.Spec.Containers {
		if pod.Spec.Containers[i].Name == name {
			return &pod.Spec.Containers[i]
		}
	}
	for i := range pod.Spec.InitContainers {
		if pod.Spec.InitContainers[i].Name == name {
			return &pod.Spec.InitContainers[i]
		}
	}
	return nil
}
