package configgen_test

import (
	"context"
	"io/fs"
	"net"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/internal/benchpod"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/security"
)

// benchNode is an offline node with benchpod's facts, objects, volumes and files, all in memory.
func benchNode(tb testing.TB) (*configgentest.Node, *configgen.Generator, mounts.VolumeMap) {
	tb.Helper()
	facts := benchpod.NodeFacts()
	node := configgentest.NewNode(benchpod.Objects()...)
	node.Options.NodeIPs = nil
	for _, ip := range facts.IPs {
		node.Options.NodeIPs = append(node.Options.NodeIPs, net.ParseIP(ip))
	}
	node.Options.ClusterDomain = facts.ClusterDomain
	node.Options.ClusterDNS = facts.ClusterDNS
	node.Options.ResolvConf = []byte(facts.ResolvConf)
	node.Options.RootDir = facts.RootDir
	node.Options.Resources.Node.CgroupV2 = facts.CgroupV2
	node.Options.Resources.Node.MemoryCapacity = facts.MemoryCapacity
	node.Options.Resources.Node.HugePageSizes = facts.HugePageSizes
	node.ImageUsers[benchpod.ImageRef] = security.ImageUser{UID: ptr.To(benchpod.ImageUID)}

	volumes := benchpod.Volumes(facts.RootDir)
	for _, v := range volumes {
		require.NoError(tb, node.Files.MkdirAll(v.HostPath, 0o755))
		node.HostUtils.AddPath(v.HostPath, fs.ModeDir|0o755)
	}
	for path, content := range benchpod.Files(facts.RootDir) {
		require.NoError(tb, node.Files.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(tb, node.Files.WriteFile(path, []byte(content), 0o644))
		node.HostUtils.AddPath(filepath.Dir(path), fs.ModeDir|0o755)
		node.HostUtils.AddPath(path, 0o644)
	}
	gen, err := node.Generator()
	require.NoError(tb, err)
	return node, gen, volumes
}

// benchpod's volume layout is the one configgentest gives the same pod.
func TestBenchpodVolumesMatchConfiggentest(t *testing.T) {
	node := configgentest.NewNode()
	assert.Equal(t, node.Volumes(benchpod.Pod()), benchpod.Volumes(configgen.DefaultRootDir))
}

// The benchmarked pod renders completely: every environment source, every subPath mount, the
// hosts file and the termination-message file.
func TestBenchpodRenders(t *testing.T) {
	_, gen, volumes := benchNode(t)
	pod := benchpod.Pod()
	ctx := context.Background()
	req := configgen.ContainerRequest{Pod: pod, Container: benchpod.Container(pod), PodIPs: benchpod.NodeFacts().PodIPs,
		ImageRef: benchpod.ImageRef, Volumes: volumes}
	cfg, err := gen.GenerateContainerConfig(ctx, req)
	require.NoError(t, err)
	envs := map[string]string{}
	for _, e := range cfg.Envs {
		envs[e.Key] = string(e.Value)
	}
	assert.Equal(t, "search,checkout", envs["FEATURE_FLAGS"], "fileKeyRef")
	assert.Equal(t, "eu-west-1", envs["APP_REGION"], "envFrom a ConfigMap with a prefix")
	assert.Equal(t, "sk_test_123", envs["STRIPE_KEY"], "envFrom a Secret")
	assert.Equal(t, "postgres://shop@10.96.10.2:5432/shop", envs["DB_URL"], "secretKeyRef and service links, expanded")
	assert.Equal(t, "512", envs["MEMORY_LIMIT"], "resourceFieldRef")
	assert.Equal(t, "node-a", envs["NODE_NAME"], "fieldRef")
	assert.Equal(t, "production", envs["MODE"], "configMapKeyRef")
	// Six subPath mounts, /etc/hosts and the termination message.
	require.Len(t, cfg.Mounts, 8)
	assert.Equal(t, "--region=eu-west-1", cfg.Args[2])

	sandbox, err := gen.GeneratePodSandboxConfig(ctx, pod, 0)
	require.NoError(t, err)
	assert.Equal(t, "0", sandbox.Linux.Sysctls["net.ipv4.ip_unprivileged_port_start"])
}

// BenchmarkGenerateContainerConfig renders benchpod's container, as kubelet's
// generateContainerConfig does for it, on an in-memory node.
//
// The in-memory HostUtils and Subpather log every call; the log is emptied as it goes, so that a
// long run measures generation rather than the log's growth.
func BenchmarkGenerateContainerConfig(b *testing.B) {
	node, gen, volumes := benchNode(b)
	pod := benchpod.Pod()
	ctx := context.Background()
	req := configgen.ContainerRequest{Pod: pod, Container: benchpod.Container(pod), PodIPs: benchpod.NodeFacts().PodIPs,
		ImageRef: benchpod.ImageRef, Volumes: volumes}
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		_, err := gen.GenerateContainerConfig(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		node.HostUtils.ResetCalls()
		node.Subpather.ResetCalls()
	}
}

// BenchmarkGeneratePodSandboxConfig renders benchpod's sandbox, as kubelet's
// generatePodSandboxConfig does for it, on an in-memory node.
func BenchmarkGeneratePodSandboxConfig(b *testing.B) {
	_, gen, _ := benchNode(b)
	pod := benchpod.Pod()
	ctx := context.Background()
	b.ReportAllocs()
	defer benchpod.ReportCPU(b)()
	for b.Loop() {
		if _, err := gen.GeneratePodSandboxConfig(ctx, pod, 1); err != nil {
			b.Fatal(err)
		}
	}
}
