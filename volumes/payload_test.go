package volumes

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func i32(v int32) *int32 { return &v }
func i64(v int64) *int64 { return &v }
func ptr[T any](v T) *T  { return &v }

func TestValidatePath(t *testing.T) {
	long := strings.Repeat("a", 256)
	for _, tc := range []struct {
		name, path, err string
	}{
		{"empty path is rejected", "", `invalid path: must not be empty: ""`},
		{"absolute path is rejected", "/etc/passwd", "invalid path: must be relative path: /etc/passwd"},
		{"path over 4096 bytes is rejected", strings.Repeat("a/", 2049), "invalid path: must be less than or equal to 4096 characters"},
		{"'..' element is rejected", "a/../b", "invalid path: must not contain '..': a/../b"},
		{"a NUL byte is rejected before any system call", "a\x00b", `invalid path: must not contain a NUL byte: "a\x00b"`},
		{"element over 255 bytes is rejected", "a/" + long, "invalid path: filenames must be less than or equal to 255 characters"},
		{"first element starting with '..' is rejected", "..data", "invalid path: must not start with '..': ..data"},
		{"'..'-prefixed later element passes", "a/..b", ""},
		{"double slash passes", "a//b", ""},
		{"plain nested path passes", "a/b/c", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidatePath(tc.path)
			if tc.err == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tc.err)
		})
	}
}

func TestValidatePayload(t *testing.T) {
	for _, tc := range []struct {
		name  string
		paths []string
		want  []string
		err   string
	}{
		{"paths are cleaned and sorted", []string{"b", "a//c", "./d"}, []string{"a/c", "b", "d"}, ""},
		{"a path reaching ..data once cleaned is rejected", []string{"./..data"}, nil, "invalid path: must not start with '..': ..data"},
		{"a path reaching a timestamp dir once cleaned is rejected", []string{"./..2026_01_01_00_00_00.1/x"}, nil, "invalid path: must not start with '..': ..2026_01_01_00_00_00.1/x"},
		{"two paths naming one file are rejected", []string{"a", "./a"}, nil, "invalid path: a and ./a name the same file"},
		{"a file that is another's directory is rejected", []string{"a", "a/b"}, nil, "invalid path: a is a file and the directory of a/b"},
		{"'.' is rejected", []string{"."}, nil, "invalid path: must name a file: ."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p Payload
			for _, s := range tc.paths {
				p = append(p, File{Path: s})
			}
			got, err := ValidatePayload(p)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			var names []string
			for _, f := range got {
				names = append(names, f.Path)
			}
			assert.Equal(t, tc.want, names)
		})
	}
}

type fakeAPI struct {
	cms     map[string]*v1.ConfigMap
	secrets map[string]*v1.Secret
	node    *v1.Node
	ctbs    []*certificatesv1.ClusterTrustBundle
}

func (f *fakeAPI) GetConfigMap(_ context.Context, ns, name string) (*v1.ConfigMap, error) {
	if cm, ok := f.cms[ns+"/"+name]; ok {
		return cm, nil
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "configmap"}, name)
}

func (f *fakeAPI) GetSecret(_ context.Context, ns, name string) (*v1.Secret, error) {
	if s, ok := f.secrets[ns+"/"+name]; ok {
		return s, nil
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "secret"}, name)
}

func (f *fakeAPI) GetNode(context.Context) (*v1.Node, error) {
	if f.node == nil {
		return nil, errors.New("node not registered")
	}
	return f.node, nil
}

func (f *fakeAPI) GetClusterTrustBundle(_ context.Context, name string) (*certificatesv1.ClusterTrustBundle, error) {
	for _, b := range f.ctbs {
		if b.Name == name {
			return b, nil
		}
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Group: "certificates.k8s.io", Resource: "clustertrustbundles"}, name)
}

func (f *fakeAPI) ListClusterTrustBundles(_ context.Context, sel labels.Selector) ([]*certificatesv1.ClusterTrustBundle, error) {
	var out []*certificatesv1.ClusterTrustBundle
	for _, b := range f.ctbs {
		if sel.Matches(labels.Set(b.Labels)) {
			out = append(out, b)
		}
	}
	return out, nil
}

type fixedToken string

func (t fixedToken) GetServiceAccountToken(_ context.Context, ns, name string, tr *authenticationv1.TokenRequest) (*authenticationv1.TokenRequest, error) {
	out := tr.DeepCopy()
	out.Status.Token = string(t) + ":" + ns + "/" + name + ":" + tr.Spec.BoundObjectRef.Name
	return out, nil
}

func testPod() *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "uid-1",
			Labels: map[string]string{"app": "web", "tier": "front\"end"}, Annotations: map[string]string{"a": "1"}},
		Spec: v1.PodSpec{
			ServiceAccountName: "builder",
			Containers: []v1.Container{{Name: "app", Resources: v1.ResourceRequirements{
				Limits:   v1.ResourceList{v1.ResourceMemory: resource.MustParse("64Mi")},
				Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("250m")},
			}}},
			InitContainers: []v1.Container{{Name: "init"}},
		},
	}
}

func testAPI() *fakeAPI {
	return &fakeAPI{
		cms: map[string]*v1.ConfigMap{
			"shop/cfg":              {Data: map[string]string{"a.conf": "A", "b.conf": "B"}, BinaryData: map[string][]byte{"bin": {0, 1}}},
			"shop/kube-root-ca.crt": {Data: map[string]string{"ca.crt": "CA"}},
		},
		secrets: map[string]*v1.Secret{"shop/creds": {Data: map[string][]byte{"user": []byte("u"), "pass": []byte("p")}}},
		node: &v1.Node{Status: v1.NodeStatus{Allocatable: v1.ResourceList{
			v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("8Gi"), v1.ResourceEphemeralStorage: resource.MustParse("100Gi")}}},
	}
}

func testSources() Sources {
	api := testAPI()
	return Sources{ConfigMaps: api, Secrets: api, Node: api, Tokens: fixedToken("tok"), TrustBundles: api}
}

// summary renders a payload as "path mode owner data" lines.
func summary(p Payload) []string {
	var out []string
	for _, f := range p {
		owner := "-"
		if f.Owner != nil {
			owner = itoa(*f.Owner)
		}
		out = append(out, f.Path+" "+f.Mode.String()+" "+owner+" "+string(f.Data))
	}
	return out
}

func itoa(v int64) string { return resource.NewQuantity(v, resource.DecimalSI).String() }

func TestPayload(t *testing.T) {
	kubeAPIAccess := &v1.ProjectedVolumeSource{DefaultMode: i32(0o644), Sources: []v1.VolumeProjection{
		{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: i64(3607)}},
		{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []v1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
		{DownwardAPI: &v1.DownwardAPIProjection{Items: []v1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
	}}
	for _, tc := range []struct {
		name   string
		pod    func(*v1.Pod)
		source v1.VolumeSource
		want   []string
		err    string
	}{
		{
			name:   "configMap without items writes every data and binaryData key with defaultMode",
			source: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, DefaultMode: i32(0o644)}},
			want:   []string{"a.conf -rw-r--r-- - A", "b.conf -rw-r--r-- - B", "bin -rw-r--r-- - \x00\x01"},
		},
		{
			name: "configMap items choose keys, paths and modes",
			source: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, DefaultMode: i32(0o600),
				Items: []v1.KeyToPath{{Key: "a.conf", Path: "x/a"}, {Key: "bin", Path: "b", Mode: i32(0o4755)}}}},
			want: []string{"b -rwxr-xr-x - \x00\x01", "x/a -rw------- - A"},
		},
		{
			name:   "configMap item naming a missing key fails",
			source: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, DefaultMode: i32(0o644), Items: []v1.KeyToPath{{Key: "nope", Path: "n"}}}},
			err:    "configmap references non-existent config key: nope",
		},
		{
			name: "optional configMap skips a missing key",
			source: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, DefaultMode: i32(0o644), Optional: ptr(true),
				Items: []v1.KeyToPath{{Key: "nope", Path: "n"}, {Key: "a.conf", Path: "a"}}}},
			want: []string{"a -rw-r--r-- - A"},
		},
		{
			name:   "missing configMap fails with the getter's not-found text",
			source: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "gone"}, DefaultMode: i32(0o644)}},
			err:    `configmap "gone" not found`,
		},
		{
			name:   "missing optional configMap is an empty payload",
			source: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "gone"}, DefaultMode: i32(0o644), Optional: ptr(true)}},
			want:   nil,
		},
		{
			name:   "nil defaultMode fails",
			source: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}}},
			err:    "no defaultMode used, not even the default value for it",
		},
		{
			name:   "secret item naming a missing key fails",
			source: v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "creds", DefaultMode: i32(0o644), Items: []v1.KeyToPath{{Key: "token", Path: "t"}}}},
			err:    "references non-existent secret key: token",
		},
		{
			name:   "secret writes its data keys",
			source: v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "creds", DefaultMode: i32(0o400)}},
			want:   []string{"pass -r-------- - p", "user -r-------- - u"},
		},
		{
			name:   "missing secret fails",
			source: v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "gone", DefaultMode: i32(0o644)}},
			err:    `secret "gone" not found`,
		},
		{
			name: "downwardAPI fieldRefs and resourceFieldRefs, limits defaulted to allocatable",
			source: v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{DefaultMode: i32(0o644), Items: []v1.DownwardAPIVolumeFile{
				{Path: "labels", FieldRef: &v1.ObjectFieldSelector{FieldPath: "metadata.labels"}},
				{Path: "./name", FieldRef: &v1.ObjectFieldSelector{FieldPath: "metadata.name"}},
				{Path: "tier", FieldRef: &v1.ObjectFieldSelector{FieldPath: "metadata.labels['tier']"}},
				{Path: "cpu_limit", ResourceFieldRef: &v1.ResourceFieldSelector{ContainerName: "app", Resource: "limits.cpu", Divisor: resource.MustParse("1m")}},
				{Path: "mem_limit", ResourceFieldRef: &v1.ResourceFieldSelector{ContainerName: "app", Resource: "limits.memory", Divisor: resource.MustParse("1Mi")}},
				{Path: "init_cpu", ResourceFieldRef: &v1.ResourceFieldSelector{ContainerName: "init", Resource: "limits.cpu"}},
				{Path: "cpu_req", ResourceFieldRef: &v1.ResourceFieldSelector{ContainerName: "app", Resource: "requests.cpu"}},
				{Path: "empty"},
			}}},
			want: []string{"cpu_limit -rw-r--r-- - 4000", "cpu_req -rw-r--r-- - 1", "empty -rw-r--r-- - ", "init_cpu -rw-r--r-- - 4",
				"labels -rw-r--r-- - app=\"web\"\ntier=\"front\\\"end\"", "mem_limit -rw-r--r-- - 64", "name -rw-r--r-- - web", "tier -rw-r--r-- - front\"end"},
		},
		{
			name: "downwardAPI errors are aggregated",
			source: v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{DefaultMode: i32(0o644), Items: []v1.DownwardAPIVolumeFile{
				{Path: "a", FieldRef: &v1.ObjectFieldSelector{FieldPath: "spec.nodeName"}},
				{Path: "b", ResourceFieldRef: &v1.ResourceFieldSelector{ContainerName: "ghost", Resource: "limits.cpu"}},
				{Path: "c", ResourceFieldRef: &v1.ResourceFieldSelector{ContainerName: "app", Resource: "limits.gpu"}},
			}}},
			err: "[unsupported fieldPath: spec.nodeName, container ghost not found, unsupported container resource : limits.gpu]",
		},
		{
			name:   "kube-api-access projection: token, ca.crt and namespace at defaultMode",
			source: v1.VolumeSource{Projected: kubeAPIAccess},
			want:   []string{"ca.crt -rw-r--r-- - CA", "namespace -rw-r--r-- - shop", "token -rw-r--r-- - tok:shop/builder:web"},
		},
		{
			name:   "token is 0600 with an fsGroup",
			pod:    func(p *v1.Pod) { p.Spec.SecurityContext = &v1.PodSecurityContext{FSGroup: i64(2000)} },
			source: v1.VolumeSource{Projected: kubeAPIAccess},
			want:   []string{"ca.crt -rw-r--r-- - CA", "namespace -rw-r--r-- - shop", "token -rw------- - tok:shop/builder:web"},
		},
		{
			name:   "token is 0600 and owned by the pod's one runAsUser",
			pod:    func(p *v1.Pod) { p.Spec.SecurityContext = &v1.PodSecurityContext{RunAsUser: i64(1000)} },
			source: v1.VolumeSource{Projected: kubeAPIAccess},
			want:   []string{"ca.crt -rw-r--r-- - CA", "namespace -rw-r--r-- - shop", "token -rw------- 1k tok:shop/builder:web"},
		},
		{
			name: "token has no owner when containers run as different users",
			pod: func(p *v1.Pod) {
				p.Spec.SecurityContext = &v1.PodSecurityContext{RunAsUser: i64(1000)}
				p.Spec.InitContainers[0].SecurityContext = &v1.SecurityContext{RunAsUser: i64(0)}
			},
			source: v1.VolumeSource{Projected: kubeAPIAccess},
			want:   []string{"ca.crt -rw-r--r-- - CA", "namespace -rw-r--r-- - shop", "token -rw-r--r-- - tok:shop/builder:web"},
		},
		{
			name: "a later projected source replaces an earlier one at the same path",
			source: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: i32(0o644), Sources: []v1.VolumeProjection{
				{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, Items: []v1.KeyToPath{{Key: "a.conf", Path: "f"}}}},
				{Secret: &v1.SecretProjection{LocalObjectReference: v1.LocalObjectReference{Name: "creds"}, Items: []v1.KeyToPath{{Key: "user", Path: "f"}}}},
			}}},
			want: []string{"f -rw-r--r-- - u"},
		},
		{
			name: "projected source errors are aggregated",
			source: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: i32(0o644), Sources: []v1.VolumeProjection{
				{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "gone"}}},
				{Secret: &v1.SecretProjection{LocalObjectReference: v1.LocalObjectReference{Name: "creds"}, Items: []v1.KeyToPath{{Key: "nope", Path: "f"}}}},
				{ClusterTrustBundle: &v1.ClusterTrustBundleProjection{Path: "ca.pem"}},
			}}},
			err: `[configmap "gone" not found, references non-existent secret key: nope, ClusterTrustBundle projection requires either name or signerName to be set]`,
		},
		{
			name: "clusterTrustBundle by signer with no match fails unless optional",
			source: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: i32(0o644), Sources: []v1.VolumeProjection{
				{ClusterTrustBundle: &v1.ClusterTrustBundleProjection{Path: "ca.pem", SignerName: ptr("example.com/x"), LabelSelector: &metav1.LabelSelector{}}},
			}}},
			err: "combination of signerName and labelSelector matched zero ClusterTrustBundles",
		},
		{
			name: "clusterTrustBundle by missing name, optional, is an empty file",
			source: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: i32(0o644), Sources: []v1.VolumeProjection{
				{ClusterTrustBundle: &v1.ClusterTrustBundleProjection{Path: "ca.pem", Name: ptr("gone"), Optional: ptr(true)}},
			}}},
			want: []string{"ca.pem -rw-r--r-- - "},
		},
		{
			name:   "emptyDir has no payload",
			source: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}},
			err:    "volume type not supported: emptyDir",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := testPod()
			if tc.pod != nil {
				tc.pod(pod)
			}
			vol := &v1.Volume{Name: "v", VolumeSource: tc.source}
			p, err := testSources().Payload(context.Background(), pod, vol)
			if tc.err != "" {
				require.Error(t, err)
				var ve *VolumeError
				require.ErrorAs(t, err, &ve)
				assert.EqualError(t, ve.Err, tc.err)
				assert.Equal(t, `MountVolume.SetUp failed for volume "v" of pod shop/web: `+tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, summary(p))
		})
	}
}

func TestTrustBundleNormalization(t *testing.T) {
	api := &fakeAPI{ctbs: []*certificatesv1.ClusterTrustBundle{
		{ObjectMeta: metav1.ObjectMeta{Name: "example.com:x:1", Labels: map[string]string{"k": "v"}}, Spec: certificatesv1.ClusterTrustBundleSpec{SignerName: "example.com/x",
			TrustBundle: "-----BEGIN CERTIFICATE-----\nAgI=\n-----END CERTIFICATE-----\ntext\n-----BEGIN OTHER-----\nAQE=\n-----END OTHER-----\n"}},
		{ObjectMeta: metav1.ObjectMeta{Name: "example.com:x:2", Labels: map[string]string{"k": "v"}}, Spec: certificatesv1.ClusterTrustBundleSpec{SignerName: "example.com/x",
			TrustBundle: "-----BEGIN CERTIFICATE-----\nAQE=\n-----END CERTIFICATE-----\n"}},
		{ObjectMeta: metav1.ObjectMeta{Name: "other", Labels: map[string]string{"k": "v"}}, Spec: certificatesv1.ClusterTrustBundleSpec{SignerName: "example.com/y",
			TrustBundle: "-----BEGIN CERTIFICATE-----\nAwM=\n-----END CERTIFICATE-----\n"}},
	}}
	s := Sources{TrustBundles: api}
	got, err := s.trustAnchors(context.Background(), &v1.ClusterTrustBundleProjection{SignerName: ptr("example.com/x"), LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"k": "v"}}})
	require.NoError(t, err)
	assert.Equal(t, "-----BEGIN CERTIFICATE-----\nAQE=\n-----END CERTIFICATE-----\n-----BEGIN CERTIFICATE-----\nAgI=\n-----END CERTIFICATE-----\n", string(got),
		"blocks of every type decoded, de-duplicated, sorted by DER, re-encoded as CERTIFICATE")
	got, err = s.trustAnchors(context.Background(), &v1.ClusterTrustBundleProjection{SignerName: ptr("example.com/x")})
	require.EqualError(t, err, "combination of signerName and labelSelector matched zero ClusterTrustBundles", "a nil selector matches nothing")
	assert.Nil(t, got)
}

// TestTrustBundleIsCurrent: every set-up reads the bundles its lister has then. Kubelet keeps a
// normalised bundle for 5 minutes and drops it on the informer's events, but a bundle that has a
// signer and is read by name is never dropped: it serves the old certificates, or a deleted
// bundle's, until the 5 minutes pass (docs/compatibility.md).
func TestTrustBundleIsCurrent(t *testing.T) {
	pem := func(b64 string) string {
		return "-----BEGIN CERTIFICATE-----\n" + b64 + "\n-----END CERTIFICATE-----\n"
	}
	bundle := func(name, signer, b64 string) *certificatesv1.ClusterTrustBundle {
		return &certificatesv1.ClusterTrustBundle{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"k": "v"}},
			Spec: certificatesv1.ClusterTrustBundleSpec{SignerName: signer, TrustBundle: pem(b64)}}
	}
	byName := func(name string, optional bool) *v1.ClusterTrustBundleProjection {
		return &v1.ClusterTrustBundleProjection{Path: "ca.pem", Name: ptr(name), Optional: ptr(optional)}
	}
	bySigner := &v1.ClusterTrustBundleProjection{Path: "ca.pem", SignerName: ptr("example.com/s"), LabelSelector: &metav1.LabelSelector{}}
	for _, tc := range []struct {
		name         string
		proj         *v1.ClusterTrustBundleProjection
		first, later []*certificatesv1.ClusterTrustBundle
		want, err    string
	}{
		{name: "a bundle with a signer read by name shows its update at once", proj: byName("example.com:s:one", false),
			first: []*certificatesv1.ClusterTrustBundle{bundle("example.com:s:one", "example.com/s", "AQE=")},
			later: []*certificatesv1.ClusterTrustBundle{bundle("example.com:s:one", "example.com/s", "AgI=")}, want: pem("AgI=")},
		{name: "a bundle without a signer read by name shows its update", proj: byName("plain", false),
			first: []*certificatesv1.ClusterTrustBundle{bundle("plain", "", "AQE=")},
			later: []*certificatesv1.ClusterTrustBundle{bundle("plain", "", "AgI=")}, want: pem("AgI=")},
		{name: "bundles read by signer show an update", proj: bySigner,
			first: []*certificatesv1.ClusterTrustBundle{bundle("example.com:s:one", "example.com/s", "AQE=")},
			later: []*certificatesv1.ClusterTrustBundle{bundle("example.com:s:one", "example.com/s", "AgI=")}, want: pem("AgI=")},
		{name: "a deleted bundle with a signer read by name, optional, is an empty file at once", proj: byName("example.com:s:one", true),
			first: []*certificatesv1.ClusterTrustBundle{bundle("example.com:s:one", "example.com/s", "AQE=")}, want: ""},
		{name: "a deleted bundle with a signer read by name fails at once", proj: byName("example.com:s:one", false),
			first: []*certificatesv1.ClusterTrustBundle{bundle("example.com:s:one", "example.com/s", "AQE=")},
			err:   `while getting ClusterTrustBundle: clustertrustbundles.certificates.k8s.io "example.com:s:one" not found`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := &fakeAPI{ctbs: tc.first}
			s := Sources{TrustBundles: api}
			first, err := s.trustAnchors(context.Background(), tc.proj)
			require.NoError(t, err)
			assert.Equal(t, pem("AQE="), string(first))
			api.ctbs = tc.later
			got, err := s.trustAnchors(context.Background(), tc.proj)
			if tc.err != "" {
				assert.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got))
		})
	}
}

type certs struct{}

func (certs) GetPodCertificateCredentialBundle(_ context.Context, ns, pod, uid, vol string, idx int) ([]byte, []byte, error) {
	if idx != 1 {
		return nil, nil, errors.New("wrong index")
	}
	return []byte("KEY:" + ns + "/" + pod + "/" + uid + "/" + vol + "\n"), []byte("CHAIN\n"), nil
}

func TestPodCertificateProjection(t *testing.T) {
	src := v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: i32(0o644), Sources: []v1.VolumeProjection{
		{DownwardAPI: &v1.DownwardAPIProjection{}},
		{PodCertificate: &v1.PodCertificateProjection{SignerName: "example.com/s", CredentialBundlePath: "bundle.pem", KeyPath: "key.pem", CertificateChainPath: "chain.pem"}},
	}}}
	p, err := Sources{PodCertificates: certs{}}.Payload(context.Background(), testPod(), &v1.Volume{Name: "certs", VolumeSource: src})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"bundle.pem -rw-r--r-- - KEY:shop/web/uid-1/certs\nCHAIN\n",
		"chain.pem -rw-r--r-- - CHAIN\n",
		"key.pem -rw-r--r-- - KEY:shop/web/uid-1/certs\n",
	}, summary(p))
}

func TestMissingDependencies(t *testing.T) {
	src := v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, DefaultMode: i32(0o644)}}
	_, err := Sources{}.Payload(context.Background(), testPod(), &v1.Volume{Name: "v", VolumeSource: src})
	require.ErrorIs(t, err, ErrMissingDependency)
	src = v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{DefaultMode: i32(0o644), Items: []v1.DownwardAPIVolumeFile{
		{Path: "c", ResourceFieldRef: &v1.ResourceFieldSelector{ContainerName: "app", Resource: "limits.cpu"}}}}}
	_, err = Sources{}.Payload(context.Background(), testPod(), &v1.Volume{Name: "v", VolumeSource: src})
	require.ErrorIs(t, err, ErrNoNode, "no node: resourceFieldRef fails instead of a plausible 0")
}

func TestFsUserFrom(t *testing.T) {
	pod := testPod()
	assert.Nil(t, FsUserFrom(pod), "no runAsUser anywhere")
	pod.Spec.SecurityContext = &v1.PodSecurityContext{RunAsUser: i64(0)}
	assert.Equal(t, i64(0), FsUserFrom(pod), "uid 0 counts like any other")
	pod.Spec.EphemeralContainers = []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon{SecurityContext: &v1.SecurityContext{RunAsUser: i64(5)}}}}
	assert.Nil(t, FsUserFrom(pod), "an ephemeral container with another user")
}
