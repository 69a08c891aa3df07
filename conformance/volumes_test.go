package conformance

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	certificatesv1 "k8s.io/api/certificates/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/conformance/internal/volumeside"
)

// volumeScenario is one volume set up by kubelet's plugin and by volumes.Manager, once per step.
type volumeScenario struct {
	name string
	// deviation names a difference podconfig makes on purpose (see the README's compatibility
	// table); the two sides must then differ.
	deviation string
	pod       func(*v1.Pod)
	vol       v1.VolumeSource
	steps     []volumeside.Objects
}

func vi32(v int32) *int32 { return &v }
func vi64(v int64) *int64 { return &v }
func vtrue() *bool        { b := true; return &b }

var volAllocatable = v1.ResourceList{v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("8Gi"), v1.ResourceEphemeralStorage: resource.MustParse("100Gi")}

func cm(name string, data map[string]string, binary map[string][]byte) *v1.ConfigMap {
	return &v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop"}, Data: data, BinaryData: binary}
}

func sec(name string, data map[string]string) *v1.Secret {
	s := &v1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop"}, Data: map[string][]byte{}}
	for k, v := range data {
		s.Data[k] = []byte(v)
	}
	return s
}

func objs(cms []*v1.ConfigMap, secrets []*v1.Secret) volumeside.Objects {
	return volumeside.Objects{ConfigMaps: cms, Secrets: secrets, Allocatable: volAllocatable}
}

func one(o volumeside.Objects) []volumeside.Objects { return []volumeside.Objects{o} }

var (
	baseCM   = cm("cfg", map[string]string{"a.conf": "A", "b.conf": "B\n", "nested.key": "N"}, map[string][]byte{"bin": {0, 1, 2}})
	baseSec  = sec("creds", map[string]string{"user": "u", "pass": "p"})
	baseObjs = objs([]*v1.ConfigMap{baseCM, cm("kube-root-ca.crt", map[string]string{"ca.crt": "CA"}, nil)}, []*v1.Secret{baseSec})
)

func cmVol(items []v1.KeyToPath, mode int32, optional bool) v1.VolumeSource {
	s := &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, Items: items, DefaultMode: vi32(mode)}
	if optional {
		s.Optional = vtrue()
	}
	return v1.VolumeSource{ConfigMap: s}
}

func secVol(name string, items []v1.KeyToPath, mode int32, optional bool) v1.VolumeSource {
	s := &v1.SecretVolumeSource{SecretName: name, Items: items, DefaultMode: vi32(mode)}
	if optional {
		s.Optional = vtrue()
	}
	return v1.VolumeSource{Secret: s}
}

func fsGroup(g int64) func(*v1.Pod) {
	return func(p *v1.Pod) {
		if p.Spec.SecurityContext == nil {
			p.Spec.SecurityContext = &v1.PodSecurityContext{}
		}
		p.Spec.SecurityContext.FSGroup = &g
	}
}

func runAsUser(u int64) func(*v1.Pod) {
	return func(p *v1.Pod) {
		if p.Spec.SecurityContext == nil {
			p.Spec.SecurityContext = &v1.PodSecurityContext{}
		}
		p.Spec.SecurityContext.RunAsUser = &u
	}
}

func both(fs ...func(*v1.Pod)) func(*v1.Pod) {
	return func(p *v1.Pod) {
		for _, f := range fs {
			f(p)
		}
	}
}

func kubeAPIAccess() v1.VolumeSource {
	return v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: vi32(0o644), Sources: []v1.VolumeProjection{
		{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: vi64(3607)}},
		{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []v1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
		{DownwardAPI: &v1.DownwardAPIProjection{Items: []v1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
	}}}
}

func dapi(items ...v1.DownwardAPIVolumeFile) v1.VolumeSource {
	return v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{DefaultMode: vi32(0o644), Items: items}}
}

func fieldRefFile(path, fp string) v1.DownwardAPIVolumeFile {
	return v1.DownwardAPIVolumeFile{Path: path, FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: fp}}
}

func res(path, container, r, divisor string) v1.DownwardAPIVolumeFile {
	f := v1.DownwardAPIVolumeFile{Path: path, ResourceFieldRef: &v1.ResourceFieldSelector{ContainerName: container, Resource: r}}
	if divisor != "" {
		f.ResourceFieldRef.Divisor = resource.MustParse(divisor)
	}
	return f
}

func hostPathVol(path string, t v1.HostPathType) v1.VolumeSource {
	return v1.VolumeSource{HostPath: &v1.HostPathVolumeSource{Path: path, Type: &t}}
}

// mountedOutside mounts the volume "v" in a second container at a path that leaves the
// container's root (kubelet: "invalid container mount point").
func mountedOutside(p *v1.Pod) {
	p.Spec.Containers = append(p.Spec.Containers, v1.Container{Name: "side", VolumeMounts: []v1.VolumeMount{{Name: "v", MountPath: "../etc"}}})
}

func tokenVol(exp int64) v1.VolumeSource {
	return v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: vi32(0o644), Sources: []v1.VolumeProjection{
		{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: vi64(exp)}}}}}
}

// The ClusterTrustBundles of the trust-bundle scenarios: a signer's bundles are named after it.
const (
	testSigner       = "example.com/signer"
	testSignerPrefix = "example.com:signer:"
	signedBundle     = testSignerPrefix + "one"
)

// bundle is a ClusterTrustBundle holding one certificate block (base64 DER), labelled app=ca.
func bundle(name, signer, der string) *certificatesv1.ClusterTrustBundle {
	return &certificatesv1.ClusterTrustBundle{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "ca"}},
		Spec: certificatesv1.ClusterTrustBundleSpec{SignerName: signer, TrustBundle: "-----BEGIN CERTIFICATE-----\n" + der + "\n-----END CERTIFICATE-----\n"}}
}

func bundleObjs(bundles ...*certificatesv1.ClusterTrustBundle) volumeside.Objects {
	o := baseObjs
	o.TrustBundles = bundles
	return o
}

// bundleSteps serves each bundle in turn, one step each.
func bundleSteps(bundles ...*certificatesv1.ClusterTrustBundle) []volumeside.Objects {
	var out []volumeside.Objects
	for _, b := range bundles {
		out = append(out, bundleObjs(b))
	}
	return out
}

func ctbByName(name string, optional bool) *v1.ClusterTrustBundleProjection {
	p := &v1.ClusterTrustBundleProjection{Path: "ca.pem", Name: &name}
	if optional {
		p.Optional = vtrue()
	}
	return p
}

func ctbBySigner() *v1.ClusterTrustBundleProjection {
	signer := testSigner
	return &v1.ClusterTrustBundleProjection{Path: "ca.pem", SignerName: &signer, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "ca"}}}
}

func bundleVol(p *v1.ClusterTrustBundleProjection) v1.VolumeSource {
	return v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: vi32(0o644), Sources: []v1.VolumeProjection{{ClusterTrustBundle: p}}}}
}

func volumeScenarios() []volumeScenario {
	cmNoB := cm("cfg", map[string]string{"a.conf": "A", "nested.key": "N"}, map[string][]byte{"bin": {0, 1, 2}})
	cmChanged := cm("cfg", map[string]string{"a.conf": "A2", "b.conf": "B\n", "nested.key": "N"}, map[string][]byte{"bin": {0, 1, 2}})
	cmAdded := cm("cfg", map[string]string{"a.conf": "A", "b.conf": "B\n", "nested.key": "N", "c.conf": "C"}, map[string][]byte{"bin": {0, 1, 2}})
	cmDotDot := cm("cfg", map[string]string{"..data": "evil", "a.conf": "A"}, nil)
	return []volumeScenario{
		{name: "configMap: every key at defaultMode", vol: cmVol(nil, 0o644, false), steps: one(baseObjs)},
		{name: "configMap: defaultMode 0400", vol: cmVol(nil, 0o400, false), steps: one(baseObjs)},
		{name: "configMap: setuid bits in defaultMode are dropped", vol: cmVol(nil, 0o4755, false), steps: one(baseObjs)},
		{name: "configMap: items with paths and modes", vol: cmVol([]v1.KeyToPath{{Key: "a.conf", Path: "x/y/a"}, {Key: "bin", Path: "b", Mode: vi32(0o600)}}, 0o644, false), steps: one(baseObjs)},
		{name: "configMap: items sharing a directory", vol: cmVol([]v1.KeyToPath{{Key: "a.conf", Path: "d/a"}, {Key: "b.conf", Path: "d/b"}}, 0o644, false), steps: one(baseObjs)},
		{name: "configMap: two items at one path, the later wins", vol: cmVol([]v1.KeyToPath{{Key: "a.conf", Path: "f"}, {Key: "b.conf", Path: "f"}}, 0o644, false), steps: one(baseObjs)},
		{name: "configMap: missing key fails", vol: cmVol([]v1.KeyToPath{{Key: "nope", Path: "n"}}, 0o644, false), steps: one(baseObjs)},
		{name: "configMap: missing key skipped when optional", vol: cmVol([]v1.KeyToPath{{Key: "nope", Path: "n"}, {Key: "a.conf", Path: "a"}}, 0o644, true), steps: one(baseObjs)},
		{name: "configMap: missing object fails", vol: cmVol(nil, 0o644, false), steps: one(objs(nil, nil))},
		{name: "configMap: missing optional object is empty", vol: cmVol(nil, 0o644, true), steps: one(objs(nil, nil))},
		{name: "configMap: absolute item path fails", deviation: devNothingLeftOnError, vol: cmVol([]v1.KeyToPath{{Key: "a.conf", Path: "/etc/a"}}, 0o644, false), steps: one(baseObjs)},
		{name: "configMap: '..' item path fails", deviation: devNothingLeftOnError, vol: cmVol([]v1.KeyToPath{{Key: "a.conf", Path: "x/../../a"}}, 0o644, false), steps: one(baseObjs)},
		{name: "configMap: item path ..data fails", deviation: devNothingLeftOnError, vol: cmVol([]v1.KeyToPath{{Key: "a.conf", Path: "..data"}}, 0o644, false), steps: one(baseObjs)},
		{name: "configMap: key ..data fails", deviation: devNothingLeftOnError, vol: cmVol(nil, 0o644, false), steps: one(objs([]*v1.ConfigMap{cmDotDot}, nil))},
		{name: "configMap: item path with an element over 255 bytes fails", deviation: devNothingLeftOnError, vol: cmVol([]v1.KeyToPath{{Key: "a.conf", Path: strings.Repeat("x", 256)}}, 0o644, false), steps: one(baseObjs)},
		{name: "configMap: later '..x' element passes", vol: cmVol([]v1.KeyToPath{{Key: "a.conf", Path: "d/..x"}}, 0o644, false), steps: one(baseObjs)},
		{name: "configMap: fsGroup", pod: fsGroup(2000), vol: cmVol(nil, 0o644, false), steps: one(baseObjs)},
		{name: "configMap: fsGroup with OnRootMismatch policy (ignored by the plugin)", pod: func(p *v1.Pod) {
			fsGroup(2000)(p)
			pol := v1.FSGroupChangeOnRootMismatch
			p.Spec.SecurityContext.FSGroupChangePolicy = &pol
		}, vol: cmVol(nil, 0o600, false), steps: one(baseObjs)},
		{name: "configMap: update changes a key", vol: cmVol(nil, 0o644, false), steps: []volumeside.Objects{baseObjs, objs([]*v1.ConfigMap{cmChanged}, nil)}},
		{name: "configMap: update adds a key", vol: cmVol(nil, 0o644, false), steps: []volumeside.Objects{baseObjs, objs([]*v1.ConfigMap{cmAdded}, nil)}},
		{name: "configMap: update removes a key", vol: cmVol(nil, 0o644, false), steps: []volumeside.Objects{baseObjs, objs([]*v1.ConfigMap{cmNoB}, nil)}},
		{name: "configMap: no-op update", vol: cmVol(nil, 0o644, false), steps: []volumeside.Objects{baseObjs, baseObjs}},
		{name: "configMap: update with fsGroup", pod: fsGroup(3000), vol: cmVol(nil, 0o644, false), steps: []volumeside.Objects{baseObjs, objs([]*v1.ConfigMap{cmChanged}, nil)}},
		{name: "configMap: object deleted, optional", vol: cmVol(nil, 0o644, true), steps: []volumeside.Objects{baseObjs, objs(nil, nil)}},
		{name: "configMap: nested item dir removed by update", vol: cmVol([]v1.KeyToPath{{Key: "a.conf", Path: "d/e/a"}}, 0o644, false), steps: []volumeside.Objects{baseObjs, objs([]*v1.ConfigMap{cm("cfg", map[string]string{}, nil)}, nil)}},
		{name: "configMap: nested mount point", pod: func(p *v1.Pod) {
			p.Spec.Containers[0].VolumeMounts = []v1.VolumeMount{{Name: "v", MountPath: "/etc/app"}, {Name: "other", MountPath: "/etc/app/extra/deep"}}
		}, vol: cmVol(nil, 0o644, false), steps: one(baseObjs)},
		{name: "secret: every key", vol: secVol("creds", nil, 0o644, false), steps: one(baseObjs)},
		{name: "secret: items and modes", vol: secVol("creds", []v1.KeyToPath{{Key: "user", Path: "u/name", Mode: vi32(0o400)}}, 0o644, false), steps: one(baseObjs)},
		{name: "secret: missing key", vol: secVol("creds", []v1.KeyToPath{{Key: "token", Path: "t"}}, 0o644, false), steps: one(baseObjs)},
		{name: "secret: missing object", vol: secVol("gone", nil, 0o644, false), steps: one(baseObjs)},
		{name: "secret: missing optional object", vol: secVol("gone", nil, 0o644, true), steps: one(baseObjs)},
		{name: "secret: fsGroup on 0400", pod: fsGroup(2000), vol: secVol("creds", nil, 0o400, false), steps: one(baseObjs)},
		{name: "secret: rotation", vol: secVol("creds", nil, 0o644, false), steps: []volumeside.Objects{baseObjs, objs(nil, []*v1.Secret{sec("creds", map[string]string{"user": "u2"})})}},
		{name: "downwardAPI: metadata fields", pod: func(p *v1.Pod) {
			p.Labels = map[string]string{"app": "web", "q": "a\"b\n"}
			p.Annotations = map[string]string{"note": "x"}
		}, vol: dapi(fieldRefFile("labels", "metadata.labels"), fieldRefFile("annotations", "metadata.annotations"), fieldRefFile("name", "metadata.name"),
			fieldRefFile("ns", "metadata.namespace"), fieldRefFile("uid", "metadata.uid"), fieldRefFile("app", "metadata.labels['app']"), fieldRefFile("./d//x", "metadata.name")), steps: one(baseObjs)},
		{name: "downwardAPI: resources with allocatable defaults", vol: dapi(res("cpu", "app", "limits.cpu", "1m"), res("mem", "app", "limits.memory", "1Mi"),
			res("eph", "app", "limits.ephemeral-storage", "1Gi"), res("req", "app", "requests.cpu", ""), res("init", "init", "limits.memory", "")), steps: one(baseObjs)},
		{name: "downwardAPI: unsupported field and resource", vol: dapi(fieldRefFile("a", "spec.nodeName"), res("b", "app", "limits.gpu", ""), res("c", "ghost", "limits.cpu", "")), steps: one(baseObjs)},
		{name: "downwardAPI: fsGroup and item mode", pod: fsGroup(1234), vol: v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{DefaultMode: vi32(0o600),
			Items: []v1.DownwardAPIVolumeFile{{Path: "n", Mode: vi32(0o444), FieldRef: &v1.ObjectFieldSelector{FieldPath: "metadata.name"}}}}}, steps: one(baseObjs)},
		{name: "projected: kube-api-access", vol: kubeAPIAccess(), steps: one(baseObjs)},
		{name: "projected: kube-api-access with fsGroup", pod: fsGroup(2000), vol: kubeAPIAccess(), steps: one(baseObjs)},
		{name: "projected: kube-api-access with runAsUser", pod: runAsUser(1000), vol: kubeAPIAccess(), steps: one(baseObjs)},
		{name: "projected: kube-api-access with both", pod: both(runAsUser(1000), fsGroup(3000)), vol: kubeAPIAccess(), steps: one(baseObjs)},
		{name: "projected: kube-api-access without its CA", vol: kubeAPIAccess(), steps: one(objs([]*v1.ConfigMap{baseCM}, nil))},
		{name: "projected: token with audience", vol: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: vi32(0o440), Sources: []v1.VolumeProjection{
			{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "vault/token", Audience: "vault", ExpirationSeconds: vi64(7200)}}}}}, steps: one(baseObjs)},
		{name: "projected: later source wins", vol: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: vi32(0o644), Sources: []v1.VolumeProjection{
			{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}}},
			{Secret: &v1.SecretProjection{LocalObjectReference: v1.LocalObjectReference{Name: "creds"}, Items: []v1.KeyToPath{{Key: "user", Path: "a.conf"}}}}}}}, steps: one(baseObjs)},
		{name: "projected: errors of several sources", vol: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: vi32(0o644), Sources: []v1.VolumeProjection{
			{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "gone"}}},
			{Secret: &v1.SecretProjection{LocalObjectReference: v1.LocalObjectReference{Name: "creds"}, Items: []v1.KeyToPath{{Key: "nope", Path: "x"}}}},
			{DownwardAPI: &v1.DownwardAPIProjection{Items: []v1.DownwardAPIVolumeFile{fieldRefFile("x", "status.podIP")}}}}}}, steps: one(baseObjs)},
		{name: "projected: optional sources missing", vol: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: vi32(0o644), Sources: []v1.VolumeProjection{
			{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "gone"}, Optional: vtrue()}},
			{Secret: &v1.SecretProjection{LocalObjectReference: v1.LocalObjectReference{Name: "gone"}, Optional: vtrue()}}}}}, steps: one(baseObjs)},
		{name: "projected: update of the CA", vol: kubeAPIAccess(), steps: []volumeside.Objects{baseObjs, objs([]*v1.ConfigMap{cm("kube-root-ca.crt", map[string]string{"ca.crt": "CA2"}, nil)}, nil)}},
		{name: "emptyDir: disk", vol: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}, steps: one(baseObjs)},
		{name: "emptyDir: disk with fsGroup", pod: fsGroup(2000), vol: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}, steps: one(baseObjs)},
		{name: "emptyDir: set up twice", pod: fsGroup(2000), vol: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}, steps: []volumeside.Objects{baseObjs, baseObjs}},
		{name: "emptyDir: Memory with sizeLimit and fsGroup", pod: fsGroup(2000), vol: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: v1.StorageMediumMemory, SizeLimit: resource.NewQuantity(1<<20, resource.BinarySI)}}, steps: one(baseObjs)},
		{name: "emptyDir: hugepages with a request", pod: func(p *v1.Pod) {
			p.Spec.Containers[0].Resources.Requests["hugepages-2Mi"] = resource.MustParse("4Mi")
			p.Spec.Containers[0].Resources.Limits["hugepages-2Mi"] = resource.MustParse("4Mi")
		}, vol: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: v1.StorageMediumHugePages}}, steps: one(baseObjs)},
		{name: "emptyDir: HugePages-1Gi without that size requested", deviation: devNothingLeftOnError, pod: func(p *v1.Pod) {
			p.Spec.Containers[0].Resources.Requests["hugepages-2Mi"] = resource.MustParse("4Mi")
			p.Spec.Containers[0].Resources.Limits["hugepages-2Mi"] = resource.MustParse("4Mi")
		}, vol: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: "HugePages-1Gi"}}, steps: one(baseObjs)},
		{name: "emptyDir: unknown medium", vol: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: "Tape"}}, steps: one(baseObjs)},
		{name: "emptyDir: hugepages without a request", deviation: devNothingLeftOnError, vol: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: v1.StorageMediumHugePages}}, steps: one(baseObjs)},
		{name: "hostPath: DirectoryOrCreate makes it", vol: hostPathVol("ROOT/host/new/dir", v1.HostPathDirectoryOrCreate), steps: one(baseObjs)},
		{name: "hostPath: FileOrCreate without its parent", vol: hostPathVol("ROOT/host/missing/file", v1.HostPathFileOrCreate), steps: one(baseObjs)},
		{name: "hostPath: FileOrCreate makes it", vol: hostPathVol("ROOT/host/file", v1.HostPathFileOrCreate), steps: one(baseObjs)},
		{name: "hostPath: Directory missing", vol: hostPathVol("ROOT/host/none", v1.HostPathDirectory), steps: one(baseObjs)},
		{name: "hostPath: File is a directory", vol: hostPathVol("ROOT/host", v1.HostPathFile), steps: one(baseObjs)},
		{name: "hostPath: Socket is a directory", vol: hostPathVol("ROOT/host", v1.HostPathSocket), steps: one(baseObjs)},
		{name: "hostPath: backsteps", vol: hostPathVol("ROOT/host/../etc", v1.HostPathUnset), steps: one(baseObjs)},
		{name: "hostPath: invalid type", vol: hostPathVol("ROOT/host", "Pipe"), steps: one(baseObjs)},
		{name: "configMap: a mount point leaving the container fails", deviation: devNothingLeftOnError, pod: mountedOutside,
			vol: cmVol(nil, 0o644, false), steps: one(baseObjs)},
		{name: "secret: a mount point leaving the container fails, with fsGroup", deviation: devNothingLeftOnError, pod: both(mountedOutside, fsGroup(2000)),
			vol: secVol("creds", nil, 0o644, false), steps: one(baseObjs)},
		{name: "projected: a mount point leaving the container fails", deviation: devNothingLeftOnError, pod: mountedOutside,
			vol: kubeAPIAccess(), steps: one(baseObjs)},
		{name: "configMap: a refused item path fails on a refresh", deviation: devNothingLeftOnError,
			vol: cmVol(nil, 0o644, false), steps: []volumeside.Objects{baseObjs, objs([]*v1.ConfigMap{cmDotDot}, nil)}},
		{name: "emptyDir: a HugePages medium whose size is no quantity", deviation: devNothingLeftOnError, pod: func(p *v1.Pod) {
			p.Spec.Containers[0].Resources.Requests["hugepages-2Mi"] = resource.MustParse("4Mi")
			p.Spec.Containers[0].Resources.Limits["hugepages-2Mi"] = resource.MustParse("4Mi")
		}, vol: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: "HugePages-2Xi"}}, steps: one(baseObjs)},
		{name: "projected: a token under 10 minutes is refused by the API server", vol: tokenVol(599), steps: one(baseObjs)},
		{name: "projected: a token over 2^32 seconds is refused by the API server", vol: tokenVol(1<<32 + 1), steps: one(baseObjs)},
		{name: "projected: a token of 10 minutes", vol: tokenVol(600), steps: one(baseObjs)},
		{name: "projected: clusterTrustBundle by name without a signer, updated", vol: bundleVol(ctbByName("plain", false)),
			steps: bundleSteps(bundle("plain", "", "AQE="), bundle("plain", "", "AgI="))},
		{name: "projected: clusterTrustBundle by signer, updated", vol: bundleVol(ctbBySigner()),
			steps: bundleSteps(bundle(signedBundle, testSigner, "AQE="), bundle(signedBundle, testSigner, "AgI="))},
		{name: "projected: clusterTrustBundle by signer, a second bundle added", vol: bundleVol(ctbBySigner()),
			steps: []volumeside.Objects{bundleObjs(bundle(signedBundle, testSigner, "AQE=")),
				bundleObjs(bundle(signedBundle, testSigner, "AQE="), bundle(testSignerPrefix+"two", testSigner, "AQE="))}},
		{name: "projected: clusterTrustBundle by name, missing and optional", vol: bundleVol(ctbByName("gone", true)), steps: one(bundleObjs())},
		{name: "projected: clusterTrustBundle by name, missing", vol: bundleVol(ctbByName("gone", false)), steps: one(bundleObjs())},
		{name: "projected: clusterTrustBundle by name with a signer, unchanged", vol: bundleVol(ctbByName(signedBundle, false)),
			steps: bundleSteps(bundle(signedBundle, testSigner, "AQE="), bundle(signedBundle, testSigner, "AQE="))},
		{name: "projected: clusterTrustBundle by name with a signer, updated", deviation: devTrustBundleFresh, vol: bundleVol(ctbByName(signedBundle, false)),
			steps: bundleSteps(bundle(signedBundle, testSigner, "AQE="), bundle(signedBundle, testSigner, "AgI="))},
		{name: "projected: clusterTrustBundle by name with a signer, deleted, optional", deviation: devTrustBundleFresh, vol: bundleVol(ctbByName(signedBundle, true)),
			steps: []volumeside.Objects{bundleObjs(bundle(signedBundle, testSigner, "AQE=")), bundleObjs()}},
		{name: "configMap: item path reaching ..data once cleaned", deviation: devCleanedPaths,
			vol: cmVol([]v1.KeyToPath{{Key: "a.conf", Path: "./..data"}}, 0o644, false), steps: one(baseObjs)},
		{name: "configMap: two item paths naming one file", deviation: devOneFile,
			vol: cmVol([]v1.KeyToPath{{Key: "a.conf", Path: "f"}, {Key: "b.conf", Path: "./f"}}, 0o644, false), steps: one(baseObjs)},
		{name: "configMap: a file that is another item's directory", deviation: devFileIsDirectory,
			vol: cmVol([]v1.KeyToPath{{Key: "a.conf", Path: "d"}, {Key: "b.conf", Path: "d/x"}}, 0o644, false), steps: one(baseObjs)},
	}
}

func volumePod(mut func(*v1.Pod)) *v1.Pod {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "9d1c3a1e-0000-4000-8000-000000000001"},
		Spec: v1.PodSpec{ServiceAccountName: "builder",
			Containers: []v1.Container{{Name: "app", Resources: v1.ResourceRequirements{
				Limits: v1.ResourceList{v1.ResourceMemory: resource.MustParse("64Mi")}, Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("250m")}}}},
			InitContainers: []v1.Container{{Name: "init"}},
		},
	}
	if mut != nil {
		mut(pod)
	}
	return pod
}

// runVolumeScenario sets sc up on both sides and returns what each step left on each.
func runVolumeScenario(t *testing.T, sc volumeScenario) (kubelet, podconfig []volumeside.Step) {
	if os.Getuid() != 0 {
		t.Skip("the volume plugins chown: run as root")
	}
	pod := volumePod(sc.pod)
	var results [2][]volumeside.Step
	for i, side := range []func(*testing.T, string, *v1.Pod, *v1.Volume, []volumeside.Objects) []volumeside.Step{volumeside.Kubelet, volumeside.Podconfig} {
		root := t.TempDir()
		// The pod's data directories, as kubelet's makePodDataDirs makes them before any volume.
		for _, d := range []string{"volumes", "plugins"} {
			if err := os.MkdirAll(filepath.Join(root, "pods", string(pod.UID), d), 0o750); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(filepath.Join(root, "host"), 0o755); err != nil {
			t.Fatal(err)
		}
		vol := v1.Volume{Name: "v", VolumeSource: *sc.vol.DeepCopy()}
		if vol.HostPath != nil {
			vol.HostPath.Path = strings.ReplaceAll(vol.HostPath.Path, "ROOT", root)
		}
		results[i] = side(t, root, pod, &vol, sc.steps)
	}
	if os.Getenv("PODCONFIG_VOLUMES_SHOW") != "" {
		for step, k := range results[0] {
			t.Logf("kubelet, step %d:\n%s", step, k)
		}
	}
	return results[0], results[1]
}

// Deviations of the volume plugins (docs/compatibility.md). A scenario names the one it shows;
// its steps must then be equal or differ in the deviation's shape, and one must differ.
const (
	devNothingLeftOnError = "on error the pod directory is as it was"
	devTrustBundleFresh   = "a ClusterTrustBundle read by name is current"
	devCleanedPaths       = "payload paths are validated after cleaning too"
	devOneFile            = "paths that clean to one file are an error, not a random winner"
	devFileIsDirectory    = "a file that is another's directory is refused before writing"
	devLinkOwnerMapOrder  = "a top-level link's owner is its first file's by path, where kubelet's is by map order"
	devInvalidPathOrder   = "of several refused paths the first by path is named, where kubelet names one by map order"
)

// topLinkOwner is the owner of a top-level link into ..data in a tree listing.
var topLinkOwner = regexp.MustCompile(`(?m)^((?:volumes/[^ ]+/)?[^/ ]+ Lrwxrwxrwx )\d+:\d+( -> \.\.data/)`)

// emptyPodDir is the pod directory before the first step: it and its data directories, 0750.
const emptyPodDir = ". drwxr-x--- 0:0\nplugins drwxr-x--- 0:0\nvolumes drwxr-x--- 0:0"

// volumeDeviationShapes says how a step may differ under a deviation, given the step before it
// on podconfig's side (an empty pod directory before the first). A deviation without a shape
// accepts any difference.
var volumeDeviationShapes = map[string]func(podconfigBefore, kubelet, podconfig volumeside.Step) bool{
	// Kubelet leaves a failed set-up's directories, ready marker and empty plugin directories
	// (or tears a failed refresh down); podconfig returns the same error and leaves the pod
	// directory as the step found it.
	devNothingLeftOnError: func(before, k, p volumeside.Step) bool {
		return k.Failed() && k.Result == p.Result && p.PodDir == before.PodDir
	},
	// Kubelet serves a bundle that has a signer from its 5-minute cache when it is read by name,
	// missing the informer's update; podconfig reads the current one.
	devTrustBundleFresh: func(_, k, p volumeside.Step) bool {
		return !k.Failed() && !p.Failed()
	},
	// Kubelet chowns a top-level link (q -> ..data/q) to the owner of whichever file below it its
	// payload map yields first, so among files with different owners the link's is random;
	// podconfig takes the first file's by path. The trees are otherwise the same.
	devLinkOwnerMapOrder: func(_, k, p volumeside.Step) bool {
		norm := func(s string) string { return topLinkOwner.ReplaceAllString(s, "${1}*${2}") }
		return norm(k.Result) == norm(p.Result) && norm(k.PodDir) == norm(p.PodDir)
	},
	// Kubelet validates a payload's paths in map order and names the first it refuses, so among
	// several refused paths which one it names is random; podconfig names the first by path.
	devInvalidPathOrder: func(before, k, p volumeside.Step) bool {
		refused := func(s volumeside.Step) bool { return strings.HasPrefix(s.Result, "error: invalid path: ") }
		return refused(k) && refused(p) && p.PodDir == before.PodDir
	},
	// Kubelet fails writing (EISDIR or EEXIST, by map order) and tears the volume down;
	// podconfig refuses the payload before making anything.
	devFileIsDirectory: func(before, k, p volumeside.Step) bool {
		return k.Failed() && strings.Contains(p.Result, " is a file and the directory of ") && p.PodDir == before.PodDir
	},
}

// compareVolumeSteps returns the first step that differs other than as one of the deviations
// allows ("" when none), and whether any step differed.
func compareVolumeSteps(deviations []string, kubelet, podconfig []volumeside.Step) (string, bool) {
	allowed := func(before, k, p volumeside.Step) bool {
		for _, d := range deviations {
			shape, ok := volumeDeviationShapes[d]
			if !ok || shape(before, k, p) {
				return true
			}
		}
		return false
	}
	differed := false
	before := volumeside.Step{PodDir: emptyPodDir}
	for step := range kubelet {
		k, p := kubelet[step], podconfig[step]
		if k != p {
			differed = true
			if !allowed(before, k, p) {
				return fmt.Sprintf("step %d:\nkubelet:\n%s\npodconfig:\n%s", step, k, p), true
			}
		}
		before = p
	}
	return "", differed
}

// TestVolumeContents sets each volume scenario up with kubelet's plugins and volumes.Manager and
// compares the file trees (paths, types, modes, owners, symlinks, bytes) or the errors, and the
// pod directory each set-up leaves.
func TestVolumeContents(t *testing.T) {
	scenarios := volumeScenarios()
	if len(scenarios) < 40 {
		t.Fatalf("only %d volume scenarios", len(scenarios))
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			k, p := runVolumeScenario(t, sc)
			var allowed []string
			if sc.deviation != "" {
				allowed = []string{sc.deviation}
			}
			d, differed := compareVolumeSteps(allowed, k, p)
			switch {
			case d != "":
				t.Error(d)
			case sc.deviation != "" && !differed:
				t.Errorf("deviation %q no longer occurs", sc.deviation)
			case sc.deviation != "":
				shown, _ := compareVolumeSteps(nil, k, p)
				t.Logf("deviation %q: %s", sc.deviation, shown)
			}
		})
	}
}

// TestRandomVolumes sets up seeded random configMap, secret and projected volumes with random
// keys, items, modes and owners, over a random update. PODCONFIG_CONFORMANCE_SEED replays a run.
// A refused path or key fails both sides alike, only the pod directory kubelet leaves then may
// differ (devNothingLeftOnError); a key that is an item path's directory is refused before
// writing (devFileIsDirectory).
func TestRandomVolumes(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("PODCONFIG_CONFORMANCE_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("random volumes: seed %d (replay with PODCONFIG_CONFORMANCE_SEED=%d)", seed, seed)
	r := rand.New(rand.NewPCG(seed, 17))
	for i := range 30 {
		sc := randomVolume(r, i)
		k, p := runVolumeScenario(t, sc)
		if d, _ := compareVolumeSteps([]string{devNothingLeftOnError, devFileIsDirectory, devLinkOwnerMapOrder, devInvalidPathOrder}, k, p); d != "" {
			t.Fatalf("%s (seed %d): %s", sc.name, seed, d)
		}
	}
}

func randomVolume(r *rand.Rand, i int) volumeScenario {
	names := []string{"a", "b.conf", "c_d", "dir", "x.y", "..hidden", "e", "f-g"}
	randomData := func() map[string]string {
		m := map[string]string{}
		for range r.IntN(5) {
			k := names[r.IntN(len(names)-1)]
			if r.IntN(20) == 0 {
				k = names[5]
			}
			m[k] = strings.Repeat(string(rune('a'+r.IntN(26))), r.IntN(4))
		}
		return m
	}
	modes := []int32{0o644, 0o400, 0o600, 0o755, 0o777, 0o440}
	paths := []string{"p", "q/r", "q/s", "t/u/v", "./w", "x//y", "..z", "a/..b", "/abs", "k/../l"}
	var items []v1.KeyToPath
	if r.IntN(2) == 0 {
		for range r.IntN(4) {
			it := v1.KeyToPath{Key: names[r.IntN(len(names))], Path: paths[r.IntN(len(paths))]}
			if r.IntN(2) == 0 {
				it.Mode = vi32(modes[r.IntN(len(modes))])
			}
			items = append(items, it)
		}
	}
	optional := r.IntN(3) == 0
	mode := modes[r.IntN(len(modes))]
	var src v1.VolumeSource
	kind := r.IntN(3)
	switch kind {
	case 0:
		src = cmVol(items, mode, optional)
	case 1:
		src = secVol("creds", items, mode, optional)
	default:
		p := &v1.ProjectedVolumeSource{DefaultMode: vi32(mode)}
		p.Sources = append(p.Sources, v1.VolumeProjection{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, Items: items, Optional: src2opt(optional)}})
		if r.IntN(2) == 0 {
			p.Sources = append(p.Sources, v1.VolumeProjection{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: paths[r.IntN(3)], ExpirationSeconds: vi64(3600)}})
		}
		if r.IntN(2) == 0 {
			p.Sources = append(p.Sources, v1.VolumeProjection{Secret: &v1.SecretProjection{LocalObjectReference: v1.LocalObjectReference{Name: "creds"}}})
		}
		src = v1.VolumeSource{Projected: p}
	}
	var muts []func(*v1.Pod)
	if r.IntN(2) == 0 {
		muts = append(muts, fsGroup(int64(1000+r.IntN(3))))
	}
	if r.IntN(3) == 0 {
		muts = append(muts, runAsUser(int64(2000+r.IntN(2))))
	}
	step := func() volumeside.Objects {
		var cms []*v1.ConfigMap
		var secs []*v1.Secret
		if r.IntN(6) != 0 {
			cms = append(cms, cm("cfg", randomData(), nil))
		}
		if r.IntN(6) != 0 {
			secs = append(secs, sec("creds", randomData()))
		}
		return objs(cms, secs)
	}
	steps := []volumeside.Objects{step()}
	for range r.IntN(3) {
		steps = append(steps, step())
	}
	return volumeScenario{name: fmt.Sprintf("random volume %d (kind %d)", i, kind), pod: both(muts...), vol: src, steps: steps}
}

func src2opt(b bool) *bool {
	if b {
		return vtrue()
	}
	return nil
}
