package validation

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// ctrExecProbe is a defaulted probe running "true".
func ctrExecProbe() *v1.Probe {
	return &v1.Probe{
		ProbeHandler:   v1.ProbeHandler{Exec: &v1.ExecAction{Command: []string{"true"}}},
		TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3,
	}
}

// ctrProbe sets the first container's liveness probe, changed by change.
func ctrProbe(change func(p *v1.Probe)) func(*v1.Pod) {
	return ctrFirst(func(c *v1.Container) {
		c.LivenessProbe = ctrExecProbe()
		change(c.LivenessProbe)
	})
}

// ctrHTTPGet is a defaulted httpGet action.
func ctrHTTPGet() *v1.HTTPGetAction {
	return &v1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(8080), Scheme: v1.URISchemeHTTP}
}

func TestContainerProbes(t *testing.T) {
	ctrRun(t, []ctrCase{
		{
			name:   "a probe without a handler is refused",
			mutate: ctrProbe(func(p *v1.Probe) { p.Exec = nil }),
			want:   []string{`spec.containers[0].livenessProbe: Required value: must specify a handler type`},
		},
		{
			name:   "a probe with two handlers is refused on the second",
			mutate: ctrProbe(func(p *v1.Probe) { p.TCPSocket = &v1.TCPSocketAction{Port: intstr.FromString("http")} }),
			want:   []string{`spec.containers[0].livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type`},
		},
		{
			name:   "an exec handler without a command is refused",
			mutate: ctrProbe(func(p *v1.Probe) { p.Exec.Command = nil }),
			want:   []string{`spec.containers[0].livenessProbe.exec.command: Required value`},
		},
		{
			name: "negative probe timings are refused",
			mutate: ctrProbe(func(p *v1.Probe) {
				p.InitialDelaySeconds, p.TimeoutSeconds, p.PeriodSeconds, p.FailureThreshold = -1, -2, -3, -4
			}),
			want: []string{
				`spec.containers[0].livenessProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0`,
				`spec.containers[0].livenessProbe.timeoutSeconds: Invalid value: -2: must be greater than or equal to 0`,
				`spec.containers[0].livenessProbe.periodSeconds: Invalid value: -3: must be greater than or equal to 0`,
				`spec.containers[0].livenessProbe.failureThreshold: Invalid value: -4: must be greater than or equal to 0`,
			},
		},
		{
			name:   "a liveness probe's successThreshold other than 1 is refused",
			mutate: ctrProbe(func(p *v1.Probe) { p.SuccessThreshold = 3 }),
			want:   []string{`spec.containers[0].livenessProbe.successThreshold: Invalid value: 3: must be 1`},
		},
		{
			name:   "a probe's terminationGracePeriodSeconds of 0 is refused",
			mutate: ctrProbe(func(p *v1.Probe) { p.TerminationGracePeriodSeconds = ptr.To[int64](0) }),
			want:   []string{`spec.containers[0].livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0`},
		},
		{
			name: "a readiness probe may succeed after several tries but may not set terminationGracePeriodSeconds",
			mutate: ctrFirst(func(c *v1.Container) {
				c.ReadinessProbe = ctrExecProbe()
				c.ReadinessProbe.SuccessThreshold = 3
				c.ReadinessProbe.TerminationGracePeriodSeconds = ptr.To[int64](10)
			}),
			want: []string{`spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes`},
		},
		{
			name: "a startup probe's successThreshold other than 1 is refused",
			mutate: ctrFirst(func(c *v1.Container) {
				c.StartupProbe = ctrExecProbe()
				c.StartupProbe.SuccessThreshold = 0
			}),
			want: []string{`spec.containers[0].startupProbe.successThreshold: Invalid value: 0: must be 1`},
		},
		{
			name: "an httpGet without a path, on a port out of range, with an unknown scheme and a bad header, is refused",
			mutate: ctrProbe(func(p *v1.Probe) {
				p.Exec = nil
				p.HTTPGet = &v1.HTTPGetAction{Port: intstr.FromInt32(0), Scheme: "FTP", HTTPHeaders: []v1.HTTPHeader{{Name: "X Bad"}}}
			}),
			want: []string{
				`spec.containers[0].livenessProbe.httpGet.path: Required value`,
				`spec.containers[0].livenessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive`,
				`spec.containers[0].livenessProbe.httpGet.scheme: Unsupported value: "FTP": supported values: "HTTP", "HTTPS"`,
				`spec.containers[0].livenessProbe.httpGet.httpHeaders: Invalid value: "X Bad": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`,
			},
		},
		{
			name: "an httpGet over HTTP2 needs clear text",
			mutate: ctrProbe(func(p *v1.Probe) {
				p.Exec = nil
				p.HTTPGet = ctrHTTPGet()
				p.HTTPGet.Scheme = v1.URISchemeHTTPS
				p.HTTPGet.Protocol = ptr.To(v1.HTTPProtocolHTTP2)
			}),
			want: []string{`spec.containers[0].livenessProbe.httpGet.protocol: Invalid value: "HTTP2": is only supported with HTTP (H2C)`},
		},
		{
			name: "an httpGet over HTTP2 may not name a host",
			mutate: ctrProbe(func(p *v1.Probe) {
				p.Exec = nil
				p.HTTPGet = ctrHTTPGet()
				p.HTTPGet.Host = "example.com"
				p.HTTPGet.Protocol = ptr.To(v1.HTTPProtocolHTTP2)
			}),
			want: []string{`spec.containers[0].livenessProbe.httpGet.host: Invalid value: "example.com": must be empty when ` + "`protocol`" + ` is "HTTP2"`},
		},
		{
			name: "an unknown httpGet protocol is refused",
			mutate: ctrProbe(func(p *v1.Probe) {
				p.Exec = nil
				p.HTTPGet = ctrHTTPGet()
				p.HTTPGet.Protocol = ptr.To[v1.HTTPProtocol]("HTTP3")
			}),
			want: []string{`spec.containers[0].livenessProbe.httpGet.protocol: Unsupported value: "HTTP3": supported values: "HTTP1", "HTTP2"`},
		},
		{
			name: "a tcpSocket port name that is not a service name is refused",
			mutate: ctrProbe(func(p *v1.Probe) {
				p.Exec = nil
				p.TCPSocket = &v1.TCPSocketAction{Port: intstr.FromString("-http")}
			}),
			want: []string{`spec.containers[0].livenessProbe.tcpSocket.port: Invalid value: "-http": must not begin or end with a hyphen`},
		},
		{
			name: "a port that is neither a number nor a name is an internal error",
			mutate: ctrProbe(func(p *v1.Probe) {
				p.Exec = nil
				p.TCPSocket = &v1.TCPSocketAction{Port: intstr.IntOrString{Type: 2}}
			}),
			want: []string{`spec.containers[0].livenessProbe.tcpSocket.port: Internal error: unknown type: 2`},
		},
		{
			name: "a grpc probe on a port out of range, with an unknown mode, is refused",
			mutate: ctrProbe(func(p *v1.Probe) {
				p.Exec = nil
				p.GRPC = &v1.GRPCAction{Port: 65536, Mode: ptr.To[v1.GRPCProbeMode]("Insecure")}
			}),
			want: []string{
				`spec.containers[0].livenessProbe.grpc.port: Invalid value: 65536: must be between 1 and 65535, inclusive`,
				`spec.containers[0].livenessProbe.grpc.mode: Unsupported value: "Insecure": supported values: "Plaintext", "TLS"`,
			},
		},
	})
}

func TestContainerLifecycle(t *testing.T) {
	lifecycle := func(lc *v1.Lifecycle) func(*v1.Pod) {
		return ctrFirst(func(c *v1.Container) { c.Lifecycle = lc })
	}
	sleep := func(seconds int64) *v1.LifecycleHandler {
		return &v1.LifecycleHandler{Sleep: &v1.SleepAction{Seconds: seconds}}
	}
	ctrRun(t, []ctrCase{
		{
			name:   "a hook without a handler is refused",
			mutate: lifecycle(&v1.Lifecycle{PostStart: &v1.LifecycleHandler{}}),
			want:   []string{`spec.containers[0].lifecycle.postStart: Required value: must specify a handler type`},
		},
		{
			name:   "a preStop sleep longer than the grace period is refused",
			mutate: lifecycle(&v1.Lifecycle{PreStop: sleep(31)}),
			want:   []string{`spec.containers[0].lifecycle.preStop.sleep: Invalid value: 31: must be non-negative and less than terminationGracePeriodSeconds (30)`},
		},
		{
			name:   "a negative sleep is refused",
			mutate: lifecycle(&v1.Lifecycle{PostStart: sleep(-1)}),
			want:   []string{`spec.containers[0].lifecycle.postStart.sleep: Invalid value: -1: must be non-negative and less than terminationGracePeriodSeconds (30)`},
		},
		{
			name: "a sleep is not checked when the pod has no grace period, which is refused alone",
			mutate: func(pod *v1.Pod) {
				pod.Spec.TerminationGracePeriodSeconds = nil
				lifecycle(&v1.Lifecycle{PreStop: sleep(3600)})(pod)
			},
			want: []string{`spec.terminationGracePeriodSeconds: Required value`},
		},
		{
			name:   "a stop signal in a pod that names no OS is refused",
			mutate: lifecycle(&v1.Lifecycle{StopSignal: ptr.To(v1.SIGUSR1)}),
			want:   []string{"spec.containers[0].lifecycle.stopSignal: Forbidden: may not be set for containers with empty `spec.os.name`"},
		},
		{
			name: "a stop signal a Linux pod lacks is refused",
			mutate: func(pod *v1.Pod) {
				pod.Spec.OS = &v1.PodOS{Name: v1.Linux}
				lifecycle(&v1.Lifecycle{StopSignal: ptr.To[v1.Signal]("SIGINFO")})(pod)
			},
			want: []string{`spec.containers[0].lifecycle.stopSignal: Unsupported value: "SIGINFO": supported values: ` +
				`"SIGABRT", "SIGALRM", "SIGBUS", "SIGCHLD", "SIGCLD", "SIGCONT", "SIGFPE", "SIGHUP", "SIGILL", "SIGINT", "SIGIO", "SIGIOT", ` +
				`"SIGKILL", "SIGPIPE", "SIGPOLL", "SIGPROF", "SIGPWR", "SIGQUIT", "SIGRTMAX", "SIGRTMAX-1", "SIGRTMAX-10", "SIGRTMAX-11", ` +
				`"SIGRTMAX-12", "SIGRTMAX-13", "SIGRTMAX-14", "SIGRTMAX-2", "SIGRTMAX-3", "SIGRTMAX-4", "SIGRTMAX-5", "SIGRTMAX-6", ` +
				`"SIGRTMAX-7", "SIGRTMAX-8", "SIGRTMAX-9", "SIGRTMIN", "SIGRTMIN+1", "SIGRTMIN+10", "SIGRTMIN+11", "SIGRTMIN+12", ` +
				`"SIGRTMIN+13", "SIGRTMIN+14", "SIGRTMIN+15", "SIGRTMIN+2", "SIGRTMIN+3", "SIGRTMIN+4", "SIGRTMIN+5", "SIGRTMIN+6", ` +
				`"SIGRTMIN+7", "SIGRTMIN+8", "SIGRTMIN+9", "SIGSEGV", "SIGSTKFLT", "SIGSTOP", "SIGSYS", "SIGTERM", "SIGTRAP", "SIGTSTP", ` +
				`"SIGTTIN", "SIGTTOU", "SIGURG", "SIGUSR1", "SIGUSR2", "SIGVTALRM", "SIGWINCH", "SIGXCPU", "SIGXFSZ"`},
		},
		{
			name: "a stop signal other than SIGKILL and SIGTERM in a Windows pod is refused",
			mutate: func(pod *v1.Pod) {
				pod.Spec.OS = &v1.PodOS{Name: v1.Windows}
				lifecycle(&v1.Lifecycle{StopSignal: ptr.To(v1.SIGUSR1)})(pod)
			},
			want: []string{`spec.containers[0].lifecycle.stopSignal: Unsupported value: "SIGUSR1": supported values: "SIGKILL", "SIGTERM"`},
		},
	})
}
