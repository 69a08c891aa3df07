package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/podconfig/podconfig/clientgo"
	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/security"
	"github.com/podconfig/podconfig/volumes"
)

const nodeName = "vk-node"

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "vkprovider:", err)
		os.Exit(1)
	}
}

// RemotePod is what the provider sends its remote runtime for one pod.
type RemotePod struct {
	Namespace  string            `json:"namespace"`
	Name       string            `json:"name"`
	Containers []RemoteContainer `json:"containers"`
	// Volumes are the files of the pod's configMap, secret, downwardAPI and projected volumes,
	// by volume name, as kubelet would write them.
	Volumes map[string][]RemoteFile `json:"volumes,omitempty"`
}

// RemoteFile is one file of a volume; a token's bytes are not printed, only its length.
type RemoteFile struct {
	Path    string `json:"path"`
	Mode    string `json:"mode"`
	Owner   *int64 `json:"owner,omitempty"`
	Content string `json:"content,omitempty"`
	Length  int    `json:"length"`
}

// RemoteContainer is one container of a RemotePod: everything resolved, nothing to look up.
type RemoteContainer struct {
	Name  string                  `json:"name"`
	Kind  configgen.ContainerKind `json:"kind"`
	Image string                  `json:"image"`
	// User is the uid the image runs as.
	User int64 `json:"user"`
	// Env is NAME=value, in podconfig's order.
	Env    []string      `json:"env,omitempty"`
	Mounts []RemoteMount `json:"mounts,omitempty"`
}

// RemoteMount is a volume mount as the remote runtime takes it.
type RemoteMount struct {
	Volume      string `json:"volume"`
	MountPath   string `json:"mountPath"`
	SubPath     string `json:"subPath,omitempty"`
	ReadOnly    bool   `json:"readOnly,omitempty"`
	Propagation string `json:"propagation"`
}

// provider is the provider's state: its sources, its image knowledge and its event recorder.
type provider struct {
	sources clientgo.Sources
	images  security.ImageUserMap
	events  clientgo.Recorder
	tokens  *volumes.TokenManager
	volumes volumes.Sources
	// serviceEnv keeps each namespace's service variables between pods, for as long as the
	// provider runs; a result is the same as without it.
	serviceEnv configgen.ServiceEnvCache
}

// run sets up a cluster in a fake clientset, starts the provider's informers, handles the pod
// bound to the node, and prints the remote runtime's request and the events recorded.
func run(ctx context.Context, out io.Writer) error {
	client := fake.NewSimpleClientset(clusterObjects()...)
	broadcaster := record.NewBroadcaster()
	defer broadcaster.Shutdown()
	broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: client.CoreV1().Events("")})

	factory := informers.NewSharedInformerFactory(client, 0)
	p := &provider{
		sources: clientgo.FromInformers(factory, nodeName),
		tokens:  volumes.NewTokenManager(clientgo.TokenRequester(client), nil),
		images: security.ImageUserMap{
			"registry.example/shop/cart:1.4":       {UID: ptrTo[int64](1000)},
			"registry.example/shop/db-migrate:1.4": {UID: ptrTo[int64](1001)},
			"registry.example/envoy:1.30":          {UID: ptrTo[int64](101)},
			"busybox:1.36":                         {},
		},
		events: clientgo.Recorder{Events: broadcaster.NewRecorder(scheme.Scheme, v1.EventSource{Component: "vkprovider", Host: nodeName})},
	}

	// Pods are queued as the informer sees them and handled once every cache has synced, as a
	// provider must: a pod seen before its ConfigMaps would fail for nothing.
	queue := make(chan *v1.Pod, 16)
	podInformer := factory.Core().V1().Pods().Informer()
	if _, err := podInformer.AddEventHandler(cache.FilteringResourceEventHandler{
		FilterFunc: func(obj any) bool {
			pod, ok := obj.(*v1.Pod)
			return ok && pod.Spec.NodeName == nodeName
		},
		Handler: cache.ResourceEventHandlerFuncs{AddFunc: func(obj any) { queue <- obj.(*v1.Pod) }},
	}); err != nil {
		return err
	}

	p.volumes = volumes.Sources{ConfigMaps: p.sources.ConfigMaps, Secrets: p.sources.Secrets, Node: p.sources.Node, Tokens: p.tokens}
	// The fake API server issues a fixed token; a real one signs a JWT.
	client.PrependReactor("create", "serviceaccounts", func(a k8stesting.Action) (bool, runtime.Object, error) {
		ca, ok := a.(k8stesting.CreateAction)
		if !ok || ca.GetSubresource() != "token" {
			return false, nil, nil
		}
		tr := ca.GetObject().(*authenticationv1.TokenRequest).DeepCopy()
		tr.Status.Token = "eyJhbGciOiJSUzI1NiJ9.fixed-token-of-the-example"
		tr.Status.ExpirationTimestamp = metav1.NewTime(time.Now().Add(time.Duration(*tr.Spec.ExpirationSeconds) * time.Second))
		return true, tr, nil
	})

	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		factory.Shutdown()
	}()
	factory.Start(ctx.Done())
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			return fmt.Errorf("%v did not sync", typ)
		}
	}

	var pod *v1.Pod
	select {
	case pod = <-queue:
	case <-ctx.Done():
		return ctx.Err()
	}
	remote, err := p.createPod(ctx, pod)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	if err := enc.Encode(remote); err != nil {
		return err
	}
	events, err := waitForEvents(ctx, client, 2)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "events:")
	for _, e := range events {
		fmt.Fprintln(out, " ", e)
	}
	return nil
}

// createPod is the provider's CreatePod: resolve, check, record, and build the remote request.
// The pod has no IP yet (the remote runtime assigns it), so status.podIP is empty with an event.
func (p *provider) createPod(ctx context.Context, pod *v1.Pod) (RemotePod, error) {
	envs, warnings, err := configgen.MakePodEnvironmentVariables(ctx, configgen.PodEnvInput{
		Pod: pod, ConfigMaps: p.sources.ConfigMaps, Secrets: p.sources.Secrets,
		Services: p.sources.Services, Node: p.sources.Node,
		UnknownIPs: configgen.UnknownIPsEmpty, ServiceEnvCache: &p.serviceEnv,
	})
	p.events.Warnings(pod, warnings)
	if err != nil {
		p.events.Error(pod, err)
		return RemotePod{}, err
	}
	podMounts, err := configgen.MakePodVolumeMounts(pod, envs, false)
	if err != nil {
		p.events.Error(pod, err)
		return RemotePod{}, err
	}
	remote := RemotePod{Namespace: pod.Namespace, Name: pod.Name}
	// Each volume whose content comes from the API is built in one call, kube-api-access
	// included: its token through kubelet's token manager and the cluster's TokenRequest API.
	for i := range pod.Spec.Volumes {
		vol := &pod.Spec.Volumes[i]
		if vol.ConfigMap == nil && vol.Secret == nil && vol.DownwardAPI == nil && vol.Projected == nil {
			continue
		}
		payload, err := p.volumes.Payload(ctx, pod, vol)
		if err != nil {
			p.events.Error(pod, err)
			return RemotePod{}, err
		}
		if remote.Volumes == nil {
			remote.Volumes = map[string][]RemoteFile{}
		}
		for _, f := range payload {
			rf := RemoteFile{Path: f.Path, Mode: f.Mode.String(), Owner: f.Owner, Length: len(f.Data)}
			if f.Path != "token" && vol.Secret == nil {
				rf.Content = string(f.Data)
			}
			remote.Volumes[vol.Name] = append(remote.Volumes[vol.Name], rf)
		}
	}
	// The remote runtime takes plain values: one call writes them into a copy of the pod, init,
	// regular and ephemeral containers alike (envFrom folded into env), in the informer's
	// object's place.
	resolved := pod.DeepCopy()
	if err := envs.ApplyTo(resolved); err != nil {
		p.events.Error(pod, err)
		return RemotePod{}, err
	}
	for i, pc := range configgen.PodContainers(resolved) {
		uid, username, err := p.images.ImageUser(ctx, pc.Container.Image)
		if err == nil {
			err = security.VerifyRunAsNonRoot(resolved, pc.Container, uid, username)
		}
		if err != nil {
			p.events.Error(pod, err)
			return RemotePod{}, err
		}
		rc := RemoteContainer{Name: pc.Container.Name, Kind: pc.Kind, Image: pc.Container.Image, User: effectiveUser(resolved, pc.Container, uid)}
		for _, e := range pc.Container.Env {
			rc.Env = append(rc.Env, e.Name+"="+e.Value)
		}
		for _, m := range podMounts[i].Mounts {
			rc.Mounts = append(rc.Mounts, remoteMount(m))
		}
		remote.Containers = append(remote.Containers, rc)
	}
	return remote, nil
}

// waitForEvents waits until the broadcaster has written n events and returns them as
// "Reason on field: message", sorted.
func waitForEvents(ctx context.Context, client kubernetes.Interface, n int) ([]string, error) {
	var lines []string
	err := wait.PollUntilContextCancel(ctx, 10*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		list, err := client.CoreV1().Events("shop").List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		lines = lines[:0]
		for _, e := range list.Items {
			lines = append(lines, fmt.Sprintf("%s %s on %s: %s", e.Type, e.Reason, e.InvolvedObject.FieldPath, e.Message))
		}
		return len(lines) >= n, nil
	})
	slices.SortFunc(lines, strings.Compare)
	return lines, err
}

// effectiveUser is the container's runAsUser, else the pod's, else the image's.
func effectiveUser(pod *v1.Pod, c *v1.Container, image *int64) int64 {
	switch {
	case c.SecurityContext != nil && c.SecurityContext.RunAsUser != nil:
		return *c.SecurityContext.RunAsUser
	case pod.Spec.SecurityContext != nil && pod.Spec.SecurityContext.RunAsUser != nil:
		return *pod.Spec.SecurityContext.RunAsUser
	case image != nil:
		return *image
	}
	return 0
}

func remoteMount(m mounts.VolumeMount) RemoteMount {
	return RemoteMount{Volume: m.Volume, MountPath: m.MountPath, SubPath: m.SubPath, ReadOnly: m.ReadOnly, Propagation: m.Propagation.String()}
}

func ptrTo[T any](v T) *T { return &v }
