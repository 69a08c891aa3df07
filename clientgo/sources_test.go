package clientgo_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/clientgo"
	"github.com/podconfig/podconfig/configgen"
)

func objects() []runtime.Object {
	return []runtime.Object{
		&v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "settings"}, Data: map[string]string{"level": "debug"}},
		&v1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "creds"}, Data: map[string][]byte{"token": []byte("s3cr3t")}},
		&v1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "kubernetes"},
			Spec: v1.ServiceSpec{ClusterIP: "10.96.0.1", Ports: []v1.ServicePort{{Name: "https", Port: 443, Protocol: v1.ProtocolTCP}}}},
		&v1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "db"},
			Spec: v1.ServiceSpec{ClusterIP: "10.96.0.7", Ports: []v1.ServicePort{{Port: 5432, Protocol: v1.ProtocolTCP}}}},
		&v1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "other", Name: "cache"},
			Spec: v1.ServiceSpec{ClusterIP: "10.96.0.9", Ports: []v1.ServicePort{{Port: 6379, Protocol: v1.ProtocolTCP}}}},
		&v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "vk-node"},
			Status: v1.NodeStatus{Addresses: []v1.NodeAddress{{Type: v1.NodeInternalIP, Address: "192.0.2.10"}}}},
	}
}

// informerSources starts real informers over a fake clientset and waits for them.
func informerSources(t *testing.T, objs ...runtime.Object) clientgo.Sources {
	t.Helper()
	factory := informers.NewSharedInformerFactory(fake.NewSimpleClientset(objs...), 0)
	sources := clientgo.FromInformers(factory, "vk-node")
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		cancel()
		factory.Shutdown()
	})
	factory.Start(ctx.Done())
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		require.True(t, ok, "%v synced", typ)
	}
	return sources
}

// Each adapter answers as configgen's getters must, through informers and through the clientset.
func TestSources(t *testing.T) {
	kinds := map[string]func(t *testing.T) clientgo.Sources{
		"informers": func(t *testing.T) clientgo.Sources { return informerSources(t, objects()...) },
		"clientset": func(*testing.T) clientgo.Sources {
			return clientgo.FromClientset(fake.NewSimpleClientset(objects()...), "vk-node")
		},
	}
	ctx := context.Background()
	for kind, build := range kinds {
		t.Run(kind, func(t *testing.T) {
			s := build(t)
			cm, err := s.ConfigMaps.GetConfigMap(ctx, "shop", "settings")
			require.NoError(t, err)
			assert.Equal(t, "debug", cm.Data["level"])
			_, err = s.ConfigMaps.GetConfigMap(ctx, "shop", "absent")
			assert.True(t, apierrors.IsNotFound(err), "a missing ConfigMap is NotFound: %v", err)

			sec, err := s.Secrets.GetSecret(ctx, "shop", "creds")
			require.NoError(t, err)
			assert.Equal(t, "s3cr3t", string(sec.Data["token"]))
			_, err = s.Secrets.GetSecret(ctx, "other", "creds")
			assert.True(t, apierrors.IsNotFound(err), "a Secret of another namespace is not served: %v", err)

			svcs, err := s.Services.ListServices(ctx, "shop")
			require.NoError(t, err)
			require.Len(t, svcs, 1)
			assert.Equal(t, "db", svcs[0].Name)

			node, err := s.Node.GetNode(ctx)
			require.NoError(t, err)
			assert.Equal(t, "vk-node", node.Name)
		})
	}
}

// Until the Service informer has synced, environments fail as kubelet's do; then they resolve.
func TestServiceListerHasSynced(t *testing.T) {
	factory := informers.NewSharedInformerFactory(fake.NewSimpleClientset(objects()...), 0)
	sources := clientgo.FromInformers(factory, "vk-node")
	sc, ok := sources.Services.(configgen.ServiceSyncChecker)
	require.True(t, ok, "the lister passes HasSynced on")
	assert.False(t, sc.HasSynced(), "not started: not synced")

	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "cart-0"},
		Spec:       v1.PodSpec{EnableServiceLinks: ptr.To(true), Containers: []v1.Container{{Name: "cart"}}},
	}
	in := configgen.EnvInput{Pod: pod, Container: &pod.Spec.Containers[0], Services: sources.Services}
	_, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
	assert.ErrorIs(t, err, configgen.ErrServicesNotSynced)

	ctx, cancel := context.WithCancel(context.Background())
	defer func() {
		cancel()
		factory.Shutdown()
	}()
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	assert.True(t, sc.HasSynced())
	envs, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
	require.NoError(t, err)
	got := map[string]string{}
	for _, e := range envs {
		got[e.Name] = e.Value
	}
	assert.Equal(t, "10.96.0.7", got["DB_SERVICE_HOST"])
	assert.Equal(t, "10.96.0.1", got["KUBERNETES_SERVICE_HOST"])
	assert.NotContains(t, got, "CACHE_SERVICE_HOST", "services of other namespaces are not seen")
}

// A ConfigMap created after the informer started is seen once the watch delivers it.
func TestInformerSeesNewObjects(t *testing.T) {
	client := fake.NewSimpleClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	sources := clientgo.FromInformers(factory, "vk-node")
	ctx, cancel := context.WithCancel(context.Background())
	defer func() {
		cancel()
		factory.Shutdown()
	}()
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())

	_, err := sources.ConfigMaps.GetConfigMap(ctx, "shop", "late")
	require.True(t, apierrors.IsNotFound(err))
	_, err = client.CoreV1().ConfigMaps("shop").Create(ctx, &v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "late"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Eventually(t, func() bool {
		_, err := sources.ConfigMaps.GetConfigMap(ctx, "shop", "late")
		return err == nil
	}, 10*time.Second, 10*time.Millisecond)
}
