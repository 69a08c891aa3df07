package benchpod

import (
	"path/filepath"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/mounts"
)

// The pod's identity and the container the benchmarks render.
const (
	Namespace     = "shop"
	Name          = "web-7d9f8c6b5-x2k4q"
	UID           = "3f0d6b8e-5a8c-4d7e-9b1a-2c4e6f8a0b1c"
	ContainerName = "web"
	// Image is the container's image field; ImageRef is what the runtime resolved it to.
	Image    = "registry.example/shop/web:1.8.2"
	ImageRef = "sha256:4b5c3f9e8d7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c"
	// ImageUID is the user the image's config names.
	ImageUID = int64(1000)
)

// EnvFile is the env file the container's fileKeyRef reads: Path inside the volume named Volume.
var EnvFile = struct {
	Volume, Path, Content string
}{Volume: "cache", Path: "env/app.env", Content: "FEATURE_FLAGS='search,checkout'\nCACHE_TTL='300'\n"}

// Node holds the node and kubelet facts the pod is rendered with.
type Node struct {
	// Name is the node's name, the pod's spec.nodeName.
	Name string
	// IPs are the kubelet's node IPs; PodIPs are the sandbox's.
	IPs, PodIPs []string
	// ClusterDomain and ClusterDNS are kubelet's --cluster-domain and --cluster-dns.
	ClusterDomain string
	ClusterDNS    []string
	// ResolvConf is the content of kubelet's --resolv-conf file.
	ResolvConf string
	// RootDir is kubelet's --root-dir.
	RootDir string
	// CgroupV2, MemoryCapacity and HugePageSizes describe the machine.
	CgroupV2       bool
	MemoryCapacity int64
	HugePageSizes  []string
}

// NodeFacts returns the node the pod runs on.
func NodeFacts() Node {
	return Node{
		Name:           "node-a",
		IPs:            []string{"10.0.0.1"},
		PodIPs:         []string{"10.244.1.17"},
		ClusterDomain:  "cluster.local",
		ClusterDNS:     []string{"10.96.0.10"},
		ResolvConf:     "nameserver 192.0.2.53\nsearch corp.example\noptions ndots:2\n",
		RootDir:        "/var/lib/kubelet",
		CgroupV2:       true,
		MemoryCapacity: 16 << 30,
		HugePageSizes:  []string{"2MB", "1GB"},
	}
}

// Pod returns the pod, with the fields the API server defaults already set.
func Pod() *v1.Pod {
	nodeFacts := NodeFacts()
	fieldRef := func(name, path string) v1.EnvVar {
		return v1.EnvVar{Name: name, ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: path}}}
	}
	resourceRef := func(name, res, divisor string) v1.EnvVar {
		return v1.EnvVar{Name: name, ValueFrom: &v1.EnvVarSource{ResourceFieldRef: &v1.ResourceFieldSelector{
			ContainerName: ContainerName, Resource: res, Divisor: resource.MustParse(divisor)}}}
	}
	mode := ptr.To[int32](0o644)
	return &v1.Pod{
		TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{
			Name: Name, Namespace: Namespace, UID: UID, GenerateName: "web-7d9f8c6b5-",
			Labels: map[string]string{
				"app.kubernetes.io/name": "web", "app.kubernetes.io/part-of": "shop",
				"app.kubernetes.io/version": "1.8.2", "pod-template-hash": "7d9f8c6b5",
			},
			Annotations: map[string]string{
				"kubectl.kubernetes.io/restartedAt": "2026-11-20T09:15:00Z",
				"prometheus.io/scrape":              "true",
				"prometheus.io/port":                "9090",
				"kubernetes.io/config.source":       "api",
			},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d9f8c6b5",
				UID: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
			}},
		},
		Spec: v1.PodSpec{
			NodeName:                      nodeFacts.Name,
			ServiceAccountName:            "web",
			DeprecatedServiceAccount:      "web",
			RestartPolicy:                 v1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: ptr.To[int64](30),
			DNSPolicy:                     v1.DNSClusterFirst,
			SchedulerName:                 v1.DefaultSchedulerName,
			EnableServiceLinks:            ptr.To(true),
			PreemptionPolicy:              ptr.To(v1.PreemptLowerPriority),
			Priority:                      ptr.To[int32](0),
			Tolerations: []v1.Toleration{
				{Key: "node.kubernetes.io/not-ready", Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: ptr.To[int64](300)},
				{Key: "node.kubernetes.io/unreachable", Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: ptr.To[int64](300)},
			},
			SecurityContext: &v1.PodSecurityContext{
				RunAsUser: ptr.To[int64](1000), RunAsGroup: ptr.To[int64](3000), RunAsNonRoot: ptr.To(true),
				FSGroup: ptr.To[int64](2000), SupplementalGroups: []int64{4000},
				SeccompProfile: &v1.SeccompProfile{Type: v1.SeccompProfileTypeRuntimeDefault},
				Sysctls:        []v1.Sysctl{{Name: "net.ipv4.ip_unprivileged_port_start", Value: "0"}},
			},
			Volumes: []v1.Volume{
				{Name: "config", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{
					LocalObjectReference: v1.LocalObjectReference{Name: "web-config"}, DefaultMode: mode}}},
				{Name: "tls", VolumeSource: v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "web-tls", DefaultMode: mode}}},
				{Name: "data", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "web-data"}}},
				{Name: "cache", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
				{Name: "logs", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
				{Name: "tokens", VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{
					DefaultMode: mode,
					Sources: []v1.VolumeProjection{
						{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Audience: "vault", ExpirationSeconds: ptr.To[int64](3600), Path: "vault-token"}},
						{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "kube-root-ca.crt"},
							Items: []v1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
					},
				}}},
			},
			Containers: []v1.Container{{
				Name:    ContainerName,
				Image:   Image,
				Command: []string{"/usr/bin/web"},
				Args: []string{"--listen=$(POD_IP):8080", "--db=$(DB_URL)", "--region=$(APP_REGION)",
					"--log-level=$(LOG_LEVEL)", "--metrics=:9090"},
				WorkingDir: "/srv/web",
				Ports: []v1.ContainerPort{
					{Name: "http", ContainerPort: 8080, Protocol: v1.ProtocolTCP},
					{Name: "metrics", ContainerPort: 9090, Protocol: v1.ProtocolTCP},
				},
				EnvFrom: []v1.EnvFromSource{
					{Prefix: "APP_", ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "web-env"}}},
					{SecretRef: &v1.SecretEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "web-secrets"}}},
				},
				Env: []v1.EnvVar{
					{Name: "LOG_LEVEL", Value: "info"},
					{Name: "MODE", ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{
						LocalObjectReference: v1.LocalObjectReference{Name: "web-config"}, Key: "mode"}}},
					{Name: "DB_USER", ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{
						LocalObjectReference: v1.LocalObjectReference{Name: "web-db"}, Key: "user"}}},
					{Name: "DB_PASSWORD", ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{
						LocalObjectReference: v1.LocalObjectReference{Name: "web-db"}, Key: "password"}}},
					{Name: "DB_URL", Value: "postgres://$(DB_USER)@$(POSTGRES_SERVICE_HOST):$(POSTGRES_SERVICE_PORT)/shop"},
					fieldRef("POD_NAME", "metadata.name"),
					fieldRef("POD_NAMESPACE", "metadata.namespace"),
					fieldRef("POD_IP", "status.podIP"),
					fieldRef("NODE_NAME", "spec.nodeName"),
					fieldRef("HOST_IP", "status.hostIP"),
					resourceRef("MEMORY_LIMIT", "limits.memory", "1Mi"),
					resourceRef("CPU_REQUEST", "requests.cpu", "1m"),
					{Name: "FEATURE_FLAGS", ValueFrom: &v1.EnvVarSource{FileKeyRef: &v1.FileKeySelector{
						VolumeName: EnvFile.Volume, Path: EnvFile.Path, Key: "FEATURE_FLAGS"}}},
				},
				Resources: v1.ResourceRequirements{
					Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("250m"), v1.ResourceMemory: resource.MustParse("256Mi")},
					Limits:   v1.ResourceList{v1.ResourceCPU: resource.MustParse("1"), v1.ResourceMemory: resource.MustParse("512Mi")},
				},
				VolumeMounts: []v1.VolumeMount{
					{Name: "config", MountPath: "/etc/web/app.yaml", SubPath: "app.yaml", ReadOnly: true},
					{Name: "tls", MountPath: "/etc/web/tls", SubPath: "certs", ReadOnly: true},
					{Name: "data", MountPath: "/var/lib/web", SubPath: "web"},
					{Name: "cache", MountPath: "/var/cache/web", SubPathExpr: "$(POD_NAME)"},
					{Name: "logs", MountPath: "/var/log/web", SubPath: "web"},
					{Name: "tokens", MountPath: "/var/run/secrets/tokens", SubPath: "vault", ReadOnly: true},
				},
				LivenessProbe: &v1.Probe{
					ProbeHandler:  v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http"), Scheme: v1.URISchemeHTTP}},
					PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
				},
				ReadinessProbe: &v1.Probe{
					ProbeHandler:  v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{Path: "/ready", Port: intstr.FromString("http"), Scheme: v1.URISchemeHTTP}},
					PeriodSeconds: 5, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
				},
				Lifecycle: &v1.Lifecycle{PreStop: &v1.LifecycleHandler{Sleep: &v1.SleepAction{Seconds: 5}}},
				SecurityContext: &v1.SecurityContext{
					AllowPrivilegeEscalation: ptr.To(false), ReadOnlyRootFilesystem: ptr.To(true),
					Capabilities: &v1.Capabilities{Drop: []v1.Capability{"ALL"}, Add: []v1.Capability{"NET_BIND_SERVICE"}},
				},
				TerminationMessagePath:   v1.TerminationMessagePathDefault,
				TerminationMessagePolicy: v1.TerminationMessageReadFile,
				ImagePullPolicy:          v1.PullIfNotPresent,
			}},
		},
		Status: v1.PodStatus{
			Phase:    v1.PodPending,
			QOSClass: v1.PodQOSBurstable,
			HostIP:   nodeFacts.IPs[0], HostIPs: []v1.HostIP{{IP: nodeFacts.IPs[0]}},
			PodIP: nodeFacts.PodIPs[0], PodIPs: []v1.PodIP{{IP: nodeFacts.PodIPs[0]}},
		},
	}
}

// Container returns the pod's container the benchmarks render.
func Container(pod *v1.Pod) *v1.Container {
	if pod == nil || len(pod.Spec.Containers) == 0 {
		return nil
	}
	return &pod.Spec.Containers[0]
}

// ConfigMaps returns the ConfigMaps the pod reads.
func ConfigMaps() []*v1.ConfigMap {
	env := map[string]string{}
	for _, kv := range [][2]string{
		{"REGION", "eu-west-1"}, {"ZONE", "eu-west-1b"}, {"CURRENCY", "EUR"}, {"LOCALE", "en_GB"},
		{"TIMEOUT", "30s"}, {"MAX_CONNS", "64"}, {"CACHE_SIZE", "256Mi"}, {"TRACING", "on"},
		{"SAMPLE_RATE", "0.1"}, {"STATIC_URL", "https://cdn.example/shop"},
	} {
		env[kv[0]] = kv[1]
	}
	return []*v1.ConfigMap{
		{ObjectMeta: metav1.ObjectMeta{Namespace: Namespace, Name: "web-config"},
			Data: map[string]string{"mode": "production", "app.yaml": "listen: :8080\n"}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: Namespace, Name: "web-env"}, Data: env},
	}
}

// Secrets returns the Secrets the pod reads.
func Secrets() []*v1.Secret {
	return []*v1.Secret{
		{ObjectMeta: metav1.ObjectMeta{Namespace: Namespace, Name: "web-db"},
			Data: map[string][]byte{"user": []byte("shop"), "password": []byte("c0rrect-h0rse")}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: Namespace, Name: "web-secrets"},
			Data: map[string][]byte{"SESSION_KEY": []byte("0123456789abcdef"), "STRIPE_KEY": []byte("sk_test_123"), "SMTP_PASSWORD": []byte("mail")}},
	}
}

// Services returns the Services of the pod's namespace and the default namespace's kubernetes
// Service, whose variables the pod gets as service links.
func Services() []*v1.Service {
	svc := func(ns, name, ip string, ports ...v1.ServicePort) *v1.Service {
		return &v1.Service{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec:       v1.ServiceSpec{Type: v1.ServiceTypeClusterIP, ClusterIP: ip, ClusterIPs: []string{ip}, Ports: ports},
		}
	}
	port := func(name string, p int32) v1.ServicePort {
		return v1.ServicePort{Name: name, Port: p, Protocol: v1.ProtocolTCP, TargetPort: intstr.FromInt32(p)}
	}
	return []*v1.Service{
		svc("default", "kubernetes", "10.96.0.1", port("https", 443)),
		svc(Namespace, "web", "10.96.10.1", port("http", 80), port("metrics", 9090)),
		svc(Namespace, "postgres", "10.96.10.2", port("", 5432)),
		svc(Namespace, "redis", "10.96.10.3", port("", 6379)),
		svc(Namespace, "search", "10.96.10.4", port("http", 9200)),
		svc(Namespace, "payments", "10.96.10.5", port("grpc", 50051)),
	}
}

// NodeObject returns the pod's Node as the API serves it.
func NodeObject() *v1.Node {
	facts := NodeFacts()
	return &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: facts.Name, Labels: map[string]string{"kubernetes.io/hostname": facts.Name}},
		Status: v1.NodeStatus{
			Addresses: []v1.NodeAddress{{Type: v1.NodeInternalIP, Address: facts.IPs[0]}, {Type: v1.NodeHostName, Address: facts.Name}},
			Capacity: v1.ResourceList{v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("16Gi"),
				v1.ResourcePods: resource.MustParse("110")},
			Allocatable: v1.ResourceList{v1.ResourceCPU: resource.MustParse("3800m"), v1.ResourceMemory: resource.MustParse("15Gi"),
				v1.ResourcePods: resource.MustParse("110")},
		},
	}
}

// Objects returns every API object the pod refers to: ConfigMaps, Secrets, Services and the Node.
func Objects() []any {
	var objs []any
	for _, o := range ConfigMaps() {
		objs = append(objs, o)
	}
	for _, o := range Secrets() {
		objs = append(objs, o)
	}
	for _, o := range Services() {
		objs = append(objs, o)
	}
	return append(objs, NodeObject())
}

// Volumes returns the pod's volumes mounted where kubelet with root directory rootDir mounts
// them, <rootDir>/pods/<uid>/volumes/<plugin>/<name>, with the read-only and SELinux facts
// kubelet's volume plugins report. The PVC is a CSI volume whose PV is named after the claim.
func Volumes(rootDir string) mounts.VolumeMap {
	dir := func(plugin, name string) string {
		return filepath.Join(rootDir, "pods", UID, "volumes", plugin, name)
	}
	return mounts.VolumeMap{
		"config": {HostPath: dir("kubernetes.io~configmap", "config"), ReadOnly: true, SELinuxRelabel: true},
		"tls":    {HostPath: dir("kubernetes.io~secret", "tls"), ReadOnly: true, SELinuxRelabel: true},
		"data": {HostPath: filepath.Join(dir("kubernetes.io~csi", "web-data"), "mount"), InnerVolumeName: "web-data",
			SELinuxRelabel: true},
		"cache":  {HostPath: dir("kubernetes.io~empty-dir", "cache"), SELinuxRelabel: true},
		"logs":   {HostPath: dir("kubernetes.io~empty-dir", "logs"), SELinuxRelabel: true},
		"tokens": {HostPath: dir("kubernetes.io~projected", "tokens"), ReadOnly: true, SELinuxRelabel: true},
	}
}

// Files returns the files that exist in the pod's volumes before the container starts, by host
// path under rootDir: the configMap's app.yaml and the env file fileKeyRef reads. Every subPath
// other than app.yaml is a directory that kubelet creates on first use.
func Files(rootDir string) map[string]string {
	vols := Volumes(rootDir)
	return map[string]string{
		filepath.Join(vols["config"].HostPath, "app.yaml"):         "listen: :8080\n",
		filepath.Join(vols[EnvFile.Volume].HostPath, EnvFile.Path): EnvFile.Content,
	}
}
