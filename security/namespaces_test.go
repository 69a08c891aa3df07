package security_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/offline"
	"github.com/podconfig/podconfig/security"
)

func podMappings(host uint32) *runtimeapi.UserNamespace {
	m := func() []*runtimeapi.IDMapping {
		return []*runtimeapi.IDMapping{{HostId: host, ContainerId: 0, Length: 65536}}
	}
	return &runtimeapi.UserNamespace{Mode: runtimeapi.NamespaceMode_POD, Uids: m(), Gids: m()}
}

func nodeUserns() *runtimeapi.UserNamespace {
	return &runtimeapi.UserNamespace{Mode: runtimeapi.NamespaceMode_NODE}
}

func TestNamespacesForPod(t *testing.T) {
	const (
		pod       = runtimeapi.NamespaceMode_POD
		container = runtimeapi.NamespaceMode_CONTAINER
		node      = runtimeapi.NamespaceMode_NODE
	)
	for _, tc := range []struct {
		name   string
		spec   func(*v1.PodSpec)
		config func(*security.Config)
		want   *runtimeapi.NamespaceOption
		err    string
	}{
		{name: "defaults: pod network and IPC, container PID, node user namespace", spec: func(*v1.PodSpec) {},
			want: &runtimeapi.NamespaceOption{Network: pod, Pid: container, Ipc: pod, UsernsOptions: nodeUserns()}},
		{name: "hostNetwork uses the node's network", spec: func(s *v1.PodSpec) { s.HostNetwork = true },
			want: &runtimeapi.NamespaceOption{Network: node, Pid: container, Ipc: pod, UsernsOptions: nodeUserns()}},
		{name: "hostIPC uses the node's IPC", spec: func(s *v1.PodSpec) { s.HostIPC = true },
			want: &runtimeapi.NamespaceOption{Network: pod, Pid: container, Ipc: node, UsernsOptions: nodeUserns()}},
		{name: "hostPID uses the node's PID namespace", spec: func(s *v1.PodSpec) { s.HostPID = true },
			want: &runtimeapi.NamespaceOption{Network: pod, Pid: node, Ipc: pod, UsernsOptions: nodeUserns()}},
		{name: "hostPID beats shareProcessNamespace", spec: func(s *v1.PodSpec) { s.HostPID = true; s.ShareProcessNamespace = ptr.To(true) },
			want: &runtimeapi.NamespaceOption{Network: pod, Pid: node, Ipc: pod, UsernsOptions: nodeUserns()}},
		{name: "shareProcessNamespace gives a pod PID namespace", spec: func(s *v1.PodSpec) { s.ShareProcessNamespace = ptr.To(true) },
			want: &runtimeapi.NamespaceOption{Network: pod, Pid: pod, Ipc: pod, UsernsOptions: nodeUserns()}},
		{name: "shareProcessNamespace false keeps container PID", spec: func(s *v1.PodSpec) { s.ShareProcessNamespace = ptr.To(false) },
			want: &runtimeapi.NamespaceOption{Network: pod, Pid: container, Ipc: pod, UsernsOptions: nodeUserns()}},
		{name: "hostUsers true uses the node's user namespace without a mapper", spec: func(s *v1.PodSpec) { s.HostUsers = ptr.To(true) },
			want: &runtimeapi.NamespaceOption{Network: pod, Pid: container, Ipc: pod, UsernsOptions: nodeUserns()}},
		{name: "hostUsers false gets the mapper's pod mappings", spec: func(s *v1.PodSpec) { s.HostUsers = ptr.To(false) },
			config: func(c *security.Config) { c.UserNamespaces = offline.FixedUserNamespaces(65536) },
			want:   &runtimeapi.NamespaceOption{Network: pod, Pid: container, Ipc: pod, UsernsOptions: podMappings(65536)}},
		{name: "hostUsers false without a mapper is unsupported", spec: func(s *v1.PodSpec) { s.HostUsers = ptr.To(false) },
			err: "can't set `spec.hostUsers: false`, runtime does not support user namespaces"},
		{name: "hostUsers false without a mapper names the pod's runtime handler, as kubelet does for a handler without support",
			spec:   func(s *v1.PodSpec) { s.HostUsers = ptr.To(false); s.RuntimeClassName = ptr.To("kata") },
			config: func(c *security.Config) { c.RuntimeClasses = offline.RuntimeClasses{"kata": "kata-qemu"} },
			err:    "can't set `spec.hostUsers: false`, RuntimeClass handler \"kata-qemu\" does not support user namespaces"},
		{name: "hostUsers false on a runtime whose default handler lacks support is unsupported", spec: func(s *v1.PodSpec) { s.HostUsers = ptr.To(false) },
			config: func(c *security.Config) {
				m := offline.FixedUserNamespaces(65536)
				m.Handlers = map[string]bool{"": false}
				c.UserNamespaces = m
			},
			err: "can't set `spec.hostUsers: false`, runtime does not support user namespaces"},
		{name: "hostUsers false with a handler without userns support fails", spec: func(s *v1.PodSpec) { s.HostUsers = ptr.To(false); s.RuntimeClassName = ptr.To("kata") },
			config: func(c *security.Config) {
				m := offline.FixedUserNamespaces(65536)
				m.Handlers = map[string]bool{"": true, "kata-qemu": false}
				c.UserNamespaces = m
				c.RuntimeClasses = offline.RuntimeClasses{"kata": "kata-qemu"}
			},
			err: "can't set `spec.hostUsers: false`, RuntimeClass handler \"kata-qemu\" does not support user namespaces"},
		{name: "hostUsers false with a handler the runtime does not know fails", spec: func(s *v1.PodSpec) { s.HostUsers = ptr.To(false); s.RuntimeClassName = ptr.To("sysbox") },
			config: func(c *security.Config) {
				c.UserNamespaces = offline.FixedUserNamespaces(65536)
				c.RuntimeClasses = offline.RuntimeClasses{"sysbox": "sysbox-runc"}
			},
			err: "can't set `spec.hostUsers: false`, RuntimeClass handler \"sysbox-runc\" does not support user namespaces: the handler \"sysbox-runc\" is not known"},
		{name: "hostUsers false with a supporting handler resolved from the runtime class", spec: func(s *v1.PodSpec) { s.HostUsers = ptr.To(false); s.RuntimeClassName = ptr.To("crun") },
			config: func(c *security.Config) {
				m := offline.FixedUserNamespaces(131072)
				m.Handlers = map[string]bool{"crun-h": true}
				c.UserNamespaces = m
				c.RuntimeClasses = offline.RuntimeClasses{"crun": "crun-h"}
			},
			want: &runtimeapi.NamespaceOption{Network: pod, Pid: container, Ipc: pod, UsernsOptions: podMappings(131072)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := testPod(nil, nil)
			tc.spec(&p.Spec)
			got, err := newResolver(t, tc.config).NamespacesForPod(context.Background(), p)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				assert.ErrorIs(t, err, security.ErrUserNamespacesUnsupported)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestNamespacesForPodUnknownRuntimeClass(t *testing.T) {
	r := newResolver(t, func(c *security.Config) { c.RuntimeClasses = offline.RuntimeClasses{} })
	for name, hostUsers := range map[string]*bool{"hostUsers unset": nil, "hostUsers false": ptr.To(false)} {
		t.Run(name, func(t *testing.T) {
			p := testPod(nil, nil)
			p.Spec.RuntimeClassName = ptr.To("missing")
			p.Spec.HostUsers = hostUsers
			_, err := r.NamespacesForPod(context.Background(), p)
			require.EqualError(t, err, `runtimeclass.node.k8s.io "missing" not found`)
			assert.True(t, apierrors.IsNotFound(err))
		})
	}
}

func TestNamespacesForPodNilPod(t *testing.T) {
	_, err := newResolver(t, nil).NamespacesForPod(context.Background(), nil)
	require.ErrorIs(t, err, security.ErrInvalidInput)
}

func TestCheckUserNamespaceSupport(t *testing.T) {
	for _, tc := range []struct {
		name     string
		handlers map[string]bool
		handler  string
		err      string
	}{
		{name: "supporting handler passes", handlers: map[string]bool{"runc": true}, handler: "runc"},
		{name: "default handler can support", handlers: map[string]bool{"": true}, handler: ""},
		{name: "no handler list reported means no support, worded for the runtime for the default handler", handlers: nil, handler: "", err: "can't set `spec.hostUsers: false`, runtime does not support user namespaces"},
		{name: "no handler list reported means no support, worded for a named handler without a reason", handlers: nil, handler: "runsc", err: "can't set `spec.hostUsers: false`, RuntimeClass handler \"runsc\" does not support user namespaces"},
		{name: "an empty handler list is no handler list", handlers: map[string]bool{}, handler: "", err: "can't set `spec.hostUsers: false`, runtime does not support user namespaces"},
		{name: "a default handler the runtime does not list is unknown", handlers: map[string]bool{"runc": true}, handler: "", err: "can't set `spec.hostUsers: false`, runtime does not support user namespaces: the handler \"\" is not known"},
		{name: "default handler without support", handlers: map[string]bool{"": false}, handler: "", err: "can't set `spec.hostUsers: false`, runtime does not support user namespaces"},
		{name: "handler without support", handlers: map[string]bool{"runc": false}, handler: "runc", err: `can't set ` + "`spec.hostUsers: false`" + `, RuntimeClass handler "runc" does not support user namespaces`},
		{name: "unknown handler", handlers: map[string]bool{"runc": true}, handler: "x", err: `can't set ` + "`spec.hostUsers: false`" + `, RuntimeClass handler "x" does not support user namespaces: the handler "x" is not known`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := security.CheckUserNamespaceSupport(tc.handlers, tc.handler)
			if tc.err == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tc.err)
			assert.ErrorIs(t, err, security.ErrUserNamespacesUnsupported)
		})
	}
}

func TestApplyNamespaceTarget(t *testing.T) {
	for _, tc := range []struct {
		name   string
		in     *runtimeapi.NamespaceOption
		target string
		want   *runtimeapi.NamespaceOption
	}{
		{name: "container PID becomes the target's", in: &runtimeapi.NamespaceOption{Pid: runtimeapi.NamespaceMode_CONTAINER}, target: "abc",
			want: &runtimeapi.NamespaceOption{Pid: runtimeapi.NamespaceMode_TARGET, TargetId: "abc"}},
		{name: "pod PID is left alone", in: &runtimeapi.NamespaceOption{Pid: runtimeapi.NamespaceMode_POD}, target: "abc",
			want: &runtimeapi.NamespaceOption{Pid: runtimeapi.NamespaceMode_POD}},
		{name: "node PID is left alone", in: &runtimeapi.NamespaceOption{Pid: runtimeapi.NamespaceMode_NODE}, target: "abc",
			want: &runtimeapi.NamespaceOption{Pid: runtimeapi.NamespaceMode_NODE}},
		{name: "no target leaves container PID", in: &runtimeapi.NamespaceOption{Pid: runtimeapi.NamespaceMode_CONTAINER},
			want: &runtimeapi.NamespaceOption{Pid: runtimeapi.NamespaceMode_CONTAINER}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			security.ApplyNamespaceTarget(tc.in, tc.target)
			assert.Equal(t, tc.want, tc.in)
		})
	}
	security.ApplyNamespaceTarget(nil, "abc") // must not panic
}

func TestApplyUserNamespaceToMounts(t *testing.T) {
	t.Run("pod mappings go to every mount as separate copies", func(t *testing.T) {
		ns := &runtimeapi.NamespaceOption{UsernsOptions: podMappings(65536)}
		mounts := []*runtimeapi.Mount{{ContainerPath: "/a"}, nil, {ContainerPath: "/b"}}
		security.ApplyUserNamespaceToMounts(mounts, ns)
		for _, m := range []*runtimeapi.Mount{mounts[0], mounts[2]} {
			assert.Equal(t, podMappings(65536).Uids, m.UidMappings)
			assert.Equal(t, podMappings(65536).Gids, m.GidMappings)
		}
		mounts[0].UidMappings[0].HostId = 1
		assert.Equal(t, uint32(65536), mounts[2].UidMappings[0].HostId)
		assert.Equal(t, uint32(65536), ns.UsernsOptions.Uids[0].HostId)
	})
	t.Run("the copies share no list: appending to one mount's mappings changes no other", func(t *testing.T) {
		ns := &runtimeapi.NamespaceOption{UsernsOptions: &runtimeapi.UserNamespace{Mode: runtimeapi.NamespaceMode_POD,
			Uids: []*runtimeapi.IDMapping{{HostId: 1, Length: 2}, nil, {HostId: 3, ContainerId: 4, Length: 5}},
			Gids: []*runtimeapi.IDMapping{},
		}}
		mounts := []*runtimeapi.Mount{{ContainerPath: "/a"}, {ContainerPath: "/b"}, nil, {ContainerPath: "/c"}}
		security.ApplyUserNamespaceToMounts(mounts, ns)
		want := []*runtimeapi.IDMapping{{HostId: 1, Length: 2}, nil, {HostId: 3, ContainerId: 4, Length: 5}}
		mounts[0].UidMappings = append(mounts[0].UidMappings, &runtimeapi.IDMapping{HostId: 9})
		mounts[0].GidMappings = append(mounts[0].GidMappings, &runtimeapi.IDMapping{HostId: 9})
		mounts[0].UidMappings[2].Length = 7
		for _, m := range []*runtimeapi.Mount{mounts[1], mounts[3]} {
			assert.Equal(t, want, m.UidMappings)
			assert.NotNil(t, m.GidMappings)
			assert.Empty(t, m.GidMappings)
		}
		assert.Nil(t, mounts[2])
		assert.Equal(t, uint32(5), ns.UsernsOptions.Uids[2].Length)
	})
	t.Run("node mode sets nil mappings", func(t *testing.T) {
		mounts := []*runtimeapi.Mount{{ContainerPath: "/a", UidMappings: podMappings(1).Uids}}
		security.ApplyUserNamespaceToMounts(mounts, &runtimeapi.NamespaceOption{UsernsOptions: nodeUserns()})
		assert.Nil(t, mounts[0].UidMappings)
		assert.Nil(t, mounts[0].GidMappings)
	})
	t.Run("no user namespace options leave mounts alone", func(t *testing.T) {
		mounts := []*runtimeapi.Mount{{ContainerPath: "/a", UidMappings: podMappings(1).Uids}}
		security.ApplyUserNamespaceToMounts(mounts, &runtimeapi.NamespaceOption{})
		security.ApplyUserNamespaceToMounts(mounts, nil)
		assert.Equal(t, podMappings(1).Uids, mounts[0].UidMappings)
	})
}

// failingMapper is a UserNamespaceMapper whose allocation fails.
type failingMapper struct{ err error }

func (f failingMapper) GetOrCreateUserNamespaceMappings(context.Context, *v1.Pod, string) (*runtimeapi.UserNamespace, error) {
	return nil, f.err
}

func TestNamespacesForPodMapperErrorIsReturned(t *testing.T) {
	boom := errors.New("allocation failed")
	r := newResolver(t, func(c *security.Config) { c.UserNamespaces = failingMapper{err: boom} })
	p := testPod(nil, nil)
	p.Spec.HostUsers = ptr.To(false)
	_, err := r.NamespacesForPod(context.Background(), p)
	require.ErrorIs(t, err, boom)
}

// ptrHandlers and ptrMapper have pointer receivers that read their fields, so calling them on a
// nil pointer would panic.
type ptrHandlers struct{ byClass map[string]string }

func (h *ptrHandlers) LookupRuntimeHandler(name *string) (string, error) {
	return h.byClass[ptr.Deref(name, "")], nil
}

type ptrMapper struct{ ns *runtimeapi.UserNamespace }

func (m *ptrMapper) GetOrCreateUserNamespaceMappings(context.Context, *v1.Pod, string) (*runtimeapi.UserNamespace, error) {
	return m.ns, nil
}

type ptrThermal struct{ paths []string }

func (p *ptrThermal) ThermalThrottlePaths() []string { return p.paths }

// Kubelet's NamespacesForPod skips a RuntimeClass manager that is a nil pointer inside its
// interface; a Config holding nil pointers behaves as if the fields were unset, without a panic.
func TestConfigWithNilPointerBackendsActsAsUnset(t *testing.T) {
	r := security.New(security.Config{
		RuntimeClasses:  (*ptrHandlers)(nil),
		UserNamespaces:  (*ptrMapper)(nil),
		ThermalThrottle: (*ptrThermal)(nil),
	})
	p := testPod(nil, nil)
	p.Spec.RuntimeClassName = ptr.To("gvisor")

	ns, err := r.NamespacesForPod(context.Background(), p)
	require.NoError(t, err, "a nil handler resolver means the default handler, as in kubelet")
	assert.Equal(t, nodeUserns(), ns.UsernsOptions)

	p.Spec.HostUsers = ptr.To(false)
	_, err = r.NamespacesForPod(context.Background(), p)
	require.EqualError(t, err, "can't set `spec.hostUsers: false`, runtime does not support user namespaces")
	require.ErrorIs(t, err, security.ErrUserNamespacesUnsupported)

	assert.Len(t, r.MaskedPaths(nil), 12+len(security.HostCPUs{}.ThermalThrottlePaths()), "a nil thermal source reads the host")
}

// A Resolver that was never built with New, or a nil one, behaves as New(Config{}) instead of
// panicking.
func TestZeroAndNilResolverUseDefaultConfig(t *testing.T) {
	p := testPod(nil, &v1.SecurityContext{SeccompProfile: &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost, LocalhostProfile: ptr.To("a.json")}})
	want, err := security.New(security.Config{}).ContainerSecurityContext(context.Background(), security.ContainerInput{Pod: p, Container: &p.Spec.Containers[0]})
	require.NoError(t, err)
	assert.Equal(t, "/var/lib/kubelet/seccomp/a.json", want.Seccomp.LocalhostRef)
	for name, r := range map[string]*security.Resolver{"zero value": new(security.Resolver), "nil": nil} {
		t.Run(name, func(t *testing.T) {
			got, err := r.ContainerSecurityContext(context.Background(), security.ContainerInput{Pod: p, Container: &p.Spec.Containers[0]})
			require.NoError(t, err)
			assert.Equal(t, want, got)
			sb, err := r.SandboxSecurityContext(context.Background(), p, nil)
			require.NoError(t, err)
			assert.True(t, sb.Seccomp.ProfileType == runtimeapi.SecurityProfile_RuntimeDefault)
			assert.Equal(t, map[string]string{}, r.SandboxSysctls(p))
			assert.Equal(t, want.MaskedPaths, r.MaskedPaths(nil))
			assert.Equal(t, security.DefaultSeccompProfileRoot, r.Config().SeccompProfileRoot)
			assert.Equal(t, security.HostCPUs{}, r.Config().ThermalThrottle)
		})
	}
}

func TestSeccompProfileEmptyRootIsTheDefaultRoot(t *testing.T) {
	p := testPod(&v1.PodSecurityContext{SeccompProfile: &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost, LocalhostProfile: ptr.To("b.json")}}, nil)
	got, err := security.SeccompProfile(p, &p.Spec.Containers[0], "", false)
	require.NoError(t, err)
	assert.Equal(t, &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_Localhost, LocalhostRef: "/var/lib/kubelet/seccomp/b.json"}, got)
}

// The resolver's old field name still works for one release: RuntimeClasses wins when both are set.
func TestDeprecatedRuntimeHandlersField(t *testing.T) {
	p := testPod(nil, nil)
	p.Spec.RuntimeClassName = ptr.To("missing")
	old := security.New(security.Config{RuntimeHandlers: offline.RuntimeClasses{}})
	_, err := old.NamespacesForPod(context.Background(), p)
	require.EqualError(t, err, `runtimeclass.node.k8s.io "missing" not found`, "the deprecated field is read")
	assert.Nil(t, old.Config().RuntimeHandlers, "and moved to RuntimeClasses")

	both := security.New(security.Config{RuntimeClasses: offline.RuntimeClasses{"missing": "h"}, RuntimeHandlers: offline.RuntimeClasses{}})
	_, err = both.NamespacesForPod(context.Background(), p)
	assert.NoError(t, err, "RuntimeClasses wins over the deprecated field")
}
