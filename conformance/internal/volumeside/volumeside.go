package volumeside

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"

	authenticationv1 "k8s.io/api/authentication/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/kubernetes/pkg/kubelet/clustertrustbundle"
	"k8s.io/kubernetes/pkg/kubelet/token"
	"k8s.io/kubernetes/pkg/volume"
	"k8s.io/kubernetes/pkg/volume/configmap"
	"k8s.io/kubernetes/pkg/volume/downwardapi"
	"k8s.io/kubernetes/pkg/volume/emptydir"
	"k8s.io/kubernetes/pkg/volume/hostpath"
	"k8s.io/kubernetes/pkg/volume/projected"
	"k8s.io/kubernetes/pkg/volume/secret"
	volumetest "k8s.io/kubernetes/pkg/volume/testing"
	volumeutil "k8s.io/kubernetes/pkg/volume/util"
	"k8s.io/kubernetes/pkg/volume/util/hostutil"

	"github.com/podconfig/podconfig/volumes"
)

// Objects are the API objects a step of a scenario serves.
type Objects struct {
	ConfigMaps []*v1.ConfigMap
	Secrets    []*v1.Secret
	// TrustBundles are the cluster's ClusterTrustBundles; a step's change reaches kubelet's
	// manager as its informer's events.
	TrustBundles []*certificatesv1.ClusterTrustBundle
	Allocatable  v1.ResourceList
}

// Step is what one set-up left: the volume's tree or the error, and the pod directory.
type Step struct {
	// Result is the volume's tree (see Tree), or "error: " and the error's text.
	Result string
	// PodDir is the tree of the pod's directory after the set-up: the volume directories, the
	// ready markers, and whatever a failure left.
	PodDir string
}

// Failed reports whether the set-up returned an error.
func (s Step) Failed() bool { return strings.HasPrefix(s.Result, "error: ") }

func (s Step) String() string { return s.Result + "\n-- pod directory --\n" + s.PodDir }

// Token is the token both sides get for a request: it names what was asked.
func Token(ns, sa string, tr *authenticationv1.TokenRequest) string {
	exp := int64(0)
	if tr.Spec.ExpirationSeconds != nil {
		exp = *tr.Spec.ExpirationSeconds
	}
	return fmt.Sprintf("token:%s/%s:%v:%d:%s/%s", ns, sa, tr.Spec.Audiences, exp, tr.Spec.BoundObjectRef.Name, tr.Spec.BoundObjectRef.UID)
}

// client is a fake clientset holding objs, answering token requests with Token.
func client(objs Objects) *fake.Clientset {
	var list []runtime.Object
	for _, cm := range objs.ConfigMaps {
		list = append(list, cm)
	}
	for _, s := range objs.Secrets {
		list = append(list, s)
	}
	cs := fake.NewClientset(list...)
	cs.PrependReactor("create", "serviceaccounts", func(a k8stesting.Action) (bool, runtime.Object, error) {
		ca, ok := a.(k8stesting.CreateAction)
		if !ok || ca.GetSubresource() != "token" {
			return false, nil, nil
		}
		tr := ca.GetObject().(*authenticationv1.TokenRequest).DeepCopy()
		if err := validateTokenRequest(tr); err != nil {
			return true, nil, err
		}
		sa := a.(k8stesting.CreateActionImpl).Name
		tr.Status.Token = Token(a.GetNamespace(), sa, tr)
		tr.Status.ExpirationTimestamp = metav1.Now()
		return true, tr, nil
	})
	return cs
}

// kubeletHost is the fake kubelet volume host with the node's allocatable resources, the real
// host utilities (for hostPath's type checks), kubelet's token manager and its
// ClusterTrustBundle manager.
type kubeletHost struct {
	hostIface
	alloc   v1.ResourceList
	tokens  *token.Manager
	bundles clustertrustbundle.Manager
}

type hostIface interface {
	volume.VolumeHost
	volume.KubeletVolumeHost
}

func (h *kubeletHost) GetNodeAllocatable() (v1.ResourceList, error) { return h.alloc, nil }
func (h *kubeletHost) GetHostUtil() hostutil.HostUtils              { return hostutil.NewHostUtil() }

func (h *kubeletHost) GetServiceAccountTokenFunc() func(string, string, *authenticationv1.TokenRequest) (*authenticationv1.TokenRequest, error) {
	return h.tokens.GetServiceAccountToken
}

func (h *kubeletHost) GetTrustAnchorsByName(ctx context.Context, name string, allowMissing bool) ([]byte, error) {
	return h.bundles.GetTrustAnchorsByName(ctx, name, allowMissing)
}

func (h *kubeletHost) GetTrustAnchorsBySigner(ctx context.Context, signer string, sel *metav1.LabelSelector, allowMissing bool) ([]byte, error) {
	return h.bundles.GetTrustAnchorsBySigner(ctx, signer, sel, allowMissing)
}

// Kubelet sets vol up with kubelet's plugins under root, with the objects of each step in turn,
// and returns what each step left. Each step has a new clientset and token manager (the fake
// server's tokens expire at once, so kubelet's cache never serves one); the ClusterTrustBundle
// manager lives across the steps, as kubelet's does.
func Kubelet(t *testing.T, root string, pod *v1.Pod, vol *v1.Volume, steps []Objects) []Step {
	var out []Step
	bundles := newBundleStore()
	ctbManager, err := bundles.kubeletManager()
	if err != nil {
		t.Fatal(err)
	}
	podDir := filepath.Join(root, "pods", string(pod.UID))
	for _, objs := range steps {
		if err := bundles.apply(objs.TrustBundles); err != nil {
			t.Fatal(err)
		}
		result := kubeletStep(t, root, pod, vol, objs, ctbManager)
		out = append(out, Step{Result: result, PodDir: Tree(podDir, root)})
	}
	return out
}

func kubeletStep(t *testing.T, root string, pod *v1.Pod, vol *v1.Volume, objs Objects, ctb clustertrustbundle.Manager) string {
	cs := client(objs)
	inner := volumetest.NewFakeKubeletVolumeHost(t, root, cs, emptydir.ProbeVolumePlugins())
	h := &kubeletHost{hostIface: inner, alloc: objs.Allocatable, tokens: token.NewManager(cs), bundles: ctb}
	mgr := &volume.VolumePluginMgr{}
	var plugins []volume.VolumePlugin
	plugins = append(plugins, configmap.ProbeVolumePlugins()...)
	plugins = append(plugins, secret.ProbeVolumePlugins()...)
	plugins = append(plugins, downwardapi.ProbeVolumePlugins()...)
	plugins = append(plugins, projected.ProbeVolumePlugins()...)
	plugins = append(plugins, emptydir.ProbeVolumePlugins()...)
	plugins = append(plugins, hostpath.ProbeVolumePlugins(volume.VolumeConfig{})...)
	if err := mgr.InitPlugins(plugins, nil, h); err != nil {
		t.Fatal(err)
	}
	spec := volume.NewSpecFromVolume(vol.DeepCopy())
	plug, err := mgr.FindPluginBySpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	mounter, err := plug.NewMounter(spec, pod)
	if err != nil {
		return "error: " + err.Error()
	}
	var fsGroup *int64
	if pod.Spec.SecurityContext != nil {
		fsGroup = pod.Spec.SecurityContext.FSGroup
	}
	if err := mounter.SetUp(volume.MounterArgs{FsGroup: fsGroup, FsUser: volumeutil.FsUserFrom(pod)}); err != nil {
		return "error: " + strings.ReplaceAll(err.Error(), root, "ROOT")
	}
	return Tree(mounter.GetPath(), root)
}

// noMountHost is the Linux Host without mounts, as kubelet's fake mounter.
type noMountHost struct{ *volumes.LinuxHost }

func (noMountHost) Mount(string, string, string, []string) error { return nil }
func (noMountHost) IsMountPoint(string) (bool, error)            { return false, nil }
func (noMountHost) Unmount(string) error                         { return nil }

type nodeGetter v1.ResourceList

func (n nodeGetter) GetNode(context.Context) (*v1.Node, error) {
	return &v1.Node{Status: v1.NodeStatus{Allocatable: v1.ResourceList(n)}}, nil
}

// Podconfig sets vol up with volumes.Manager under root, step by step as Kubelet.
func Podconfig(t *testing.T, root string, pod *v1.Pod, vol *v1.Volume, steps []Objects) []Step {
	var out []Step
	bundles := newBundleStore()
	podDir := filepath.Join(root, "pods", string(pod.UID))
	for _, objs := range steps {
		if err := bundles.apply(objs.TrustBundles); err != nil {
			t.Fatal(err)
		}
		cs := client(objs)
		m := &volumes.Manager{RootDir: root, Host: noMountHost{volumes.NewLinuxHost()}, Sources: volumes.Sources{
			ConfigMaps: configMaps{cs}, Secrets: secrets{cs}, Node: nodeGetter(objs.Allocatable),
			Tokens: volumes.NewTokenManager(tokens{cs}, nil), TrustBundles: trustBundles{bundles.lister()},
		}}
		result := ""
		v, err := m.SetUp(context.Background(), pod, vol)
		if err != nil {
			msg := err.Error()
			if ve, ok := err.(*volumes.VolumeError); ok {
				msg = ve.Err.Error()
			}
			result = "error: " + strings.ReplaceAll(msg, root, "ROOT")
		} else {
			result = Tree(v.HostPath, root)
		}
		out = append(out, Step{Result: result, PodDir: Tree(podDir, root)})
	}
	return out
}

type configMaps struct{ cs *fake.Clientset }

func (c configMaps) GetConfigMap(ctx context.Context, ns, name string) (*v1.ConfigMap, error) {
	return c.cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
}

type secrets struct{ cs *fake.Clientset }

func (c secrets) GetSecret(ctx context.Context, ns, name string) (*v1.Secret, error) {
	return c.cs.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
}

type tokens struct{ cs *fake.Clientset }

func (c tokens) RequestToken(ctx context.Context, ns, sa string, tr *authenticationv1.TokenRequest) (*authenticationv1.TokenRequest, error) {
	return c.cs.CoreV1().ServiceAccounts(ns).CreateToken(ctx, sa, tr, metav1.CreateOptions{})
}

// timestamped matches the atomic writer's timestamped directory names.
var timestamped = regexp.MustCompile(`\.\.[0-9]{4}(_[0-9]{2}){5}\.[0-9]+`)

// Tree lists dir: one line per entry, "path type mode uid:gid [-> target | bytes]", every
// timestamped directory named ..TS and root replaced by ROOT in paths outside dir.
func Tree(dir, root string) string {
	var lines []string
	norm := func(s string) string {
		return strings.ReplaceAll(timestamped.ReplaceAllString(s, "..TS"), root, "ROOT")
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			lines = append(lines, norm(p)+" walk error: "+err.Error())
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			lines = append(lines, norm(rel)+" lstat error")
			return nil
		}
		st := fi.Sys().(*syscall.Stat_t)
		line := fmt.Sprintf("%s %v %d:%d", norm(rel), fi.Mode(), st.Uid, st.Gid)
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + norm(target)
		case fi.Mode().IsRegular():
			data, _ := os.ReadFile(p)
			line += fmt.Sprintf(" %q", data)
		}
		lines = append(lines, line)
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
