package security_test

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/security"
)

func TestImageUserFromStatus(t *testing.T) {
	for _, tc := range []struct {
		name         string
		image        *runtimeapi.Image
		wantUID      *int64
		wantUsername string
	}{
		{name: "no image runs as uid 0", image: nil, wantUID: ptr.To[int64](0)},
		{name: "image with neither uid nor user runs as uid 0", image: &runtimeapi.Image{Id: "sha256:a"}, wantUID: ptr.To[int64](0)},
		{name: "numeric user gives the uid", image: &runtimeapi.Image{Uid: &runtimeapi.Int64Value{Value: 1000}}, wantUID: ptr.To[int64](1000)},
		{name: "uid 0 is reported as 0", image: &runtimeapi.Image{Uid: &runtimeapi.Int64Value{Value: 0}}, wantUID: ptr.To[int64](0)},
		{name: "uid wins over a user name", image: &runtimeapi.Image{Uid: &runtimeapi.Int64Value{Value: 7}, Username: "app"}, wantUID: ptr.To[int64](7)},
		{name: "negative uid is passed on for VerifyRunAsNonRoot to reject", image: &runtimeapi.Image{Uid: &runtimeapi.Int64Value{Value: -5}}, wantUID: ptr.To[int64](-5)},
		{name: "user name without a uid", image: &runtimeapi.Image{Username: "nginx"}, wantUsername: "nginx"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			uid, username := security.ImageUserFromStatus(tc.image)
			assert.Equal(t, tc.wantUID, uid)
			assert.Equal(t, tc.wantUsername, username)
		})
	}
}

// imageServer is a CRI image service that answers ImageStatus from a map and records requests.
type imageServer struct {
	runtimeapi.UnimplementedImageServiceServer
	images map[string]*runtimeapi.Image
	err    error

	mu       sync.Mutex
	requests []*runtimeapi.ImageStatusRequest
}

func (s *imageServer) ImageStatus(_ context.Context, req *runtimeapi.ImageStatusRequest) (*runtimeapi.ImageStatusResponse, error) {
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	if s.err != nil {
		return nil, s.err
	}
	return &runtimeapi.ImageStatusResponse{Image: s.images[req.GetImage().GetImage()]}, nil
}

func dialImageService(t *testing.T, srv *imageServer) runtimeapi.ImageServiceClient {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	gs := grpc.NewServer()
	runtimeapi.RegisterImageServiceServer(gs, srv)
	go func() { _ = gs.Serve(lis) }()
	t.Cleanup(gs.Stop)
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	return runtimeapi.NewImageServiceClient(conn)
}

func TestCRIImageUser(t *testing.T) {
	srv := &imageServer{images: map[string]*runtimeapi.Image{
		"numeric": {Id: "sha256:1", Size: 10, Uid: &runtimeapi.Int64Value{Value: 1000}},
		"root":    {Id: "sha256:2", Size: 10, Uid: &runtimeapi.Int64Value{Value: 0}},
		"named":   {Id: "sha256:3", Size: 10, Username: "www-data"},
		"nobody":  {Id: "sha256:4", Size: 10},
		"no-id":   {Size: 10, Uid: &runtimeapi.Int64Value{Value: 1000}},
		"no-size": {Id: "sha256:5", Uid: &runtimeapi.Int64Value{Value: 1000}},
	}}
	resolver := security.CRIImageUser{Client: dialImageService(t, srv)}
	for _, tc := range []struct {
		name         string
		image        string
		wantUID      *int64
		wantUsername string
		wantErr      string
	}{
		{name: "numeric image user", image: "numeric", wantUID: ptr.To[int64](1000)},
		{name: "root image user", image: "root", wantUID: ptr.To[int64](0)},
		{name: "named image user", image: "named", wantUsername: "www-data"},
		{name: "image with no user runs as root", image: "nobody", wantUID: ptr.To[int64](0)},
		{name: "image the runtime does not have runs as root", image: "missing", wantUID: ptr.To[int64](0)},
		{name: "status without an id is rejected", image: "no-id", wantErr: `Id or size of image "no-id" is not set`},
		{name: "status without a size is rejected", image: "no-size", wantErr: `Id or size of image "no-size" is not set`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			uid, username, err := resolver.ImageUser(context.Background(), tc.image)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantUID, uid)
			assert.Equal(t, tc.wantUsername, username)
		})
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	require.NotEmpty(t, srv.requests)
	assert.Equal(t, "numeric", srv.requests[0].GetImage().GetImage())
	assert.False(t, srv.requests[0].GetVerbose())
}

// Kubelet's getImageUser returns the runtime's error as it came, so the container's failure reads
// the same.
func TestCRIImageUserRuntimeErrorIsReturnedUnwrapped(t *testing.T) {
	srv := &imageServer{err: status.Error(codes.Unavailable, "runtime down")}
	resolver := security.CRIImageUser{Client: dialImageService(t, srv)}
	uid, username, err := resolver.ImageUser(context.Background(), "busybox")
	require.EqualError(t, err, `rpc error: code = Unavailable desc = runtime down`)
	assert.Equal(t, codes.Unavailable, status.Code(err))
	assert.Nil(t, uid)
	assert.Empty(t, username)
}

func TestCRIImageUserWithoutClient(t *testing.T) {
	_, _, err := security.CRIImageUser{}.ImageUser(context.Background(), "busybox")
	require.ErrorIs(t, err, security.ErrInvalidInput)
}

func TestImageUserMapAndFunc(t *testing.T) {
	users := map[string]security.ImageUser{
		"numeric": {UID: ptr.To[int64](1000)},
		"both":    {UID: ptr.To[int64](5), Username: "five"},
		"named":   {Username: "app"},
		"empty":   {},
	}
	errRegistry := errors.New("registry unreachable")
	resolvers := map[string]security.ImageUserResolver{
		"map": security.ImageUserMap(users),
		"func": security.ImageUserFunc(func(_ context.Context, image string) (*int64, string, error) {
			if image == "failing" {
				return nil, "", errRegistry
			}
			u := users[image]
			return u.UID, u.Username, nil
		}),
	}
	tests := []struct {
		name, image  string
		wantUID      *int64
		wantUsername string
	}{
		{name: "a numeric user is its uid", image: "numeric", wantUID: ptr.To[int64](1000)},
		{name: "the uid wins over the name", image: "both", wantUID: ptr.To[int64](5)},
		{name: "a named user is its name", image: "named", wantUsername: "app"},
		{name: "an image that names no user runs as root", image: "empty", wantUID: ptr.To[int64](0)},
		{name: "an unknown image runs as root, so runAsNonRoot refuses it", image: "other", wantUID: ptr.To[int64](0)},
	}
	for kind, r := range resolvers {
		for _, tt := range tests {
			t.Run(kind+": "+tt.name, func(t *testing.T) {
				uid, username, err := r.ImageUser(context.Background(), tt.image)
				require.NoError(t, err)
				assert.Equal(t, tt.wantUID, uid)
				assert.Equal(t, tt.wantUsername, username)
				if uid != nil && users[tt.image].UID != nil {
					*uid = 42
					assert.NotEqual(t, int64(42), *users[tt.image].UID, "the source's uid is not handed out")
				}
			})
		}
	}
	t.Run("func: an error is passed on", func(t *testing.T) {
		_, _, err := resolvers["func"].ImageUser(context.Background(), "failing")
		assert.Same(t, errRegistry, err)
	})
}
