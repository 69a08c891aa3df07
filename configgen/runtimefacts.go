package configgen

import (
	"context"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/internal/errkind"
)

// RuntimeStatusClient is the part of the CRI runtime service ReadRuntimeFacts uses;
// runtimeapi.RuntimeServiceClient implements it.
type RuntimeStatusClient interface {
	RuntimeConfig(ctx context.Context, in *runtimeapi.RuntimeConfigRequest, opts ...grpc.CallOption) (*runtimeapi.RuntimeConfigResponse, error)
	Status(ctx context.Context, in *runtimeapi.StatusRequest, opts ...grpc.CallOption) (*runtimeapi.StatusResponse, error)
}

var _ RuntimeStatusClient = runtimeapi.RuntimeServiceClient(nil)

// RuntimeFacts are the node facts kubelet takes from the CRI runtime rather than from its own
// configuration: the cgroup driver and the runtime handlers with their features.
type RuntimeFacts struct {
	// CgroupDriver is the driver the runtime reported in RuntimeConfig, or "" when it reported
	// none (a runtime without the RuntimeConfig call, such as containerd 1.6, or without a Linux
	// section): kubelet then keeps its own --cgroup-driver.
	CgroupDriver CgroupDriver
	// Handlers are the runtime handlers Status reported, each with whether it supports
	// recursive read-only mounts and user namespaces; nil when the runtime reports no handler
	// list (containerd 1.6), which kubelet takes as no support for either.
	Handlers []*runtimeapi.RuntimeHandler
}

// ReadRuntimeFacts asks the runtime what kubelet v1.37 asks it at start-up and with each status
// sync: RuntimeConfig for the cgroup driver (kubelet's getCgroupDriverFromCRI: Unimplemented
// means "keep the configured driver", a driver other than systemd or cgroupfs is an error) and
// Status for the runtime handlers (kubelet's updateRuntimeStatus, which takes the handlers only
// from a runtime whose RuntimeReady condition is true). A failed call is returned wrapped; kubelet
// retries RuntimeConfig three times, two seconds apart, and Status on its next sync: call again.
func ReadRuntimeFacts(ctx context.Context, rt RuntimeStatusClient) (RuntimeFacts, error) {
	var facts RuntimeFacts
	if rt == nil {
		return facts, fmt.Errorf("runtime facts: no CRI runtime client: %w", ErrInvalidOptions)
	}
	cfg, err := rt.RuntimeConfig(ctx, &runtimeapi.RuntimeConfigRequest{})
	switch {
	case status.Code(err) == codes.Unimplemented:
	case err != nil:
		return facts, fmt.Errorf("runtime facts: RuntimeConfig: %w", err)
	case cfg.GetLinux() != nil:
		switch d := cfg.GetLinux().GetCgroupDriver(); d {
		case runtimeapi.CgroupDriver_SYSTEMD:
			facts.CgroupDriver = CgroupDriverSystemd
		case runtimeapi.CgroupDriver_CGROUPFS:
			facts.CgroupDriver = CgroupDriverCgroupfs
		default:
			return facts, fmt.Errorf("runtime facts: runtime returned an unknown cgroup driver %d", d)
		}
	}
	st, err := rt.Status(ctx, &runtimeapi.StatusRequest{})
	if err != nil {
		return facts, fmt.Errorf("runtime facts: Status: %w", err)
	}
	var ready *runtimeapi.RuntimeCondition
	for _, c := range st.GetStatus().GetConditions() {
		if c.GetType() == runtimeapi.RuntimeReady {
			ready = c
		}
	}
	if ready == nil || !ready.GetStatus() {
		return facts, fmt.Errorf("runtime facts: %w: container runtime not ready: %v", ErrRuntimeNotReady, ready)
	}
	facts.Handlers = st.GetRuntimeHandlers()
	return facts, nil
}

// ErrRuntimeNotReady is returned by ReadRuntimeFacts when the runtime's RuntimeReady condition is
// missing or false; kubelet waits for it before it starts pods.
var ErrRuntimeNotReady = errkind.Sentinel(errkind.DependencyFailed, "runtime not ready")

// Apply sets what the runtime reported in opts: the cgroup driver, when it reported one, and the
// runtime handlers (which decide whether recursiveReadOnly: IfPossible mounts are recursive). A nil
// opts is left alone.
func (f RuntimeFacts) Apply(opts *Options) {
	if opts == nil {
		return
	}
	if f.CgroupDriver != "" {
		opts.Cgroups.Driver = f.CgroupDriver
	}
	opts.RuntimeHandlers = f.Handlers
}

// UserNamespaceHandlers returns, per handler name, whether it supports user namespaces: what
// security.CheckUserNamespaceSupport takes, and what a security.UserNamespaceMapper checks
// before it maps a pod with hostUsers: false.
func (f RuntimeFacts) UserNamespaceHandlers() map[string]bool {
	if len(f.Handlers) == 0 {
		return nil
	}
	out := make(map[string]bool, len(f.Handlers))
	for _, h := range f.Handlers {
		out[h.GetName()] = h.GetFeatures().GetUserNamespaces()
	}
	return out
}
