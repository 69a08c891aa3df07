package security_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/offline"
	"github.com/podconfig/podconfig/security"
)

// baseWant is the CRI context of a container with no security settings and an image without a user.
func baseWant() *runtimeapi.LinuxContainerSecurityContext {
	return &runtimeapi.LinuxContainerSecurityContext{
		RunAsUser: &runtimeapi.Int64Value{Value: 0},
		NamespaceOptions: &runtimeapi.NamespaceOption{
			Network: runtimeapi.NamespaceMode_POD, Pid: runtimeapi.NamespaceMode_CONTAINER, Ipc: runtimeapi.NamespaceMode_POD,
			UsernsOptions: nodeUserns(),
		},
		Seccomp:       &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_Unconfined},
		MaskedPaths:   defaultMasked(),
		ReadonlyPaths: defaultReadonly(),
	}
}

func TestContainerSecurityContext(t *testing.T) {
	strict := v1.SupplementalGroupsPolicyStrict
	merge := v1.SupplementalGroupsPolicyMerge
	bogus := v1.SupplementalGroupsPolicy("Loose")
	for _, tc := range []struct {
		name        string
		podSC       *v1.PodSecurityContext
		containerSC *v1.SecurityContext
		spec        func(*v1.Pod)
		input       func(*security.ContainerInput)
		config      func(*security.Config)
		want        func(*runtimeapi.LinuxContainerSecurityContext)
		wantErr     string
		wantIs      error
	}{
		{name: "no security context: image uid, pod namespaces, Unconfined, default paths", want: func(*runtimeapi.LinuxContainerSecurityContext) {}},
		{
			name:        "capabilities are copied verbatim, without CAP_ prefixing or upper-casing",
			containerSC: &v1.SecurityContext{Capabilities: &v1.Capabilities{Add: []v1.Capability{"net_admin", "CAP_SYS_TIME"}, Drop: []v1.Capability{"ALL"}}},
			want: func(w *runtimeapi.LinuxContainerSecurityContext) {
				w.Capabilities = &runtimeapi.Capability{AddCapabilities: []string{"net_admin", "CAP_SYS_TIME"}, DropCapabilities: []string{"ALL"}}
			},
		},
		{
			name:        "empty capability lists become non-nil empty lists",
			containerSC: &v1.SecurityContext{Capabilities: &v1.Capabilities{}},
			want: func(w *runtimeapi.LinuxContainerSecurityContext) {
				w.Capabilities = &runtimeapi.Capability{AddCapabilities: []string{}, DropCapabilities: []string{}}
			},
		},
		{
			name:        "privileged and read-only root filesystem, masked paths still set",
			containerSC: &v1.SecurityContext{Privileged: ptr.To(true), ReadOnlyRootFilesystem: ptr.To(true)},
			want:        func(w *runtimeapi.LinuxContainerSecurityContext) { w.Privileged = true; w.ReadonlyRootfs = true },
		},
		{
			name:        "explicit false privileged and read-only stay false",
			containerSC: &v1.SecurityContext{Privileged: ptr.To(false), ReadOnlyRootFilesystem: ptr.To(false)},
			want:        func(*runtimeapi.LinuxContainerSecurityContext) {},
		},
		{
			name:  "pod SELinux options apply to the container",
			podSC: &v1.PodSecurityContext{SELinuxOptions: &v1.SELinuxOptions{User: "u", Role: "r", Type: "t", Level: "s0:c1"}},
			want: func(w *runtimeapi.LinuxContainerSecurityContext) {
				w.SelinuxOptions = &runtimeapi.SELinuxOption{User: "u", Role: "r", Type: "t", Level: "s0:c1"}
			},
		},
		{
			name:        "container SELinux options replace the pod's",
			podSC:       &v1.PodSecurityContext{SELinuxOptions: &v1.SELinuxOptions{User: "u", Level: "s0"}},
			containerSC: &v1.SecurityContext{SELinuxOptions: &v1.SELinuxOptions{Type: "spc_t"}},
			want: func(w *runtimeapi.LinuxContainerSecurityContext) {
				w.SelinuxOptions = &runtimeapi.SELinuxOption{Type: "spc_t"}
			},
		},
		{
			name:        "runAsUser wins over the image user and leaves the user name empty",
			containerSC: &v1.SecurityContext{RunAsUser: ptr.To[int64](1000), RunAsGroup: ptr.To[int64](3000)},
			input:       func(in *security.ContainerInput) { in.ImageUID = ptr.To[int64](5); in.ImageUsername = "app" },
			want: func(w *runtimeapi.LinuxContainerSecurityContext) {
				w.RunAsUser = &runtimeapi.Int64Value{Value: 1000}
				w.RunAsGroup = &runtimeapi.Int64Value{Value: 3000}
			},
		},
		{
			name:  "pod runAsUser and runAsGroup apply to the container",
			podSC: &v1.PodSecurityContext{RunAsUser: ptr.To[int64](1001), RunAsGroup: ptr.To[int64](2001)},
			want: func(w *runtimeapi.LinuxContainerSecurityContext) {
				w.RunAsUser = &runtimeapi.Int64Value{Value: 1001}
				w.RunAsGroup = &runtimeapi.Int64Value{Value: 2001}
			},
		},
		{
			name:  "image uid is used without runAsUser",
			input: func(in *security.ContainerInput) { in.ImageUID = ptr.To[int64](1234) },
			want:  func(w *runtimeapi.LinuxContainerSecurityContext) { w.RunAsUser = &runtimeapi.Int64Value{Value: 1234} },
		},
		{
			name:  "image user name is used without runAsUser",
			input: func(in *security.ContainerInput) { in.ImageUID = nil; in.ImageUsername = "nginx" },
			want:  func(w *runtimeapi.LinuxContainerSecurityContext) { w.RunAsUser = nil; w.RunAsUsername = "nginx" },
		},
		{
			name:  "image uid and user name are both passed on, uid first",
			input: func(in *security.ContainerInput) { in.ImageUID = ptr.To[int64](7); in.ImageUsername = "seven" },
			want: func(w *runtimeapi.LinuxContainerSecurityContext) {
				w.RunAsUser = &runtimeapi.Int64Value{Value: 7}
				w.RunAsUsername = "seven"
			},
		},
		{
			name:  "supplemental groups: fsGroup, the pod's list, then extra groups, duplicates kept",
			podSC: &v1.PodSecurityContext{FSGroup: ptr.To[int64](2000), SupplementalGroups: []int64{3000, 2000}},
			input: func(in *security.ContainerInput) { in.ExtraSupplementalGroups = []int64{4000, 3000} },
			want: func(w *runtimeapi.LinuxContainerSecurityContext) {
				w.SupplementalGroups = []int64{2000, 3000, 2000, 4000, 3000}
			},
		},
		{
			name:  "extra groups are added without a pod security context",
			input: func(in *security.ContainerInput) { in.ExtraSupplementalGroups = []int64{4000} },
			want:  func(w *runtimeapi.LinuxContainerSecurityContext) { w.SupplementalGroups = []int64{4000} },
		},
		{
			name:  "supplementalGroupsPolicy Strict",
			podSC: &v1.PodSecurityContext{SupplementalGroupsPolicy: &strict},
			want: func(w *runtimeapi.LinuxContainerSecurityContext) {
				w.SupplementalGroupsPolicy = runtimeapi.SupplementalGroupsPolicy_Strict
			},
		},
		{
			name:  "supplementalGroupsPolicy Merge",
			podSC: &v1.PodSecurityContext{SupplementalGroupsPolicy: &merge},
			want:  func(*runtimeapi.LinuxContainerSecurityContext) {},
		},
		{name: "unknown supplementalGroupsPolicy fails", podSC: &v1.PodSecurityContext{SupplementalGroupsPolicy: &bogus},
			wantErr: "unsupported supplementalGroupsPolicy: Loose", wantIs: security.ErrUnsupportedSupplementalGroupsPolicy},
		{
			name:        "allowPrivilegeEscalation false sets no_new_privs",
			containerSC: &v1.SecurityContext{AllowPrivilegeEscalation: ptr.To(false)},
			want:        func(w *runtimeapi.LinuxContainerSecurityContext) { w.NoNewPrivs = true },
		},
		{
			name:        "allowPrivilegeEscalation true leaves no_new_privs off",
			containerSC: &v1.SecurityContext{AllowPrivilegeEscalation: ptr.To(true)},
			want:        func(*runtimeapi.LinuxContainerSecurityContext) {},
		},
		{
			name:        "Unmasked procMount clears masked and read-only paths",
			containerSC: &v1.SecurityContext{ProcMount: ptrProcMount(v1.UnmaskedProcMount)},
			want: func(w *runtimeapi.LinuxContainerSecurityContext) {
				w.MaskedPaths = []string{}
				w.ReadonlyPaths = []string{}
			},
		},
		{
			name:   "seccompDefault turns an unset profile into RuntimeDefault",
			config: func(c *security.Config) { c.SeccompDefault = true },
			want: func(w *runtimeapi.LinuxContainerSecurityContext) {
				w.Seccomp = &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_RuntimeDefault}
			},
		},
		{
			name:        "localhost seccomp profile under the configured root",
			containerSC: &v1.SecurityContext{SeccompProfile: &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost, LocalhostProfile: ptr.To("audit.json")}},
			config:      func(c *security.Config) { c.SeccompProfileRoot = "/etc/kubelet/seccomp" },
			want: func(w *runtimeapi.LinuxContainerSecurityContext) {
				w.Seccomp = &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_Localhost, LocalhostRef: "/etc/kubelet/seccomp/audit.json"}
			},
		},
		{
			name:  "AppArmor sets both the profile and the deprecated string",
			podSC: &v1.PodSecurityContext{AppArmorProfile: &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeLocalhost, LocalhostProfile: ptr.To("p")}},
			want: func(w *runtimeapi.LinuxContainerSecurityContext) {
				w.Apparmor = &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_Localhost, LocalhostRef: "p"}
				//lint:ignore SA1019 the deprecated field is part of kubelet's output
				w.ApparmorProfile = "localhost/p"
			},
		},
		{
			name:  "ephemeral container targeting another shares its PID namespace",
			input: func(in *security.ContainerInput) { in.NamespaceTarget = "target-id" },
			want: func(w *runtimeapi.LinuxContainerSecurityContext) {
				w.NamespaceOptions.Pid = runtimeapi.NamespaceMode_TARGET
				w.NamespaceOptions.TargetId = "target-id"
			},
		},
		{
			name:  "ephemeral container target is ignored with a shared process namespace",
			spec:  func(p *v1.Pod) { p.Spec.ShareProcessNamespace = ptr.To(true) },
			input: func(in *security.ContainerInput) { in.NamespaceTarget = "target-id" },
			want: func(w *runtimeapi.LinuxContainerSecurityContext) {
				w.NamespaceOptions.Pid = runtimeapi.NamespaceMode_POD
			},
		},
		{
			name:   "hostUsers false gives the pod's user-namespace mappings",
			spec:   func(p *v1.Pod) { p.Spec.HostUsers = ptr.To(false) },
			config: func(c *security.Config) { c.UserNamespaces = offline.FixedUserNamespaces(65536) },
			want: func(w *runtimeapi.LinuxContainerSecurityContext) {
				w.NamespaceOptions.UsernsOptions = podMappings(65536)
			},
		},
		{name: "hostUsers false without user-namespace support fails", spec: func(p *v1.Pod) { p.Spec.HostUsers = ptr.To(false) },
			wantErr: "can't set `spec.hostUsers: false`, runtime does not support user namespaces", wantIs: security.ErrUserNamespacesUnsupported},
		{
			name:        "seccomp error comes before the AppArmor error",
			containerSC: &v1.SecurityContext{SeccompProfile: &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost}, AppArmorProfile: &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeLocalhost}},
			wantErr:     "localhostProfile must be set if seccompProfile type is Localhost.", wantIs: security.ErrInvalidSeccompProfile,
		},
		{
			name:        "AppArmor error comes before the policy error",
			podSC:       &v1.PodSecurityContext{SupplementalGroupsPolicy: &bogus},
			containerSC: &v1.SecurityContext{AppArmorProfile: &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeLocalhost}},
			wantErr:     "missing localhost apparmor profile name", wantIs: security.ErrInvalidAppArmorProfile,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := testPod(tc.podSC, tc.containerSC)
			if tc.spec != nil {
				tc.spec(pod)
			}
			in := security.ContainerInput{Pod: pod, Container: &pod.Spec.Containers[0], ImageUID: ptr.To[int64](0)}
			if tc.input != nil {
				tc.input(&in)
			}
			got, err := newResolver(t, tc.config).ContainerSecurityContext(context.Background(), in)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				assert.ErrorIs(t, err, tc.wantIs)
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			want := baseWant()
			tc.want(want)
			assert.Equal(t, want, got)
		})
	}
}

func TestContainerSecurityContextSharesNothingWithThePod(t *testing.T) {
	pod := testPod(
		&v1.PodSecurityContext{SELinuxOptions: &v1.SELinuxOptions{Type: "t"}, SupplementalGroups: []int64{1}},
		&v1.SecurityContext{Capabilities: &v1.Capabilities{Add: []v1.Capability{"CHOWN"}}, RunAsUser: ptr.To[int64](9)},
	)
	orig := pod.DeepCopy()
	r := newResolver(t, nil)
	in := security.ContainerInput{Pod: pod, Container: &pod.Spec.Containers[0], ExtraSupplementalGroups: []int64{2}}
	got, err := r.ContainerSecurityContext(context.Background(), in)
	require.NoError(t, err)
	got.Capabilities.AddCapabilities[0] = "SYS_ADMIN"
	got.SelinuxOptions.Type = "changed"
	got.SupplementalGroups[0] = 0
	got.RunAsUser.Value = 0
	got.MaskedPaths[0] = "/changed"
	got.ReadonlyPaths[0] = "/changed"
	assert.Equal(t, orig, pod)
	assert.Equal(t, []int64{2}, in.ExtraSupplementalGroups)
	again, err := r.ContainerSecurityContext(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, defaultMasked(), again.MaskedPaths)
	assert.Equal(t, defaultReadonly(), again.ReadonlyPaths)
}

func TestContainerSecurityContextNilInput(t *testing.T) {
	r := newResolver(t, nil)
	pod := testPod(nil, nil)
	for name, in := range map[string]security.ContainerInput{
		"no pod":       {Container: &pod.Spec.Containers[0]},
		"no container": {Pod: pod},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := r.ContainerSecurityContext(context.Background(), in)
			require.ErrorIs(t, err, security.ErrInvalidInput)
		})
	}
}

func TestResolverIsSafeForConcurrentUse(t *testing.T) {
	r := security.New(security.Config{
		ThermalThrottle: &countingThermal{},
		UserNamespaces:  offline.AllocatingUserNamespaces(65536, 8),
	})
	done := make(chan *runtimeapi.LinuxContainerSecurityContext, 8)
	for i := range 8 {
		go func() {
			pod := testPod(&v1.PodSecurityContext{FSGroup: ptr.To[int64](int64(i))}, nil)
			pod.UID = types.UID(rune('a' + i))
			pod.Spec.HostUsers = ptr.To(false)
			sc, err := r.ContainerSecurityContext(context.Background(), security.ContainerInput{Pod: pod, Container: &pod.Spec.Containers[0]})
			assert.NoError(t, err)
			done <- sc
		}()
	}
	hosts := map[uint32]bool{}
	for range 8 {
		sc := <-done
		require.NotNil(t, sc)
		assert.Len(t, sc.MaskedPaths, 13)
		hosts[sc.NamespaceOptions.UsernsOptions.Uids[0].HostId] = true
	}
	assert.Len(t, hosts, 8, "each pod got its own id range")
}

func TestContainerSecurityContextListsDoNotOverlap(t *testing.T) {
	pod := testPod(nil, &v1.SecurityContext{RunAsGroup: ptr.To[int64](5), Capabilities: &v1.Capabilities{Add: []v1.Capability{"CHOWN"}, Drop: []v1.Capability{"ALL"}}})
	in := security.ContainerInput{Pod: pod, Container: &pod.Spec.Containers[0], ImageUID: ptr.To[int64](7)}
	got, err := newResolver(t, nil).ContainerSecurityContext(context.Background(), in)
	require.NoError(t, err)
	got.Capabilities.AddCapabilities = append(got.Capabilities.AddCapabilities, "NET_RAW")
	assert.Equal(t, []string{"ALL"}, got.Capabilities.DropCapabilities)
	got.MaskedPaths = append(got.MaskedPaths, "/proc/extra")
	assert.Equal(t, defaultReadonly(), got.ReadonlyPaths)
	got.RunAsGroup.Value = 0
	assert.Equal(t, int64(7), got.RunAsUser.Value)
}

// The short lists share the context's allocation; appending to one writes into none of the others.
func TestContainerSecurityContextShortListsDoNotOverlap(t *testing.T) {
	pod := testPod(&v1.PodSecurityContext{FSGroup: ptr.To[int64](1)},
		&v1.SecurityContext{Capabilities: &v1.Capabilities{Add: []v1.Capability{"CHOWN"}, Drop: []v1.Capability{"ALL"}}})
	in := security.ContainerInput{Pod: pod, Container: &pod.Spec.Containers[0], ExtraSupplementalGroups: []int64{2}}
	r := newResolver(t, nil)
	got, err := r.ContainerSecurityContext(context.Background(), in)
	require.NoError(t, err)
	other, err := r.ContainerSecurityContext(context.Background(), in)
	require.NoError(t, err)
	got.Capabilities.DropCapabilities = append(got.Capabilities.DropCapabilities, "NET_RAW", "SYS_TIME")
	got.Capabilities.AddCapabilities = append(got.Capabilities.AddCapabilities, "KILL", "SETUID")
	got.SupplementalGroups = append(got.SupplementalGroups, 3, 4)
	assert.Equal(t, []string{"CHOWN", "KILL", "SETUID"}, got.Capabilities.AddCapabilities)
	assert.Equal(t, []string{"ALL", "NET_RAW", "SYS_TIME"}, got.Capabilities.DropCapabilities)
	assert.Equal(t, []int64{1, 2, 3, 4}, got.SupplementalGroups)
	got.Capabilities.AddCapabilities[0], got.SupplementalGroups[0], got.Seccomp.ProfileType = "X", 9, runtimeapi.SecurityProfile_Localhost
	got.NamespaceOptions.UsernsOptions.Mode = runtimeapi.NamespaceMode_POD
	assert.Equal(t, []string{"CHOWN"}, other.Capabilities.AddCapabilities)
	assert.Equal(t, []string{"ALL"}, other.Capabilities.DropCapabilities)
	assert.Equal(t, []int64{1, 2}, other.SupplementalGroups)
	assert.Equal(t, runtimeapi.SecurityProfile_Unconfined, other.Seccomp.ProfileType)
	assert.Equal(t, runtimeapi.NamespaceMode_NODE, other.NamespaceOptions.UsernsOptions.Mode)
}
