package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

func TestContainerLists(t *testing.T) {
	ctrRun(t, []ctrCase{
		{
			name:   "a pod without containers is refused",
			mutate: func(pod *v1.Pod) { pod.Spec.Containers = nil },
			want:   []string{`spec.containers: Required value`},
		},
		{
			name: "two regular containers with one name are refused",
			mutate: func(pod *v1.Pod) {
				pod.Spec.Containers = append(pod.Spec.Containers, ctrContainer("app"))
			},
			want: []string{`spec.containers[1].name: Duplicate value: "app"`},
		},
		{
			name: "an init container named as a regular container is refused",
			mutate: func(pod *v1.Pod) {
				pod.Spec.InitContainers = []v1.Container{ctrContainer("app")}
			},
			want: []string{`spec.initContainers[0].name: Duplicate value: "app"`},
		},
		{
			name: "two init containers with one name are refused",
			mutate: func(pod *v1.Pod) {
				pod.Spec.InitContainers = []v1.Container{ctrContainer("setup"), ctrContainer("setup")}
			},
			want: []string{`spec.initContainers[1].name: Duplicate value: "setup"`},
		},
		{
			name: "an ephemeral container named as an init container is refused, and any on create",
			mutate: func(pod *v1.Pod) {
				pod.Spec.InitContainers = []v1.Container{ctrContainer("setup")}
				pod.Spec.EphemeralContainers = []v1.EphemeralContainer{ctrEphemeral("setup")}
			},
			want: []string{
				`spec.ephemeralContainers[0].name: Duplicate value: "setup"`,
				`spec.ephemeralContainers: Forbidden: cannot be set on create`,
			},
		},
		{
			name: "an ephemeral container targeting a container the pod lacks is refused",
			mutate: func(pod *v1.Pod) {
				ec := ctrEphemeral("debug")
				ec.TargetContainerName = "missing"
				pod.Spec.EphemeralContainers = []v1.EphemeralContainer{ec}
			},
			want: []string{
				`spec.ephemeralContainers[0].targetContainerName: Not found: "missing"`,
				`spec.ephemeralContainers: Forbidden: cannot be set on create`,
			},
		},
		{
			name: "an ephemeral container may not set ports, resources, resize or restart policy, probes or lifecycle",
			mutate: func(pod *v1.Pod) {
				ec := ctrEphemeral("debug")
				ec.TTY, ec.Stdin = true, true
				ec.Ports = []v1.ContainerPort{{ContainerPort: 80, Protocol: v1.ProtocolTCP}}
				ec.Resources.Limits = v1.ResourceList{}
				ec.ResizePolicy = []v1.ContainerResizePolicy{{ResourceName: v1.ResourceCPU, RestartPolicy: v1.NotRequired}}
				ec.RestartPolicy = ptr.To(v1.ContainerRestartPolicyAlways)
				ec.ReadinessProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{Exec: &v1.ExecAction{Command: []string{"true"}}}}
				ec.Lifecycle = &v1.Lifecycle{}
				pod.Spec.EphemeralContainers = []v1.EphemeralContainer{ec}
			},
			want: []string{
				`spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container`,
				`spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container`,
				`spec.ephemeralContainers[0].resizePolicy: Forbidden: cannot be set for an Ephemeral Container`,
				`spec.ephemeralContainers[0].restartPolicy: Forbidden: cannot be set for an Ephemeral Container`,
				`spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container`,
				`spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container`,
				`spec.ephemeralContainers: Forbidden: cannot be set on create`,
			},
		},
		{
			name: "an ephemeral container may not mount a subPath",
			mutate: func(pod *v1.Pod) {
				ec := ctrEphemeral("debug")
				ec.VolumeMounts = []v1.VolumeMount{
					{Name: "config", MountPath: "/a", SubPath: "x"},
					{Name: "config", MountPath: "/b", SubPathExpr: "$(POD)"},
				}
				pod.Spec.EphemeralContainers = []v1.EphemeralContainer{ec}
			},
			want: []string{
				`spec.ephemeralContainers[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container`,
				`spec.ephemeralContainers[0].volumeMounts[1].subPathExpr: Forbidden: cannot be set for an Ephemeral Container`,
				`spec.ephemeralContainers: Forbidden: cannot be set on create`,
			},
		},
		{
			name: "two regular containers may not take one host port",
			mutate: func(pod *v1.Pod) {
				web := ctrContainer("web")
				web.Ports = []v1.ContainerPort{{ContainerPort: 8080, HostPort: 8080, Protocol: v1.ProtocolTCP}}
				pod.Spec.Containers[0].Ports = []v1.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: v1.ProtocolTCP}}
				pod.Spec.Containers = append(pod.Spec.Containers, web)
			},
			want: []string{`spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"`},
		},
		{
			name: "one host port on two host IPs or protocols does not clash",
			mutate: ctrFirst(func(c *v1.Container) {
				c.Ports = []v1.ContainerPort{
					{ContainerPort: 80, HostPort: 80, Protocol: v1.ProtocolTCP},
					{ContainerPort: 81, HostPort: 80, Protocol: v1.ProtocolUDP},
					{ContainerPort: 82, HostPort: 80, HostIP: "10.0.0.1", Protocol: v1.ProtocolTCP},
				}
			}),
		},
		{
			name: "an init container may take a regular container's host port",
			mutate: func(pod *v1.Pod) {
				setup := ctrContainer("setup")
				setup.Ports = []v1.ContainerPort{{ContainerPort: 80, HostPort: 80, Protocol: v1.ProtocolTCP}}
				pod.Spec.InitContainers = []v1.Container{setup}
				pod.Spec.Containers[0].Ports = []v1.ContainerPort{{ContainerPort: 80, HostPort: 80, Protocol: v1.ProtocolTCP}}
			},
		},
		{
			name: "an init container's host port clash is reported at index 0, as the API server does",
			mutate: func(pod *v1.Pod) {
				setup := ctrContainer("setup")
				setup.Ports = []v1.ContainerPort{
					{ContainerPort: 80, HostPort: 80, Protocol: v1.ProtocolTCP},
					{ContainerPort: 81, HostPort: 80, Protocol: v1.ProtocolTCP},
				}
				pod.Spec.InitContainers = []v1.Container{ctrContainer("first"), setup}
			},
			want: []string{`spec.initContainers[0].ports[1].hostPort: Duplicate value: "TCP//80"`},
		},
		{
			name: "an init container that runs to completion may not have probes or lifecycle hooks",
			mutate: func(pod *v1.Pod) {
				setup := ctrContainer("setup")
				probe := &v1.Probe{ProbeHandler: v1.ProbeHandler{Exec: &v1.ExecAction{Command: []string{"true"}}}, SuccessThreshold: 1}
				setup.Lifecycle = &v1.Lifecycle{}
				setup.LivenessProbe, setup.ReadinessProbe, setup.StartupProbe = probe, probe, probe
				pod.Spec.InitContainers = []v1.Container{setup}
			},
			want: []string{
				`spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always`,
				`spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always`,
				`spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always`,
				`spec.initContainers[0].startupProbe: Forbidden: may not be set for init containers without restartPolicy=Always`,
			},
		},
		{
			name: "a sidecar's probes are checked as a regular container's",
			mutate: func(pod *v1.Pod) {
				proxy := ctrContainer("proxy")
				proxy.RestartPolicy = ptr.To(v1.ContainerRestartPolicyAlways)
				proxy.LivenessProbe = &v1.Probe{ProbeHandler: v1.ProbeHandler{TCPSocket: &v1.TCPSocketAction{Port: intstr.FromInt32(15000)}}, SuccessThreshold: 2}
				pod.Spec.InitContainers = []v1.Container{proxy}
			},
			want: []string{`spec.initContainers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1`},
		},
		{
			name: "an init container that runs to completion may not restart on resize",
			mutate: func(pod *v1.Pod) {
				setup := ctrContainer("setup")
				setup.ResizePolicy = []v1.ContainerResizePolicy{{ResourceName: v1.ResourceMemory, RestartPolicy: v1.RestartContainer}}
				pod.Spec.InitContainers = []v1.Container{setup}
			},
			want: []string{`spec.initContainers[0].resizePolicy[0].restartPolicy: Invalid value: "RestartContainer": must not be set to 'RestartContainer' for non-sidecar initContainers`},
		},
	})
}

func TestContainerFields(t *testing.T) {
	ctrRun(t, []ctrCase{
		{
			name:   "a container without a name is refused",
			mutate: ctrFirst(func(c *v1.Container) { c.Name = "" }),
			want:   []string{`spec.containers[0].name: Required value`},
		},
		{
			name:   "a container name that is not a DNS label is refused",
			mutate: ctrFirst(func(c *v1.Container) { c.Name = "App" }),
			want: []string{
				`spec.containers[0].name: Invalid value: "App": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
			},
		},
		{
			name:   "a container without an image is refused",
			mutate: ctrFirst(func(c *v1.Container) { c.Image = "" }),
			want:   []string{`spec.containers[0].image: Required value`},
		},
		{
			name:   "an image with surrounding whitespace is refused in a pod",
			mutate: ctrFirst(func(c *v1.Container) { c.Image = "nginx " }),
			want:   []string{`spec.containers[0].image: Invalid value: "nginx ": must not have leading or trailing whitespace`},
		},
		{
			name: "an init container's image with surrounding whitespace is refused in a pod",
			mutate: func(pod *v1.Pod) {
				setup := ctrContainer("setup")
				setup.Image = " busybox"
				pod.Spec.InitContainers = []v1.Container{setup}
			},
			want: []string{`spec.initContainers[0].image: Invalid value: " busybox": must not have leading or trailing whitespace`},
		},
		{
			name:   "a container without a termination message policy is refused",
			mutate: ctrFirst(func(c *v1.Container) { c.TerminationMessagePolicy = "" }),
			want:   []string{`spec.containers[0].terminationMessagePolicy: Required value`},
		},
		{
			name:   "an unknown termination message policy is refused",
			mutate: ctrFirst(func(c *v1.Container) { c.TerminationMessagePolicy = "Always" }),
			want:   []string{`spec.containers[0].terminationMessagePolicy: Unsupported value: "Always": supported values: "File", "FallbackToLogsOnError"`},
		},
		{
			name:   "a container without an image pull policy is refused",
			mutate: ctrFirst(func(c *v1.Container) { c.ImagePullPolicy = "" }),
			want:   []string{`spec.containers[0].imagePullPolicy: Required value`},
		},
		{
			name:   "an unknown image pull policy is refused",
			mutate: ctrFirst(func(c *v1.Container) { c.ImagePullPolicy = "Sometimes" }),
			want:   []string{`spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"`},
		},
	})
}

func TestContainerPorts(t *testing.T) {
	ctrRun(t, []ctrCase{
		{
			name:   "a port without a container port is refused",
			mutate: ctrFirst(func(c *v1.Container) { c.Ports = []v1.ContainerPort{{Protocol: v1.ProtocolTCP}} }),
			want:   []string{`spec.containers[0].ports[0].containerPort: Required value`},
		},
		{
			name: "port numbers out of range are refused",
			mutate: ctrFirst(func(c *v1.Container) {
				c.Ports = []v1.ContainerPort{{ContainerPort: 70000, HostPort: -1, Protocol: v1.ProtocolTCP}}
			}),
			want: []string{
				`spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive`,
				`spec.containers[0].ports[0].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive`,
			},
		},
		{
			name:   "a port without a protocol is refused",
			mutate: ctrFirst(func(c *v1.Container) { c.Ports = []v1.ContainerPort{{ContainerPort: 80}} }),
			want:   []string{`spec.containers[0].ports[0].protocol: Required value`},
		},
		{
			name:   "an unknown port protocol is refused",
			mutate: ctrFirst(func(c *v1.Container) { c.Ports = []v1.ContainerPort{{ContainerPort: 80, Protocol: "tcp"}} }),
			want:   []string{`spec.containers[0].ports[0].protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"`},
		},
		{
			name: "a port name that is not an IANA service name is refused",
			mutate: ctrFirst(func(c *v1.Container) {
				c.Ports = []v1.ContainerPort{{Name: "8080", ContainerPort: 8080, Protocol: v1.ProtocolTCP}}
			}),
			want: []string{`spec.containers[0].ports[0].name: Invalid value: "8080": must contain at least one letter (a-z)`},
		},
		{
			name: "two ports of a container with one name are refused",
			mutate: ctrFirst(func(c *v1.Container) {
				c.Ports = []v1.ContainerPort{
					{Name: "http", ContainerPort: 80, Protocol: v1.ProtocolTCP},
					{Name: "http", ContainerPort: 8080, Protocol: v1.ProtocolTCP},
				}
			}),
			want: []string{`spec.containers[0].ports[1].name: Duplicate value: "http"`},
		},
	})
}

func TestContainerPolicies(t *testing.T) {
	rule := func(action v1.ContainerRestartRuleAction, op v1.ContainerRestartRuleOnExitCodesOperator) v1.ContainerRestartRule {
		return v1.ContainerRestartRule{Action: action, ExitCodes: &v1.ContainerRestartRuleOnExitCodes{Operator: op, Values: []int32{42}}}
	}
	ctrRun(t, []ctrCase{
		{
			name: "a resource named twice in a resize policy is refused",
			mutate: ctrFirst(func(c *v1.Container) {
				c.ResizePolicy = []v1.ContainerResizePolicy{
					{ResourceName: v1.ResourceCPU, RestartPolicy: v1.NotRequired},
					{ResourceName: v1.ResourceCPU, RestartPolicy: v1.NotRequired},
				}
			}),
			want: []string{`spec.containers[0].resizePolicy[1]: Duplicate value: "cpu"`},
		},
		{
			name: "a resize policy for a resource other than cpu and memory, or without a policy, is refused",
			mutate: ctrFirst(func(c *v1.Container) {
				c.ResizePolicy = []v1.ContainerResizePolicy{{ResourceName: v1.ResourceEphemeralStorage}}
			}),
			want: []string{
				`spec.containers[0].resizePolicy: Unsupported value: "ephemeral-storage": supported values: "cpu", "memory"`,
				`spec.containers[0].resizePolicy: Required value`,
			},
		},
		{
			name: "a resize that restarts a container is refused in a pod that never restarts",
			mutate: func(pod *v1.Pod) {
				pod.Spec.RestartPolicy = v1.RestartPolicyNever
				pod.Spec.Containers[0].ResizePolicy = []v1.ContainerResizePolicy{{ResourceName: v1.ResourceMemory, RestartPolicy: v1.RestartContainer}}
			},
			want: []string{`spec.containers[0].resizePolicy: Invalid value: "RestartContainer": must be 'NotRequired' when pod ` + "`restartPolicy`" + ` is 'Never'`},
		},
		{
			name:   "an unknown container restart policy is refused",
			mutate: ctrFirst(func(c *v1.Container) { c.RestartPolicy = ptr.To[v1.ContainerRestartPolicy]("Sometimes") }),
			want:   []string{`spec.containers[0].restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure"`},
		},
		{
			name: "a regular container may restart on exit codes, even all containers",
			mutate: ctrFirst(func(c *v1.Container) {
				c.RestartPolicy = ptr.To(v1.ContainerRestartPolicyNever)
				c.RestartPolicyRules = []v1.ContainerRestartRule{rule(v1.ContainerRestartRuleActionRestartAllContainers, v1.ContainerRestartRuleOnExitCodesOpIn)}
			}),
		},
		{
			name: "restart rules without a restart policy are refused",
			mutate: ctrFirst(func(c *v1.Container) {
				c.RestartPolicyRules = []v1.ContainerRestartRule{rule(v1.ContainerRestartRuleActionRestart, v1.ContainerRestartRuleOnExitCodesOpIn)}
			}),
			want: []string{"spec.containers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used"},
		},
		{
			name: "an init container's restart rules without a restart policy are refused",
			mutate: func(pod *v1.Pod) {
				setup := ctrContainer("setup")
				setup.RestartPolicyRules = []v1.ContainerRestartRule{rule(v1.ContainerRestartRuleActionRestart, v1.ContainerRestartRuleOnExitCodesOpIn)}
				pod.Spec.InitContainers = []v1.Container{setup}
			},
			want: []string{"spec.initContainers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used"},
		},
		{
			name: "a restart rule with an unknown action or operator, or no exit codes, is refused",
			mutate: ctrFirst(func(c *v1.Container) {
				c.RestartPolicy = ptr.To(v1.ContainerRestartPolicyNever)
				c.RestartPolicyRules = []v1.ContainerRestartRule{rule("Reboot", "Equals"), {Action: v1.ContainerRestartRuleActionRestart}}
			}),
			want: []string{
				`spec.containers[0].restartPolicyRules[0].action: Unsupported value: "Reboot": supported values: "Restart", "RestartAllContainers"`,
				`spec.containers[0].restartPolicyRules[0].exitCodes.operator: Unsupported value: "Equals": supported values: "In", "NotIn"`,
				`spec.containers[0].restartPolicyRules[1].exitCodes: Required value: must be specified`,
			},
		},
		{
			name: "more than 20 restart rules, or 255 exit codes in one, are refused",
			mutate: ctrFirst(func(c *v1.Container) {
				c.RestartPolicy = ptr.To(v1.ContainerRestartPolicyNever)
				for range 21 {
					c.RestartPolicyRules = append(c.RestartPolicyRules, rule(v1.ContainerRestartRuleActionRestart, v1.ContainerRestartRuleOnExitCodesOpNotIn))
				}
				c.RestartPolicyRules[3].ExitCodes.Values = make([]int32, 256)
			}),
			want: []string{
				`spec.containers[0].restartPolicyRules: Too many: 21: must have at most 20 items`,
				`spec.containers[0].restartPolicyRules[3].exitCodes.values: Too many: 256: must have at most 255 items`,
			},
		},
	})
}

// TestContainersOnlyForPod checks the rule a template is spared: it is not part of the spec's
// checks, so a template with a " " image placeholder passes validateContainers.
func TestContainersOnlyForPod(t *testing.T) {
	pod := ctrPod()
	pod.Spec.Containers[0].Image = " "
	assert.Empty(t, validateContainers(&pod.Spec, nil, nil, ctrSpecPath().Child("containers")))
	assert.Equal(t, []string{`spec.containers[0].image: Invalid value: " ": must not have leading or trailing whitespace`},
		ctrTexts(validateContainersOnlyForPod(pod.Spec.Containers, ctrSpecPath().Child("containers"))))
}
