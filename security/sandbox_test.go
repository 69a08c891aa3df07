package security_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/offline"
	"github.com/podconfig/podconfig/security"
)

func sandboxBase() *runtimeapi.LinuxSandboxSecurityContext {
	return &runtimeapi.LinuxSandboxSecurityContext{
		Seccomp: &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_RuntimeDefault},
	}
}

func podNamespaces() *runtimeapi.NamespaceOption {
	return &runtimeapi.NamespaceOption{
		Network: runtimeapi.NamespaceMode_POD, Pid: runtimeapi.NamespaceMode_CONTAINER, Ipc: runtimeapi.NamespaceMode_POD,
		UsernsOptions: nodeUserns(),
	}
}

func TestSandboxSecurityContext(t *testing.T) {
	strict := v1.SupplementalGroupsPolicyStrict
	bogus := v1.SupplementalGroupsPolicy("Loose")
	privileged := &v1.SecurityContext{Privileged: ptr.To(true)}
	for _, tc := range []struct {
		name    string
		pod     func(*v1.Pod)
		extra   []int64
		config  func(*security.Config)
		want    func(*runtimeapi.LinuxSandboxSecurityContext)
		wantErr string
		wantIs  error
	}{
		{name: "no pod security context: RuntimeDefault seccomp and nothing else, no namespace options", want: func(*runtimeapi.LinuxSandboxSecurityContext) {}},
		{name: "extra groups without a pod security context are dropped", extra: []int64{5}, want: func(*runtimeapi.LinuxSandboxSecurityContext) {}},
		{
			name: "pod seccomp profile does not change the sandbox's RuntimeDefault",
			pod: func(p *v1.Pod) {
				p.Spec.SecurityContext = &v1.PodSecurityContext{SeccompProfile: &v1.SeccompProfile{Type: v1.SeccompProfileTypeUnconfined}}
			},
			want: func(w *runtimeapi.LinuxSandboxSecurityContext) { w.NamespaceOptions = podNamespaces() },
		},
		{name: "privileged regular container makes the sandbox privileged", pod: func(p *v1.Pod) { p.Spec.Containers[0].SecurityContext = privileged },
			want: func(w *runtimeapi.LinuxSandboxSecurityContext) { w.Privileged = true }},
		{name: "privileged init container makes the sandbox privileged",
			pod:  func(p *v1.Pod) { p.Spec.InitContainers = []v1.Container{{Name: "init", SecurityContext: privileged}} },
			want: func(w *runtimeapi.LinuxSandboxSecurityContext) { w.Privileged = true }},
		{name: "privileged ephemeral container makes the sandbox privileged",
			pod: func(p *v1.Pod) {
				p.Spec.EphemeralContainers = []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "debug", SecurityContext: privileged}}}
			},
			want: func(w *runtimeapi.LinuxSandboxSecurityContext) { w.Privileged = true }},
		{name: "privileged false keeps the sandbox unprivileged", pod: func(p *v1.Pod) { p.Spec.Containers[0].SecurityContext = &v1.SecurityContext{Privileged: ptr.To(false)} },
			want: func(*runtimeapi.LinuxSandboxSecurityContext) {}},
		{
			name: "pod security context: users, namespaces, groups in sandbox order, policy, SELinux",
			pod: func(p *v1.Pod) {
				p.Spec.HostNetwork = true
				p.Spec.SecurityContext = &v1.PodSecurityContext{
					RunAsUser: ptr.To[int64](1000), RunAsGroup: ptr.To[int64](3000),
					FSGroup: ptr.To[int64](2000), SupplementalGroups: []int64{4000, 2000},
					SupplementalGroupsPolicy: &strict,
					SELinuxOptions:           &v1.SELinuxOptions{User: "u", Role: "r", Type: "t", Level: "s0"},
				}
			},
			extra: []int64{5000, 4000},
			want: func(w *runtimeapi.LinuxSandboxSecurityContext) {
				w.RunAsUser = &runtimeapi.Int64Value{Value: 1000}
				w.RunAsGroup = &runtimeapi.Int64Value{Value: 3000}
				w.NamespaceOptions = podNamespaces()
				w.NamespaceOptions.Network = runtimeapi.NamespaceMode_NODE
				w.SupplementalGroups = []int64{2000, 5000, 4000, 4000, 2000}
				w.SupplementalGroupsPolicy = runtimeapi.SupplementalGroupsPolicy_Strict
				w.SelinuxOptions = &runtimeapi.SELinuxOption{User: "u", Role: "r", Type: "t", Level: "s0"}
			},
		},
		{
			name:   "hostUsers false gives the sandbox the pod's mappings",
			pod:    func(p *v1.Pod) { p.Spec.SecurityContext = &v1.PodSecurityContext{}; p.Spec.HostUsers = ptr.To(false) },
			config: func(c *security.Config) { c.UserNamespaces = offline.FixedUserNamespaces(65536) },
			want: func(w *runtimeapi.LinuxSandboxSecurityContext) {
				w.NamespaceOptions = podNamespaces()
				w.NamespaceOptions.UsernsOptions = podMappings(65536)
			},
		},
		{name: "namespace errors are returned", pod: func(p *v1.Pod) { p.Spec.SecurityContext = &v1.PodSecurityContext{}; p.Spec.HostUsers = ptr.To(false) },
			wantErr: "can't set `spec.hostUsers: false`, runtime does not support user namespaces", wantIs: security.ErrUserNamespacesUnsupported},
		{name: "unknown supplementalGroupsPolicy fails", pod: func(p *v1.Pod) { p.Spec.SecurityContext = &v1.PodSecurityContext{SupplementalGroupsPolicy: &bogus} },
			wantErr: "unsupported supplementalGroupsPolicy: Loose", wantIs: security.ErrUnsupportedSupplementalGroupsPolicy},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := testPod(nil, nil)
			if tc.pod != nil {
				tc.pod(pod)
			}
			got, err := newResolver(t, tc.config).SandboxSecurityContext(context.Background(), pod, tc.extra)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				assert.ErrorIs(t, err, tc.wantIs)
				return
			}
			require.NoError(t, err)
			want := sandboxBase()
			tc.want(want)
			assert.Equal(t, want, got)
		})
	}
	_, err := newResolver(t, nil).SandboxSecurityContext(context.Background(), nil, nil)
	require.ErrorIs(t, err, security.ErrInvalidInput)
}

func TestSandboxSysctls(t *testing.T) {
	defaults := map[string]string{
		"kernel.shmmax":                    "1",
		"kernel/msgmax":                    "2",
		"fs.mqueue.msg_max":                "3",
		"net.ipv4.ip_forward":              "4",
		"net/ipv4/conf/eno2.100/rp_filter": "5",
		"user.max_user_namespaces":         "6",
		"kernel.domainname":                "example.com",
		"kernel.hostname":                  "dropped",
		"vm.swappiness":                    "dropped",
	}
	for _, tc := range []struct {
		name         string
		withDefaults bool
		pod          func(*v1.Pod)
		want         map[string]string
	}{
		{name: "no defaults: no defaults, empty non-nil map", want: map[string]string{}},
		{name: "no defaults: pod sysctls only, names not normalised",
			pod: func(p *v1.Pod) {
				p.Spec.SecurityContext = &v1.PodSecurityContext{Sysctls: []v1.Sysctl{{Name: "net/core/somaxconn", Value: "1024"}, {Name: "kernel.shm_rmid_forced", Value: "1"}}}
			},
			want: map[string]string{"net/core/somaxconn": "1024", "kernel.shm_rmid_forced": "1"}},
		{name: "defaults: namespaced defaults kept and normalised, others dropped, user defaults dropped with hostUsers unset", withDefaults: true,
			want: map[string]string{
				"kernel.shmmax": "1", "kernel.msgmax": "2", "fs.mqueue.msg_max": "3", "net.ipv4.ip_forward": "4",
				"net.ipv4.conf.eno2/100.rp_filter": "5", "kernel.domainname": "example.com",
			}},
		{name: "defaults: hostUsers false keeps user defaults", withDefaults: true, pod: func(p *v1.Pod) { p.Spec.HostUsers = ptr.To(false) },
			want: map[string]string{
				"kernel.shmmax": "1", "kernel.msgmax": "2", "fs.mqueue.msg_max": "3", "net.ipv4.ip_forward": "4",
				"net.ipv4.conf.eno2/100.rp_filter": "5", "user.max_user_namespaces": "6", "kernel.domainname": "example.com",
			}},
		{name: "defaults: hostIPC drops IPC defaults", withDefaults: true, pod: func(p *v1.Pod) { p.Spec.HostIPC = true },
			want: map[string]string{
				"net.ipv4.ip_forward": "4", "net.ipv4.conf.eno2/100.rp_filter": "5", "kernel.domainname": "example.com",
			}},
		{name: "defaults: hostNetwork drops net and domainname defaults", withDefaults: true, pod: func(p *v1.Pod) { p.Spec.HostNetwork = true },
			want: map[string]string{"kernel.shmmax": "1", "kernel.msgmax": "2", "fs.mqueue.msg_max": "3"}},
		{name: "defaults: hostUsers true drops user defaults", withDefaults: true, pod: func(p *v1.Pod) { p.Spec.HostUsers = ptr.To(true) },
			want: map[string]string{
				"kernel.shmmax": "1", "kernel.msgmax": "2", "fs.mqueue.msg_max": "3", "net.ipv4.ip_forward": "4",
				"net.ipv4.conf.eno2/100.rp_filter": "5", "kernel.domainname": "example.com",
			}},
		{name: "defaults: pod sysctls override defaults", withDefaults: true,
			pod: func(p *v1.Pod) {
				p.Spec.HostIPC = true
				p.Spec.HostNetwork = true
				p.Spec.HostUsers = ptr.To(true)
				p.Spec.SecurityContext = &v1.PodSecurityContext{Sysctls: []v1.Sysctl{{Name: "kernel.shmmax", Value: "99"}}}
			},
			want: map[string]string{"kernel.shmmax": "99"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := testPod(nil, nil)
			if tc.pod != nil {
				tc.pod(pod)
			}
			r := newResolver(t, func(c *security.Config) {
				if tc.withDefaults {
					c.DefaultPodSysctls = defaults
				}
			})
			got := r.SandboxSysctls(pod)
			require.NotNil(t, got)
			assert.Equal(t, tc.want, got)
		})
	}
	assert.Equal(t, map[string]string{}, newResolver(t, nil).SandboxSysctls(nil))
}

// Kubelet walks its default-sysctl map in Go's random order, so when two spellings of one sysctl
// are configured the winner changes from run to run; here the dotted spelling always wins.
func TestSandboxSysctlsTwoSpellingsOfOneDefaultAreDeterministic(t *testing.T) {
	pod := testPod(nil, nil)
	for range 64 {
		r := newResolver(t, func(c *security.Config) {
			c.DefaultPodSysctls = map[string]string{
				"net/ipv4/ip_forward": "slashed", "net.ipv4.ip_forward": "dotted",
				"kernel/shmmax": "slashed", "kernel.shmmax": "dotted",
				"net/a/b.c": "slashed a", "net.a.b/c": "dotted a",
			}
		})
		require.Equal(t, map[string]string{"net.ipv4.ip_forward": "dotted", "kernel.shmmax": "dotted", "net.a.b/c": "dotted a"}, r.SandboxSysctls(pod))
	}
}

func TestNormalizeSysctlName(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{name: "dotted name is unchanged", in: "net.ipv4.ip_forward", want: "net.ipv4.ip_forward"},
		{name: "slashed name becomes dotted", in: "net/ipv4/ip_forward", want: "net.ipv4.ip_forward"},
		{name: "dots inside a slashed name become slashes", in: "net/ipv4/conf/eno2.100/rp_filter", want: "net.ipv4.conf.eno2/100.rp_filter"},
		{name: "dotted name with a slash keeps it", in: "net.ipv4.conf.eno2/100.rp_filter", want: "net.ipv4.conf.eno2/100.rp_filter"},
		{name: "name without separators is unchanged", in: "kernel", want: "kernel"},
		{name: "empty name is unchanged", in: "", want: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, security.NormalizeSysctlName(tc.in))
		})
	}
}

func TestHasPrivilegedContainer(t *testing.T) {
	assert.False(t, security.HasPrivilegedContainer(nil))
	assert.False(t, security.HasPrivilegedContainer(testPod(nil, nil)))
	assert.True(t, security.HasPrivilegedContainer(testPod(nil, &v1.SecurityContext{Privileged: ptr.To(true)})))
}
