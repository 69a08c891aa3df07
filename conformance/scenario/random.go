package scenario

import (
	"fmt"
	"math/rand/v2"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// Random returns the i-th random scenario of seed: a pod valid for the API server, drawing
// environment sources (present and missing), volumes and subPaths, security contexts, resources,
// ports, DNS, hostnames, sysctls, init, sidecar and ephemeral containers, and node facts (cgroup
// version and driver, SELinux, hugepages, runtime handlers) at random. The same seed and index
// always give the same scenario.
func Random(seed uint64, i int) *Scenario {
	r := &gen{rand.New(rand.NewPCG(seed, uint64(i)))}
	name := fmt.Sprintf("random-%d-%d", seed, i)
	ns := r.pick("default", "ns1", "team-a")
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("pod-%d", i), Namespace: ns,
			UID:    types.UID(fmt.Sprintf("%08x-0000-4000-8000-%012x", seed&0xffffffff, i)),
			Labels: map[string]string{"app": r.pick("web", "db", "job")},
		},
		Spec: v1.PodSpec{NodeName: "node-1", ServiceAccountName: r.pick("default", "robot")},
	}
	if r.chance(0.3) {
		pod.Annotations = map[string]string{"note": r.pick("a", "b c"), "kubernetes.io/config.source": "api"}
	}
	sc := &Scenario{Name: name, Pod: pod, Images: map[string]ImageUser{}}
	sc.Node = r.node()

	// API objects the environment refers to.
	sc.Objects = append(sc.Objects,
		raw(&v1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: metav1.ObjectMeta{Name: "cfg", Namespace: ns},
			Data: map[string]string{"A": "1", "B": "two", "mode": "fast", "bad key": "x", "PATHLIKE": "/p/$(A)"}}),
		raw(&v1.Secret{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"}, ObjectMeta: metav1.ObjectMeta{Name: "sec", Namespace: ns},
			Data: map[string][]byte{"TOKEN": []byte("tok"), "password": []byte("p4ss")}}),
		raw(&v1.Service{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"}, ObjectMeta: metav1.ObjectMeta{Name: "kubernetes", Namespace: "default"},
			Spec: v1.ServiceSpec{ClusterIP: "10.96.0.1", Ports: []v1.ServicePort{{Name: "https", Port: 443, Protocol: v1.ProtocolTCP}}}}),
		raw(&v1.Service{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"}, ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: ns},
			Spec: v1.ServiceSpec{ClusterIP: "10.96.3.4", Ports: []v1.ServicePort{{Port: 5432, Protocol: v1.ProtocolTCP}}}}),
	)
	if r.chance(0.5) {
		pod.Spec.EnableServiceLinks = ptr.To(r.chance(0.5))
	}

	// Volumes.
	vols := []v1.Volume{{Name: "scratch", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}}
	if r.chance(0.5) {
		vols = append(vols, v1.Volume{Name: "cfg", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}}}})
	}
	if r.chance(0.4) {
		vols = append(vols, v1.Volume{Name: "host", VolumeSource: v1.VolumeSource{HostPath: &v1.HostPathVolumeSource{Path: "/mnt/data"}}})
	}
	if r.chance(0.4) {
		vols = append(vols, v1.Volume{Name: "data", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "data", ReadOnly: r.chance(0.3)}}})
	}
	if r.chance(0.15) {
		vols = append(vols, v1.Volume{Name: "model", VolumeSource: v1.VolumeSource{Image: &v1.ImageVolumeSource{Reference: "registry.example/model:v1", PullPolicy: v1.PullIfNotPresent}}})
	}
	pod.Spec.Volumes = vols
	if r.chance(0.3) {
		sc.Paths = append(sc.Paths, "scratch/logs/app", "scratch/cache")
	}

	// Pod-level settings.
	switch r.intn(4) {
	case 0:
		pod.Spec.HostNetwork = true
		pod.Spec.DNSPolicy = v1.DNSPolicy(r.pick(string(v1.DNSClusterFirstWithHostNet), string(v1.DNSClusterFirst), string(v1.DNSDefault)))
	case 1:
		pod.Spec.DNSPolicy = v1.DNSNone
		pod.Spec.DNSConfig = &v1.PodDNSConfig{Nameservers: []string{"1.1.1.1"}, Searches: []string{"a.example"}, Options: []v1.PodDNSConfigOption{{Name: "ndots", Value: ptr.To("2")}}}
	case 2:
		pod.Spec.DNSConfig = &v1.PodDNSConfig{Searches: []string{"x.example"}, Options: []v1.PodDNSConfigOption{{Name: "edns0"}, {Name: "ndots", Value: ptr.To("3")}}}
	}
	if !pod.Spec.HostNetwork {
		sc.PodIPs = r.pickList([]string{"10.244.1.5"}, []string{"10.244.1.5", "fd00::15"}, []string{"fd00::15", "10.244.1.5"}, nil)
	} else {
		// A host-network pod's IPs are the node's: kubelet's pod status step gives them to
		// generateContainerConfig (podconfig applies the same step itself).
		sc.PodIPs = sc.Node.WithDefaults().IPs
	}
	if r.chance(0.3) {
		pod.Spec.Hostname = r.pick("web-0", "host-a")
		if r.chance(0.5) {
			pod.Spec.Subdomain = "svc-a"
			pod.Spec.SetHostnameAsFQDN = ptr.To(r.chance(0.5))
		}
	}
	if r.chance(0.3) {
		pod.Spec.HostAliases = []v1.HostAlias{{IP: "10.1.2.3", Hostnames: []string{"foo.local", "bar"}}}
	}
	psc := &v1.PodSecurityContext{}
	if r.chance(0.4) {
		psc.RunAsUser = ptr.To(r.pickInt(0, 1000, 65534))
	}
	if r.chance(0.3) {
		psc.RunAsGroup = ptr.To(r.pickInt(0, 3000))
	}
	if r.chance(0.3) {
		psc.RunAsNonRoot = ptr.To(r.chance(0.7))
	}
	if r.chance(0.3) {
		psc.FSGroup = ptr.To[int64](2000)
		psc.SupplementalGroups = []int64{4000}
	}
	if r.chance(0.3) {
		psc.SeccompProfile = &v1.SeccompProfile{Type: v1.SeccompProfileTypeRuntimeDefault}
	}
	if r.chance(0.2) && !pod.Spec.HostNetwork {
		psc.Sysctls = []v1.Sysctl{{Name: "net.ipv4.ip_local_port_range", Value: "1024 65000"}}
	}
	if r.chance(0.2) {
		psc.Sysctls = append(psc.Sysctls, v1.Sysctl{Name: "kernel.shm_rmid_forced", Value: "1"})
	}
	pod.Spec.SecurityContext = psc
	if r.chance(0.1) {
		pod.Spec.ShareProcessNamespace = ptr.To(true)
	}
	if r.chance(0.1) && !pod.Spec.HostNetwork {
		pod.Spec.HostUsers = ptr.To(false)
		sc.Node.RuntimeHandlers = []RuntimeHandler{{Name: "", UserNamespaces: r.chance(0.8)}}
	}
	if r.chance(0.15) {
		pod.Spec.Resources = &v1.ResourceRequirements{
			Requests: v1.ResourceList{v1.ResourceMemory: resource.MustParse(r.pick("128Mi", "1Gi")), v1.ResourceCPU: resource.MustParse("500m")},
			Limits:   v1.ResourceList{v1.ResourceMemory: resource.MustParse("2Gi"), v1.ResourceCPU: resource.MustParse("2")},
		}
	}

	// Containers.
	n := 1 + r.intn(3)
	for c := 0; c < n; c++ {
		pod.Spec.Containers = append(pod.Spec.Containers, r.container(sc, fmt.Sprintf("c%d", c), pod))
	}
	if r.chance(0.3) {
		init := r.container(sc, "init", pod)
		init.Ports = nil
		if r.chance(0.5) {
			init.RestartPolicy = ptr.To(v1.ContainerRestartPolicyAlways)
		}
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, init)
	}
	if r.chance(0.15) {
		ec := r.container(sc, "debug", pod)
		ec.Ports, ec.Resources = nil, v1.ResourceRequirements{}
		ec.ReadinessProbe, ec.LivenessProbe = nil, nil
		pod.Spec.EphemeralContainers = []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon(ec), TargetContainerName: "c0"}}
		sc.NamespaceTarget = "abc123"
	}
	sc.RestartCount = r.intn(3)
	sc.Attempt = uint32(r.intn(2))
	return sc
}

func (r *gen) node() Node {
	n := Node{}
	n.CgroupV1 = r.chance(0.3)
	if r.chance(0.4) {
		n.CgroupDriver = "systemd"
	}
	if r.chance(0.2) {
		n.CgroupRoot = "/custom"
	}
	n.NoCgroupsPerQOS = r.chance(0.1)
	n.SELinux = r.chance(0.2)
	n.HugePageSizes = r.pickList([]string{"2MB", "1GB"}, []string{"2MB"}, []string{"2MB", "32MB", "64KB", "1GB"})
	n.SeccompDefault = r.chance(0.2)
	n.NoCPUCFSQuota = r.chance(0.1)
	if r.chance(0.3) {
		n.ResolvConf = "nameserver 192.0.2.53\nsearch corp.example\noptions ndots:2 timeout:1\n"
	}
	if r.chance(0.2) {
		n.IPs = []string{"10.0.0.1", "fd00::1"}
	}
	if r.chance(0.2) {
		n.FeatureGates = map[string]bool{"DefaultPodSysctls": true}
		n.DefaultPodSysctls = map[string]string{"net.ipv4.ip_unprivileged_port_start": "0", "kernel.msgmax": "65536", "user.max_user_namespaces": "100"}
	}
	if r.chance(0.1) {
		n.RuntimeHandlers = []RuntimeHandler{{Name: "", RecursiveReadOnly: true, UserNamespaces: true}}
	}
	return n
}

func (r *gen) container(sc *Scenario, name string, pod *v1.Pod) v1.Container {
	c := v1.Container{Name: name, Image: r.pick("busybox:1.36", "nginx:1.27", "app:uid1000", "app:named")}
	switch c.Image {
	case "app:uid1000":
		sc.Images[c.Image] = ImageUser{UID: ptr.To[int64](1000)}
	case "app:named":
		sc.Images[c.Image] = ImageUser{Username: "nobody"}
	}
	// Environment.
	if r.chance(0.7) {
		c.Env = append(c.Env, v1.EnvVar{Name: "A", Value: "x"}, v1.EnvVar{Name: "B", Value: "$(A)-y-$(MISSING)-$$(A)"})
	}
	if r.chance(0.4) {
		c.Env = append(c.Env, v1.EnvVar{Name: "MODE", ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{
			LocalObjectReference: v1.LocalObjectReference{Name: r.pick("cfg", "cfg", "nocfg")}, Key: r.pick("mode", "mode", "nokey"), Optional: ptr.To(r.chance(0.6))}}})
	}
	if r.chance(0.3) {
		c.Env = append(c.Env, v1.EnvVar{Name: "PASS", ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{
			LocalObjectReference: v1.LocalObjectReference{Name: r.pick("sec", "sec", "nosec")}, Key: r.pick("password", "TOKEN", "nokey"), Optional: ptr.To(r.chance(0.6))}}})
	}
	if r.chance(0.4) {
		c.Env = append(c.Env, v1.EnvVar{Name: "F", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1",
			FieldPath: r.pick("metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs", "metadata.labels['app']")}}})
	}
	if r.chance(0.3) {
		c.Env = append(c.Env, v1.EnvVar{Name: "R", ValueFrom: &v1.EnvVarSource{ResourceFieldRef: &v1.ResourceFieldSelector{
			Resource: r.pick("limits.cpu", "limits.memory", "requests.cpu", "requests.memory"), Divisor: resource.MustParse(r.pick("1", "1m", "1Mi"))}}})
	}
	if r.chance(0.3) {
		c.EnvFrom = append(c.EnvFrom, v1.EnvFromSource{Prefix: r.pick("", "P_"), ConfigMapRef: &v1.ConfigMapEnvSource{
			LocalObjectReference: v1.LocalObjectReference{Name: r.pick("cfg", "nocfg")}, Optional: ptr.To(r.chance(0.7))}})
	}
	if r.chance(0.2) {
		c.EnvFrom = append(c.EnvFrom, v1.EnvFromSource{SecretRef: &v1.SecretEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "sec"}}})
	}
	if r.chance(0.3) {
		c.Command = []string{"/bin/sh", "-c", "echo $(A) $(B)"}
		c.Args = []string{"$(MODE)", "$$(A)"}
	}
	if r.chance(0.2) {
		c.WorkingDir = "/srv"
	}
	// Mounts.
	for _, v := range pod.Spec.Volumes {
		if !r.chance(0.6) {
			continue
		}
		m := v1.VolumeMount{Name: v.Name, MountPath: "/mnt/" + v.Name + "-" + name}
		switch r.intn(6) {
		case 0:
			m.SubPath = r.pick("logs/app", "cache", "new/dir")
		case 1:
			m.SubPathExpr = r.pick("$(A)", "pods/$(F)", "$(MISSING)")
			if len(c.Env) == 0 {
				m.SubPathExpr = ""
			}
		case 2:
			m.ReadOnly = true
			if r.chance(0.5) {
				m.RecursiveReadOnly = ptr.To(v1.RecursiveReadOnlyIfPossible)
			}
		case 3:
			m.MountPropagation = ptr.To(v1.MountPropagationHostToContainer)
		}
		c.VolumeMounts = append(c.VolumeMounts, m)
	}
	// Security context.
	if r.chance(0.5) {
		csc := &v1.SecurityContext{}
		if r.chance(0.3) {
			csc.RunAsUser = ptr.To(r.pickInt(0, 1001))
		}
		if r.chance(0.3) {
			csc.RunAsNonRoot = ptr.To(true)
		}
		if r.chance(0.2) {
			csc.Privileged = ptr.To(true)
		} else if r.chance(0.3) {
			csc.AllowPrivilegeEscalation = ptr.To(false)
			csc.Capabilities = &v1.Capabilities{Add: []v1.Capability{"NET_ADMIN"}, Drop: []v1.Capability{"ALL"}}
		}
		if r.chance(0.3) {
			csc.ReadOnlyRootFilesystem = ptr.To(true)
		}
		if r.chance(0.2) {
			csc.SeccompProfile = &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost, LocalhostProfile: ptr.To("profiles/a.json")}
		}
		if r.chance(0.2) {
			csc.AppArmorProfile = &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeRuntimeDefault}
		}
		c.SecurityContext = csc
	}
	// Resources.
	switch r.intn(4) {
	case 0:
		q := v1.ResourceList{v1.ResourceCPU: resource.MustParse(r.pick("250m", "1", "2")), v1.ResourceMemory: resource.MustParse(r.pick("64Mi", "512Mi", "1Gi"))}
		c.Resources = v1.ResourceRequirements{Limits: q, Requests: q.DeepCopy()}
	case 1:
		c.Resources = v1.ResourceRequirements{
			Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse(r.pick("100m", "10m")), v1.ResourceMemory: resource.MustParse(r.pick("32Mi", "100Mi"))},
			Limits:   v1.ResourceList{v1.ResourceMemory: resource.MustParse(r.pick("256Mi", "1Gi"))},
		}
		if r.chance(0.3) {
			c.Resources.Limits[v1.ResourceName("hugepages-2Mi")] = resource.MustParse("64Mi")
			c.Resources.Requests[v1.ResourceName("hugepages-2Mi")] = resource.MustParse("64Mi")
		}
	case 2:
		c.Resources = v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("100m")}}
	}
	if r.chance(0.4) {
		c.Ports = []v1.ContainerPort{{ContainerPort: int32(8000 + r.intn(100)), Protocol: v1.Protocol(r.pick("TCP", "UDP", "SCTP"))}}
		if r.chance(0.3) {
			c.Ports[0].HostPort = c.Ports[0].ContainerPort
		}
	}
	c.Stdin, c.TTY = r.chance(0.1), r.chance(0.1)
	if r.chance(0.2) {
		c.TerminationMessagePath = r.pick("/tmp/term", "")
	}
	return c
}

func raw(obj runtime.Object) runtime.RawExtension { return runtime.RawExtension{Object: obj} }

type gen struct{ *rand.Rand }

func (r *gen) chance(p float64) bool { return r.Float64() < p }
func (r *gen) intn(n int) int        { return r.IntN(n) }
func (r *gen) pick(s ...string) string {
	return s[r.IntN(len(s))]
}
func (r *gen) pickInt(s ...int64) int64 { return s[r.IntN(len(s))] }
func (r *gen) pickList(s ...[]string) []string {
	return s[r.IntN(len(s))]
}
