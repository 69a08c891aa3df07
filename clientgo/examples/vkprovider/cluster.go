package main

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// clusterObjects is the cluster the example runs against: the provider's node, a ConfigMap, a
// Secret, the Services, and a pod bound to the node with an init container, a sidecar, a regular
// container and an ephemeral one. The pod reads its IP before it has one and names an optional
// ConfigMap that does not exist: both become events.
func clusterObjects() []runtime.Object {
	always := v1.ContainerRestartPolicyAlways
	optional := true
	links := false
	nonRoot := true
	podIP := v1.EnvVar{Name: "POD_IP", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIP"}}}
	podName := v1.EnvVar{Name: "POD_NAME", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}}
	return []runtime.Object{
		&v1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: nodeName},
			Status: v1.NodeStatus{
				Addresses:   []v1.NodeAddress{{Type: v1.NodeInternalIP, Address: "192.0.2.10"}},
				Allocatable: v1.ResourceList{v1.ResourceCPU: mustQuantity("16"), v1.ResourceMemory: mustQuantity("64Gi")},
			},
		},
		&v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "cart-settings"},
			Data: map[string]string{"LOG_LEVEL": "info", "CACHE_TTL": "30s"}},
		&v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "kube-root-ca.crt"},
			Data: map[string]string{"ca.crt": "-----BEGIN CERTIFICATE-----\nMIIB...\n-----END CERTIFICATE-----\n"}},
		&v1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "db-credentials"},
			Data: map[string][]byte{"password": []byte("hunter2")}},
		&v1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "kubernetes"},
			Spec: v1.ServiceSpec{ClusterIP: "10.96.0.1", Ports: []v1.ServicePort{{Name: "https", Port: 443, Protocol: v1.ProtocolTCP}}}},
		&v1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "db"},
			Spec: v1.ServiceSpec{ClusterIP: "10.96.4.2", Ports: []v1.ServicePort{{Port: 5432, Protocol: v1.ProtocolTCP}}}},
		&v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "cart-7f9c", UID: "5d0c9a57-2f0e-4b7d-9a39-0f1d2c3b4a51"},
			Spec: v1.PodSpec{
				NodeName:           nodeName,
				ServiceAccountName: "cart",
				EnableServiceLinks: &links,
				SecurityContext:    &v1.PodSecurityContext{RunAsNonRoot: &nonRoot},
				Volumes: []v1.Volume{
					{Name: "settings", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cart-settings"}, DefaultMode: ptrTo[int32](0o644)}}},
					// The volume the ServiceAccount admission plugin adds to nearly every pod.
					{Name: "kube-api-access-x7k2p", VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{
						DefaultMode: ptrTo[int32](0o644),
						Sources: []v1.VolumeProjection{
							{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptrTo[int64](3607)}},
							{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "kube-root-ca.crt"},
								Items: []v1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
							{DownwardAPI: &v1.DownwardAPIProjection{Items: []v1.DownwardAPIVolumeFile{
								{Path: "namespace", FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
						},
					}}},
					{Name: "scratch", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
				},
				InitContainers: []v1.Container{
					{
						Name: "migrate", Image: "registry.example/shop/db-migrate:1.4",
						Env: []v1.EnvVar{{Name: "DB_PASSWORD", ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{
							LocalObjectReference: v1.LocalObjectReference{Name: "db-credentials"}, Key: "password"}}}},
					},
					{
						Name: "proxy", Image: "registry.example/envoy:1.30", RestartPolicy: &always,
						Env:          []v1.EnvVar{podIP},
						VolumeMounts: []v1.VolumeMount{{Name: "settings", MountPath: "/etc/envoy"}},
					},
				},
				Containers: []v1.Container{{
					Name: "cart", Image: "registry.example/shop/cart:1.4",
					EnvFrom: []v1.EnvFromSource{{ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "cart-settings"}}}},
					Env: []v1.EnvVar{
						podName,
						{Name: "FEATURES", ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{
							LocalObjectReference: v1.LocalObjectReference{Name: "cart-features"}, Key: "flags", Optional: &optional}}},
						{Name: "API_URL", Value: "https://$(KUBERNETES_SERVICE_HOST):$(KUBERNETES_SERVICE_PORT)"},
					},
					VolumeMounts: []v1.VolumeMount{{Name: "scratch", MountPath: "/var/log/cart", SubPathExpr: "logs/$(POD_NAME)"},
						{Name: "kube-api-access-x7k2p", MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true}},
				}},
				EphemeralContainers: []v1.EphemeralContainer{{
					EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "debug", Image: "busybox:1.36",
						SecurityContext: &v1.SecurityContext{RunAsUser: ptrTo[int64](65534)}},
					TargetContainerName: "cart",
				}},
			},
		},
	}
}

func mustQuantity(s string) resource.Quantity { return resource.MustParse(s) }
