package defaults

import v1 "k8s.io/api/core/v1"

// initContainerAnnotations are the alpha and beta annotations that carried init containers before
// spec.initContainers (v1.8); the API server deletes them from every pod and template it stores.
var initContainerAnnotations = [...]string{
	"pod.beta.kubernetes.io/init-containers",
	"pod.alpha.kubernetes.io/init-containers",
	"pod.beta.kubernetes.io/init-container-statuses",
	"pod.alpha.kubernetes.io/init-container-statuses",
}

// dropDisabledFields mirrors pkg/api/pod's dropDisabledFields for an object being created: with
// no previous version nothing counts as in use, so every field a gate leaves out is dropped. It
// serves Pods (DropDisabledPodFields; the status is replaced before, so its drops do not matter)
// and templates (DropDisabledTemplateFields), in the API server's order. Gates locked on in v1.37
// drop nothing and are not consulted.
func dropDisabledFields(spec *v1.PodSpec, annotations map[string]string, gates FeatureGates) {
	if !gates.PodLevelResources {
		spec.Resources = nil
	}
	if !gates.MatchLabelKeysInPodTopologySpread {
		for i := range spec.TopologySpreadConstraints {
			spec.TopologySpreadConstraints[i].MatchLabelKeys = nil
		}
	}
	dropProjectedSources(spec, gates)
	if !gates.AtomicWriteVolumeUserFields {
		dropVolumeUserFields(spec.Volumes)
	}
	if !gates.GenericWorkload {
		spec.SchedulingGroup = nil
	}
	if !gates.GRPCContainerProbeTLS {
		visitContainers(spec, dropGRPCProbeModes)
	}
	if !gates.EvictionRequestAPI {
		spec.EvictionResponders = nil
	}
	if !gates.ContainerRestartRules {
		dropContainerRestartRules(spec)
	}
	if !gates.EmptyDirVolumeMode {
		for i := range spec.Volumes {
			if e := spec.Volumes[i].EmptyDir; e != nil {
				e.Mode = nil
			}
		}
	}
	if !gates.VolumeBindMountOptions {
		visitContainers(spec, func(c *v1.Container) {
			for i := range c.VolumeMounts {
				c.VolumeMounts[i].BindMountOptions = nil
			}
		})
	}
	if !gates.EnvFiles {
		visitContainers(spec, func(c *v1.Container) {
			for i := range c.Env {
				if from := c.Env[i].ValueFrom; from != nil {
					from.FileKeyRef = nil
				}
			}
		})
	}
	if !gates.ContainerStopSignals {
		visitContainers(spec, dropStopSignal)
	}
	if !gates.H2CContainerProbe {
		visitContainers(spec, dropHTTPProtocols)
	}
	for _, key := range initContainerAnnotations {
		delete(annotations, key)
	}
}

// dropProjectedSources drops the projected clusterTrustBundle and podCertificate sources their
// gates leave out, leaving an empty source in their place, as the API server does.
func dropProjectedSources(spec *v1.PodSpec, gates FeatureGates) {
	if gates.ClusterTrustBundleProjection && gates.PodCertificateRequest {
		return
	}
	for i := range spec.Volumes {
		p := spec.Volumes[i].Projected
		if p == nil {
			continue
		}
		for j := range p.Sources {
			if !gates.ClusterTrustBundleProjection {
				p.Sources[j].ClusterTrustBundle = nil
			}
			if !gates.PodCertificateRequest {
				p.Sources[j].PodCertificate = nil
			}
		}
	}
}

// dropVolumeUserFields mirrors dropDisabledAtomicWriteVolumeUserFields. Like the API server, it
// looks at one source per volume and per projected source, the first of secret, configMap,
// downwardAPI and projected (then secret, downwardAPI, configMap, serviceAccountToken,
// clusterTrustBundle and podCertificate): a second source, which validation refuses anyway, keeps
// its user fields.
func dropVolumeUserFields(volumes []v1.Volume) {
	for i := range volumes {
		src := &volumes[i].VolumeSource
		switch {
		case src.Secret != nil:
			src.Secret.DefaultUser = nil
			dropKeyToPathUsers(src.Secret.Items)
		case src.ConfigMap != nil:
			src.ConfigMap.DefaultUser = nil
			dropKeyToPathUsers(src.ConfigMap.Items)
		case src.DownwardAPI != nil:
			src.DownwardAPI.DefaultUser = nil
			dropDownwardAPIFileUsers(src.DownwardAPI.Items)
		case src.Projected != nil:
			src.Projected.DefaultUser = nil
			for j := range src.Projected.Sources {
				dropProjectionUserFields(&src.Projected.Sources[j])
			}
		}
	}
}

func dropProjectionUserFields(p *v1.VolumeProjection) {
	switch {
	case p.Secret != nil:
		dropKeyToPathUsers(p.Secret.Items)
	case p.DownwardAPI != nil:
		dropDownwardAPIFileUsers(p.DownwardAPI.Items)
	case p.ConfigMap != nil:
		dropKeyToPathUsers(p.ConfigMap.Items)
	case p.ServiceAccountToken != nil:
		p.ServiceAccountToken.User = nil
	case p.ClusterTrustBundle != nil:
		p.ClusterTrustBundle.User = nil
	case p.PodCertificate != nil:
		p.PodCertificate.User = nil
	}
}

func dropKeyToPathUsers(items []v1.KeyToPath) {
	for i := range items {
		items[i].User = nil
	}
}

func dropDownwardAPIFileUsers(items []v1.DownwardAPIVolumeFile) {
	for i := range items {
		items[i].User = nil
	}
}

func dropGRPCProbeModes(c *v1.Container) {
	for _, p := range [...]*v1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil && p.GRPC != nil {
			p.GRPC.Mode = nil
		}
	}
}

// dropContainerRestartRules mirrors dropContainerRestartRules: without the gate only a sidecar's
// restartPolicy Always survives.
func dropContainerRestartRules(spec *v1.PodSpec) {
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		if c.RestartPolicy != nil && *c.RestartPolicy != v1.ContainerRestartPolicyAlways {
			c.RestartPolicy = nil
		}
		c.RestartPolicyRules = nil
	}
	for i := range spec.Containers {
		spec.Containers[i].RestartPolicy = nil
		spec.Containers[i].RestartPolicyRules = nil
	}
	for i := range spec.EphemeralContainers {
		spec.EphemeralContainers[i].RestartPolicy = nil
		spec.EphemeralContainers[i].RestartPolicyRules = nil
	}
}

// dropStopSignal removes lifecycle.stopSignal, and the lifecycle it leaves empty.
func dropStopSignal(c *v1.Container) {
	if c.Lifecycle == nil || c.Lifecycle.StopSignal == nil {
		return
	}
	c.Lifecycle.StopSignal = nil
	if *c.Lifecycle == (v1.Lifecycle{}) {
		c.Lifecycle = nil
	}
}

func dropHTTPProtocols(c *v1.Container) {
	for _, p := range [...]*v1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil && p.HTTPGet != nil {
			p.HTTPGet.Protocol = nil
		}
	}
	if l := c.Lifecycle; l != nil {
		for _, h := range [...]*v1.LifecycleHandler{l.PostStart, l.PreStop} {
			if h != nil && h.HTTPGet != nil {
				h.HTTPGet.Protocol = nil
			}
		}
	}
}
