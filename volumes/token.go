package volumes

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
)

// TokenRequester asks the API server for a service-account token: POST
// serviceaccounts/<name>/token in namespace (client-go: ServiceAccounts(ns).CreateToken). The
// request's spec carries the audiences, expirationSeconds and the pod it is bound to; the answer's
// status carries the token and its expiry. The clientgo module has one over a clientset.
// Requests are passed on as the pod's projection asks, as kubelet passes them: the API server
// refuses an expirationSeconds under 600 or over 2^32 (`TokenRequest.authentication.k8s.io ""
// is invalid: spec.expirationSeconds: ...`), and a requester that is not one should refuse them
// too.
type TokenRequester interface {
	RequestToken(ctx context.Context, namespace, serviceAccount string, tr *authenticationv1.TokenRequest) (*authenticationv1.TokenRequest, error)
}

// TokenRequesterFunc adapts a function to TokenRequester.
type TokenRequesterFunc func(ctx context.Context, namespace, serviceAccount string, tr *authenticationv1.TokenRequest) (*authenticationv1.TokenRequest, error)

// RequestToken calls f.
func (f TokenRequesterFunc) RequestToken(ctx context.Context, namespace, serviceAccount string, tr *authenticationv1.TokenRequest) (*authenticationv1.TokenRequest, error) {
	if f == nil {
		return nil, fmt.Errorf("%w: nil TokenRequesterFunc", ErrMissingDependency)
	}
	return f(ctx, namespace, serviceAccount, tr)
}

// Refresh limits of kubelet's token manager.
const (
	tokenMaxTTL    = 24 * time.Hour
	tokenMaxJitter = 10 * time.Second
)

// TokenManager is kubelet's service-account token manager (pkg/kubelet/token): it caches the
// tokens of projected volumes and asks its TokenRequester for a new one once 80% of the token's
// lifetime, or 24 hours, have passed (less a jitter of up to 9 s, so pods do not refresh in
// step). It requests exactly the projection's expirationSeconds: the API server refuses less
// than 10 minutes, and with --service-account-extend-token-expiration may issue a longer token
// while reporting the requested expiry, which is what the refresh follows. When a refresh fails
// the cached token is returned as long as it has not expired. Safe for concurrent use.
type TokenManager struct {
	requester TokenRequester
	clock     clock.Clock
	// jitter, when set, replaces randomJitter (tests).
	jitter func() time.Duration

	mu    sync.RWMutex
	cache map[string]*authenticationv1.TokenRequest
}

var _ TokenGetter = (*TokenManager)(nil)

// NewTokenManager returns a TokenManager over requester; a nil clock is the real one. It starts
// no goroutine: call Cleanup periodically (kubelet: every minute) to drop expired tokens.
func NewTokenManager(requester TokenRequester, clk clock.Clock) *TokenManager {
	if clk == nil {
		clk = clock.RealClock{}
	}
	return &TokenManager{
		requester: requester,
		clock:     clk,
		cache:     make(map[string]*authenticationv1.TokenRequest),
	}
}

// GetServiceAccountToken returns the cached token for the request when it does not need a
// refresh, else a new one from the requester (kubelet: GetServiceAccountToken). Errors are
// kubelet's: "failed to fetch token: ..." with nothing cached, "token <key> expired and refresh
// failed: ..." when the cached one has expired.
func (m *TokenManager) GetServiceAccountToken(ctx context.Context, namespace, name string, tr *authenticationv1.TokenRequest) (*authenticationv1.TokenRequest, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil TokenManager", ErrMissingDependency)
	}
	if tr == nil {
		return nil, errors.New("no token request")
	}
	key := tokenKey(name, namespace, tr)
	m.mu.RLock()
	cached, ok := m.cache[key]
	m.mu.RUnlock()
	if ok && !m.requiresRefresh(cached) {
		return cached, nil
	}
	if m.requester == nil {
		return m.refreshFailed(key, cached, ok, errors.New("cannot use TokenManager when kubelet is in standalone mode"))
	}
	fresh, err := m.requester.RequestToken(ctx, namespace, name, tr)
	if err == nil && fresh == nil {
		err = errors.New("the token request returned no token")
	}
	if err != nil {
		return m.refreshFailed(key, cached, ok, err)
	}
	m.mu.Lock()
	if m.cache == nil {
		m.cache = make(map[string]*authenticationv1.TokenRequest)
	}
	m.cache[key] = fresh
	m.mu.Unlock()
	return fresh, nil
}

func (m *TokenManager) refreshFailed(key string, cached *authenticationv1.TokenRequest, ok bool, err error) (*authenticationv1.TokenRequest, error) {
	switch {
	case !ok:
		return nil, fmt.Errorf("failed to fetch token: %v", err)
	case m.expired(cached):
		return nil, fmt.Errorf("token %s expired and refresh failed: %v", key, err)
	}
	return cached, nil
}

// DeleteServiceAccountToken drops every cached token bound to the pod (kubelet: called when a
// projected volume is torn down).
func (m *TokenManager) DeleteServiceAccountToken(podUID types.UID) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, tr := range m.cache {
		if tr.Spec.BoundObjectRef != nil && tr.Spec.BoundObjectRef.UID == podUID {
			delete(m.cache, k)
		}
	}
}

// Cleanup drops the expired tokens (kubelet: every minute).
func (m *TokenManager) Cleanup() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, tr := range m.cache {
		if m.expired(tr) {
			delete(m.cache, k)
		}
	}
}

func (m *TokenManager) expired(tr *authenticationv1.TokenRequest) bool {
	return m.now().After(tr.Status.ExpirationTimestamp.Time)
}

// now reads the clock; a zero TokenManager uses the real one.
func (m *TokenManager) now() time.Time {
	if m.clock == nil {
		return time.Now()
	}
	return m.clock.Now()
}

// requiresRefresh reports whether the token is older than 24 hours or past 80% of its lifetime,
// each less the jitter (kubelet: requiresRefresh). A token requested without expirationSeconds
// is never refreshed.
func (m *TokenManager) requiresRefresh(tr *authenticationv1.TokenRequest) bool {
	if tr.Spec.ExpirationSeconds == nil {
		return false
	}
	now := m.now()
	exp := tr.Status.ExpirationTimestamp.Time
	ttl := *tr.Spec.ExpirationSeconds
	iat := exp.Add(-time.Duration(ttl) * time.Second)
	jitter := randomJitter()
	if m.jitter != nil {
		jitter = m.jitter()
	}
	if now.After(iat.Add(tokenMaxTTL - jitter)) {
		return true
	}
	return now.After(exp.Add(-time.Duration(ttl*20/100)*time.Second - jitter))
}

// tokenKey is kubelet's cache key (keyFunc): it names the service account, namespace, audiences,
// expiration, bound object and request UID, and holds no secret.
func tokenKey(name, namespace string, tr *authenticationv1.TokenRequest) string {
	var exp int64
	if tr.Spec.ExpirationSeconds != nil {
		exp = *tr.Spec.ExpirationSeconds
	}
	var ref authenticationv1.BoundObjectReference
	if tr.Spec.BoundObjectRef != nil {
		ref = *tr.Spec.BoundObjectRef
	}
	return fmt.Sprintf("%q/%q/%#v/%#v/%#v/%q", name, namespace, tr.Spec.Audiences, exp, ref, tr.UID)
}

// randomJitter is a whole number of seconds in [0, 9], subtracted from each refresh deadline.
func randomJitter() time.Duration {
	return time.Duration(rand.Float64()*tokenMaxJitter.Seconds()) * time.Second
}
