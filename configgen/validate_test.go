package configgen_test

import (
	"context"
	"fmt"
	"io/fs"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/hostfs/hostfstest"
)

// bad is a byte that starts no UTF-8 sequence.
const bad = "\xff"

// hostEffects counts the calls that change the host: writes through Files and subPath binds.
type hostEffects struct {
	writes *atomic.Int64
	node   *configgentest.Node
}

func (h hostEffects) count() int {
	return int(h.writes.Load()) + len(h.node.Subpather.Calls())
}

// countWrites wraps fsys so that every call that changes a file adds one to n; reads pass.
func countWrites(fsys hostfstest.FS, n *atomic.Int64) *hostfstest.Interceptor {
	return hostfstest.Wrap(fsys, hostfstest.Funcs{
		MkdirAll: func(f hostfstest.FS, p string, perm fs.FileMode) error { n.Add(1); return f.MkdirAll(p, perm) },
		WriteFile: func(f hostfstest.FS, p string, d []byte, perm fs.FileMode) error {
			n.Add(1)
			return f.WriteFile(p, d, perm)
		},
		Create:  func(f hostfstest.FS, p string) error { n.Add(1); return f.Create(p) },
		Chmod:   func(f hostfstest.FS, p string, perm fs.FileMode) error { n.Add(1); return f.Chmod(p, perm) },
		Symlink: func(f hostfstest.FS, o, p string) error { n.Add(1); return f.Symlink(o, p) },
		Remove:  func(f hostfstest.FS, p string) error { n.Add(1); return f.Remove(p) },
	})
}

// validationNode is an offline node whose Files count every call, with a ConfigMap whose keys and
// values are hostile.
func validationNode(t *testing.T) (*configgen.Generator, hostEffects, *configgentest.Node) {
	t.Helper()
	return validationNodeWith(t, nil)
}

// validationNodeWith is validationNode with Options changed by edit.
func validationNodeWith(t *testing.T, edit func(*configgen.Options)) (*configgen.Generator, hostEffects, *configgentest.Node) {
	t.Helper()
	node := configgentest.NewNode(cm("shop", "hostile", map[string]string{
		"GOOD": "ok", "BADVAL": "x" + bad, "NULVAL": "a\x00b",
	}), cm("shop", "badkeys", map[string]string{"K" + bad: "v"}))
	writes := &atomic.Int64{}
	files := countWrites(node.Files, writes)
	node.Options.Files = files
	if edit != nil {
		edit(&node.Options)
	}
	gen, err := node.Generator()
	require.NoError(t, err)
	return gen, hostEffects{writes: writes, node: node}, node
}

// TestValidationRefusesInvalidStrings: every string that reaches a CRI message must be valid UTF-8
// (protobuf cannot marshal anything else) and those that become paths, arguments or settings must
// hold no NUL; a spec that breaks the rule fails with ErrInvalidPod naming the field, before any
// host effect.
func TestValidationRefusesInvalidStrings(t *testing.T) {
	tests := []struct {
		name string
		edit func(p *v1.Pod, c *v1.Container)
		// sandbox is whether GeneratePodSandboxConfig fails too (pod-level fields and fields of
		// the spec; not what only the container's environment produces).
		sandbox bool
		wantErr string
	}{
		{"pod name", func(p *v1.Pod, _ *v1.Container) { p.Name = "web" + bad }, true, `invalid metadata.name`},
		{"namespace", func(p *v1.Pod, _ *v1.Container) { p.Namespace = "shop" + bad }, true, `invalid metadata.namespace`},
		{"uid", func(p *v1.Pod, _ *v1.Container) { p.UID = "u" + bad }, true, `invalid metadata.uid`},
		{"label value", func(p *v1.Pod, _ *v1.Container) { p.Labels["app"] = bad }, true, `invalid metadata.labels["app"]: must be valid UTF-8 (invalid byte at 0)`},
		{"label key", func(p *v1.Pod, _ *v1.Container) { p.Labels[bad] = "x" }, true, `invalid metadata.labels["\xff"]: key must be valid UTF-8`},
		{"annotation", func(p *v1.Pod, _ *v1.Container) { p.Annotations = map[string]string{"a": bad} }, true, `invalid metadata.annotations["a"]`},
		{"dns search", func(p *v1.Pod, _ *v1.Container) { p.Spec.DNSConfig = &v1.PodDNSConfig{Searches: []string{"a" + bad}} }, true, `invalid spec.dnsConfig.searches[0]`},
		{"dns option", func(p *v1.Pod, _ *v1.Container) {
			p.Spec.DNSConfig = &v1.PodDNSConfig{Options: []v1.PodDNSConfigOption{{Name: "ndots", Value: ptr.To("1\x00")}}}
		}, true, `invalid spec.dnsConfig.options[0].value: must not contain a NUL byte (at byte 1)`},
		{"sysctl value", func(p *v1.Pod, _ *v1.Container) {
			p.Spec.SecurityContext = &v1.PodSecurityContext{Sysctls: []v1.Sysctl{{Name: "kernel.shm_rmid_forced", Value: "1" + bad}}}
		}, true, `invalid spec.securityContext.sysctls[0].value`},
		{"pod seccomp ref with NUL", func(p *v1.Pod, _ *v1.Container) {
			p.Spec.SecurityContext = &v1.PodSecurityContext{SeccompProfile: &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost, LocalhostProfile: ptr.To("a.json\x00../x")}}
		}, true, `invalid spec.securityContext.seccompProfile.localhostProfile: must not contain a NUL byte`},
		{"pod SELinux", func(p *v1.Pod, _ *v1.Container) {
			p.Spec.SecurityContext = &v1.PodSecurityContext{SELinuxOptions: &v1.SELinuxOptions{Level: "s0" + bad}}
		}, true, `invalid spec.securityContext.seLinuxOptions`},
		{"container name", func(_ *v1.Pod, c *v1.Container) { c.Name = "web" + bad }, true, `invalid container name`},
		{"image", func(_ *v1.Pod, c *v1.Container) { c.Image = "img" + bad }, true, `container "web": invalid image: must be valid UTF-8 (invalid byte at 3)`},
		{"command", func(_ *v1.Pod, c *v1.Container) { c.Command = []string{"sh", bad} }, true, `container "web": invalid command[1]`},
		{"args with NUL", func(_ *v1.Pod, c *v1.Container) { c.Args = []string{"a\x00b"} }, true, `container "web": invalid args[0]: must not contain a NUL byte (at byte 1)`},
		{"working dir", func(_ *v1.Pod, c *v1.Container) { c.WorkingDir = "/w" + bad }, true, `invalid workingDir`},
		{"env name", func(_ *v1.Pod, c *v1.Container) { c.Env = append(c.Env, v1.EnvVar{Name: "E" + bad, Value: "v"}) }, true, `invalid env[2].name`},
		{"env value", func(_ *v1.Pod, c *v1.Container) { c.Env = append(c.Env, v1.EnvVar{Name: "E", Value: "v\x00"}) }, true, `invalid env[2].value`},
		{"mountPath", func(_ *v1.Pod, c *v1.Container) { c.VolumeMounts[0].MountPath = "/d" + bad }, true, `invalid volumeMounts[0].mountPath`},
		{"subPath", func(_ *v1.Pod, c *v1.Container) { c.VolumeMounts[0].SubPath = "c" + bad }, true, `invalid volumeMounts[0].subPath`},
		{"termination message path", func(_ *v1.Pod, c *v1.Container) { c.TerminationMessagePath = "/dev/t" + bad }, true, `invalid terminationMessagePath`},
		{"capability", func(_ *v1.Pod, c *v1.Container) {
			c.SecurityContext = &v1.SecurityContext{Capabilities: &v1.Capabilities{Add: []v1.Capability{"NET" + bad}}}
		}, true, `invalid securityContext.capabilities.add[0]`},
		{"container apparmor ref", func(_ *v1.Pod, c *v1.Container) {
			c.SecurityContext = &v1.SecurityContext{AppArmorProfile: &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeLocalhost, LocalhostProfile: ptr.To("p" + bad)}}
		}, true, `invalid securityContext.appArmorProfile.localhostProfile`},
		{"apparmor annotation", func(p *v1.Pod, _ *v1.Container) {
			p.Annotations = map[string]string{v1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix + "web": "localhost/p\x00x"}
		}, true, `invalid metadata.annotations["container.apparmor.security.beta.kubernetes.io/web"]: must not contain a NUL byte`},
		{"env value from a ConfigMap", func(_ *v1.Pod, c *v1.Container) {
			c.Env = append(c.Env, v1.EnvVar{Name: "X", ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{
				LocalObjectReference: v1.LocalObjectReference{Name: "hostile"}, Key: "NULVAL"}}})
		}, false, `invalid value of environment variable "X": must not contain a NUL byte (at byte 1)`},
		{"env name from envFrom keys", func(_ *v1.Pod, c *v1.Container) {
			c.EnvFrom = []v1.EnvFromSource{{ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "badkeys"}}}}
		}, false, `invalid environment variable name "K\xff"`},
		{"args after expansion of a ConfigMap value", func(_ *v1.Pod, c *v1.Container) {
			c.Env = append(c.Env, v1.EnvVar{Name: "X", ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{
				LocalObjectReference: v1.LocalObjectReference{Name: "hostile"}, Key: "BADVAL"}}})
			c.Args = []string{"--x=$(X)"}
		}, false, `invalid args (expanded)[0]: must be valid UTF-8 (invalid byte at 5)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gen, effects, node := validationNode(t)
			pod := samplePod()
			tc.edit(pod, &pod.Spec.Containers[0])
			volumes := node.Volumes(pod)
			before := effects.count()
			ctx := context.Background()

			_, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], RestartCount: 0, PodIPs: []string{"10.244.1.17"}, ImageRef: "sha256:abc", Volumes: volumes})
			require.ErrorIs(t, err, configgen.ErrInvalidPod)
			assert.ErrorContains(t, err, tc.wantErr)
			assert.Equal(t, before, effects.count(), "GenerateContainerConfig had a host effect before failing")

			_, err = gen.GenerateRunContainerOptions(ctx, configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.244.1.17"}, Volumes: volumes})
			if tc.wantErr == `invalid args (expanded)[0]: must be valid UTF-8 (invalid byte at 5)` {
				// Args are not part of the run-container options; the value is bytes in CRI.
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, configgen.ErrInvalidPod)
				assert.ErrorContains(t, err, tc.wantErr)
			}

			_, err = gen.GeneratePodSandboxConfig(ctx, pod, 0)
			if tc.sandbox {
				require.ErrorIs(t, err, configgen.ErrInvalidPod)
				assert.ErrorContains(t, err, tc.wantErr)
			} else {
				require.NoError(t, err)
			}
		})
	}
}

// TestNodeSideValidation: what the API server's pod validation refuses and that matters on the
// node is refused by the Generator too, before any host effect.
func TestNodeSideValidation(t *testing.T) {
	tests := []struct {
		name         string
		edit         func(p *v1.Pod, c *v1.Container)
		restartCount int
		wantErr      string
	}{
		{name: "Bidirectional propagation needs a privileged container", edit: func(_ *v1.Pod, c *v1.Container) {
			c.VolumeMounts[0].MountPropagation = ptr.To(v1.MountPropagationBidirectional)
		}, wantErr: `pod "shop/web-7d9f8" container "web": invalid volumeMounts[0].mountPropagation: Bidirectional mount propagation is available only to privileged containers`},
		{name: "a namespace with newlines, which would reach resolv.conf's search line, is refused", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Namespace = "x\nnameserver 6.6.6.6\nsearch evil"
		}, wantErr: `invalid metadata.namespace "x\nnameserver 6.6.6.6\nsearch evil": a lowercase RFC 1123 label`},
		{name: "an operator's placeholder namespace, which would be a search domain with spaces, is refused", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Namespace = "FILLED BY THE OPERATOR"
		}, wantErr: `invalid metadata.namespace "FILLED BY THE OPERATOR": a lowercase RFC 1123 label`},
		{name: "a name with '_' is refused: pod {a, b, c_d} and pod {a_b, c, d} would share pods/a_b_c_d", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Namespace, p.Name, p.UID = "a", "b_c", "d"
		}, wantErr: `pod "a/b_c": invalid metadata.name "b_c": a lowercase RFC 1123 subdomain`},
		{name: "a UID with '_' is refused: pod {a, b, c_d} and pod {a_b, c, d} would share pods/a_b_c_d", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Namespace, p.Name, p.UID = "a", "b", "c_d"
		}, wantErr: `pod "a/b": invalid metadata.uid "c_d": must consist of ASCII letters, digits and '-'`},
		{name: "negative memory limit", edit: func(_ *v1.Pod, c *v1.Container) {
			c.Resources.Limits[v1.ResourceMemory] = resource.MustParse("-1Gi")
		}, wantErr: `container "web": invalid resources.limits["memory"]: -1Gi must be greater than or equal to 0`},
		{name: "negative CPU request", edit: func(_ *v1.Pod, c *v1.Container) {
			c.Resources.Requests[v1.ResourceCPU] = resource.MustParse("-100m")
		}, wantErr: `invalid resources.requests["cpu"]: -100m must be greater than or equal to 0`},
		{name: "negative ephemeral-storage limit beside cpu and memory", edit: func(_ *v1.Pod, c *v1.Container) {
			c.Resources.Limits[v1.ResourceEphemeralStorage] = resource.MustParse("-1Gi")
		}, wantErr: `container "web": invalid resources.limits["ephemeral-storage"]: -1Gi must be greater than or equal to 0`},
		{name: "negative hugepages request alone", edit: func(_ *v1.Pod, c *v1.Container) {
			c.Resources.Requests = v1.ResourceList{"hugepages-2Mi": resource.MustParse("-2Mi")}
		}, wantErr: `container "web": invalid resources.requests["hugepages-2Mi"]: -2Mi must be greater than or equal to 0`},
		{name: "negative pod overhead", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Spec.Overhead = v1.ResourceList{v1.ResourceMemory: resource.MustParse("-1")}
		}, wantErr: `pod "shop/web-7d9f8": invalid spec.overhead["memory"]: -1 must be greater than or equal to 0`},
		{name: "negative pod-level limit", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Spec.Resources = &v1.ResourceRequirements{Limits: v1.ResourceList{v1.ResourceCPU: resource.MustParse("-1")}}
		}, wantErr: `invalid spec.resources.limits["cpu"]: -1 must be greater than or equal to 0`},
		{name: "negative restart count", restartCount: -1, wantErr: `invalid restart count: -1 must be between 0 and 4294967295`},
		{name: "restart count beyond CRI's attempt", restartCount: 1 << 32, wantErr: `invalid restart count: 4294967296 must be between 0 and 4294967295`},
		{name: "negative runAsUser", edit: func(_ *v1.Pod, c *v1.Container) {
			c.SecurityContext = &v1.SecurityContext{RunAsUser: ptr.To[int64](-1)}
		}, wantErr: `invalid securityContext.runAsUser: -1 must be between 0 and 2147483647, inclusive`},
		{name: "runAsGroup beyond int32", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Spec.SecurityContext = &v1.PodSecurityContext{RunAsGroup: ptr.To[int64](1 << 31)}
		}, wantErr: `invalid spec.securityContext.runAsGroup: 2147483648 must be between 0 and 2147483647, inclusive`},
		{name: "negative supplemental group", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Spec.SecurityContext = &v1.PodSecurityContext{SupplementalGroups: []int64{5, -5}}
		}, wantErr: `invalid spec.securityContext.supplementalGroups[1]: -5 must be between 0 and 2147483647`},
		{name: "negative fsGroup", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Spec.SecurityContext = &v1.PodSecurityContext{FSGroup: ptr.To[int64](-2)}
		}, wantErr: `invalid spec.securityContext.fsGroup: -2`},
		{name: "sysctl name that is a path", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Spec.SecurityContext = &v1.PodSecurityContext{Sysctls: []v1.Sysctl{{Name: "../../kernel/core_pattern", Value: "|/x"}}}
		}, wantErr: `invalid spec.securityContext.sysctls[0].name: "../../kernel/core_pattern" must have at most 253 characters and match the regex`},
		{name: "net sysctl on the host network", edit: func(p *v1.Pod, c *v1.Container) {
			p.Spec.HostNetwork = true
			c.Ports = nil
			p.Spec.SecurityContext = &v1.PodSecurityContext{Sysctls: []v1.Sysctl{{Name: "net/ipv4/ip_forward", Value: "1"}}}
		}, wantErr: `invalid spec.securityContext.sysctls[0].name: "net/ipv4/ip_forward" may not be set when spec.hostNetwork is true`},
		{name: "IPC sysctl in the host IPC namespace", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Spec.HostIPC = true
			p.Spec.SecurityContext = &v1.PodSecurityContext{Sysctls: []v1.Sysctl{{Name: "kernel.shmmax", Value: "1"}}}
		}, wantErr: `"kernel.shmmax" may not be set when spec.hostIPC is true`},
		{name: "hostPID with a user namespace", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Spec.HostPID = true
			p.Spec.HostUsers = ptr.To(false)
		}, wantErr: `invalid spec.hostPID: forbidden when spec.hostUsers is false`},
		{name: "hostIPC with a user namespace", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Spec.HostIPC = true
			p.Spec.HostUsers = ptr.To(false)
		}, wantErr: `invalid spec.hostIPC: forbidden when spec.hostUsers is false`},
		{name: "negative host port", edit: func(_ *v1.Pod, c *v1.Container) {
			c.Ports = []v1.ContainerPort{{ContainerPort: 80, HostPort: -1}}
		}, wantErr: `invalid ports[0].hostPort: -1 must be between 0 and 65535, inclusive`},
		{name: "container port out of range", edit: func(_ *v1.Pod, c *v1.Container) {
			c.Ports = []v1.ContainerPort{{ContainerPort: 70000}}
		}, wantErr: `invalid ports[0].containerPort: 70000 must be between 1 and 65535, inclusive`},
		{name: "host-network host port that differs from the container port", edit: func(p *v1.Pod, c *v1.Container) {
			p.Spec.HostNetwork = true
			c.Ports = []v1.ContainerPort{{ContainerPort: 80, HostPort: 22}}
		}, wantErr: `invalid ports[0].hostPort: 22 must match containerPort 80 when spec.hostNetwork is true`},
		{name: "DNS search with a newline would add a line to the container's resolv.conf", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Spec.DNSConfig = &v1.PodDNSConfig{Searches: []string{"a.com\nnameserver 6.6.6.6"}}
		}, wantErr: `invalid spec.dnsConfig.searches[0]: "a.com\nnameserver 6.6.6.6" must be "." or a DNS subdomain`},
		{name: "DNS search with a space", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Spec.DNSConfig = &v1.PodDNSConfig{Searches: []string{"ok.example.", "a b"}}
		}, wantErr: `invalid spec.dnsConfig.searches[1]: "a b" must be "." or a DNS subdomain`},
		{name: "DNS nameserver that is not an IP", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Spec.DNSConfig = &v1.PodDNSConfig{Nameservers: []string{"1.1.1.1", "1.1.1.1\nsearch evil"}}
		}, wantErr: `invalid spec.dnsConfig.nameservers[1]: "1.1.1.1\nsearch evil" must be a valid IP address`},
		{name: "DNS option with no name", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Spec.DNSConfig = &v1.PodDNSConfig{Options: []v1.PodDNSConfigOption{{Value: ptr.To("1")}}}
		}, wantErr: `invalid spec.dnsConfig.options[0].name: must not be empty`},
		{name: "DNS option name with a newline", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Spec.DNSConfig = &v1.PodDNSConfig{Options: []v1.PodDNSConfigOption{{Name: "ndots\nnameserver 6.6.6.6"}}}
		}, wantErr: `invalid spec.dnsConfig.options[0].name: must not contain whitespace or control characters`},
		{name: "DNS option value with a newline", edit: func(p *v1.Pod, _ *v1.Container) {
			p.Spec.DNSConfig = &v1.PodDNSConfig{Options: []v1.PodDNSConfigOption{{Name: "ndots", Value: ptr.To("1\nnameserver 6.6.6.6")}}}
		}, wantErr: `invalid spec.dnsConfig.options[0].value: must not contain whitespace or control characters`},
		{name: "env name with = would set another variable in the runtime's NAME=value", edit: func(_ *v1.Pod, c *v1.Container) {
			c.Env = append(c.Env, v1.EnvVar{Name: "LD_PRELOAD=/tmp/x.so X", Value: "y"})
		}, wantErr: `container "web": invalid env[2].name: must not contain '='`},
		{name: "empty env name", edit: func(_ *v1.Pod, c *v1.Container) {
			c.Env = append(c.Env, v1.EnvVar{Name: "", Value: "y"})
		}, wantErr: `container "web": invalid env[2].name: must not be empty`},
		{name: "an init container named as a regular one shares its log and subPath directories", edit: func(p *v1.Pod, c *v1.Container) {
			p.Spec.InitContainers = append(p.Spec.InitContainers, v1.Container{Name: c.Name, Image: "init:1"})
		}, wantErr: `invalid spec.initContainers[0].name: "web" is also the name of another container of the pod`},
		{name: "an ephemeral container named as a regular one", edit: func(p *v1.Pod, c *v1.Container) {
			p.Spec.EphemeralContainers = append(p.Spec.EphemeralContainers, v1.EphemeralContainer{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: c.Name, Image: "debug:1"}})
		}, wantErr: `invalid spec.ephemeralContainers[0].name: "web" is also the name of another container of the pod`},
		{name: "a duplicate among many containers", edit: func(p *v1.Pod, c *v1.Container) {
			for i := 0; i < 40; i++ {
				p.Spec.Containers = append(p.Spec.Containers, v1.Container{Name: fmt.Sprintf("c%d", i), Image: "x:1"})
			}
			p.Spec.InitContainers = append(p.Spec.InitContainers, v1.Container{Name: c.Name, Image: "init:1"})
		}, wantErr: `invalid spec.initContainers[0].name: "web" is also the name of another container of the pod`},
		{name: "an unmasked /proc in the host's user namespace would expose the host's /proc/sys and sysrq-trigger to container root", edit: func(_ *v1.Pod, c *v1.Container) {
			c.SecurityContext = &v1.SecurityContext{ProcMount: ptr.To(v1.UnmaskedProcMount)}
		}, wantErr: "invalid securityContext.procMount: `hostUsers` must be false to use `Unmasked`"},
		{name: "an unmasked /proc with hostUsers true", edit: func(p *v1.Pod, c *v1.Container) {
			p.Spec.HostUsers = ptr.To(true)
			c.SecurityContext = &v1.SecurityContext{ProcMount: ptr.To(v1.UnmaskedProcMount)}
		}, wantErr: "invalid securityContext.procMount: `hostUsers` must be false to use `Unmasked`"},
		{name: "a procMount that is neither Default nor Unmasked", edit: func(_ *v1.Pod, c *v1.Container) {
			c.SecurityContext = &v1.SecurityContext{ProcMount: ptr.To(v1.ProcMountType("Raw"))}
		}, wantErr: `invalid securityContext.procMount: "Raw" is not supported (Default, Unmasked)`},
		{name: "256-byte container name", edit: func(_ *v1.Pod, c *v1.Container) {
			c.Name = string(make256('c'))
		}, wantErr: `must be at most 255 bytes`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gen, effects, node := validationNode(t)
			pod := samplePod()
			if tc.edit != nil {
				tc.edit(pod, &pod.Spec.Containers[0])
			}
			volumes := node.Volumes(pod)
			before := effects.count()
			_, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], RestartCount: tc.restartCount, ImageRef: "sha256:abc", Volumes: volumes})
			require.ErrorIs(t, err, configgen.ErrInvalidPod)
			assert.ErrorContains(t, err, tc.wantErr)
			assert.Equal(t, before, effects.count(), "a host effect before the validation error")
			if tc.restartCount == 0 {
				_, err = gen.GeneratePodSandboxConfig(context.Background(), pod, 0)
				require.ErrorIs(t, err, configgen.ErrInvalidPod)
				assert.ErrorContains(t, err, tc.wantErr)
			}
		})
	}
}

func make256(c byte) []byte {
	b := make([]byte, 256)
	for i := range b {
		b[i] = c
	}
	return b
}

func TestValidationAcceptsPrivilegedBidirectionalAndValidText(t *testing.T) {
	gen, _, node := validationNode(t)
	pod := samplePod()
	c := &pod.Spec.Containers[0]
	c.SecurityContext = &v1.SecurityContext{Privileged: ptr.To(true)}
	c.VolumeMounts[0].MountPropagation = ptr.To(v1.MountPropagationBidirectional)
	c.Args = append(c.Args, "héllo wörld ✓", "")
	pod.Labels["note"] = "日本語"
	cfg, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: c, ImageRef: "sha256:abc", Volumes: node.Volumes(pod)})
	require.NoError(t, err)
	_, err = proto.Marshal(cfg)
	require.NoError(t, err)
	require.NoError(t, configgen.ValidatePod(pod))
}

func TestValidateNilInputs(t *testing.T) {
	require.ErrorIs(t, configgen.ValidatePod(nil), configgen.ErrInvalidPod)
}

// An environment variable's name reaches the runtime as NAME=value: a name built from an envFrom
// prefix (or a ConfigMap key that never passed an API server) holding '=' is refused once built,
// before any host effect.
func TestValidationRefusesEnvFromNamesWithEquals(t *testing.T) {
	gen, effects, node := validationNodeWith(t, nil)
	node.Objects.Add(cm("shop", "eq", map[string]string{"PATH=/tmp/evil:/bin": "x"}))
	for _, from := range []v1.EnvFromSource{
		{Prefix: "A=", ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "eq"}}},
		{ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "eq"}}},
	} {
		pod := samplePod()
		c := &pod.Spec.Containers[0]
		c.EnvFrom = []v1.EnvFromSource{from}
		before := effects.count()
		_, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: c, ImageRef: "sha256:abc", Volumes: node.Volumes(pod)})
		require.ErrorIs(t, err, configgen.ErrInvalidPod)
		assert.ErrorContains(t, err, `PATH=/tmp/evil:/bin": must not contain '='`)
		assert.Equal(t, before, effects.count(), "a host effect before the validation error")
	}
}

// Since RelaxedDNSSearchValidation (GA, locked on), the API server accepts a lone "." and
// underscores in a pod's DNS searches; the node accepts them too.
func TestValidationAcceptsRelaxedDNSSearches(t *testing.T) {
	pod := samplePod()
	pod.Spec.DNSConfig = &v1.PodDNSConfig{Searches: []string{".", "_sip._tcp.example.com", "example.com."}}
	require.NoError(t, configgen.ValidatePod(pod))
}

// A container's config checks its own name for a twin; the sandbox, made first, checks every
// pair, so a pod whose other containers share a name is refused before any of them runs.
func TestContainerNameTwinsElsewhere(t *testing.T) {
	gen, _, node := validationNode(t)
	pod := samplePod()
	pod.Spec.Containers = append(pod.Spec.Containers, v1.Container{Name: "a", Image: "x:1"}, v1.Container{Name: "a", Image: "x:1"})
	_, err := gen.GeneratePodSandboxConfig(context.Background(), pod, 0)
	require.ErrorIs(t, err, configgen.ErrInvalidPod)
	assert.ErrorContains(t, err, `invalid spec.containers[2].name: "a" is also the name of another container of the pod`)
	_, err = gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[1], ImageRef: "sha256:abc", Volumes: node.Volumes(pod)})
	require.ErrorIs(t, err, configgen.ErrInvalidPod)
	assert.ErrorContains(t, err, `invalid spec.containers[2].name: "a" is also the name of another container of the pod`)
	_, err = gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], ImageRef: "sha256:abc", Volumes: node.Volumes(pod)})
	require.NoError(t, err, "the first container's own name has no twin")
}
