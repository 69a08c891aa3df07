package validation

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
)

func volTrustBundle(b v1.ClusterTrustBundleProjection) v1.VolumeProjection {
	return v1.VolumeProjection{ClusterTrustBundle: &b}
}

func volPodCertificate(pc v1.PodCertificateProjection) v1.VolumeProjection {
	return v1.VolumeProjection{PodCertificate: &pc}
}

var clusterTrustBundleCases = []volCase{
	volOne("a trust bundle by name passes", volProjected(volTrustBundle(v1.ClusterTrustBundleProjection{Name: ptr.To("bundle"), Path: "ca.pem"}))),
	volOne("a trust bundle by a signer's prefixed name passes", volProjected(volTrustBundle(v1.ClusterTrustBundleProjection{Name: ptr.To("example.com:signer:abc"), Path: "ca.pem"}))),
	volOne("trust bundles by signer and selector pass", volProjected(volTrustBundle(v1.ClusterTrustBundleProjection{
		SignerName: ptr.To("example.com/signer"), LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}}, Path: "ca.pem"}))),
	volOne("a trust bundle with a name and a signer is refused, the source printed with its internal field names",
		volProjected(volTrustBundle(v1.ClusterTrustBundleProjection{Name: ptr.To("b"), SignerName: ptr.To("example.com/s"), Path: "ca.pem", User: ptr.To[int64](7)})),
		`spec.volumes[0].projected.sources[0].clusterTrustBundle: Invalid value: {"Name":"b","SignerName":"example.com/s","LabelSelector":null,"Optional":null,"Path":"ca.pem","User":null}: only one of name and signerName may be used`),
	volOne("beside a downwardAPI in its source, a trust bundle keeps its user, printed and checked", volProjected(v1.VolumeProjection{
		DownwardAPI:        &v1.DownwardAPIProjection{},
		ClusterTrustBundle: &v1.ClusterTrustBundleProjection{Name: ptr.To("b"), SignerName: ptr.To("example.com/s"), Path: "ca.pem", User: ptr.To[int64](-1)},
	}),
		`spec.volumes[0].projected.sources[0].clusterTrustBundle: Invalid value: {"Name":"b","SignerName":"example.com/s","LabelSelector":null,"Optional":null,"Path":"ca.pem","User":-1}: only one of name and signerName may be used`,
		"spec.volumes[0].projected.sources[0].clusterTrustBundle.user: Invalid value: -1: "+volUserMsg,
		"spec.volumes[0].projected.sources[0]: Forbidden: may not specify more than 1 volume type per source"),
	volOne("a trust bundle without a name or a signer is refused", volProjected(volTrustBundle(v1.ClusterTrustBundleProjection{Path: "ca.pem"})),
		"spec.volumes[0].projected.sources[0].clusterTrustBundle: Required value: either name or signerName must be specified"),
	volOne("a trust bundle's empty name is missing and invalid", volProjected(volTrustBundle(v1.ClusterTrustBundleProjection{Name: ptr.To(""), Path: "ca.pem"})),
		"spec.volumes[0].projected.sources[0].clusterTrustBundle.name: Required value: must be a valid object name",
		`spec.volumes[0].projected.sources[0].clusterTrustBundle.name: Invalid value: "": not a valid clustertrustbundlename: `+volDNSSubdomainMsg),
	volOne("a trust bundle's name must start with its signer's prefix", volProjected(volTrustBundle(v1.ClusterTrustBundleProjection{Name: ptr.To("ex/a:b"), Path: "ca.pem"})),
		`spec.volumes[0].projected.sources[0].clusterTrustBundle.name: Invalid value: "ex/a:b": not a valid clustertrustbundlename: ClusterTrustBundle for signerName ex/a must be named with prefix ex:a:`),
	volOne("a trust bundle name with an empty signer must not have a colon", volProjected(volTrustBundle(v1.ClusterTrustBundleProjection{Name: ptr.To(":abc"), Path: "ca.pem"})),
		`spec.volumes[0].projected.sources[0].clusterTrustBundle.name: Invalid value: ":abc": not a valid clustertrustbundlename: ClusterTrustBundle without signer name must not have ":" in its name`),
	volOne("a trust bundle by name allows no selector", volProjected(volTrustBundle(v1.ClusterTrustBundleProjection{Name: ptr.To("b"), Path: "ca.pem",
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}}})),
		`spec.volumes[0].projected.sources[0].clusterTrustBundle.labelSelector: Invalid value: {"matchLabels":{"a":"b"}}: labelSelector must be unset if name is specified`),
	volOne("a trust bundle's empty signer is missing twice", volProjected(volTrustBundle(v1.ClusterTrustBundleProjection{SignerName: ptr.To(""), Path: "ca.pem"})),
		"spec.volumes[0].projected.sources[0].clusterTrustBundle.signerName: Required value: must be a valid signer name",
		"spec.volumes[0].projected.sources[0].clusterTrustBundle.signerName: Required value"),
	volOne("a trust bundle's selector is checked, its labels in key order", volProjected(volTrustBundle(v1.ClusterTrustBundleProjection{
		SignerName: ptr.To("example.com/s"), Path: "ca.pem", LabelSelector: &metav1.LabelSelector{
			MatchLabels:      map[string]string{"b_": "x", "a_": "y"},
			MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "k", Operator: "Is"}},
		}})),
		`spec.volumes[0].projected.sources[0].clusterTrustBundle.labelSelector.matchLabels: Invalid value: "a_": `+volQualifiedNameMsg,
		`spec.volumes[0].projected.sources[0].clusterTrustBundle.labelSelector.matchLabels: Invalid value: "b_": `+volQualifiedNameMsg,
		`spec.volumes[0].projected.sources[0].clusterTrustBundle.labelSelector.matchExpressions[0].operator: Invalid value: "Is": not a valid selector operator`),
	volOne("trust bundles need paths, and even empty ones collide", volProjected(
		volTrustBundle(v1.ClusterTrustBundleProjection{Name: ptr.To("a")}),
		volTrustBundle(v1.ClusterTrustBundleProjection{Name: ptr.To("b")})),
		"spec.volumes[0].projected.sources[0].clusterTrustBundle.path: Required value",
		"spec.volumes[0].projected.sources[1].clusterTrustBundle.path: Required value",
		`spec.volumes[0].projected: Invalid value: "": conflicting duplicate paths`),
	volOne("a trust bundle's absolute path is refused", volProjected(volTrustBundle(v1.ClusterTrustBundleProjection{Name: ptr.To("a"), Path: "/ca.pem"})),
		`spec.volumes[0].projected.sources[0].clusterTrustBundle.path: Invalid value: "/ca.pem": must be a relative path`),
}

var podCertificateCases = []volCase{
	volOne("a pod certificate passes", volProjected(volPodCertificate(v1.PodCertificateProjection{
		SignerName: "example.com/signer", KeyType: "ED25519", CredentialBundlePath: "cred.pem", MaxExpirationSeconds: ptr.To[int32](3600),
		UserAnnotations: map[string]string{"example.com/team": "a"}}))),
	volOne("a pod certificate needs a known key type and a path", volProjected(volPodCertificate(v1.PodCertificateProjection{SignerName: "example.com/s", KeyType: "DSA"})),
		`spec.volumes[0].projected.sources[0].podCertificate.keyType: Unsupported value: "DSA": supported values: "RSA3072", "RSA4096", "ECDSAP256", "ECDSAP384", "ECDSAP521", "ED25519"`,
		"spec.volumes[0].projected.sources[0].podCertificate: Required value: specify at least one of credentialBundlePath, keyPath, and certificateChainPath"),
	volOne("a pod certificate needs a signer", volProjected(volPodCertificate(v1.PodCertificateProjection{KeyType: "RSA3072", KeyPath: "k"})),
		"spec.volumes[0].projected.sources[0].podCertificate.signerName: Required value"),
	volOne("a pod certificate's lifetime is at least an hour", volProjected(volPodCertificate(v1.PodCertificateProjection{
		SignerName: "example.com/s", KeyType: "RSA3072", KeyPath: "k", MaxExpirationSeconds: ptr.To[int32](3599)})),
		"spec.volumes[0].projected.sources[0].podCertificate.maxExpirationSeconds: Invalid value: 3599: if provided, maxExpirationSeconds must be >= 3600"),
	volOne("a pod certificate's lifetime is at most 91 days", volProjected(volPodCertificate(v1.PodCertificateProjection{
		SignerName: "example.com/s", KeyType: "RSA3072", KeyPath: "k", MaxExpirationSeconds: ptr.To[int32](91*86400 + 1)})),
		"spec.volumes[0].projected.sources[0].podCertificate.maxExpirationSeconds: Invalid value: 7862401: if provided, maxExpirationSeconds must be <= 7862400"),
	volOne("a pod certificate from a Kubernetes signer lives at most a day", volProjected(volPodCertificate(v1.PodCertificateProjection{
		SignerName: "x.kubernetes.io/s", KeyType: "RSA3072", KeyPath: "k", MaxExpirationSeconds: ptr.To[int32](86401)})),
		"spec.volumes[0].projected.sources[0].podCertificate.maxExpirationSeconds: Invalid value: 86401: if provided, maxExpirationSeconds must be <= 86400"),
	volOne("a pod certificate's paths are checked and claimed in turn", volProjected(
		v1.VolumeProjection{Secret: volSecretItems("s", "cert.pem")},
		volPodCertificate(v1.PodCertificateProjection{SignerName: "example.com/s", KeyType: "RSA3072",
			CredentialBundlePath: "a", KeyPath: "a", CertificateChainPath: "cert.pem"}),
		volPodCertificate(v1.PodCertificateProjection{SignerName: "example.com/s", KeyType: "RSA3072", KeyPath: "/k"})),
		`spec.volumes[0].projected: Invalid value: "a": conflicting duplicate paths`,
		`spec.volumes[0].projected: Invalid value: "cert.pem": conflicting duplicate paths`,
		`spec.volumes[0].projected.sources[2].podCertificate.keyPath: Invalid value: "/k": must be a relative path`),
	volOne("a pod certificate's user annotations are domain-prefixed keys, checked lowercased in key order", volProjected(volPodCertificate(v1.PodCertificateProjection{
		SignerName: "example.com/s", KeyType: "RSA3072", KeyPath: "k", User: ptr.To[int64](-1),
		UserAnnotations: map[string]string{"team": "", "Example.com/Team": "", "bad key/x": ""}})),
		`spec.volumes[0].projected.sources[0].podCertificate.userAnnotations: Invalid value: "bad key/x": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
		`spec.volumes[0].projected.sources[0].podCertificate.userAnnotations: Invalid value: "team": must be a domain-prefixed key (such as "acme.io/foo")`),
	volOne("a pod certificate's user annotations are bounded in size", volProjected(volPodCertificate(v1.PodCertificateProjection{
		SignerName: "example.com/s", KeyType: "RSA3072", KeyPath: "k",
		UserAnnotations: map[string]string{"example.com/a": strings.Repeat("x", 256<<10)}})),
		"spec.volumes[0].projected.sources[0].podCertificate.userAnnotations: Too long: may not be more than 262144 bytes"),
}

func TestValidateClusterTrustBundleProjections(t *testing.T) {
	volRunCases(t, clusterTrustBundleCases)
}

func TestValidatePodCertificateProjections(t *testing.T) {
	volRunCases(t, podCertificateCases)
}

// volSignerCase is a signer name and the errors validateSignerName gives it at "signerName".
type volSignerCase struct {
	name   string
	signer string
	want   []string
}

var signerNameCases = []volSignerCase{
	{name: "a domain and a path pass", signer: "example.com/my-signer.v1"},
	{name: "an empty signer is missing", signer: "", want: []string{"signerName: Required value"}},
	{name: "a signer without a path is refused", signer: "example.com",
		want: []string{`signerName: Invalid value: "example.com": must be a fully qualified domain and path of the form 'example.com/signer-name'`}},
	{name: "a signer with two slashes is refused", signer: "example.com/a/b",
		want: []string{`signerName: Invalid value: "example.com/a/b": must be a fully qualified domain and path of the form 'example.com/signer-name'`}},
	{name: "a domain of one label is refused", signer: "example/x",
		want: []string{`signerName: Invalid value: "example": should be a domain with at least two segments separated by dots`}},
	{name: "only the domain's first bad label is reported", signer: "Ex_ample.C_om/x",
		want: []string{`signerName: Invalid value: "Ex_ample.C_om": validating label "Ex_ample": ` + volDNSLabelMsg}},
	{name: "a path label that is not a DNS subdomain is refused", signer: "example.com/a.Bad_",
		want: []string{`signerName: Invalid value: "a.Bad_": validating label "Bad_": ` + volDNSSubdomainMsg}},
	{name: "a domain longer than 253 bytes is refused, and its long label", signer: strings.Repeat("d", 250) + ".com/x",
		want: []string{
			"signerName: Too long: may not be more than 253 bytes",
			`signerName: Invalid value: "` + strings.Repeat("d", 250) + `.com": validating label "` + strings.Repeat("d", 250) + `": must be no more than 63 characters`,
		}},
	{name: "a signer longer than 571 bytes is refused", signer: "example.com/" + strings.Repeat("a", 200) + "." + strings.Repeat("b", 200) + "." + strings.Repeat("c", 200),
		want: []string{"signerName: Too long: may not be more than 571 bytes"}},
}

func TestValidateSignerName(t *testing.T) {
	for _, tc := range signerNameCases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, volTexts(validateSignerName(tc.signer, field.NewPath("signerName"))))
		})
	}
}
