package podruntime

import (
	"errors"
	"fmt"
	"time"

	"github.com/podconfig/podconfig/internal/errkind"
)

// The brief errors of a SyncResult, with kubelet's texts: each text is the reason a container's
// status shows while it waits after the failure (state.waiting.reason), so it is behaviour.
var (
	// ErrCrashLoopBackOff: the container exited and waits out its crash-loop back-off
	// (backoff.CrashLoop) before it is started again.
	ErrCrashLoopBackOff = errkind.Sentinel(errkind.DependencyFailed, "CrashLoopBackOff")
	// ErrCreateContainerConfig: the Generator refused the container's config; the runtime was
	// not called. SyncResult.Cause is the Generator's error.
	ErrCreateContainerConfig = errkind.Sentinel(errkind.InvalidPod, "CreateContainerConfigError")
	// ErrCreateContainer: the runtime's CreateContainer failed.
	ErrCreateContainer = errkind.Sentinel(errkind.DependencyFailed, "CreateContainerError")
	// ErrRunContainer: the runtime's StartContainer failed.
	ErrRunContainer = errkind.Sentinel(errkind.DependencyFailed, "RunContainerError")
	// ErrKillContainer: stopping a container failed.
	ErrKillContainer = errkind.Sentinel(errkind.DependencyFailed, "KillContainerError")
	// ErrRemoveContainer: removing a container failed.
	ErrRemoveContainer = errkind.Sentinel(errkind.DependencyFailed, "RemoveContainerError")
	// ErrCreatePodSandbox: generating the sandbox's config, making the pod's log directory or
	// the runtime's RunPodSandbox failed.
	ErrCreatePodSandbox = errkind.Sentinel(errkind.DependencyFailed, "CreatePodSandboxError")
	// ErrKillPodSandbox: the runtime's StopPodSandbox failed.
	ErrKillPodSandbox = errkind.Sentinel(errkind.DependencyFailed, "KillPodSandboxError")

	// ErrImagePull: the runtime's PullImage failed.
	ErrImagePull = errkind.Sentinel(errkind.DependencyFailed, "ErrImagePull")
	// ErrImagePullBackOff: an earlier pull of the image failed and the next waits out the image
	// back-off.
	ErrImagePullBackOff = errkind.Sentinel(errkind.DependencyFailed, "ImagePullBackOff")
	// ErrImageInspect: the runtime's ImageStatus failed.
	ErrImageInspect = errkind.Sentinel(errkind.DependencyFailed, "ImageInspectError")
	// ErrImageNeverPull: the image is not present and the pull policy is Never.
	ErrImageNeverPull = errkind.Sentinel(errkind.InvalidPod, "ErrImageNeverPull")
	// ErrInvalidImageName: the image name does not parse.
	ErrInvalidImageName = errkind.Sentinel(errkind.InvalidPod, "InvalidImageName")
)

// SyncAction is what a SyncResult was about (kubelet's kubecontainer.SyncAction).
type SyncAction string

// The actions of SyncPod and KillPod.
const (
	StartContainer   SyncAction = "StartContainer"
	KillContainer    SyncAction = "KillContainer"
	CreatePodSandbox SyncAction = "CreatePodSandbox"
	KillPodSandbox   SyncAction = "KillPodSandbox"
	RemoveContainer  SyncAction = "RemoveContainer"
)

// SyncResult is the outcome of one action of SyncPod or KillPod (kubelet's
// kubecontainer.SyncResult).
type SyncResult struct {
	// Action is what was done.
	Action SyncAction
	// Target is the container's name, or for sandbox actions the pod as kubelet names it
	// ("name_namespace(uid)").
	Target string
	// Error is the brief reason, one of the Err* of this package, nil on success; Message is
	// kubelet's human-readable text.
	Error error
	// Message is kubelet's text of the failure, the waiting message of the container's status.
	Message string
	// Cause is the error behind Message when there is one (the Generator's refusal, the
	// runtime's gRPC error), for errors.Is, errors.As and %+v. Kubelet keeps only its text.
	Cause error
}

// Fail records a failure.
func (r *SyncResult) Fail(err error, msg string, cause error) {
	if r == nil {
		return
	}
	r.Error, r.Message, r.Cause = err, msg, cause
}

// PodSyncResult is the outcome of a SyncPod or KillPod pass (kubelet's
// kubecontainer.PodSyncResult): the results of the actions it took, in order, and an error that
// stopped the pass outside any action.
type PodSyncResult struct {
	// SyncResults are the actions' outcomes, in the order they were taken.
	SyncResults []*SyncResult
	// SyncError stopped the pass outside any action (the sandbox's status could not be read).
	SyncError error
}

// Error summarises every failure in kubelet's words ("failed to SyncPod: ...", `failed to
// "StartContainer" for "web" with CrashLoopBackOff: "back-off ..."`), joined; nil when there
// was none.
func (p PodSyncResult) Error() error {
	var errs []error
	if p.SyncError != nil {
		errs = append(errs, fmt.Errorf("failed to SyncPod: %w", p.SyncError))
	}
	for _, r := range p.SyncResults {
		if r != nil && r.Error != nil {
			errs = append(errs, fmt.Errorf("failed to %q for %q with %w: %q", r.Action, r.Target, r.Error, r.Message))
		}
	}
	return errors.Join(errs...)
}

// BackoffError is the error of an action that waits out a back-off, with when the wait ends
// (kubelet's BackoffError): kubelet's pod worker syncs the pod again then.
type BackoffError struct {
	// Err is ErrCrashLoopBackOff or ErrImagePullBackOff.
	Err error
	// Until is when the back-off ends.
	Until time.Time
}

// Error returns Err's text, the waiting reason.
func (e *BackoffError) Error() string {
	if e == nil || e.Err == nil {
		return ""
	}
	return e.Err.Error()
}

// Unwrap exposes Err to errors.Is.
func (e *BackoffError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// MinBackoffExpiration returns the earliest end of the back-offs the pass's actions wait out,
// and whether any does (kubelet's MinBackoffExpiration): the time to sync the pod again.
func (p PodSyncResult) MinBackoffExpiration() (time.Time, bool) {
	var min time.Time
	found := false
	for _, r := range p.SyncResults {
		var be *BackoffError
		if r == nil || !errors.As(r.Error, &be) {
			continue
		}
		if !found || be.Until.Before(min) {
			min, found = be.Until, true
		}
	}
	return min, found
}
