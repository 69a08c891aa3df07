package defaults

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// TestContainerRules checks each container rule on an init, a regular and an ephemeral container.
func TestContainerRules(t *testing.T) {
	tests := []struct {
		name string
		edit func(*v1.Container)
		get  func(*v1.Container) any
		want any
	}{
		{"terminationMessagePath defaults to /dev/termination-log", nil,
			func(c *v1.Container) any { return c.TerminationMessagePath }, "/dev/termination-log"},
		{"terminationMessagePath set is kept", func(c *v1.Container) { c.TerminationMessagePath = "/tmp/msg" },
			func(c *v1.Container) any { return c.TerminationMessagePath }, "/tmp/msg"},
		{"terminationMessagePolicy defaults to File", nil,
			func(c *v1.Container) any { return c.TerminationMessagePolicy }, v1.TerminationMessageReadFile},
		{"terminationMessagePolicy FallbackToLogsOnError is kept", func(c *v1.Container) { c.TerminationMessagePolicy = v1.TerminationMessageFallbackToLogsOnError },
			func(c *v1.Container) any { return c.TerminationMessagePolicy }, v1.TerminationMessageFallbackToLogsOnError},
		{"imagePullPolicy defaults to IfNotPresent for a versioned image", nil,
			func(c *v1.Container) any { return c.ImagePullPolicy }, v1.PullIfNotPresent},
		{"imagePullPolicy defaults to Always for an image with no tag", func(c *v1.Container) { c.Image = "nginx" },
			func(c *v1.Container) any { return c.ImagePullPolicy }, v1.PullAlways},
		{"imagePullPolicy Never is kept", func(c *v1.Container) { c.Image, c.ImagePullPolicy = "nginx", v1.PullNever },
			func(c *v1.Container) any { return c.ImagePullPolicy }, v1.PullNever},
		{"port protocol defaults to TCP", func(c *v1.Container) { c.Ports = []v1.ContainerPort{{ContainerPort: 80}} },
			func(c *v1.Container) any { return c.Ports[0].Protocol }, v1.ProtocolTCP},
		{"port protocol UDP is kept", func(c *v1.Container) { c.Ports = []v1.ContainerPort{{ContainerPort: 53, Protocol: v1.ProtocolUDP}} },
			func(c *v1.Container) any { return c.Ports[0].Protocol }, v1.ProtocolUDP},
		{"port hostPort stays 0 off the host network", func(c *v1.Container) { c.Ports = []v1.ContainerPort{{ContainerPort: 80}} },
			func(c *v1.Container) any { return c.Ports[0].HostPort }, int32(0)},
		{"env fieldRef apiVersion defaults to v1", func(c *v1.Container) {
			c.Env = []v1.EnvVar{{Name: "NODE", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{FieldPath: "spec.nodeName"}}}}
		}, func(c *v1.Container) any { return c.Env[0].ValueFrom.FieldRef.APIVersion }, "v1"},
		{"env fieldRef apiVersion set is kept", func(c *v1.Container) {
			c.Env = []v1.EnvVar{{Name: "NODE", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v2", FieldPath: "spec.nodeName"}}}}
		}, func(c *v1.Container) any { return c.Env[0].ValueFrom.FieldRef.APIVersion }, "v2"},
		{"env fileKeyRef optional defaults to false", func(c *v1.Container) {
			c.Env = []v1.EnvVar{{Name: "K", ValueFrom: &v1.EnvVarSource{FileKeyRef: &v1.FileKeySelector{VolumeName: "v", Path: "p", Key: "k"}}}}
		}, func(c *v1.Container) any { return c.Env[0].ValueFrom.FileKeyRef.Optional }, ptr.To(false)},
		{"env fileKeyRef optional true is kept", func(c *v1.Container) {
			c.Env = []v1.EnvVar{{Name: "K", ValueFrom: &v1.EnvVarSource{FileKeyRef: &v1.FileKeySelector{VolumeName: "v", Path: "p", Key: "k", Optional: ptr.To(true)}}}}
		}, func(c *v1.Container) any { return c.Env[0].ValueFrom.FileKeyRef.Optional }, ptr.To(true)},
		{"env with a value is left alone", func(c *v1.Container) { c.Env = []v1.EnvVar{{Name: "A", Value: "b"}} },
			func(c *v1.Container) any { return c.Env }, []v1.EnvVar{{Name: "A", Value: "b"}}},
		{"probe timeout, period and thresholds default to 1, 10, 1, 3", func(c *v1.Container) {
			c.LivenessProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{Exec: &v1.ExecAction{Command: []string{"true"}}}}
		}, func(c *v1.Container) any {
			p := c.LivenessProbe
			return [4]int32{p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold}
		}, [4]int32{1, 10, 1, 3}},
		{"probe timeout, period and thresholds set are kept", func(c *v1.Container) {
			c.ReadinessProbe = &v1.Probe{TimeoutSeconds: 5, PeriodSeconds: 7, SuccessThreshold: 2, FailureThreshold: 9,
				ProbeHandler: v1.ProbeHandler{TCPSocket: &v1.TCPSocketAction{Port: intstr.FromInt32(80)}}}
		}, func(c *v1.Container) any {
			p := c.ReadinessProbe
			return [4]int32{p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold}
		}, [4]int32{5, 7, 2, 9}},
		{"probe initialDelaySeconds and terminationGracePeriodSeconds have no default", func(c *v1.Container) {
			c.StartupProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{Exec: &v1.ExecAction{}}}
		}, func(c *v1.Container) any {
			return [2]any{c.StartupProbe.InitialDelaySeconds, c.StartupProbe.TerminationGracePeriodSeconds}
		}, [2]any{int32(0), (*int64)(nil)}},
		{"startup probe is defaulted like the others", func(c *v1.Container) {
			c.StartupProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{Exec: &v1.ExecAction{}}}
		}, func(c *v1.Container) any {
			p := c.StartupProbe
			return [4]int32{p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold}
		}, [4]int32{1, 10, 1, 3}},
		{"probe httpGet path and scheme default to / and HTTP", func(c *v1.Container) {
			c.LivenessProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{Port: intstr.FromInt32(8080)}}}
		}, func(c *v1.Container) any { return c.LivenessProbe.HTTPGet },
			&v1.HTTPGetAction{Path: "/", Scheme: v1.URISchemeHTTP, Port: intstr.FromInt32(8080)}},
		{"probe httpGet path and scheme set are kept", func(c *v1.Container) {
			c.ReadinessProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{Path: "/healthz", Scheme: v1.URISchemeHTTPS, Port: intstr.FromString("web")}}}
		}, func(c *v1.Container) any { return c.ReadinessProbe.HTTPGet },
			&v1.HTTPGetAction{Path: "/healthz", Scheme: v1.URISchemeHTTPS, Port: intstr.FromString("web")}},
		{"probe httpGet protocol has no default while H2CContainerProbe is off", func(c *v1.Container) {
			c.LivenessProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{Port: intstr.FromInt32(8080)}}}
		}, func(c *v1.Container) any { return c.LivenessProbe.HTTPGet.Protocol }, (*v1.HTTPProtocol)(nil)},
		{"probe grpc service defaults to the empty string", func(c *v1.Container) {
			c.StartupProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{GRPC: &v1.GRPCAction{Port: 9000}}}
		}, func(c *v1.Container) any { return c.StartupProbe.GRPC }, &v1.GRPCAction{Port: 9000, Service: ptr.To("")}},
		{"probe grpc service set is kept", func(c *v1.Container) {
			c.StartupProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{GRPC: &v1.GRPCAction{Port: 9000, Service: ptr.To("health")}}}
		}, func(c *v1.Container) any { return c.StartupProbe.GRPC }, &v1.GRPCAction{Port: 9000, Service: ptr.To("health")}},
		{"lifecycle httpGet path and scheme default to / and HTTP", func(c *v1.Container) {
			c.Lifecycle = &v1.Lifecycle{
				PostStart: &v1.LifecycleHandler{HTTPGet: &v1.HTTPGetAction{Port: intstr.FromInt32(80)}},
				PreStop:   &v1.LifecycleHandler{HTTPGet: &v1.HTTPGetAction{Path: "/stop", Port: intstr.FromInt32(80)}},
			}
		}, func(c *v1.Container) any {
			return [2]*v1.HTTPGetAction{c.Lifecycle.PostStart.HTTPGet, c.Lifecycle.PreStop.HTTPGet}
		},
			[2]*v1.HTTPGetAction{
				{Path: "/", Scheme: v1.URISchemeHTTP, Port: intstr.FromInt32(80)},
				{Path: "/stop", Scheme: v1.URISchemeHTTP, Port: intstr.FromInt32(80)},
			}},
		{"lifecycle exec and sleep handlers are left alone", func(c *v1.Container) {
			c.Lifecycle = &v1.Lifecycle{PostStart: &v1.LifecycleHandler{Exec: &v1.ExecAction{}}, PreStop: &v1.LifecycleHandler{Sleep: &v1.SleepAction{Seconds: 5}}}
		}, func(c *v1.Container) any { return c.Lifecycle },
			&v1.Lifecycle{PostStart: &v1.LifecycleHandler{Exec: &v1.ExecAction{}}, PreStop: &v1.LifecycleHandler{Sleep: &v1.SleepAction{Seconds: 5}}}},
		{"resources are rounded up to milli precision", func(c *v1.Container) {
			c.Resources.Limits = v1.ResourceList{v1.ResourceCPU: resourceMust("0.0001"), v1.ResourceMemory: resourceMust("1.5")}
		}, func(c *v1.Container) any {
			return [2]string{ptr.To(c.Resources.Limits[v1.ResourceCPU]).String(), ptr.To(c.Resources.Limits[v1.ResourceMemory]).String()}
		}, [2]string{"1m", "1500m"}},
	}
	for _, tt := range tests {
		for _, kind := range []string{"init", "app", "ephemeral"} {
			t.Run(tt.name+"/"+kind, func(t *testing.T) {
				pod := podWith(nil)
				if tt.edit != nil {
					tt.edit(ctrs(pod)[kind])
				}
				SetObjectDefaultsPod(pod)
				assert.Equal(t, tt.want, tt.get(ctrs(pod)[kind]))
			})
		}
	}
}

func TestHostNetworkPorts(t *testing.T) {
	ports := func(hostPort int32) []v1.ContainerPort {
		return []v1.ContainerPort{{ContainerPort: 8080, HostPort: hostPort}}
	}
	tests := []struct {
		name        string
		hostNetwork bool
		hostPort    int32
		want        map[string]int32
	}{
		{"hostPort defaults to containerPort on the host network, except in ephemeral containers", true, 0,
			map[string]int32{"init": 8080, "app": 8080, "ephemeral": 0}},
		{"hostPort set on the host network is kept", true, 9090,
			map[string]int32{"init": 9090, "app": 9090, "ephemeral": 9090}},
		{"hostPort has no default off the host network", false, 0,
			map[string]int32{"init": 0, "app": 0, "ephemeral": 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := podWith(eachContainer(func(c *v1.Container) { c.Ports = ports(tt.hostPort) }))
			pod.Spec.HostNetwork = tt.hostNetwork
			SetObjectDefaultsPod(pod)
			got := map[string]int32{}
			for kind, c := range ctrs(pod) {
				got[kind] = c.Ports[0].HostPort
				assert.Equal(t, v1.ProtocolTCP, c.Ports[0].Protocol, kind)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestHTTPProtocolGate(t *testing.T) {
	withHTTPGets := eachContainer(func(c *v1.Container) {
		get := func() *v1.HTTPGetAction { return &v1.HTTPGetAction{Port: intstr.FromInt32(80)} }
		c.LivenessProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: get()}}
		c.ReadinessProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: get()}}
		http2 := get()
		http2.Protocol = ptr.To(v1.HTTPProtocolHTTP2)
		c.StartupProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: http2}}
		c.Lifecycle = &v1.Lifecycle{PostStart: &v1.LifecycleHandler{HTTPGet: get()}, PreStop: &v1.LifecycleHandler{HTTPGet: get()}}
	})
	protocols := func(c *v1.Container) []*v1.HTTPProtocol {
		return []*v1.HTTPProtocol{c.LivenessProbe.HTTPGet.Protocol, c.ReadinessProbe.HTTPGet.Protocol,
			c.StartupProbe.HTTPGet.Protocol, c.Lifecycle.PostStart.HTTPGet.Protocol, c.Lifecycle.PreStop.HTTPGet.Protocol}
	}
	http1, http2 := ptr.To(v1.HTTPProtocolHTTP1), ptr.To(v1.HTTPProtocolHTTP2)

	t.Run("httpGet protocol defaults to HTTP1 with H2CContainerProbe on, HTTP2 is kept", func(t *testing.T) {
		gates := DefaultFeatureGates()
		gates.H2CContainerProbe = true
		pod := podWith(withHTTPGets)
		SetObjectDefaultsPod(pod, WithFeatureGates(gates))
		for kind, c := range ctrs(pod) {
			assert.Equal(t, []*v1.HTTPProtocol{http1, http1, http2, http1, http1}, protocols(c), kind)
		}
	})
	t.Run("httpGet protocol has no default with H2CContainerProbe off", func(t *testing.T) {
		pod := podWith(withHTTPGets)
		SetObjectDefaultsPod(pod)
		for kind, c := range ctrs(pod) {
			assert.Equal(t, []*v1.HTTPProtocol{nil, nil, http2, nil, nil}, protocols(c), kind)
		}
	})
	t.Run("httpGet protocol is a Pod-only default", func(t *testing.T) {
		gates := DefaultFeatureGates()
		gates.H2CContainerProbe = true
		pod := podWith(withHTTPGets)
		template := &v1.PodTemplateSpec{Spec: pod.Spec}
		SetDefaultsPodTemplateSpec(template)
		assert.Nil(t, template.Spec.Containers[0].LivenessProbe.HTTPGet.Protocol)
	})
}
