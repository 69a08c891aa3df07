package hosts_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/hosts"
)

const (
	labelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	subdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)

func testPod(name, namespace string, spec v1.PodSpec) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace}, Spec: spec}
}

func TestGeneratePodHostNameAndDomain(t *testing.T) {
	long := strings.Repeat("a", 70)
	tests := []struct {
		name          string
		pod           *v1.Pod
		clusterDomain string
		wantHostname  string
		wantDomain    string
		wantWarnings  []string
		wantErr       string
	}{
		{
			name:         "the pod name is the hostname by default",
			pod:          testPod("web-0", "ns", v1.PodSpec{}),
			wantHostname: "web-0",
		},
		{
			name:         "spec.hostname replaces the pod name",
			pod:          testPod("web-0", "ns", v1.PodSpec{Hostname: "db"}),
			wantHostname: "db",
		},
		{
			name:    "spec.hostname must be a DNS label",
			pod:     testPod("web-0", "ns", v1.PodSpec{Hostname: "a.b"}),
			wantErr: `pod Hostname "a.b" is not a valid DNS label: must not contain dots`,
		},
		{
			name:    "spec.hostname with a newline is rejected",
			pod:     testPod("web-0", "ns", v1.PodSpec{Hostname: "a\n1.2.3.4"}),
			wantErr: `pod Hostname "a\n1.2.3.4" is not a valid DNS label: ` + labelMsg,
		},
		{
			name:          "spec.subdomain gives the domain under the namespace and cluster domain",
			pod:           testPod("web-0", "ns", v1.PodSpec{Hostname: "db", Subdomain: "sub"}),
			clusterDomain: "cluster.local",
			wantHostname:  "db",
			wantDomain:    "sub.ns.svc.cluster.local",
		},
		{
			name:         "an empty cluster domain leaves the domain ending in svc.",
			pod:          testPod("web-0", "ns", v1.PodSpec{Subdomain: "sub"}),
			wantHostname: "web-0",
			wantDomain:   "sub.ns.svc.",
		},
		{
			name:    "spec.subdomain must be a DNS label",
			pod:     testPod("web-0", "ns", v1.PodSpec{Subdomain: "Sub"}),
			wantErr: `pod Subdomain "Sub" is not a valid DNS label: ` + labelMsg,
		},
		{
			name:          "hostnameOverride is the hostname and the domain is always empty",
			pod:           testPod("web-0", "ns", v1.PodSpec{HostnameOverride: ptr.To("node.example.com"), Hostname: "db", Subdomain: "sub"}),
			clusterDomain: "cluster.local",
			wantHostname:  "node.example.com",
		},
		{
			name:    "hostnameOverride must be a DNS subdomain",
			pod:     testPod("web-0", "ns", v1.PodSpec{HostnameOverride: ptr.To("a b")}),
			wantErr: `pod HostnameOverride "a b" is not a valid DNS subdomain: ` + subdomainMsg,
		},
		{
			name:    "an empty hostnameOverride is rejected",
			pod:     testPod("web-0", "ns", v1.PodSpec{HostnameOverride: ptr.To("")}),
			wantErr: `pod HostnameOverride "" is not a valid DNS subdomain: ` + subdomainMsg,
		},
		{
			name:         "a long hostnameOverride is truncated to 63 and trimmed of trailing dots",
			pod:          testPod("web-0", "ns", v1.PodSpec{HostnameOverride: ptr.To(strings.Repeat("a", 62) + ".bcd")}),
			wantHostname: strings.Repeat("a", 62),
			wantWarnings: []string{`hostname for pod "web-0" was longer than 63 characters, truncated it to "` + strings.Repeat("a", 62) + `."`},
		},
		{
			name:         "a long pod name is truncated to 63 characters with a warning",
			pod:          testPod(long, "ns", v1.PodSpec{}),
			wantHostname: long[:63],
			wantWarnings: []string{`hostname for pod "` + long + `" was longer than 63 characters, truncated it to "` + long[:63] + `"`},
		},
		{
			name:    "a pod name with a newline cannot become the hostname",
			pod:     testPod("web\n10.0.0.1\tevil", "ns", v1.PodSpec{}),
			wantErr: `pod name "web\n10.0.0.1\tevil" is not a valid DNS subdomain: ` + subdomainMsg,
		},
		{
			name:         "an invalid pod name is not checked when spec.hostname is set",
			pod:          testPod("Web_0", "ns", v1.PodSpec{Hostname: "web"}),
			wantHostname: "web",
		},
		{
			name:    "a namespace that is not a DNS label cannot become part of the domain",
			pod:     testPod("web-0", "ns x", v1.PodSpec{Subdomain: "sub"}),
			wantErr: `pod namespace "ns x" is not a valid DNS label: ` + labelMsg,
		},
		{
			name:         "an empty namespace leaves an empty label in the domain, as kubelet",
			pod:          testPod("web-0", "", v1.PodSpec{Subdomain: "sub"}),
			wantHostname: "web-0",
			wantDomain:   "sub..svc.",
		},
		{
			name:    "no pod is an error",
			wantErr: "no pod given",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hostname, domain, warnings, err := hosts.GeneratePodHostNameAndDomain(tt.pod, tt.clusterDomain)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				require.ErrorIs(t, err, hosts.ErrInvalidHostname)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantHostname, hostname)
			assert.Equal(t, tt.wantDomain, domain)
			assert.Equal(t, tt.wantWarnings, warnings)
		})
	}
}

func TestTruncatePodHostnameIfNeeded(t *testing.T) {
	tests := []struct {
		name     string
		hostname string
		want     string
		wantErr  string
	}{
		{name: "a hostname of 63 characters is unchanged", hostname: strings.Repeat("x", 63), want: strings.Repeat("x", 63)},
		{name: "a short hostname is unchanged", hostname: "test.pod.hostname", want: "test.pod.hostname"},
		{
			name:     "a long hostname is cut to 63 characters",
			hostname: "1234567.1234567.1234567.1234567.1234567.1234567.1234567.1234567.1234567.",
			want:     "1234567.1234567.1234567.1234567.1234567.1234567.1234567.1234567",
		},
		{
			name:     "a trailing dot left by the cut is removed",
			hostname: "1234567.1234567.1234567.1234567.1234567.1234567.1234567.123456.1234567.",
			want:     "1234567.1234567.1234567.1234567.1234567.1234567.1234567.123456",
		},
		{
			name:     "a trailing dash left by the cut is removed",
			hostname: "1234567.1234567.1234567.1234567.1234567.1234567.1234567.123456-1234567.",
			want:     "1234567.1234567.1234567.1234567.1234567.1234567.1234567.123456",
		},
		{
			name:     "several trailing dots and dashes are all removed",
			hostname: strings.Repeat("a", 60) + "-.-.-.",
			want:     strings.Repeat("a", 60),
		},
		{
			name:     "nothing left after trimming is an error",
			hostname: strings.Repeat("-", 64),
			wantErr:  `hostname for pod "test-pod" was invalid: "` + strings.Repeat("-", 64) + `"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings, err := hosts.TruncatePodHostnameIfNeeded("test-pod", tt.hostname)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				require.ErrorIs(t, err, hosts.ErrInvalidHostname)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, len(tt.hostname) > 63, len(warnings) == 1, "a warning exactly when truncated")
		})
	}
}

func TestGetNodenameForKernel(t *testing.T) {
	tests := []struct {
		name     string
		hostname string
		domain   string
		asFQDN   *bool
		want     string
		wantErr  string
	}{
		{name: "no domain gives the short hostname", hostname: "test.pod.hostname", asFQDN: ptr.To(true), want: "test.pod.hostname"},
		{name: "setHostnameAsFQDN false gives the short hostname", hostname: "test.pod.hostname", domain: "svc.subdomain.local", asFQDN: ptr.To(false), want: "test.pod.hostname"},
		{name: "setHostnameAsFQDN unset gives the short hostname", hostname: "h", domain: "d", want: "h"},
		{name: "setHostnameAsFQDN true gives the FQDN", hostname: "test.pod.hostname", domain: "svc.subdomain.local", asFQDN: ptr.To(true), want: "test.pod.hostname.svc.subdomain.local"},
		{name: "an FQDN of exactly 64 characters fits", hostname: strings.Repeat("h", 31), domain: strings.Repeat("d", 32), asFQDN: ptr.To(true), want: strings.Repeat("h", 31) + "." + strings.Repeat("d", 32)},
		{
			name:     "a too long FQDN is ignored when setHostnameAsFQDN is false",
			hostname: "1234567.1234567", domain: "1234567.1234567.1234567.1234567.1234567.1234567.1234567", asFQDN: ptr.To(false),
			want: "1234567.1234567",
		},
		{
			name:     "an FQDN over 64 characters is an error",
			hostname: "1234567.1234567", domain: "1234567.1234567.1234567.1234567.1234567.1234567.1234567", asFQDN: ptr.To(true),
			wantErr: "failed to construct FQDN from pod hostname and cluster domain, FQDN 1234567.1234567.1234567.1234567.1234567.1234567.1234567.1234567.1234567 is too long (64 characters is the max, 71 characters requested)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := hosts.GetNodenameForKernel(tt.hostname, tt.domain, tt.asFQDN)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				require.ErrorIs(t, err, hosts.ErrFQDNTooLong)
				assert.Empty(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
