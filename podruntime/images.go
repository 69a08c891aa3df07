package podruntime

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	crierrors "k8s.io/cri-api/pkg/errors"
	"k8s.io/utils/clock"

	"github.com/podconfig/podconfig/images"
)

// Kubelet's image-pull back-off: 10s after a failed pull, doubled per failure up to 300s, started
// over once twice the maximum passed without a failure.
const (
	imageBackOffInitial = 10 * time.Second
	imageBackOffMax     = 300 * time.Second
)

// imagePuller is kubelet's image manager for pods with no pull secrets: it decides pulls by
// pull policy, pulls one image at a time (kubelet's default serializeImagePulls), and keeps a
// back-off per pod and image after a failed pull.
type imagePuller struct {
	client runtimeapi.ImageServiceClient
	clock  clock.Clock

	pullMu sync.Mutex // one pull at a time

	mu      sync.Mutex
	backOff map[string]*imageBackOffEntry
}

type imageBackOffEntry struct {
	delay      time.Duration
	lastUpdate time.Time
	// lastErr is the last failed pull's reason and message, shown while the back-off lasts.
	lastErr string
}

func newImagePuller(client runtimeapi.ImageServiceClient, clk clock.Clock) *imagePuller {
	return &imagePuller{client: client, clock: clk, backOff: map[string]*imageBackOffEntry{}}
}

// imageRequest is an image to make present for a pod: a container's or an image volume's.
type imageRequest struct {
	pod     *v1.Pod
	image   string
	policy  v1.PullPolicy
	sandbox *runtimeapi.PodSandboxConfig
}

// ensureImageExists makes sure the image is present by its pull policy and returns the
// reference the runtime resolved, as kubelet's EnsureImageExists does: a message and one of
// ErrInvalidImageName, ErrImageInspect, ErrImageNeverPull, ErrImagePullBackOff, ErrImagePull
// (or the CRI's RegistryUnavailable and SignatureValidationFailed) on failure, with the event
// kubelet records. record reports the event under the request's reference.
func (p *imagePuller) ensureImageExists(ctx context.Context, req imageRequest, record func(typ, reason, msg string)) (ref, msg string, reason error, cause error) {
	image, err := applyDefaultImageTag(req.image)
	if err != nil {
		msg := fmt.Sprintf("Failed to apply default image tag %q: %v", req.image, err)
		record(v1.EventTypeWarning, EventInspectFailed, msg)
		return "", msg, ErrInvalidImageName, err
	}
	spec := &runtimeapi.ImageSpec{Image: image, Annotations: copyMap(req.pod.Annotations)}
	if req.policy != v1.PullAlways {
		ref, err = images.GetImageRef(ctx, p.client, spec)
		if err != nil {
			// Kubelet names the reference it did not get, so the quotes are empty.
			msg := fmt.Sprintf("Failed to inspect image %q: %v", ref, err)
			record(v1.EventTypeWarning, EventInspectFailed, msg)
			return "", msg, ErrImageInspect, err
		}
		if ref == "" && req.policy == v1.PullNever {
			msg := images.ErrImageNeverPullMessage(req.image)
			record(v1.EventTypeWarning, EventErrImageNeverPull, msg)
			return "", msg, ErrImageNeverPull, nil
		}
		if ref != "" {
			// With no pull secrets every present image is the node's to use.
			msg := fmt.Sprintf("Container image %q already present on machine and can be accessed by the pod", req.image)
			record(v1.EventTypeNormal, EventPulled, msg)
			return ref, msg, nil, nil
		}
	}
	return p.pull(ctx, req, image, spec, record)
}

// pull pulls the image unless the pod's pulls of it are backing off.
func (p *imagePuller) pull(ctx context.Context, req imageRequest, image string, spec *runtimeapi.ImageSpec, record func(typ, reason, msg string)) (string, string, error, error) {
	key := string(req.pod.UID) + "_" + image
	if inBackOff, lastErr := p.inBackOff(key); inBackOff {
		msg := fmt.Sprintf("Back-off pulling image %q", image)
		record(v1.EventTypeNormal, EventBackOff, msg)
		if lastErr != "" {
			msg += ": " + lastErr
		}
		return "", msg, ErrImagePullBackOff, nil
	}
	record(v1.EventTypeNormal, EventPulling, fmt.Sprintf("Pulling image %q", image))
	start := p.clock.Now()
	p.pullMu.Lock()
	pullStart := p.clock.Now()
	resp, err := p.client.PullImage(ctx, &runtimeapi.PullImageRequest{Image: spec, SandboxConfig: req.sandbox})
	var size uint64
	if err == nil && resp.GetImageRef() != "" {
		// The size is for the event only: a failure to read it is no failure.
		if st, serr := p.client.ImageStatus(ctx, &runtimeapi.ImageStatusRequest{Image: spec}); serr == nil {
			size = st.GetImage().GetSize()
		}
	}
	pullDuration := p.clock.Since(pullStart)
	p.pullMu.Unlock()
	if err != nil {
		record(v1.EventTypeWarning, EventFailed, fmt.Sprintf("Failed to pull image %q: %v", image, err))
		msg, reason := pullErrorReason(image, err)
		p.failed(key, fmt.Sprintf("%s: %s", reason, msg))
		return "", msg, reason, err
	}
	total := p.clock.Since(start)
	record(v1.EventTypeNormal, EventPulled, fmt.Sprintf("Successfully pulled image %q in %v (%v including waiting). Image size: %v bytes.",
		image, pullDuration.Truncate(time.Millisecond), total.Truncate(time.Millisecond), size))
	p.gc()
	return resp.GetImageRef(), "", nil, nil
}

// pullErrorReason is kubelet's evalCRIPullErr: a runtime's error naming an unavailable registry
// or a failed signature check gets the CRI's reason, anything else ErrImagePull.
func pullErrorReason(image string, err error) (string, error) {
	text := err.Error()
	for _, known := range []struct {
		reason error
		what   string
	}{
		{crierrors.ErrRegistryUnavailable, "the registry is unavailable"},
		{crierrors.ErrSignatureValidationFailed, "the signature validation failed"},
	} {
		if strings.HasPrefix(text, known.reason.Error()) {
			return fmt.Sprintf("image pull failed for %s because %s%s", image, known.what, strings.TrimPrefix(text, known.reason.Error())), known.reason
		}
	}
	return text, ErrImagePull
}

// applyDefaultImageTag adds the tag a reference implies (":latest") when it names neither tag
// nor digest, as kubelet does before asking the runtime; a reference that does not parse is an
// error in kubelet's words.
func applyDefaultImageTag(image string) (string, error) {
	ref, err := images.ParseReference(image)
	if err != nil {
		return "", err
	}
	if ref.Digest == "" && ref.Tag != "" && !strings.HasSuffix(image, ":"+ref.Tag) {
		image += ":" + ref.Tag
	}
	return image, nil
}

// inBackOff reports whether the key's pulls wait (client-go's IsInBackOffSinceUpdate over
// kubelet's image back-off), and the last failure's text.
func (p *imagePuller) inBackOff(key string) (bool, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e, ok := p.backOff[key]
	now := p.clock.Now()
	if !ok || imageBackOffExpired(now, e.lastUpdate) {
		return false, ""
	}
	return now.Sub(e.lastUpdate) < e.delay, e.lastErr
}

// failed records a failed pull: the back-off starts at 10s, or doubles up to 300s.
func (p *imagePuller) failed(key, lastErr string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.clock.Now()
	e, ok := p.backOff[key]
	if !ok || imageBackOffExpired(now, e.lastUpdate) {
		e = &imageBackOffEntry{delay: imageBackOffInitial}
		p.backOff[key] = e
	} else {
		e.delay = min(2*e.delay, imageBackOffMax)
	}
	e.lastUpdate, e.lastErr = now, lastErr
}

// gc drops the back-offs that expired, as kubelet does after each successful pull.
func (p *imagePuller) gc() {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.clock.Now()
	for k, e := range p.backOff {
		if imageBackOffExpired(now, e.lastUpdate) {
			delete(p.backOff, k)
		}
	}
}

// forgetPod drops the pod's back-offs.
func (p *imagePuller) forgetPod(uid types.UID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k := range p.backOff {
		if strings.HasPrefix(k, string(uid)+"_") {
			delete(p.backOff, k)
		}
	}
}

// imageBackOffExpired is client-go's default: twice the maximum without a failure.
func imageBackOffExpired(now, lastUpdate time.Time) bool {
	return now.Sub(lastUpdate) > 2*imageBackOffMax
}

func copyMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
