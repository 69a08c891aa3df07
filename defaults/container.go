package defaults

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// Probe defaults, as SetDefaults_Probe writes them.
const (
	defaultProbeTimeoutSeconds    = 1
	defaultProbePeriodSeconds     = 10
	defaultProbeSuccessThreshold  = 1
	defaultProbeFailureThreshold  = 3
	defaultHTTPGetPath            = "/"
	defaultFieldRefAPIVersion     = "v1"
	defaultServiceAccountTokenTTL = 3600 // seconds: one hour
)

// setContainerDefaults applies, to one container, init container or ephemeral container, what the
// generated SetObjectDefaults_Pod applies to it: SetDefaults_Container, the ports' protocol, the
// env sources, the rounding of its resource lists, its probes and lifecycle handlers.
func setContainerDefaults(c *v1.Container) {
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = pullPolicyForImage(c.Image)
	}
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = v1.TerminationMessagePathDefault
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = v1.TerminationMessageReadFile
	}

	for i := range c.Ports {
		if c.Ports[i].Protocol == "" {
			c.Ports[i].Protocol = v1.ProtocolTCP
		}
	}

	for i := range c.Env {
		from := c.Env[i].ValueFrom
		if from == nil {
			continue
		}
		if from.FieldRef != nil {
			setFieldRefDefaults(from.FieldRef)
		}
		if from.FileKeyRef != nil && from.FileKeyRef.Optional == nil {
			from.FileKeyRef.Optional = ptr.To(false)
		}
	}

	roundResourceList(c.Resources.Limits)
	roundResourceList(c.Resources.Requests)

	for _, p := range []*v1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil {
			setProbeDefaults(p)
		}
	}
	if c.Lifecycle != nil {
		if h := c.Lifecycle.PostStart; h != nil && h.HTTPGet != nil {
			setHTTPGetDefaults(h.HTTPGet)
		}
		if h := c.Lifecycle.PreStop; h != nil && h.HTTPGet != nil {
			setHTTPGetDefaults(h.HTTPGet)
		}
	}
}

// setFieldRefDefaults mirrors SetDefaults_ObjectFieldSelector.
func setFieldRefDefaults(ref *v1.ObjectFieldSelector) {
	if ref.APIVersion == "" {
		ref.APIVersion = defaultFieldRefAPIVersion
	}
}

// setProbeDefaults mirrors SetDefaults_Probe, SetDefaults_HTTPGetAction for its httpGet, and the
// declarative default of grpc.service (an empty string, not nil).
func setProbeDefaults(p *v1.Probe) {
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = defaultProbeTimeoutSeconds
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = defaultProbePeriodSeconds
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = defaultProbeSuccessThreshold
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = defaultProbeFailureThreshold
	}
	if p.HTTPGet != nil {
		setHTTPGetDefaults(p.HTTPGet)
	}
	if p.GRPC != nil && p.GRPC.Service == nil {
		p.GRPC.Service = ptr.To("")
	}
}

// setHTTPGetDefaults mirrors SetDefaults_HTTPGetAction.
func setHTTPGetDefaults(a *v1.HTTPGetAction) {
	if a.Path == "" {
		a.Path = defaultHTTPGetPath
	}
	if a.Scheme == "" {
		a.Scheme = v1.URISchemeHTTP
	}
}

// setHTTPProtocols mirrors defaultHTTPProbeProtocol (gate H2CContainerProbe): every httpGet of the
// container's probes and lifecycle handlers speaks HTTP/1.1 unless it says otherwise.
func setHTTPProtocols(c *v1.Container) {
	for _, p := range []*v1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil {
			setHTTPProtocol(p.HTTPGet)
		}
	}
	if c.Lifecycle != nil {
		if c.Lifecycle.PostStart != nil {
			setHTTPProtocol(c.Lifecycle.PostStart.HTTPGet)
		}
		if c.Lifecycle.PreStop != nil {
			setHTTPProtocol(c.Lifecycle.PreStop.HTTPGet)
		}
	}
}

func setHTTPProtocol(a *v1.HTTPGetAction) {
	if a != nil && a.Protocol == nil {
		a.Protocol = ptr.To(v1.HTTPProtocolHTTP1)
	}
}
