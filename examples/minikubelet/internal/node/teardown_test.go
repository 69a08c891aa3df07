package node

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// stillRunning is a runtime that refuses to remove a container the first few times after it was
// stopped, as containerd 2.x does until it has handled the container's exit.
type stillRunning struct {
	runtimeapi.RuntimeServiceClient
	refusals int
	calls    int
}

func (s *stillRunning) RemoveContainer(context.Context, *runtimeapi.RemoveContainerRequest, ...grpc.CallOption) (*runtimeapi.RemoveContainerResponse, error) {
	s.calls++
	if s.calls <= s.refusals {
		return nil, errors.New(`failed to set removing state for container "c1": container is still running, to stop first`)
	}
	return &runtimeapi.RemoveContainerResponse{}, nil
}

func TestRemoveContainerRetriesWhileTheRuntimeStillHoldsItRunning(t *testing.T) {
	for _, tc := range []struct {
		name     string
		refusals int
		wantErr  bool
	}{
		{"removed at once", 0, false},
		{"removed once the runtime has handled the exit", 2, false},
		{"a runtime that keeps refusing: the error, after five tries", 10, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := &stillRunning{refusals: tc.refusals}
			r := &podRun{n: &Node{cfg: Config{Runtime: rt}}}
			err := r.removeContainer(context.Background(), "c1")
			if tc.wantErr {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "RemoveContainer c1: ")
				assert.Equal(t, 5, rt.calls)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.refusals+1, rt.calls)
		})
	}
}
