package volumes

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apitypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	clocktesting "k8s.io/utils/clock/testing"
)

type countingRequester struct {
	clock *clocktesting.FakeClock
	calls int
	fail  error
}

func (r *countingRequester) RequestToken(_ context.Context, ns, sa string, tr *authenticationv1.TokenRequest) (*authenticationv1.TokenRequest, error) {
	r.calls++
	if r.fail != nil {
		return nil, r.fail
	}
	out := tr.DeepCopy()
	out.Status.Token = "token-" + string(rune('0'+r.calls))
	out.Status.ExpirationTimestamp = metav1.NewTime(r.clock.Now().Add(time.Duration(*tr.Spec.ExpirationSeconds) * time.Second))
	return out, nil
}

func tokenRequest(uid string, exp int64) *authenticationv1.TokenRequest {
	return &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{
		ExpirationSeconds: &exp,
		BoundObjectRef:    &authenticationv1.BoundObjectReference{APIVersion: "v1", Kind: "Pod", Name: "web", UID: apitypes.UID("uid-" + uid)},
	}}
}

func TestTokenManagerRefresh(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		exp     int64
		elapsed time.Duration
		refresh bool
	}{
		{"a fresh token is served from the cache", 3600, 10 * time.Minute, false},
		{"a token before 80% of its TTL less the jitter is kept", 3600, 2870 * time.Second, false},
		{"a token past 80% of its TTL is refreshed", 3600, 2881 * time.Second, true},
		{"a year-long token is refreshed after 24 hours", 365 * 24 * 3600, 24 * time.Hour, true},
		{"a year-long token is kept before 24 hours less the jitter", 365 * 24 * 3600, 24*time.Hour - 11*time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := clocktesting.NewFakeClock(start)
			req := &countingRequester{clock: clk}
			m := NewTokenManager(req, clk)
			m.jitter = func() time.Duration { return 9 * time.Second }
			_, err := m.GetServiceAccountToken(context.Background(), "shop", "builder", tokenRequest("1", tc.exp))
			require.NoError(t, err)
			clk.Step(tc.elapsed)
			got, err := m.GetServiceAccountToken(context.Background(), "shop", "builder", tokenRequest("1", tc.exp))
			require.NoError(t, err)
			want := 1
			if tc.refresh {
				want = 2
			}
			assert.Equal(t, want, req.calls)
			assert.Equal(t, "token-"+string(rune('0'+want)), got.Status.Token)
		})
	}
}

func TestTokenManagerFailures(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	req := &countingRequester{clock: clk, fail: errors.New("boom")}
	m := NewTokenManager(req, clk)
	_, err := m.GetServiceAccountToken(context.Background(), "shop", "builder", tokenRequest("1", 3600))
	require.EqualError(t, err, "failed to fetch token: boom", "nothing cached")

	req.fail = nil
	_, err = m.GetServiceAccountToken(context.Background(), "shop", "builder", tokenRequest("1", 3600))
	require.NoError(t, err)
	req.fail = errors.New("boom")
	clk.Step(3000 * time.Second)
	got, err := m.GetServiceAccountToken(context.Background(), "shop", "builder", tokenRequest("1", 3600))
	require.NoError(t, err, "a failed refresh serves the cached token until it expires")
	assert.Equal(t, "token-2", got.Status.Token, "the token of the successful second request")

	clk.Step(601 * time.Second)
	_, err = m.GetServiceAccountToken(context.Background(), "shop", "builder", tokenRequest("1", 3600))
	require.EqualError(t, err, `token "builder"/"shop"/[]string(nil)/3600/v1.BoundObjectReference{Kind:"Pod", APIVersion:"v1", Name:"web", UID:"uid-1"}/"" expired and refresh failed: boom`)

	m.Cleanup()
	assert.Empty(t, m.cache, "expired tokens are dropped")
}

func TestTokenManagerKeysAndDelete(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	req := &countingRequester{clock: clk}
	m := NewTokenManager(req, clk)
	ctx := context.Background()
	for _, tr := range []*authenticationv1.TokenRequest{tokenRequest("1", 3600), tokenRequest("1", 7200), tokenRequest("2", 3600), tokenRequest("1", 3600)} {
		_, err := m.GetServiceAccountToken(ctx, "shop", "builder", tr)
		require.NoError(t, err)
	}
	assert.Equal(t, 3, req.calls, "expiration and bound pod are part of the key")
	m.DeleteServiceAccountToken("uid-1")
	assert.Len(t, m.cache, 1, "every token bound to the pod is dropped")
}

// apiServerRequester answers as the API server's TokenRequest storage does after its defaulting:
// an expirationSeconds under 10 minutes or over 2^32 seconds is Invalid, anything else gets a
// token. It records the expirations asked.
type apiServerRequester struct{ asked []int64 }

func (r *apiServerRequester) RequestToken(_ context.Context, _, _ string, tr *authenticationv1.TokenRequest) (*authenticationv1.TokenRequest, error) {
	exp := *tr.Spec.ExpirationSeconds
	r.asked = append(r.asked, exp)
	path := field.NewPath("spec", "expirationSeconds")
	var errs field.ErrorList
	if exp < 600 {
		errs = append(errs, field.Invalid(path, exp, "may not specify a duration less than 10 minutes"))
	}
	if exp > 1<<32 {
		errs = append(errs, field.Invalid(path, exp, "may not specify a duration larger than 2^32 seconds"))
	}
	if len(errs) > 0 {
		return nil, apierrors.NewInvalid(schema.GroupKind{Group: "authentication.k8s.io", Kind: "TokenRequest"}, "", errs)
	}
	out := tr.DeepCopy()
	out.Status.Token = "tok"
	return out, nil
}

// TestTokenProjectionExpiry: a projection's expirationSeconds is asked for as it is, as kubelet
// asks, and the API server's refusal is the volume's error through the token manager.
func TestTokenProjectionExpiry(t *testing.T) {
	for _, tc := range []struct {
		name string
		exp  int64
		err  string
	}{
		{"under 10 minutes is sent and refused by the API server", 599,
			`failed to fetch token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes`},
		{"over 2^32 seconds is sent and refused by the API server", 1<<32 + 1,
			`failed to fetch token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds`},
		{"10 minutes is issued", 600, ""},
		{"2^32 seconds is issued", 1 << 32, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := &apiServerRequester{}
			src := Sources{Tokens: NewTokenManager(req, nil)}
			vol := &v1.Volume{Name: "tok", VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: i32(0o644), Sources: []v1.VolumeProjection{
				{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: i64(tc.exp)}}}}}}
			p, err := src.Payload(context.Background(), testPod(), vol)
			assert.Equal(t, []int64{tc.exp}, req.asked, "the request carries the projection's expirationSeconds")
			if tc.err != "" {
				var ve *VolumeError
				require.ErrorAs(t, err, &ve)
				assert.EqualError(t, ve.Err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []string{"token -rw-r--r-- - tok"}, summary(p))
		})
	}
}
