package configgen_test

import (
	"context"
	"errors"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/features"
	"github.com/podconfig/podconfig/hostfs/hostfstest"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/offline"
	"github.com/podconfig/podconfig/security"
)

const podUID = "3c1f7a52-6f0e-4a8e-9d3b-2b8f1e0c4d11"

// samplePod is the sample for Linux resources: a Burstable container of 250m/1 CPU and 256Mi/512Mi.
func samplePod() *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-7d9f8", Namespace: "shop", UID: podUID, Labels: map[string]string{"app": "web"}},
		Spec: v1.PodSpec{
			EnableServiceLinks:            ptr.To(false),
			TerminationGracePeriodSeconds: ptr.To[int64](30),
			DNSPolicy:                     v1.DNSClusterFirst,
			Volumes:                       []v1.Volume{{Name: "data", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}},
			Containers: []v1.Container{{
				Name:  "web",
				Image: "registry.example/web:1.2.3",
				Args:  []string{"--listen=$(POD_IP):$(PORT)", "$$(LITERAL)", "--undef=$(NOPE)"},
				Env: []v1.EnvVar{
					{Name: "PORT", Value: "8080"},
					{Name: "POD_IP", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIP"}}},
				},
				Resources: v1.ResourceRequirements{
					Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("250m"), v1.ResourceMemory: resource.MustParse("256Mi")},
					Limits:   v1.ResourceList{v1.ResourceCPU: resource.MustParse("1"), v1.ResourceMemory: resource.MustParse("512Mi")},
				},
				VolumeMounts:           []v1.VolumeMount{{Name: "data", MountPath: "/data", SubPath: "cache"}},
				TerminationMessagePath: "/dev/termination-log",
			}},
		},
	}
}

// sampleNode is an offline node with 32 GiB of memory.
func sampleNode(t testing.TB) (*configgentest.Node, *configgen.Generator) {
	t.Helper()
	node := configgentest.NewNode()
	node.Options.Resources.Node.MemoryCapacity = 32 << 30
	gen, err := node.Generator()
	require.NoError(t, err)
	return node, gen
}

func TestGenerateContainerConfig(t *testing.T) {
	node, gen := sampleNode(t)
	pod := samplePod()
	volumes := node.Volumes(pod)
	podDir := "/var/lib/kubelet/pods/" + podUID

	cfg, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], RestartCount: 2, PodIPs: []string{"10.244.1.17"}, ImageRef: "sha256:abc", Volumes: volumes})
	require.NoError(t, err)

	t.Run("metadata, image, working dir and log path", func(t *testing.T) {
		assert.Equal(t, &runtimeapi.ContainerMetadata{Name: "web", Attempt: 2}, cfg.Metadata)
		assert.Equal(t, &runtimeapi.ImageSpec{Image: "sha256:abc", UserSpecifiedImage: "registry.example/web:1.2.3"}, cfg.Image)
		assert.Equal(t, "web/2.log", cfg.LogPath)
	})
	t.Run("command and args are expanded; an empty command stays nil", func(t *testing.T) {
		assert.Nil(t, cfg.Command)
		assert.Equal(t, []string{"--listen=10.244.1.17:8080", "$(LITERAL)", "--undef=$(NOPE)"}, cfg.Args)
	})
	t.Run("labels are the four kubelet keys", func(t *testing.T) {
		assert.Equal(t, map[string]string{
			"io.kubernetes.pod.name": "web-7d9f8", "io.kubernetes.pod.namespace": "shop",
			"io.kubernetes.pod.uid": podUID, "io.kubernetes.container.name": "web",
		}, cfg.Labels)
	})
	t.Run("annotations carry hash, restart count and termination keys", func(t *testing.T) {
		assert.Equal(t, map[string]string{
			"io.kubernetes.container.hash": "728ba433", "io.kubernetes.container.restartCount": "2",
			"io.kubernetes.container.terminationMessagePath":   "/dev/termination-log",
			"io.kubernetes.container.terminationMessagePolicy": "",
			"io.kubernetes.pod.terminationGracePeriod":         "30",
		}, cfg.Annotations)
	})
	t.Run("envs in MakeEnvironmentVariables order", func(t *testing.T) {
		assert.Equal(t, []*runtimeapi.KeyValue{
			{Key: "PORT", Value: []byte("8080")}, {Key: "POD_IP", Value: []byte("10.244.1.17")},
		}, cfg.Envs)
	})
	t.Run("mounts: subPath bind target, /etc/hosts, then the termination message last", func(t *testing.T) {
		assert.Equal(t, []*runtimeapi.Mount{
			{ContainerPath: "/data", HostPath: podDir + "/volume-subpaths/data/web/0"},
			{ContainerPath: "/etc/hosts", HostPath: podDir + "/etc-hosts"},
			{ContainerPath: "/dev/termination-log", HostPath: podDir + "/containers/web/0000002a"},
		}, cfg.Mounts)
		fi, err := node.Files.Stat(podDir + "/containers/web/0000002a")
		require.NoError(t, err)
		assert.Equal(t, fs.FileMode(0o666), fi.Mode().Perm())
		hostsFile, err := node.Files.ReadFile(podDir + "/etc-hosts")
		require.NoError(t, err)
		assert.Contains(t, string(hostsFile), "10.244.1.17\tweb-7d9f8\n")
	})
	t.Run("devices and CDI devices are empty, not nil", func(t *testing.T) {
		assert.NotNil(t, cfg.Devices)
		assert.Empty(t, cfg.Devices)
		assert.NotNil(t, cfg.CDIDevices)
		assert.Empty(t, cfg.CDIDevices)
	})
	t.Run("sample Burstable resources on cgroup v2", func(t *testing.T) {
		assert.Equal(t, &runtimeapi.LinuxContainerResources{
			CpuPeriod: 100000, CpuQuota: 100000, CpuShares: 256, MemoryLimitInBytes: 536870912, OomScoreAdj: 993,
			HugepageLimits: []*runtimeapi.HugepageLimit{{PageSize: "2MB"}, {PageSize: "1GB"}},
			Unified:        map[string]string{"memory.low": "0", "memory.min": "0", "memory.oom.group": "1"},
		}, cfg.Linux.Resources)
	})
	t.Run("security context: image runs as root without a runAsUser, default namespaces", func(t *testing.T) {
		sc := cfg.Linux.SecurityContext
		assert.Equal(t, &runtimeapi.Int64Value{Value: 0}, sc.RunAsUser)
		assert.Equal(t, &runtimeapi.NamespaceOption{
			Pid: runtimeapi.NamespaceMode_CONTAINER, UsernsOptions: &runtimeapi.UserNamespace{Mode: runtimeapi.NamespaceMode_NODE},
		}, sc.NamespaceOptions)
		assert.Equal(t, &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_Unconfined}, sc.Seccomp)
	})
	t.Run("the log directory was made", func(t *testing.T) {
		fi, err := node.Files.Stat("/var/log/pods/shop_web-7d9f8_" + podUID + "/web")
		require.NoError(t, err)
		assert.True(t, fi.IsDir())
	})
	t.Run("no stop signal while ContainerStopSignals is off", func(t *testing.T) {
		assert.Equal(t, runtimeapi.Signal_SIGNAL_RUNTIME_DEFAULT, cfg.StopSignal)
	})
}

func TestGenerateContainerConfigFeatures(t *testing.T) {
	ctx := context.Background()
	t.Run("stop signal with the ContainerStopSignals gate", func(t *testing.T) {
		node := configgentest.NewNode()
		gates := features.Default()
		gates.ContainerStopSignals = true
		node.Options.FeatureGates = &gates
		gen, err := node.Generator()
		require.NoError(t, err)
		pod := samplePod()
		sig := v1.SIGUSR1
		pod.Spec.Containers[0].Lifecycle = &v1.Lifecycle{StopSignal: &sig}
		cfg, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], ImageRef: "img", Volumes: node.Volumes(pod)})
		require.NoError(t, err)
		assert.Equal(t, runtimeapi.Signal_SIGNAL_SIGUSR1, cfg.StopSignal)
	})
	t.Run("user namespaces: every mount gets the pod's id mappings", func(t *testing.T) {
		node := configgentest.NewNode()
		node.Options.Security.UserNamespaces = offline.FixedUserNamespaces(65536)
		gen, err := node.Generator()
		require.NoError(t, err)
		pod := samplePod()
		pod.Spec.HostUsers = ptr.To(false)
		cfg, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.0.0.9"}, ImageRef: "img", Volumes: node.Volumes(pod)})
		require.NoError(t, err)
		want := []*runtimeapi.IDMapping{{HostId: 65536, ContainerId: 0, Length: 65536}}
		require.Len(t, cfg.Mounts, 3)
		for _, m := range cfg.Mounts {
			assert.Equal(t, want, m.UidMappings, m.ContainerPath)
			assert.Equal(t, want, m.GidMappings, m.ContainerPath)
		}
	})
	t.Run("ephemeral container targeting another gets its PID namespace", func(t *testing.T) {
		node, gen := sampleNode(t)
		pod := samplePod()
		cfg, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], ImageRef: "img", Volumes: node.Volumes(pod), NamespaceTarget: "target-id"})
		require.NoError(t, err)
		assert.Equal(t, runtimeapi.NamespaceMode_TARGET, cfg.Linux.SecurityContext.NamespaceOptions.Pid)
		assert.Equal(t, "target-id", cfg.Linux.SecurityContext.NamespaceOptions.TargetId)
	})
	t.Run("no pod IPs and no host network: no /etc/hosts mount", func(t *testing.T) {
		node, gen := sampleNode(t)
		pod := samplePod()
		cfg, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], ImageRef: "img", Volumes: node.Volumes(pod)})
		require.NoError(t, err)
		for _, m := range cfg.Mounts {
			assert.NotEqual(t, "/etc/hosts", m.ContainerPath)
		}
	})
	t.Run("device-plugin devices, envs, annotations and CDI devices come first", func(t *testing.T) {
		node := configgentest.NewNode()
		node.Options.DeviceResources = configgen.DeviceResourceGetterFunc(func(context.Context, *v1.Pod, *v1.Container) (*configgen.DeviceResources, error) {
			return &configgen.DeviceResources{
				Envs:        []configgen.EnvVar{{Name: "GPU", Value: "0"}},
				Annotations: map[string]string{"dp": "x"},
				CDIDevices:  []string{"vendor.com/gpu=0"},
			}, nil
		})
		gen, err := node.Generator()
		require.NoError(t, err)
		pod := samplePod()
		cfg, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], ImageRef: "img", Volumes: node.Volumes(pod)})
		require.NoError(t, err)
		assert.Equal(t, "GPU", cfg.Envs[0].Key)
		assert.Equal(t, "x", cfg.Annotations["dp"])
		assert.Equal(t, []*runtimeapi.CDIDevice{{Name: "vendor.com/gpu=0"}}, cfg.CDIDevices)
	})
}

// Kubelet maps a lifecycle stopSignal to CRI through its signal table: v1's "SIGRTMIN+n" and
// "SIGRTMAX-n" are CRI's SIGRTMINPLUSn and SIGRTMAXMINUSn, and any name not in the table is
// RUNTIME_DEFAULT.
func TestGenerateContainerConfigStopSignal(t *testing.T) {
	tests := []struct {
		name   string
		gate   bool
		signal v1.Signal
		want   runtimeapi.Signal
	}{
		{name: "SIGTERM maps to SIGTERM", gate: true, signal: v1.SIGTERM, want: runtimeapi.Signal_SIGNAL_SIGTERM},
		{name: "SIGRTMIN maps to SIGRTMIN", gate: true, signal: v1.SIGRTMIN, want: runtimeapi.Signal_SIGNAL_SIGRTMIN},
		{name: "SIGRTMIN+1 maps to SIGRTMINPLUS1", gate: true, signal: v1.SIGRTMINPLUS1, want: runtimeapi.Signal_SIGNAL_SIGRTMINPLUS1},
		{name: "SIGRTMIN+15 maps to SIGRTMINPLUS15", gate: true, signal: v1.SIGRTMINPLUS15, want: runtimeapi.Signal_SIGNAL_SIGRTMINPLUS15},
		{name: "SIGRTMAX-14 maps to SIGRTMAXMINUS14", gate: true, signal: v1.SIGRTMAXMINUS14, want: runtimeapi.Signal_SIGNAL_SIGRTMAXMINUS14},
		{name: "SIGRTMAX-1 maps to SIGRTMAXMINUS1", gate: true, signal: v1.SIGRTMAXMINUS1, want: runtimeapi.Signal_SIGNAL_SIGRTMAXMINUS1},
		{name: "CRI's own spelling SIGRTMINPLUS1 is not a signal name", gate: true, signal: "SIGRTMINPLUS1", want: runtimeapi.Signal_SIGNAL_RUNTIME_DEFAULT},
		{name: "a CRI enum name is not a signal name", gate: true, signal: "SIGNAL_SIGTERM", want: runtimeapi.Signal_SIGNAL_RUNTIME_DEFAULT},
		{name: "an unknown name is RUNTIME_DEFAULT", gate: true, signal: "SIGBOGUS", want: runtimeapi.Signal_SIGNAL_RUNTIME_DEFAULT},
		{name: "a lower-case name is unknown", gate: true, signal: "sigterm", want: runtimeapi.Signal_SIGNAL_RUNTIME_DEFAULT},
		{name: "with the ContainerStopSignals gate off no stop signal is set", gate: false, signal: v1.SIGRTMINPLUS1, want: runtimeapi.Signal_SIGNAL_RUNTIME_DEFAULT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node := configgentest.NewNode()
			gates := features.Default()
			gates.ContainerStopSignals = tt.gate
			node.Options.FeatureGates = &gates
			gen, err := node.Generator()
			require.NoError(t, err)
			pod := samplePod()
			sig := tt.signal
			pod.Spec.Containers[0].Lifecycle = &v1.Lifecycle{StopSignal: &sig}
			cfg, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], ImageRef: "img", Volumes: node.Volumes(pod)})
			require.NoError(t, err)
			assert.Equal(t, tt.want, cfg.StopSignal)
		})
	}
}

func TestGenerateContainerConfigErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		node    func(*configgentest.Node)
		pod     func(*v1.Pod)
		wantErr string
		wantIs  error
		// leavesLogDir: the host failed after the (empty) log directory was made; kubelet makes
		// that directory first too, and podconfig has no remove operation to take it back.
		leavesLogDir bool
	}{
		{
			name:    "runAsNonRoot with an image that runs as root is refused",
			pod:     func(p *v1.Pod) { p.Spec.SecurityContext = &v1.PodSecurityContext{RunAsNonRoot: ptr.To(true)} },
			wantErr: `container has runAsNonRoot and image will run as root (pod: "web-7d9f8_shop(` + podUID + `)", container: web)`,
			wantIs:  security.ErrRunAsNonRoot,
		},
		{
			name:    "no image-user source is an error, never a guess",
			node:    func(n *configgentest.Node) { n.ImageUsers = nil },
			wantErr: "invalid options: Options.ImageUsers is needed to check runAsNonRoot against the image's user",
			wantIs:  configgen.ErrInvalidOptions,
		},
		{
			name:    "a pod UID that is not one path element is refused before anything is built",
			pod:     func(p *v1.Pod) { p.UID = "../../etc" },
			wantErr: `pod "shop/web-7d9f8": invalid metadata.uid "../../etc": must consist of ASCII letters, digits and '-' (a UUID, as the API server assigns)`,
			wantIs:  configgen.ErrInvalidPod,
		},
		{
			name:    "a namespace that would add a nameserver to resolv.conf is refused before anything is built",
			pod:     func(p *v1.Pod) { p.Namespace = "x\nnameserver 6.6.6.6\nsearch evil" },
			wantErr: `pod "x\nnameserver 6.6.6.6\nsearch evil/web-7d9f8": invalid metadata.namespace "x\nnameserver 6.6.6.6\nsearch evil": ` + dnsLabelMsg,
			wantIs:  configgen.ErrInvalidPod,
		},
		{
			name:    "a pod name with '_' is refused: <namespace>_<name>_<uid> would name two pods' log directory",
			pod:     func(p *v1.Pod) { p.Name = "b_c" },
			wantErr: `pod "shop/b_c": invalid metadata.name "b_c": ` + dnsSubdomainMsg,
			wantIs:  configgen.ErrInvalidPod,
		},
		{
			name:    "a UID with '_' is refused: it would share a systemd cgroup with the UID that has '-' there",
			pod:     func(p *v1.Pod) { p.UID = "c_d" },
			wantErr: `pod "shop/web-7d9f8": invalid metadata.uid "c_d": must consist of ASCII letters, digits and '-' (a UUID, as the API server assigns)`,
			wantIs:  configgen.ErrInvalidPod,
		},
		{
			name:    "a container name of .. is refused",
			pod:     func(p *v1.Pod) { p.Spec.Containers[0].Name = ".." },
			wantErr: `pod "shop/web-7d9f8": invalid container name "..": must not be '.' or '..'`,
			wantIs:  configgen.ErrInvalidPod,
		},
		{
			name: "a Localhost seccomp profile without a name fails with kubelet's text",
			pod: func(p *v1.Pod) {
				p.Spec.SecurityContext = &v1.PodSecurityContext{SeccompProfile: &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost}}
			},
			wantErr: "localhostProfile must be set if seccompProfile type is Localhost.",
		},
		{
			name: "the runtime's image-status error is returned as is",
			node: func(n *configgentest.Node) {
				n.Options.ImageUsers = imageUserFunc(func(context.Context, string) (*int64, string, error) {
					return nil, "", errors.New("rpc error: code = Unavailable desc = runtime down")
				})
			},
			wantErr: "rpc error: code = Unavailable desc = runtime down",
		},
		{
			name: "a device plugin error is returned as is",
			node: func(n *configgentest.Node) {
				n.Options.DeviceResources = configgen.DeviceResourceGetterFunc(func(context.Context, *v1.Pod, *v1.Container) (*configgen.DeviceResources, error) {
					return nil, errors.New("device plugin gone")
				})
			},
			wantErr: "device plugin gone",
		},
		{
			name: "a log directory that cannot be made fails with kubelet's text",
			node: func(n *configgentest.Node) {
				n.Options.Files = hostfstest.Wrap(n.Files, hostfstest.Funcs{MkdirAll: func(fsys hostfstest.FS, path string, perm fs.FileMode) error {
					if strings.HasPrefix(path, "/var/log/pods/") {
						return errors.New("disk full")
					}
					return fsys.MkdirAll(path, perm)
				}})
			},
			wantErr: "create container log directory for container web failed: disk full",
		},
		{
			name: "an etc-hosts file that cannot be written fails with the host's error, and the binds are undone",
			node: func(n *configgentest.Node) {
				n.Options.Files = hostfstest.Wrap(n.Files, hostfstest.Funcs{WriteFile: func(fsys hostfstest.FS, path string, data []byte, perm fs.FileMode) error {
					if strings.HasSuffix(path, "/etc-hosts") {
						return &fs.PathError{Op: "open", Path: path, Err: fs.ErrPermission}
					}
					return fsys.WriteFile(path, data, perm)
				}})
			},
			wantErr:      "open /var/lib/kubelet/pods/" + podUID + "/etc-hosts: permission denied",
			wantIs:       fs.ErrPermission,
			leavesLogDir: true,
		},
		{
			name:    "a missing volume fails with kubelet's text",
			pod:     func(p *v1.Pod) { p.Spec.Containers[0].VolumeMounts[0].Name = "nope" },
			wantErr: `cannot find volume "nope" to mount into container "web"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node := configgentest.NewNode()
			if tt.node != nil {
				tt.node(node)
			}
			gen, err := node.Generator()
			require.NoError(t, err)
			pod := samplePod()
			volumes := node.Volumes(pod)
			if tt.pod != nil {
				tt.pod(pod)
			}
			cfg, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.0.0.9"}, ImageRef: "img", Volumes: volumes})
			require.EqualError(t, err, tt.wantErr)
			if tt.wantIs != nil {
				assert.ErrorIs(t, err, tt.wantIs)
			}
			assert.Nil(t, cfg)
			assert.Empty(t, node.Subpather.Binds(), "subPath binds made before the failure are undone")
			if !tt.leavesLogDir {
				_, statErr := node.Files.Stat("/var/log/pods/shop_web-7d9f8_" + podUID)
				assert.True(t, errors.Is(statErr, fs.ErrNotExist), "no log directory is left behind")
			}
			_, statErr := node.Files.Stat("/var/lib/kubelet/pods/" + podUID + "/containers")
			assert.True(t, errors.Is(statErr, fs.ErrNotExist), "no container directory is left behind")
			_, statErr = node.Files.Stat("/var/lib/kubelet/pods/" + podUID + "/etc-hosts")
			assert.True(t, errors.Is(statErr, fs.ErrNotExist), "no etc-hosts file is left behind")
		})
	}
}

// imageUserFunc adapts a function to security.ImageUserResolver.
type imageUserFunc func(ctx context.Context, image string) (*int64, string, error)

func (f imageUserFunc) ImageUser(ctx context.Context, image string) (*int64, string, error) {
	return f(ctx, image)
}

// Kubelet only logs a container directory it cannot make; the container then has no
// termination-message file (kubelet's GenerateRunContainerOptions only logs it).
func TestGenerateContainerConfigContainerDirFailure(t *testing.T) {
	node := configgentest.NewNode()
	node.Options.Files = hostfstest.Wrap(node.Files, hostfstest.Funcs{MkdirAll: func(fsys hostfstest.FS, path string, perm fs.FileMode) error {
		if strings.HasSuffix(path, "/containers/web") {
			return errors.New("read-only file system")
		}
		return fsys.MkdirAll(path, perm)
	}})
	var warnings []configgen.Warning
	node.Options.OnWarning = func(_ *v1.Pod, _ *v1.Container, w configgen.Warning) { warnings = append(warnings, w) }
	gen, err := node.Generator()
	require.NoError(t, err)
	pod := samplePod()
	cfg, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], ImageRef: "img", Volumes: node.Volumes(pod)})
	require.NoError(t, err)
	for _, m := range cfg.Mounts {
		assert.NotEqual(t, "/dev/termination-log", m.ContainerPath)
	}
	assert.Equal(t, []configgen.Warning{{Reason: configgen.ReasonContainerDirFailed, Container: "web",
		Message: "error creating the container directory /var/lib/kubelet/pods/" + podUID + "/containers/web: read-only file system"}}, warnings)
}

// recursiveReadOnly: IfPossible follows what the runtime reports for the pod's handler
// (kubelet's GenerateRunContainerOptions and resolveRecursiveReadOnly).
func TestGenerateRunContainerOptionsRecursiveReadOnly(t *testing.T) {
	handler := func(name string, rro bool) *runtimeapi.RuntimeHandler {
		return &runtimeapi.RuntimeHandler{Name: name, Features: &runtimeapi.RuntimeHandlerFeatures{RecursiveReadOnlyMounts: rro}}
	}
	tests := []struct {
		name         string
		handlers     []*runtimeapi.RuntimeHandler
		runtimeClass *string
		want         bool
		wantWarning  string
		wantReason   string
	}{
		{name: "no handlers reported: not supported", want: false},
		{name: "the default handler supports it", handlers: []*runtimeapi.RuntimeHandler{handler("", true)}, want: true},
		{name: "the default handler does not support it", handlers: []*runtimeapi.RuntimeHandler{handler("", false), handler("runsc", true)}, want: false},
		{name: "the pod's runtime class picks its handler", handlers: []*runtimeapi.RuntimeHandler{handler("", false), handler("runsc", true)}, runtimeClass: ptr.To("gvisor"), want: true},
		{name: "an unknown handler is not supported, with a warning", handlers: []*runtimeapi.RuntimeHandler{handler("", true)}, runtimeClass: ptr.To("gvisor"), want: false, wantWarning: `unknown runtime handler "runsc"`, wantReason: configgen.ReasonUnknownRuntimeHandler},
		{name: "an unknown runtime class is not supported, with a warning", handlers: []*runtimeapi.RuntimeHandler{handler("", true)}, runtimeClass: ptr.To("nope"), want: false,
			wantWarning: `failed to look up the runtime handler: runtimeclass.node.k8s.io "nope" not found`, wantReason: configgen.ReasonRuntimeHandlerLookupFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node := configgentest.NewNode()
			node.Options.RuntimeHandlers = tt.handlers
			node.Options.Security.RuntimeClasses = offline.RuntimeClasses{"gvisor": "runsc"}
			gen, err := node.Generator()
			require.NoError(t, err)
			pod := samplePod()
			pod.Spec.RuntimeClassName = tt.runtimeClass
			pod.Spec.Containers[0].VolumeMounts[0] = v1.VolumeMount{Name: "data", MountPath: "/data", ReadOnly: true,
				RecursiveReadOnly: ptr.To(v1.RecursiveReadOnlyIfPossible)}
			opts, err := gen.GenerateRunContainerOptions(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], Volumes: node.Volumes(pod)})
			require.NoError(t, err)
			require.Len(t, opts.Mounts, 1)
			assert.Equal(t, tt.want, opts.Mounts[0].RecursiveReadOnly)
			if tt.wantWarning == "" {
				assert.Empty(t, opts.Warnings)
			} else {
				assert.Equal(t, []configgen.Warning{{Reason: tt.wantReason, Message: tt.wantWarning, Container: pod.Spec.Containers[0].Name}}, opts.Warnings)
			}
		})
	}
}

func TestGeneratePodSandboxConfig(t *testing.T) {
	ctx := context.Background()
	_, gen := sampleNode(t)
	pod := samplePod()
	pod.Spec.Hostname, pod.Spec.Subdomain = "web", "frontend"
	pod.Spec.Containers[0].Ports = []v1.ContainerPort{{Name: "http", ContainerPort: 8080, HostPort: 80, Protocol: v1.ProtocolTCP}}
	cfg, err := gen.GeneratePodSandboxConfig(ctx, pod, 1)
	require.NoError(t, err)

	assert.Equal(t, &runtimeapi.PodSandboxMetadata{Name: "web-7d9f8", Namespace: "shop", Uid: podUID, Attempt: 1}, cfg.Metadata)
	assert.Equal(t, "web", cfg.Hostname, "short hostname unless setHostnameAsFQDN")
	assert.Equal(t, "/var/log/pods/shop_web-7d9f8_"+podUID, cfg.LogDirectory)
	assert.Equal(t, []*runtimeapi.PortMapping{{ContainerPort: 8080, HostPort: 80}}, cfg.PortMappings)
	assert.Equal(t, "/kubepods/burstable/pod"+podUID, cfg.Linux.CgroupParent)
	assert.Equal(t, &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_RuntimeDefault}, cfg.Linux.SecurityContext.Seccomp)
	assert.Nil(t, cfg.Linux.SecurityContext.NamespaceOptions, "no pod securityContext: no namespace options in the sandbox")
	assert.NotNil(t, cfg.Linux.Sysctls)
	assert.Equal(t, []string{"10.96.0.10"}, cfg.DnsConfig.Servers)
	assert.Equal(t, int64(536870912), cfg.Linux.Resources.MemoryLimitInBytes)

	t.Run("setHostnameAsFQDN gives the FQDN", func(t *testing.T) {
		p := pod.DeepCopy()
		p.Spec.SetHostnameAsFQDN = ptr.To(true)
		cfg, err := gen.GeneratePodSandboxConfig(ctx, p, 0)
		require.NoError(t, err)
		assert.Equal(t, "web.frontend.shop.svc.cluster.local", cfg.Hostname)
	})
	t.Run("host-network pods get no hostname", func(t *testing.T) {
		p := pod.DeepCopy()
		p.Spec.HostNetwork = true
		for i := range p.Spec.Containers[0].Ports {
			// The API server refuses a host-network pod whose hostPort differs from its containerPort.
			p.Spec.Containers[0].Ports[i].HostPort = p.Spec.Containers[0].Ports[i].ContainerPort
		}
		cfg, err := gen.GeneratePodSandboxConfig(ctx, p, 0)
		require.NoError(t, err)
		assert.Empty(t, cfg.Hostname)
	})
	t.Run("an invalid hostname fails with kubelet's text", func(t *testing.T) {
		p := pod.DeepCopy()
		p.Spec.Hostname = "Bad_Name"
		_, err := gen.GeneratePodSandboxConfig(ctx, p, 0)
		require.ErrorContains(t, err, `pod Hostname "Bad_Name" is not a valid DNS label`)
	})
	t.Run("cgroup parent: a valid status.qosClass is used, as kubelet's GetPodQOS does", func(t *testing.T) {
		p := pod.DeepCopy()
		p.Status.QOSClass = v1.PodQOSBestEffort
		cfg, err := gen.GeneratePodSandboxConfig(ctx, p, 0)
		require.NoError(t, err)
		assert.Equal(t, "/kubepods/besteffort/pod"+podUID, cfg.Linux.CgroupParent)
	})
	t.Run("cgroup parent: a status.qosClass that is no QoS class cannot take the pod out of kubepods", func(t *testing.T) {
		p := pod.DeepCopy()
		p.Status.QOSClass = "Bogus"
		cfg, err := gen.GeneratePodSandboxConfig(ctx, p, 0)
		require.NoError(t, err)
		assert.Equal(t, "/kubepods/burstable/pod"+podUID, cfg.Linux.CgroupParent, "the class computed from the spec")
	})
	t.Run("a namespace with a slash is refused", func(t *testing.T) {
		p := pod.DeepCopy()
		p.Namespace = "a/b"
		_, err := gen.GeneratePodSandboxConfig(ctx, p, 0)
		require.ErrorIs(t, err, configgen.ErrInvalidPod)
	})
}

func TestGenerateRunContainerOptions(t *testing.T) {
	node, gen := sampleNode(t)
	pod := samplePod()
	opts, err := gen.GenerateRunContainerOptions(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.0.0.9"}, Volumes: node.Volumes(pod)})
	require.NoError(t, err)
	assert.Equal(t, "web-7d9f8", opts.Hostname)
	assert.Equal(t, "/var/lib/kubelet/pods/"+podUID+"/containers/web", opts.PodContainerDir)
	require.Len(t, opts.Mounts, 2)
	assert.Equal(t, mounts.HostsMountName, opts.Mounts[1].Name)
	hostsFile, err := node.Files.ReadFile(opts.Mounts[1].HostPath)
	require.NoError(t, err, "the etc-hosts file is written")
	assert.Contains(t, string(hostsFile), "10.0.0.9\tweb-7d9f8\n")
	assert.Equal(t, []configgen.EnvVar{{Name: "PORT", Value: "8080"}, {Name: "POD_IP", Value: "10.0.0.9"}}, opts.Envs)
}

// Kubelet v1.37 calls GetNodenameForKernel only for the sandbox: an FQDN too long for the
// kernel's nodename fails GeneratePodSandboxConfig, while its containers still get their configs.
// RunContainerOptions.Hostname is the sandbox's name when it has one, the short hostname otherwise.
func TestGenerateRunContainerOptionsHostname(t *testing.T) {
	long := strings.Repeat("a", 40) // web.<40 a>.shop.svc.cluster.local is 67 bytes
	tooLong := "failed to construct FQDN from pod hostname and cluster domain, FQDN web." + long +
		".shop.svc.cluster.local is too long (64 characters is the max, 67 characters requested)"
	tests := []struct {
		name           string
		pod            func(*v1.Pod)
		wantHostname   string
		wantDomain     string
		wantSandboxErr string
	}{
		{
			name:         "without a subdomain the hostname is the short name",
			pod:          func(p *v1.Pod) { p.Spec.SetHostnameAsFQDN = ptr.To(true) },
			wantHostname: "web-7d9f8",
		},
		{
			name:         "with a subdomain but no setHostnameAsFQDN the hostname stays short",
			pod:          func(p *v1.Pod) { p.Spec.Hostname, p.Spec.Subdomain = "web", "frontend" },
			wantHostname: "web", wantDomain: "frontend.shop.svc.cluster.local",
		},
		{
			name: "setHostnameAsFQDN with a subdomain makes the hostname the FQDN",
			pod: func(p *v1.Pod) {
				p.Spec.Hostname, p.Spec.Subdomain, p.Spec.SetHostnameAsFQDN = "web", "frontend", ptr.To(true)
			},
			wantHostname: "web.frontend.shop.svc.cluster.local", wantDomain: "frontend.shop.svc.cluster.local",
		},
		{
			name: "an FQDN over 64 bytes fails the sandbox with kubelet's text but not the containers",
			pod: func(p *v1.Pod) {
				p.Spec.Hostname, p.Spec.Subdomain, p.Spec.SetHostnameAsFQDN = "web", long, ptr.To(true)
			},
			wantHostname: "web", wantDomain: long + ".shop.svc.cluster.local",
			wantSandboxErr: tooLong,
		},
		{
			name:         "an FQDN over 64 bytes is fine without setHostnameAsFQDN",
			pod:          func(p *v1.Pod) { p.Spec.Hostname, p.Spec.Subdomain = "web", long },
			wantHostname: "web", wantDomain: long + ".shop.svc.cluster.local",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node, gen := sampleNode(t)
			pod := samplePod()
			tt.pod(pod)
			podIPs := []string{"10.0.0.9"}
			ctx := context.Background()
			opts, err := gen.GenerateRunContainerOptions(ctx, configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: podIPs, Volumes: node.Volumes(pod)})
			require.NoError(t, err)
			assert.Equal(t, tt.wantHostname, opts.Hostname)
			assert.Equal(t, tt.wantDomain, opts.HostDomain)

			cfg, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: podIPs, ImageRef: "img", Volumes: node.Volumes(pod)})
			require.NoError(t, err, "the container gets a config whatever the FQDN's length")
			require.NotNil(t, cfg)

			sandbox, err := gen.GeneratePodSandboxConfig(ctx, pod, 0)
			if tt.wantSandboxErr != "" {
				require.EqualError(t, err, tt.wantSandboxErr)
				assert.Nil(t, sandbox)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantHostname, sandbox.Hostname)
		})
	}
}

func TestRestartCountFromLogs(t *testing.T) {
	node, gen := sampleNode(t)
	pod := samplePod()
	dir := "/var/log/pods/shop_web-7d9f8_" + podUID + "/web"
	n, err := gen.RestartCountFromLogs(pod, "web")
	require.NoError(t, err)
	assert.Equal(t, 0, n, "no log directory: 0")
	require.NoError(t, node.Files.MkdirAll(dir, 0o755))
	for _, f := range []string{"0.log", "1.log", "4.log.20240101-000000", "7.log.gz", "junk.log"} {
		require.NoError(t, node.Files.WriteFile(dir+"/"+f, nil, 0o644))
	}
	n, err = gen.RestartCountFromLogs(pod, "web")
	require.NoError(t, err)
	assert.Equal(t, 8, n)
}

// A Generator is shared by every pod worker of a kubelet; run it from many goroutines under -race.
func TestGeneratorConcurrentUse(t *testing.T) {
	node, gen := sampleNode(t)
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			pod := samplePod()
			pod.UID += types.UID("-" + string(rune('a'+i%26)))
			if _, err := gen.GeneratePodSandboxConfig(context.Background(), pod, 0); err != nil {
				errs <- err
				return
			}
			if _, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.0.0.9"}, ImageRef: "img", Volumes: node.Volumes(pod)}); err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	binds := node.Subpather.Binds()
	targets := make([]string, 0, len(binds))
	for k := range binds {
		targets = append(targets, k)
	}
	sort.Strings(targets)
	assert.Len(t, targets, 26, "one subPath bind per distinct pod")
}

// Kubelet reads one DefaultPodSysctls gate, FeatureGates.DefaultPodSysctls, and its configuration
// validation refuses defaultPodSysctls without it.
func TestDefaultPodSysctlsGate(t *testing.T) {
	defaults := map[string]string{"net/ipv4/ip_unprivileged_port_start": "0", "kernel.shmmax": "1"}
	tests := []struct {
		name     string
		gate     bool
		defaults map[string]string
		want     map[string]string
		wantErr  string
	}{
		{name: "the feature gate on applies the node's default sysctls", gate: true, defaults: defaults,
			want: map[string]string{"net.ipv4.ip_unprivileged_port_start": "0", "kernel.shmmax": "1"}},
		{name: "default sysctls without the feature gate are a configuration error", defaults: defaults,
			wantErr: "invalid configuration: DefaultPodSysctls feature gate is required for Kubelet configuration option defaultPodSysctls"},
		{name: "the feature gate alone adds nothing", gate: true, want: map[string]string{}},
		{name: "neither gate nor defaults: no sysctls", want: map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node := configgentest.NewNode()
			gates := features.Default()
			gates.DefaultPodSysctls = tt.gate
			node.Options.FeatureGates = &gates
			node.Options.Security.DefaultPodSysctls = tt.defaults
			gen, err := node.Generator()
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				require.ErrorIs(t, err, configgen.ErrInvalidOptions)
				return
			}
			require.NoError(t, err)
			cfg, err := gen.GeneratePodSandboxConfig(context.Background(), samplePod(), 0)
			require.NoError(t, err)
			assert.Equal(t, tt.want, cfg.Linux.Sysctls)
		})
	}
}

// The API server's words for a namespace and a name it refuses.
const (
	dnsLabelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	dnsSubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
