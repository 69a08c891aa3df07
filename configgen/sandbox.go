package configgen

import (
	"context"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/hosts"
	"github.com/podconfig/podconfig/logs"
	"github.com/podconfig/podconfig/resources"
)

// GeneratePodSandboxConfig returns the CRI config of the pod's sandbox, as kubelet's
// generatePodSandboxConfig does on Linux: metadata, labels and annotations, DNS, hostname (not for
// host-network pods), log directory, port mappings, cgroup parent, security context, sysctls, and
// resources with overhead. attempt is the sandbox's attempt number. Its only effect on the host
// is the pod's data directories, made when missing once everything else has been computed
// (MakePodDataDirs), as kubelet makes them before it creates the sandbox.
// Errors are *Error with ReasonFailedCreatePodSandBox. Warnings (DNS fallbacks, duplicate ports) go to Options.OnWarning with a nil container; a
// port's warning names its container in Warning.Container.
func (g *Generator) GeneratePodSandboxConfig(ctx context.Context, pod *v1.Pod, attempt uint32) (*runtimeapi.PodSandboxConfig, error) {
	if err := g.built(); err != nil {
		return nil, asError(err, ReasonFailedCreatePodSandBox, pod, nil)
	}
	cfg, err := g.podSandboxConfig(ctx, pod, attempt)
	if err != nil {
		return nil, asError(err, ReasonFailedCreatePodSandBox, pod, nil)
	}
	return cfg, nil
}

func (g *Generator) podSandboxConfig(ctx context.Context, pod *v1.Pod, attempt uint32) (*runtimeapi.PodSandboxConfig, error) {
	if err := ValidatePod(pod); err != nil {
		return nil, err
	}
	dns, dnsWarnings, err := g.dns.podDNS(pod)
	if err != nil {
		return nil, err
	}
	g.warn(pod, nil, dnsWarnings)
	cfg := &runtimeapi.PodSandboxConfig{
		Metadata: &runtimeapi.PodSandboxMetadata{
			Name: pod.Name, Namespace: pod.Namespace, Uid: string(pod.UID), Attempt: attempt,
		},
		Labels:      podLabels(pod),
		Annotations: podAnnotations(pod),
		DnsConfig:   dns,
	}

	if !pod.Spec.HostNetwork {
		hostname, domain, msgs, err := hosts.GeneratePodHostNameAndDomain(pod, g.opts.ClusterDomain)
		if err != nil {
			return nil, err
		}
		g.warn(pod, nil, warnings(ReasonHostnameTruncated, "", msgs))
		if cfg.Hostname, err = hosts.GetNodenameForKernel(hostname, domain, pod.Spec.SetHostnameAsFQDN); err != nil {
			return nil, err
		}
	}
	cfg.LogDirectory = logs.BuildPodLogsDirectory(g.opts.PodLogsDir, pod.Namespace, pod.Name, pod.UID)

	ports, portWarnings := sandboxPortMappings(pod)
	cfg.PortMappings = ports
	g.warn(pod, nil, portWarnings)

	sc, err := g.security.SandboxSecurityContext(ctx, pod, g.extraGroups(pod))
	if err != nil {
		return nil, err
	}
	res, overhead, err := g.resources.SandboxResources(pod)
	if err != nil {
		return nil, err
	}
	cfg.Linux = &runtimeapi.LinuxPodSandboxConfig{
		CgroupParent:    PodCgroupParent(pod, g.cgroupQOS(pod), g.opts.Cgroups),
		SecurityContext: sc,
		Sysctls:         g.security.SandboxSysctls(pod),
		Resources:       res,
		Overhead:        overhead,
	}
	if err := g.makePodDataDirs(pod); err != nil {
		return nil, err
	}
	return cfg, nil
}

// cgroupQOS is the QoS class that places the pod's cgroup: status.qosClass when set, as kubelet's
// GetPodQOS reads it, else the class computed from the spec. Kubelet puts a pod whose status names
// no QoS class directly under the cgroup root, outside kubepods and its node-allocatable limits; a
// spec that never passed the API server could ask for that, so such a status is ignored here.
func (g *Generator) cgroupQOS(pod *v1.Pod) v1.PodQOSClass {
	switch qos := pod.Status.QOSClass; qos {
	case v1.PodQOSGuaranteed, v1.PodQOSBurstable, v1.PodQOSBestEffort:
		return qos
	}
	return resources.ComputePodQOS(pod, g.gates.PodLevelResources)
}
