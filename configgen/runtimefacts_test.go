package configgen_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
)

// fakeRuntime answers RuntimeConfig and Status with fixed responses or errors.
type fakeRuntime struct {
	config    *runtimeapi.RuntimeConfigResponse
	configErr error
	status    *runtimeapi.StatusResponse
	statusErr error
}

func (f fakeRuntime) RuntimeConfig(context.Context, *runtimeapi.RuntimeConfigRequest, ...grpc.CallOption) (*runtimeapi.RuntimeConfigResponse, error) {
	return f.config, f.configErr
}

func (f fakeRuntime) Status(context.Context, *runtimeapi.StatusRequest, ...grpc.CallOption) (*runtimeapi.StatusResponse, error) {
	return f.status, f.statusErr
}

func readyStatus(handlers ...*runtimeapi.RuntimeHandler) *runtimeapi.StatusResponse {
	return &runtimeapi.StatusResponse{
		Status: &runtimeapi.RuntimeStatus{Conditions: []*runtimeapi.RuntimeCondition{
			{Type: runtimeapi.RuntimeReady, Status: true}, {Type: runtimeapi.NetworkReady, Status: true},
		}},
		RuntimeHandlers: handlers,
	}
}

func driver(d runtimeapi.CgroupDriver) *runtimeapi.RuntimeConfigResponse {
	return &runtimeapi.RuntimeConfigResponse{Linux: &runtimeapi.LinuxRuntimeConfiguration{CgroupDriver: d}}
}

func TestReadRuntimeFacts(t *testing.T) {
	rro := &runtimeapi.RuntimeHandler{Name: "", Features: &runtimeapi.RuntimeHandlerFeatures{RecursiveReadOnlyMounts: true, UserNamespaces: true}}
	plain := &runtimeapi.RuntimeHandler{Name: "runc"}
	for _, tc := range []struct {
		name     string
		rt       configgen.RuntimeStatusClient
		want     configgen.RuntimeFacts
		wantErr  string
		wantKind error
	}{
		{name: "the runtime's cgroupfs driver is taken from RuntimeConfig",
			rt:   fakeRuntime{config: driver(runtimeapi.CgroupDriver_CGROUPFS), status: readyStatus(rro, plain)},
			want: configgen.RuntimeFacts{CgroupDriver: configgen.CgroupDriverCgroupfs, Handlers: []*runtimeapi.RuntimeHandler{rro, plain}}},
		{name: "the runtime's systemd driver is taken from RuntimeConfig",
			rt:   fakeRuntime{config: driver(runtimeapi.CgroupDriver_SYSTEMD), status: readyStatus()},
			want: configgen.RuntimeFacts{CgroupDriver: configgen.CgroupDriverSystemd}},
		{name: "a runtime without RuntimeConfig (Unimplemented) leaves the configured driver",
			rt:   fakeRuntime{configErr: status.Error(codes.Unimplemented, "unknown method RuntimeConfig"), status: readyStatus(rro)},
			want: configgen.RuntimeFacts{Handlers: []*runtimeapi.RuntimeHandler{rro}}},
		{name: "a RuntimeConfig without a Linux section leaves the configured driver",
			rt:   fakeRuntime{config: &runtimeapi.RuntimeConfigResponse{}, status: readyStatus()},
			want: configgen.RuntimeFacts{}},
		{name: "an unknown cgroup driver is an error",
			rt:      fakeRuntime{config: driver(runtimeapi.CgroupDriver(7)), status: readyStatus()},
			wantErr: "runtime facts: runtime returned an unknown cgroup driver 7"},
		{name: "another RuntimeConfig error is returned",
			rt:      fakeRuntime{configErr: status.Error(codes.Unavailable, "connection refused"), status: readyStatus()},
			wantErr: "runtime facts: RuntimeConfig: rpc error: code = Unavailable desc = connection refused"},
		{name: "a Status error is returned",
			rt:      fakeRuntime{config: driver(runtimeapi.CgroupDriver_CGROUPFS), statusErr: status.Error(codes.Unavailable, "down")},
			wantErr: "runtime facts: Status: rpc error: code = Unavailable desc = down"},
		{name: "handlers of a runtime that is not ready are not taken",
			rt: fakeRuntime{config: driver(runtimeapi.CgroupDriver_CGROUPFS), status: &runtimeapi.StatusResponse{
				Status:          &runtimeapi.RuntimeStatus{Conditions: []*runtimeapi.RuntimeCondition{{Type: runtimeapi.RuntimeReady, Status: false, Reason: "Starting"}}},
				RuntimeHandlers: []*runtimeapi.RuntimeHandler{rro},
			}},
			wantKind: configgen.ErrRuntimeNotReady},
		{name: "a runtime with no RuntimeReady condition is not ready",
			rt:       fakeRuntime{config: driver(runtimeapi.CgroupDriver_CGROUPFS), status: &runtimeapi.StatusResponse{}},
			wantErr:  "runtime facts: runtime not ready: container runtime not ready: <nil>",
			wantKind: configgen.ErrRuntimeNotReady},
		{name: "no client is a missing dependency",
			rt: nil, wantKind: configgen.ErrInvalidOptions},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := configgen.ReadRuntimeFacts(context.Background(), tc.rt)
			if tc.wantErr == "" && tc.wantKind == nil {
				require.NoError(t, err)
				assert.Equal(t, tc.want, got)
				return
			}
			require.Error(t, err)
			if tc.wantErr != "" {
				assert.Equal(t, tc.wantErr, err.Error())
			}
			if tc.wantKind != nil {
				assert.True(t, errors.Is(err, tc.wantKind), "%v is %v", err, tc.wantKind)
			}
		})
	}
}

func TestRuntimeFactsApplyAndUserNamespaceHandlers(t *testing.T) {
	handlers := []*runtimeapi.RuntimeHandler{
		{Name: "", Features: &runtimeapi.RuntimeHandlerFeatures{RecursiveReadOnlyMounts: true, UserNamespaces: true}},
		{Name: "kata"},
	}
	opts := configgen.Options{Cgroups: configgen.NodeCgroups{Driver: configgen.CgroupDriverSystemd, Root: "/r"}}
	configgen.RuntimeFacts{Handlers: handlers}.Apply(&opts)
	assert.Equal(t, configgen.CgroupDriverSystemd, opts.Cgroups.Driver, "no driver reported: the configured one stays")
	assert.Equal(t, handlers, opts.RuntimeHandlers)
	configgen.RuntimeFacts{CgroupDriver: configgen.CgroupDriverCgroupfs}.Apply(&opts)
	assert.Equal(t, configgen.NodeCgroups{Driver: configgen.CgroupDriverCgroupfs, Root: "/r"}, opts.Cgroups, "the runtime's driver wins")
	assert.Nil(t, opts.RuntimeHandlers)

	assert.Equal(t, map[string]bool{"": true, "kata": false}, configgen.RuntimeFacts{Handlers: handlers}.UserNamespaceHandlers())
	assert.Nil(t, configgen.RuntimeFacts{}.UserNamespaceHandlers(), "no handler list: no support, as kubelet takes it")
}

// A custom kubelet asks its runtime for the facts kubelet takes from it (here a fake runtime that
// reports the systemd driver and one handler) and puts them in the Generator's Options; on a node
// the client is runtimeapi.NewRuntimeServiceClient(conn).
func ExampleReadRuntimeFacts() {
	var rt configgen.RuntimeStatusClient = fakeRuntime{
		config: driver(runtimeapi.CgroupDriver_SYSTEMD),
		status: readyStatus(&runtimeapi.RuntimeHandler{Name: "runc", Features: &runtimeapi.RuntimeHandlerFeatures{
			RecursiveReadOnlyMounts: true, UserNamespaces: true,
		}}),
	}
	facts, err := configgen.ReadRuntimeFacts(context.Background(), rt)
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := configgen.Options{Cgroups: configgen.NodeCgroups{Driver: configgen.CgroupDriverCgroupfs}} // --cgroup-driver
	facts.Apply(&opts)
	fmt.Println(opts.Cgroups.Driver, len(opts.RuntimeHandlers), facts.UserNamespaceHandlers())
	// Output: systemd 1 map[runc:true]
}
