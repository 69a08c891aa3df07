package validation

// A container's probes and lifecycle: the handlers they run, their timings, and the stop signal.

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The values the API server accepts, each list sorted as it prints them.
var (
	probeHTTPSchemeSet   = sets.New(v1.URISchemeHTTP, v1.URISchemeHTTPS)
	probeHTTPSchemes     = sets.List(probeHTTPSchemeSet)
	probeHTTPProtocolSet = sets.New(v1.HTTPProtocolHTTP1, v1.HTTPProtocolHTTP2)
	probeHTTPProtocols   = sets.List(probeHTTPProtocolSet)
	probeGRPCModeSet     = sets.New(v1.GRPCProbeModePlaintext, v1.GRPCProbeModeTLS)
	probeGRPCModes       = sets.List(probeGRPCModeSet)
)

// probeHandler is what a probe or a lifecycle hook runs: at most one action is set. A probe has
// no sleep and a hook no gRPC, so each leaves that one nil.
type probeHandler struct {
	exec      *v1.ExecAction
	httpGet   *v1.HTTPGetAction
	tcpSocket *v1.TCPSocketAction
	grpc      *v1.GRPCAction
	sleep     *v1.SleepAction
}

// validateLivenessProbe checks a liveness probe: a probe whose single success restarts nothing,
// so successThreshold must be 1.
func validateLivenessProbe(probe *v1.Probe, grace *int64, fldPath *field.Path) field.ErrorList {
	if probe == nil {
		return nil
	}
	allErrs := validateProbe(probe, grace, fldPath)
	if probe.SuccessThreshold != 1 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("successThreshold"), probe.SuccessThreshold, "must be 1"))
	}
	return allErrs
}

// validateReadinessProbe checks a readiness probe, which kills nothing and so takes no
// terminationGracePeriodSeconds.
func validateReadinessProbe(probe *v1.Probe, grace *int64, fldPath *field.Path) field.ErrorList {
	if probe == nil {
		return nil
	}
	allErrs := validateProbe(probe, grace, fldPath)
	if probe.TerminationGracePeriodSeconds != nil {
		// The API server gives the pointer as the bad value; it prints as the number.
		allErrs = append(allErrs, field.Invalid(fldPath.Child("terminationGracePeriodSeconds"), probe.TerminationGracePeriodSeconds, "must not be set for readinessProbes"))
	}
	return allErrs
}

// validateStartupProbe checks a startup probe: like a liveness probe, successThreshold must be 1.
func validateStartupProbe(probe *v1.Probe, grace *int64, fldPath *field.Path) field.ErrorList {
	if probe == nil {
		return nil
	}
	allErrs := validateProbe(probe, grace, fldPath)
	if probe.SuccessThreshold != 1 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("successThreshold"), probe.SuccessThreshold, "must be 1"))
	}
	return allErrs
}

// validateProbe checks what every probe shares: one handler, timings not negative, and a
// positive terminationGracePeriodSeconds if set.
func validateProbe(probe *v1.Probe, grace *int64, fldPath *field.Path) field.ErrorList {
	h := &probe.ProbeHandler
	allErrs := validateHandler(probeHandler{exec: h.Exec, httpGet: h.HTTPGet, tcpSocket: h.TCPSocket, grpc: h.GRPC}, grace, fldPath)
	allErrs = append(allErrs, validateNonnegativeField(int64(probe.InitialDelaySeconds), fldPath.Child("initialDelaySeconds"))...)
	allErrs = append(allErrs, validateNonnegativeField(int64(probe.TimeoutSeconds), fldPath.Child("timeoutSeconds"))...)
	allErrs = append(allErrs, validateNonnegativeField(int64(probe.PeriodSeconds), fldPath.Child("periodSeconds"))...)
	allErrs = append(allErrs, validateNonnegativeField(int64(probe.SuccessThreshold), fldPath.Child("successThreshold"))...)
	allErrs = append(allErrs, validateNonnegativeField(int64(probe.FailureThreshold), fldPath.Child("failureThreshold"))...)
	if g := probe.TerminationGracePeriodSeconds; g != nil && *g <= 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("terminationGracePeriodSeconds"), *g, "must be greater than 0"))
	}
	return allErrs
}

// validateLifecycle is the API server's validateLifecycle: the postStart and preStop hooks and
// the stop signal for the pod's OS.
func validateLifecycle(lc *v1.Lifecycle, grace *int64, fldPath *field.Path, os *v1.PodOS) field.ErrorList {
	var allErrs field.ErrorList
	if h := lc.PostStart; h != nil {
		allErrs = append(allErrs, validateHandler(probeHandler{exec: h.Exec, httpGet: h.HTTPGet, tcpSocket: h.TCPSocket, sleep: h.Sleep}, grace, fldPath.Child("postStart"))...)
	}
	if h := lc.PreStop; h != nil {
		allErrs = append(allErrs, validateHandler(probeHandler{exec: h.Exec, httpGet: h.HTTPGet, tcpSocket: h.TCPSocket, sleep: h.Sleep}, grace, fldPath.Child("preStop"))...)
	}
	if lc.StopSignal != nil {
		allErrs = append(allErrs, validateStopSignal(lc.StopSignal, fldPath.Child("stopSignal"), os)...)
	}
	return allErrs
}

// validateHandler is the API server's validateHandler: exactly one action, the first one set is
// checked and each later one is refused.
func validateHandler(h probeHandler, grace *int64, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	set := 0
	// one records an action that is set: the first is checked by check, a later one refused.
	one := func(name string, check func(*field.Path) field.ErrorList) {
		if set > 0 {
			allErrs = append(allErrs, field.Forbidden(fldPath.Child(name), "may not specify more than 1 handler type"))
			return
		}
		set++
		allErrs = append(allErrs, check(fldPath.Child(name))...)
	}
	if h.exec != nil {
		one("exec", func(p *field.Path) field.ErrorList { return validateExecAction(h.exec, p) })
	}
	if h.httpGet != nil {
		one("httpGet", func(p *field.Path) field.ErrorList { return validateHTTPGetAction(h.httpGet, p) })
	}
	if h.tcpSocket != nil {
		one("tcpSocket", func(p *field.Path) field.ErrorList { return validatePortNumOrName(h.tcpSocket.Port, p.Child("port")) })
	}
	if h.grpc != nil {
		one("grpc", func(p *field.Path) field.ErrorList { return validateGRPCAction(h.grpc, p) })
	}
	if h.sleep != nil {
		one("sleep", func(p *field.Path) field.ErrorList { return validateSleepAction(h.sleep, grace, p) })
	}
	if set == 0 {
		allErrs = append(allErrs, field.Required(fldPath, "must specify a handler type"))
	}
	return allErrs
}

// validateExecAction requires a command.
func validateExecAction(exec *v1.ExecAction, fldPath *field.Path) field.ErrorList {
	if len(exec.Command) == 0 {
		return field.ErrorList{field.Required(fldPath.Child("command"), "")}
	}
	return nil
}

// validateHTTPGetAction checks an httpGet action: a path, a port, a known scheme, header names,
// and HTTP2 only in clear text with no host.
func validateHTTPGetAction(get *v1.HTTPGetAction, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if get.Path == "" {
		allErrs = append(allErrs, field.Required(fldPath.Child("path"), ""))
	}
	allErrs = append(allErrs, validatePortNumOrName(get.Port, fldPath.Child("port"))...)
	if !probeHTTPSchemeSet.Has(get.Scheme) {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("scheme"), get.Scheme, probeHTTPSchemes))
	}
	for _, header := range get.HTTPHeaders {
		for _, msg := range validation.IsHTTPHeaderName(header.Name) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("httpHeaders"), header.Name, msg))
		}
	}
	if p := get.Protocol; p != nil {
		switch {
		case !probeHTTPProtocolSet.Has(*p):
			allErrs = append(allErrs, field.NotSupported(fldPath.Child("protocol"), *p, probeHTTPProtocols))
		case *p == v1.HTTPProtocolHTTP2 && get.Scheme != v1.URISchemeHTTP:
			allErrs = append(allErrs, field.Invalid(fldPath.Child("protocol"), *p, "is only supported with HTTP (H2C)"))
		case *p == v1.HTTPProtocolHTTP2 && get.Host != "":
			allErrs = append(allErrs, field.Invalid(fldPath.Child("host"), get.Host, "must be empty when `protocol` is \"HTTP2\""))
		}
	}
	return allErrs
}

// validatePortNumOrName is the API server's ValidatePortNumOrName: a port number in range or a
// valid port name. A number's bad value is an int, as the API server gives it.
func validatePortNumOrName(port intstr.IntOrString, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	switch port.Type {
	case intstr.Int:
		for _, msg := range validation.IsValidPortNum(port.IntValue()) {
			allErrs = append(allErrs, field.Invalid(fldPath, port.IntValue(), msg))
		}
	case intstr.String:
		for _, msg := range validation.IsValidPortName(port.StrVal) {
			allErrs = append(allErrs, field.Invalid(fldPath, port.StrVal, msg))
		}
	default:
		allErrs = append(allErrs, field.InternalError(fldPath, fmt.Errorf("unknown type: %v", port.Type)))
	}
	return allErrs
}

// validateGRPCAction checks a grpc probe: a port number in range and a known mode.
func validateGRPCAction(grpc *v1.GRPCAction, fldPath *field.Path) field.ErrorList {
	allErrs := validatePortNumOrName(intstr.FromInt32(grpc.Port), fldPath.Child("port"))
	if grpc.Mode != nil && !probeGRPCModeSet.Has(*grpc.Mode) {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("mode"), *grpc.Mode, probeGRPCModes))
	}
	return allErrs
}

// validateSleepAction refuses a sleep that is negative or outlasts the pod's grace period. With
// no grace period (refused elsewhere) the sleep is not checked.
func validateSleepAction(sleep *v1.SleepAction, grace *int64, fldPath *field.Path) field.ErrorList {
	if grace != nil && (sleep.Seconds < 0 || sleep.Seconds > *grace) {
		return field.ErrorList{field.Invalid(fldPath, sleep.Seconds,
			fmt.Sprintf("must be non-negative and less than terminationGracePeriodSeconds (%d)", *grace))}
	}
	return nil
}

// The stop signals each OS accepts, sorted as the API server lists them.
var (
	probeStopSignalsLinuxSet = sets.New(
		v1.SIGABRT, v1.SIGALRM, v1.SIGBUS, v1.SIGCHLD, v1.SIGCLD, v1.SIGCONT, v1.SIGFPE, v1.SIGHUP,
		v1.SIGILL, v1.SIGINT, v1.SIGIO, v1.SIGIOT, v1.SIGKILL, v1.SIGPIPE, v1.SIGPOLL, v1.SIGPROF,
		v1.SIGPWR, v1.SIGQUIT, v1.SIGSEGV, v1.SIGSTKFLT, v1.SIGSTOP, v1.SIGSYS, v1.SIGTERM, v1.SIGTRAP,
		v1.SIGTSTP, v1.SIGTTIN, v1.SIGTTOU, v1.SIGURG, v1.SIGUSR1, v1.SIGUSR2, v1.SIGVTALRM, v1.SIGWINCH,
		v1.SIGXCPU, v1.SIGXFSZ, v1.SIGRTMIN, v1.SIGRTMINPLUS1, v1.SIGRTMINPLUS2, v1.SIGRTMINPLUS3,
		v1.SIGRTMINPLUS4, v1.SIGRTMINPLUS5, v1.SIGRTMINPLUS6, v1.SIGRTMINPLUS7, v1.SIGRTMINPLUS8,
		v1.SIGRTMINPLUS9, v1.SIGRTMINPLUS10, v1.SIGRTMINPLUS11, v1.SIGRTMINPLUS12, v1.SIGRTMINPLUS13,
		v1.SIGRTMINPLUS14, v1.SIGRTMINPLUS15, v1.SIGRTMAXMINUS14, v1.SIGRTMAXMINUS13, v1.SIGRTMAXMINUS12,
		v1.SIGRTMAXMINUS11, v1.SIGRTMAXMINUS10, v1.SIGRTMAXMINUS9, v1.SIGRTMAXMINUS8, v1.SIGRTMAXMINUS7,
		v1.SIGRTMAXMINUS6, v1.SIGRTMAXMINUS5, v1.SIGRTMAXMINUS4, v1.SIGRTMAXMINUS3, v1.SIGRTMAXMINUS2,
		v1.SIGRTMAXMINUS1, v1.SIGRTMAX,
	)
	probeStopSignalsLinux      = sets.List(probeStopSignalsLinuxSet)
	probeStopSignalsWindowsSet = sets.New(v1.SIGKILL, v1.SIGTERM)
	probeStopSignalsWindows    = sets.List(probeStopSignalsWindowsSet)
)

// validateStopSignal refuses a stop signal in a pod that does not name its OS, and one the
// named OS does not have.
func validateStopSignal(sig *v1.Signal, fldPath *field.Path, os *v1.PodOS) field.ErrorList {
	switch {
	case os == nil:
		return field.ErrorList{field.Forbidden(fldPath, "may not be set for containers with empty `spec.os.name`")}
	case os.Name == v1.Windows && !probeStopSignalsWindowsSet.Has(*sig):
		// The API server gives the pointer as the bad value; it prints as the quoted name.
		return field.ErrorList{field.NotSupported(fldPath, sig, probeStopSignalsWindows)}
	case os.Name == v1.Linux && !probeStopSignalsLinuxSet.Has(*sig):
		return field.ErrorList{field.NotSupported(fldPath, sig, probeStopSignalsLinux)}
	}
	return nil
}
