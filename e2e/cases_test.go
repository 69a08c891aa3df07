package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/hosts"
)

func TestE2EEnvironmentCommandAndArgs(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {mode: fast}
---
apiVersion: v1
kind: Secret
metadata: {name: creds}
stringData: {token: s3cr3t}
---
apiVersion: v1
kind: Pod
metadata: {name: env}
spec:
  restartPolicy: Never
  containers:
  - name: main
    image: `+image+`
    env:
    - {name: LITERAL, value: plain}
    - {name: EXPANDED, value: "$(LITERAL)-x $(UNDEFINED) $$(LITERAL)"}
    - {name: FROM_CM, valueFrom: {configMapKeyRef: {name: settings, key: mode}}}
    - {name: FROM_SECRET, valueFrom: {secretKeyRef: {name: creds, key: token}}}
    - {name: POD_NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
    - {name: POD_IP, valueFrom: {fieldRef: {fieldPath: status.podIP}}}
    - {name: NODE_NAME, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}
    - {name: MEM_MI, valueFrom: {resourceFieldRef: {resource: limits.memory, divisor: 1Mi}}}
    resources:
      limits: {memory: 48Mi}
    command: [sh, -c, 'for v in LITERAL EXPANDED FROM_CM FROM_SECRET POD_NAME POD_IP NODE_NAME MEM_MI; do eval "echo $v=\$$$v"; done; echo "args: $1 $2 $3"']
    args: [sh, "$(LITERAL)", "$(UNDEFINED)", "$$(LITERAL)"]
`)
	status, err := e.run(t, nil)
	require.NoError(t, err)
	assert.Equal(t, `LITERAL=plain
EXPANDED=plain-x $(UNDEFINED) $(LITERAL)
FROM_CM=fast
FROM_SECRET=s3cr3t
POD_NAME=env
POD_IP=`+podNetworkIP+`
NODE_NAME=e2e-node
MEM_MI=48
args: plain $(UNDEFINED) $(LITERAL)
`, logOf(t, status, "main"))
}

func TestE2ESubPaths(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: subpaths}
spec:
  restartPolicy: Never
  hostNetwork: true
  volumes:
  - {name: vol, emptyDir: {}}
  initContainers:
  - name: writer
    image: `+image+`
    env:
    - {name: POD_NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
    command: [sh, -c, 'mkdir -p /vol/dir && echo in-file > /vol/dir/file.txt && echo from-writer > /shared/note']
    volumeMounts:
    - {name: vol, mountPath: /vol}
    - {name: vol, mountPath: /shared, subPathExpr: "per-pod/$(POD_NAME)"}
  containers:
  - name: main
    image: `+image+`
    env:
    - {name: POD_NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
    command: [sh, -c, 'cat /etc/file.txt; ls /sub; cat /shared/note; ls /vol-root']
    volumeMounts:
    - {name: vol, mountPath: /etc/file.txt, subPath: dir/file.txt}
    - {name: vol, mountPath: /sub, subPath: dir}
    - {name: vol, mountPath: /shared, subPathExpr: "per-pod/$(POD_NAME)"}
    - {name: vol, mountPath: /vol-root}
`)
	status, err := e.run(t, nil)
	require.NoError(t, err)
	assert.Equal(t, "in-file\nfile.txt\nfrom-writer\ndir\nper-pod\n", logOf(t, status, "main"))
}

func TestE2ESubPathSymlinkToRootIsRefused(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: symlink-attack}
spec:
  restartPolicy: Never
  hostNetwork: true
  volumes:
  - {name: vol, emptyDir: {}}
  initContainers:
  - name: plant
    image: `+image+`
    command: [sh, -c, 'ln -s / /vol/escape']
    volumeMounts: [{name: vol, mountPath: /vol}]
  containers:
  - name: victim
    image: `+image+`
    command: [sh, -c, 'ls /host; cat /host/etc/shadow']
    volumeMounts: [{name: vol, mountPath: /host, subPath: escape}]
`)
	status, err := e.run(t, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "CreateContainerConfigError")
	// Kubelet's text names the mount; the category and the cause, which minikubelet logs with
	// the error (%+v of a *configgen.Error), say why: the symlink leaves the volume.
	assert.Contains(t, err.Error(), `failed to prepare subPath for volumeMount "vol" of container "victim"`)
	assert.Contains(t, e.log.String(), "\ncategory: invalid pod\n")
	assert.Regexp(t, `(?m)^cause: (subpath "/" not within volume path |.*unexpected file type)`, e.log.String())
	assert.Equal(t, []string{"plant"}, e.createdNames(), "the victim container must never be created")
	assert.Empty(t, status.Container("victim").Attempts)
}

func TestE2EReadOnlyMountAndRootFilesystem(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: read-only}
spec:
  restartPolicy: Never
  hostNetwork: true
  volumes:
  - {name: vol, emptyDir: {}}
  containers:
  - name: main
    image: `+image+`
    securityContext: {readOnlyRootFilesystem: true}
    command: [sh, -c, 'touch /ro/x 2>/dev/null && echo ro-mount writable || echo ro-mount refused; touch /x 2>/dev/null && echo root writable || echo root refused; touch /rw/x && echo rw-mount writable']
    volumeMounts:
    - {name: vol, mountPath: /ro, readOnly: true}
    - {name: vol, mountPath: /rw}
`)
	status, err := e.run(t, nil)
	require.NoError(t, err)
	assert.Equal(t, "ro-mount refused\nroot refused\nrw-mount writable\n", logOf(t, status, "main"))
}

func TestE2EEtcHostsIsTheGeneratedFile(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: hosts}
spec:
  restartPolicy: Never
  hostname: web
  subdomain: front
  hostAliases:
  - {ip: 192.0.2.50, hostnames: [db.internal, db]}
  containers:
  - name: main
    image: `+image+`
    command: [cat, /etc/hosts]
`)
	status, err := e.run(t, nil)
	require.NoError(t, err)
	want, err := hosts.HostsFileContent(hosts.HostsFileOptions{PodIPs: []string{podNetworkIP}, HostName: "web",
		HostDomainName: "front.default.svc.cluster.local", HostAliases: e.pods[0].Spec.HostAliases})
	require.NoError(t, err)
	assert.Equal(t, string(want), logOf(t, status, "main"))
}

func TestE2EUserAndGroups(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: ids}
spec:
  restartPolicy: Never
  hostNetwork: true
  securityContext:
    runAsUser: 1234
    runAsGroup: 5678
    supplementalGroups: [2000, 3000]
  containers:
  - name: main
    image: `+image+`
    command: [id]
`)
	status, err := e.run(t, nil)
	require.NoError(t, err)
	assert.Equal(t, "uid=1234 gid=5678 groups=2000,3000,5678\n", logOf(t, status, "main"))
}

func TestE2ERunAsNonRoot(t *testing.T) {
	t.Parallel()
	t.Run("a root image fails before CreateContainer", func(t *testing.T) {
		t.Parallel()
		e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: nonroot-refused}
spec:
  restartPolicy: Never
  hostNetwork: true
  securityContext: {runAsNonRoot: true}
  containers:
  - {name: main, image: `+image+`, command: [id, -u]}
`)
		_, err := e.run(t, nil)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "container has runAsNonRoot and image will run as root")
		assert.Empty(t, e.createdNames())
	})
	t.Run("an image with USER 1000 runs", func(t *testing.T) {
		t.Parallel()
		e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: nonroot-ok}
spec:
  restartPolicy: Never
  hostNetwork: true
  securityContext: {runAsNonRoot: true}
  containers:
  - {name: main, image: `+nonRootImage+`, command: [id, -u]}
`)
		status, err := e.run(t, nil)
		require.NoError(t, err)
		assert.Equal(t, "1000\n", logOf(t, status, "main"))
	})
}

func TestE2ECapabilitiesAndNoNewPrivs(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: caps}
spec:
  restartPolicy: Never
  hostNetwork: true
  containers:
  - name: dropped
    image: `+image+`
    securityContext:
      allowPrivilegeEscalation: false
      capabilities: {drop: [ALL]}
    command: [sh, -c, 'grep -E "^(CapEff|NoNewPrivs):" /proc/self/status']
  - name: default
    image: `+image+`
    command: [sh, -c, 'grep -E "^(CapEff|NoNewPrivs):" /proc/self/status']
`)
	status, err := e.run(t, nil)
	require.NoError(t, err)
	assert.Equal(t, "CapEff:\t0000000000000000\nNoNewPrivs:\t1\n", logOf(t, status, "dropped"))
	def := logOf(t, status, "default")
	assert.NotContains(t, def, "CapEff:\t0000000000000000", "the runtime's default capabilities are kept")
	assert.Contains(t, def, "NoNewPrivs:\t0")
}

func TestE2ECgroupLimits(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: limits}
spec:
  restartPolicy: Never
  hostNetwork: true
  containers:
  - name: main
    image: `+image+`
    resources:
      limits: {cpu: 500m, memory: 64Mi}
    command: [sh, -c, 'if [ -f /sys/fs/cgroup/memory.max ]; then cat /sys/fs/cgroup/memory.max; cut -d" " -f1 /sys/fs/cgroup/cpu.max; else cat /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/cpu/cpu.cfs_quota_us; fi']
`)
	status, err := e.run(t, nil)
	require.NoError(t, err)
	assert.Equal(t, "67108864\n50000\n", logOf(t, status, "main"))
}

func TestE2ETerminationMessage(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: termination}
spec:
  restartPolicy: Never
  hostNetwork: true
  containers:
  - name: file
    image: `+image+`
    command: [sh, -c, 'printf "all done" > /dev/termination-log']
  - name: custom-path
    image: `+image+`
    terminationMessagePath: /tmp/last-words
    command: [sh, -c, 'printf "from a custom path" > /tmp/last-words; exit 3']
  - name: logs
    image: `+image+`
    terminationMessagePolicy: FallbackToLogsOnError
    command: [sh, -c, 'echo something broke; exit 1']
`)
	status, err := e.run(t, nil)
	require.NoError(t, err)
	assert.Equal(t, "all done", status.Container("file").Last().Message)
	assert.Equal(t, "all done", status.apiContainer(t, "file").State.Terminated.Message, "the API status carries the message")
	assert.Equal(t, v1.PodFailed, status.Pod.Phase, "a container failed under Never")
	custom := status.Container("custom-path").Last()
	assert.Equal(t, int32(3), custom.ExitCode)
	assert.Equal(t, "from a custom path", custom.Message)
	assert.Equal(t, "something broke\n", status.Container("logs").Last().Message)
}

func TestE2EInitContainersRunFirstInOrder(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: init-order}
spec:
  restartPolicy: Never
  hostNetwork: true
  volumes: [{name: data, emptyDir: {}}]
  initContainers:
  - {name: first, image: `+image+`, command: [sh, -c, 'echo first >> /data/order'], volumeMounts: [{name: data, mountPath: /data}]}
  - {name: second, image: `+image+`, command: [sh, -c, 'echo second >> /data/order'], volumeMounts: [{name: data, mountPath: /data}]}
  containers:
  - {name: main, image: `+image+`, command: [sh, -c, 'echo main >> /data/order; cat /data/order'], volumeMounts: [{name: data, mountPath: /data}]}
`)
	status, err := e.run(t, nil)
	require.NoError(t, err)
	assert.Equal(t, "first\nsecond\nmain\n", logOf(t, status, "main"))
	assert.Equal(t, []string{"first", "second", "main"}, e.createdNames())
	assert.Equal(t, v1.PodSucceeded, status.Pod.Phase)
	for _, name := range []string{"first", "second"} {
		c := status.apiContainer(t, name)
		require.NotNil(t, c.State.Terminated, name)
		assert.Equal(t, "Completed", c.State.Terminated.Reason, name)
		assert.True(t, c.Ready, "an init container that completed is ready: %s", name)
	}
	assert.Equal(t, "True PodCompleted", status.condition(t, v1.PodInitialized))
	assert.Equal(t, "False PodCompleted", status.condition(t, v1.PodReady))
}

func TestE2ERestartLogsToNextLogFile(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: restart}
spec:
  restartPolicy: OnFailure
  hostNetwork: true
  volumes: [{name: data, emptyDir: {}}]
  containers:
  - name: main
    image: `+image+`
    command: [sh, -c, 'if [ -f /data/ran ]; then echo second run; else touch /data/ran; echo first run; exit 1; fi']
    volumeMounts: [{name: data, mountPath: /data}]
`)
	status, err := e.run(t, nil)
	require.NoError(t, err)
	c := status.Container("main")
	require.Len(t, c.Attempts, 2)
	assert.True(t, strings.HasSuffix(c.Attempts[0].LogPath, "/main/0.log"), c.Attempts[0].LogPath)
	assert.Equal(t, "first run\n", c.Attempts[0].Log)
	assert.Equal(t, int32(1), c.Attempts[0].ExitCode)
	assert.True(t, strings.HasSuffix(c.Attempts[1].LogPath, "/main/1.log"), c.Attempts[1].LogPath)
	assert.Equal(t, "second run\n", c.Attempts[1].Log)
	assert.Equal(t, "1", c.Attempts[1].Annotations["io.kubernetes.container.restartCount"])
	// The status as kubelet reports it: the restart, the failure before it, the runtime's ID.
	assert.Equal(t, v1.PodSucceeded, status.Pod.Phase)
	main := status.apiContainer(t, "main")
	assert.Equal(t, int32(1), main.RestartCount)
	require.NotNil(t, main.State.Terminated)
	assert.Equal(t, "Completed", main.State.Terminated.Reason)
	require.NotNil(t, main.LastTerminationState.Terminated)
	assert.Equal(t, int32(1), main.LastTerminationState.Terminated.ExitCode)
	assert.Equal(t, "Error", main.LastTerminationState.Terminated.Reason)
	assert.Equal(t, "containerd://"+c.Attempts[1].ID, main.ContainerID)
	assert.Equal(t, image, main.Image)
	assert.NotEmpty(t, main.ImageID)
}

func TestE2ENetworks(t *testing.T) {
	t.Parallel()
	host, err := os.Hostname()
	require.NoError(t, err)
	for _, tc := range []struct {
		name, pod   string
		hostNetwork bool
		want        string
	}{
		{"host network: the node's IP and host name", "host-net", true, "pod-ip=" + nodeIP.String() + "\nhostname=" + host + "\n"},
		{"pod network: the CNI's IP on eth0 and the pod's name", "pod-net", false, "pod-ip=" + podNetworkIP + "\nhostname=pod-net\neth0=" + podNetworkIP + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: `+tc.pod+`}
spec:
  restartPolicy: Never
  hostNetwork: `+map[bool]string{true: "true", false: "false"}[tc.hostNetwork]+`
  containers:
  - name: main
    image: `+image+`
    env: [{name: POD_IP, valueFrom: {fieldRef: {fieldPath: status.podIP}}}]
    command: [sh, -c, 'echo pod-ip=$POD_IP; echo hostname=$(hostname); [ "$POD_IP" = "`+nodeIP.String()+`" ] || echo eth0=$(ip -4 -o addr show eth0 | sed "s/.*inet \([0-9.]*\).*/\1/")']
`)
			status, err := e.run(t, nil)
			require.NoError(t, err)
			assert.Equal(t, tc.want, logOf(t, status, "main"))
			want := map[bool]string{true: nodeIP.String(), false: podNetworkIP}[tc.hostNetwork]
			assert.Equal(t, []string{want}, status.PodIPs)
			assert.Equal(t, want, status.Pod.PodIP)
			assert.Equal(t, nodeIP.String(), status.Pod.HostIP)
		})
	}
}

func TestE2EConfigMapSecretAndDownwardAPIVolumes(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: ConfigMap
metadata: {name: files}
data: {app.conf: "level=debug\n", other: x}
---
apiVersion: v1
kind: Secret
metadata: {name: keys}
stringData: {token: t0ken}
---
apiVersion: v1
kind: Pod
metadata: {name: projected, labels: {app: web, tier: front}}
spec:
  restartPolicy: Never
  hostNetwork: true
  volumes:
  - name: cfg
    configMap: {name: files, items: [{key: app.conf, path: conf/app.conf}]}
  - name: sec
    secret: {secretName: keys, defaultMode: 0400}
  - name: info
    downwardAPI:
      items:
      - {path: labels, fieldRef: {fieldPath: metadata.labels}}
      - {path: name, fieldRef: {fieldPath: metadata.name}}
      - {path: mem, resourceFieldRef: {containerName: main, resource: limits.memory, divisor: 1Mi}}
  containers:
  - name: main
    image: `+image+`
    resources: {limits: {memory: 32Mi}}
    command: [sh, -c, 'cat /cfg/conf/app.conf; readlink /cfg/conf; readlink /cfg/..data | cut -c1-3; stat -c %a /sec/..data/token; cat /sec/token; echo; cat /info/labels; echo; cat /info/name; echo; cat /info/mem; echo; touch /cfg/new 2>/dev/null && echo writable || echo read-only']
    volumeMounts:
    - {name: cfg, mountPath: /cfg}
    - {name: sec, mountPath: /sec}
    - {name: info, mountPath: /info}
`)
	status, err := e.run(t, nil)
	require.NoError(t, err)
	assert.Equal(t, `level=debug
..data/conf
..2
400
t0ken
app="web"
tier="front"
projected
32
read-only
`, logOf(t, status, "main"))
}

func TestE2EBundledExamplePod(t *testing.T) {
	t.Parallel()
	manifest, err := os.ReadFile("../cmd/podconfig/testdata/shop.yaml")
	require.NoError(t, err)
	e := newE2E(t, string(manifest))
	// The pod's restartPolicy is Always: it runs until its output is complete.
	_, err = e.run(t, e.out.when("[shop/web-7d9f8/web] user "))
	require.NoError(t, err)
	assert.Equal(t, `[shop/web-7d9f8/web] web --listen=`+podNetworkIP+`:8080 $(LITERAL) --undef=$(NOPE)
[shop/web-7d9f8/web] GREETING=serving web-7d9f8 on 8080
[shop/web-7d9f8/web] PORT=8080 LOG_LEVEL=info DB_PASSWORD=s3cr3t MEMORY_LIMIT_MI=512
[shop/web-7d9f8/web] user 1000:3000 in /srv
`, e.out.String())
}

func TestE2EDeployment(t *testing.T) {
	t.Parallel()
	manifest, err := os.ReadFile("../examples/minikubelet/testdata/deployment.yaml")
	require.NoError(t, err)
	e := newE2E(t, string(manifest))
	pod := e.pods[0]
	require.True(t, strings.HasPrefix(pod.Name, "greeter-"), pod.Name)
	hash := pod.Labels["pod-template-hash"]
	require.NotEmpty(t, hash)
	prefix := "[default/" + pod.Name + "/greeter] "
	_, err = e.run(t, e.out.when(prefix+"pod-template-hash="))
	require.NoError(t, err)
	assert.Equal(t, prefix+"hello from a Deployment in "+pod.Name+"\n"+
		prefix+`app="greeter"`+"\n"+
		prefix+`pod-template-hash="`+hash+`"`+"\n", e.out.String())
}

func TestE2EStatefulSet(t *testing.T) {
	t.Parallel()
	manifest, err := os.ReadFile("../examples/minikubelet/testdata/statefulset.yaml")
	require.NoError(t, err)
	e := newE2E(t, string(manifest))
	require.Equal(t, "web-0", e.pods[0].Name)
	prefix := "[default/web-0/web] "
	_, err = e.run(t, e.out.when(prefix+podNetworkIP))
	require.NoError(t, err)
	assert.Equal(t, prefix+"ordinal 0 on web-0.web.default.svc.cluster.local\n"+
		prefix+podNetworkIP+"\tweb-0.web.default.svc.cluster.local\tweb-0\n", e.out.String())
}

func TestE2ESidecarRunsBesideTheMainContainer(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: sidecar}
spec:
  restartPolicy: Never
  hostNetwork: true
  volumes: [{name: data, emptyDir: {}}]
  initContainers:
  - name: helper
    image: `+image+`
    restartPolicy: Always
    command: [sh, -c, 'echo from-sidecar > /data/note; trap "exit 0" TERM; while :; do sleep 1; done']
    volumeMounts: [{name: data, mountPath: /data}]
  containers:
  - name: main
    image: `+image+`
    command: [sh, -c, 'for i in $(seq 50); do [ -f /data/note ] && break; sleep 0.1; done; cat /data/note']
    volumeMounts: [{name: data, mountPath: /data}]
`)
	status, err := e.run(t, nil)
	require.NoError(t, err)
	assert.Equal(t, "from-sidecar\n", logOf(t, status, "main"))
	assert.Equal(t, []string{"helper", "main"}, e.createdNames(), "the sidecar starts first and is not restarted")
	assert.Equal(t, v1.PodSucceeded, status.Pod.Phase, "the sidecar, stopped once main was done, does not count")
}

func TestE2EMemoryEmptyDirAndHostPath(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: volumes}
spec:
  restartPolicy: Never
  hostNetwork: true
  volumes:
  - {name: mem, emptyDir: {medium: Memory, sizeLimit: 2Mi}}
  - {name: host, hostPath: {path: HOSTDIR, type: DirectoryOrCreate}}
  containers:
  - name: main
    image: `+image+`
    command: [sh, -c, 'grep " /mem " /proc/mounts | cut -d" " -f3; df -k /mem | tail -1 | tr -s " " | cut -d" " -f2; echo from-pod > /host/out']
    volumeMounts:
    - {name: mem, mountPath: /mem}
    - {name: host, mountPath: /host}
`)
	hostDir := filepath.Join(e.root, "host-"+strings.ReplaceAll(t.Name(), "/", "-"))
	e.manifest = strings.Replace(e.manifest, "HOSTDIR", hostDir, 1)
	t.Cleanup(func() { os.RemoveAll(hostDir) })
	status, err := e.run(t, nil)
	require.NoError(t, err)
	assert.Equal(t, "tmpfs\n2048\n", logOf(t, status, "main"))
	out, err := os.ReadFile(filepath.Join(hostDir, "out"))
	require.NoError(t, err)
	assert.Equal(t, "from-pod\n", string(out), "the container wrote to the host directory")
}

func TestE2EPullPolicyNeverWithAMissingImage(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: never-pull}
spec:
  restartPolicy: Never
  hostNetwork: true
  containers:
  - {name: main, image: "podconfig.local/missing:1", imagePullPolicy: Never}
`)
	status, err := e.run(t, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `ErrImageNeverPull: Container image "podconfig.local/missing:1" is not present with pull policy of Never`)
	assert.Empty(t, e.createdNames())
	waiting := status.apiContainer(t, "main").State.Waiting
	require.NotNil(t, waiting, "the container waits with the failure's reason")
	assert.Equal(t, "ErrImageNeverPull", waiting.Reason)
	assert.Equal(t, `Container image "podconfig.local/missing:1" is not present with pull policy of Never`, waiting.Message)
}

func TestE2EFailedSandboxIsCleanedUp(t *testing.T) {
	t.Parallel()
	e := newE2E(t, `
apiVersion: v1
kind: Pod
metadata: {name: bad-sandbox}
spec:
  restartPolicy: Never
  securityContext:
    sysctls: [{name: net.ipv4.no_such_sysctl, value: "1"}]
  containers:
  - {name: main, image: `+image+`, command: ["true"]}
`)
	status, err := e.run(t, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `CreatePodSandboxError: Failed to create sandbox for pod "bad-sandbox_default(`)
	assert.Empty(t, e.createdNames())
	list, lerr := e.rt.ListPodSandbox(context.Background(), &runtimeapi.ListPodSandboxRequest{Filter: &runtimeapi.PodSandboxFilter{
		LabelSelector: map[string]string{"io.kubernetes.pod.uid": string(status.UID)},
	}})
	require.NoError(t, lerr)
	assert.Empty(t, list.Items, "no sandbox of the pod is left in the runtime")
	assert.NoDirExists(t, filepath.Join(e.root, "kubelet", "pods", string(status.UID)))
	assert.NoDirExists(t, filepath.Join(e.root, "pods", "default_bad-sandbox_"+string(status.UID)))
}
