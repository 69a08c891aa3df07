package clientgo

import (
	"context"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/podconfig/podconfig/configgen"
)

// FromClientset returns Sources that ask the API server on every call, with no cache: for tools
// and tests that render a few pods. A node agent uses FromInformers instead, as kubelet watches.
// Errors are the clientset's, NotFound included.
func FromClientset(cs kubernetes.Interface, nodeName string) Sources {
	core := cs.CoreV1()
	return Sources{
		ConfigMaps: configgen.ConfigMapGetterFunc(func(ctx context.Context, namespace, name string) (*v1.ConfigMap, error) {
			return core.ConfigMaps(namespace).Get(ctx, name, metav1.GetOptions{})
		}),
		Secrets: configgen.SecretGetterFunc(func(ctx context.Context, namespace, name string) (*v1.Secret, error) {
			return core.Secrets(namespace).Get(ctx, name, metav1.GetOptions{})
		}),
		Services: configgen.ServiceListerFunc(func(ctx context.Context, namespace string) ([]*v1.Service, error) {
			list, err := core.Services(namespace).List(ctx, metav1.ListOptions{})
			if err != nil {
				return nil, err
			}
			out := make([]*v1.Service, len(list.Items))
			for i := range list.Items {
				out[i] = &list.Items[i]
			}
			return out, nil
		}),
		Node: configgen.NodeGetterFunc(func(ctx context.Context) (*v1.Node, error) {
			return core.Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		}),
	}
}
