package vknode

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/podconfig/podconfig/logs"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/podruntime"
)

// The worker's pace: how often it reads what the runtime holds of its pod (kubelet's PLEG
// relists every second), how soon it retries a failed sync or volume set-up, and the bounds of
// one sync pass and of the teardown.
const (
	pollInterval     = 200 * time.Millisecond
	retryInterval    = 2 * time.Second
	syncBackOff      = 10 * time.Second
	syncTimeout      = 2 * time.Minute
	teardownTimeout  = 2 * time.Minute
	teardownAttempts = 5
)

// podWorker runs one pod, as kubelet's pod worker does: volumes, then sync passes until the pod
// ends or is deleted, then teardown.
type podWorker struct {
	p   *Provider
	key string
	uid types.UID

	mu sync.Mutex
	// pod is the pod as the API server last gave it; its status is the API server's.
	pod *v1.Pod
	// apiStatus is the status last generated and published; nil before the first.
	apiStatus *v1.PodStatus
	// grace overrides the containers' grace period at teardown; deleteFromAPI says the
	// teardown ends with deleting the pod from the API server.
	grace         *int64
	deleteFromAPI bool
	// failReason and failMessage, once set, make the pod Failed whatever its containers did:
	// kubelet's verdict on a pod past its activeDeadlineSeconds.
	failReason, failMessage string

	wake     chan struct{}
	stop     chan struct{}
	stopOnce sync.Once
	// done is closed when the worker has ended; after, when set, is the done of the worker of
	// the previous pod of the same name, which must end before this one starts.
	done  chan struct{}
	after <-chan struct{}

	podDir  string
	volumes mounts.VolumeMap

	// active says the pod is admitted and counted among the node's active pods; guarded by the
	// Provider's mu.
	active bool
}

func newPodWorker(p *Provider, pod *v1.Pod) *podWorker {
	return &podWorker{p: p, key: key(pod.Namespace, pod.Name), uid: pod.UID, pod: pod.DeepCopy(),
		wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
}

func (w *podWorker) logf(format string, args ...any) {
	w.p.cfg.Logf("pod %s: "+format, append([]any{w.key}, args...)...)
}

// current returns the pod as last given.
func (w *podWorker) current() *v1.Pod {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.pod
}

// refresh takes the status the API server has of the pod, when Config.APIPods can tell, and
// returns the pod.
func (w *podWorker) refresh() *v1.Pod {
	cur := w.current()
	l := w.p.cfg.APIPods
	if l == nil {
		return cur
	}
	api, err := l.Pods(cur.Namespace).Get(cur.Name)
	if err != nil || api.UID != w.uid {
		return cur
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	pod := w.pod.DeepCopy()
	pod.Status = *api.Status.DeepCopy()
	w.pod = pod
	return pod
}

// snapshot returns a copy of the pod with its last generated status.
func (w *podWorker) snapshot() *v1.Pod {
	w.mu.Lock()
	defer w.mu.Unlock()
	pod := w.pod.DeepCopy()
	if w.apiStatus != nil {
		pod.Status = *w.apiStatus.DeepCopy()
	}
	return pod
}

// update takes the pod's new spec and metadata and wakes the worker for a sync.
func (w *podWorker) update(pod *v1.Pod) {
	w.mu.Lock()
	w.pod = pod.DeepCopy()
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// delete stops the worker; the teardown kills the containers within the pod's deletion grace
// period and deletes the pod from the API server.
func (w *podWorker) delete(pod *v1.Pod) {
	w.mu.Lock()
	if pod.DeletionGracePeriodSeconds != nil {
		g := *pod.DeletionGracePeriodSeconds
		w.grace = &g
		// A new object: callers of current may be reading the one they got.
		w.pod = w.pod.DeepCopy()
		w.pod.DeletionGracePeriodSeconds = &g
	}
	w.deleteFromAPI = true
	w.mu.Unlock()
	w.stopOnce.Do(func() { close(w.stop) })
}

// shutdown stops the worker as the node stops: containers get their grace period capped at
// grace, and the pod stays in the API server.
func (w *podWorker) shutdown(grace time.Duration) {
	w.mu.Lock()
	g := int64(grace.Seconds())
	own := int64(30) // the API server's default terminationGracePeriodSeconds
	switch {
	case w.grace != nil:
		own = *w.grace
	case w.pod.Spec.TerminationGracePeriodSeconds != nil:
		own = *w.pod.Spec.TerminationGracePeriodSeconds
	}
	if own > g {
		w.grace = &g
	}
	w.mu.Unlock()
	w.stopOnce.Do(func() { close(w.stop) })
}

// run is the worker's life: set-up, sync passes, teardown; the Provider forgets it then.
func (w *podWorker) run() {
	defer close(w.done)
	defer w.p.forget(w)
	defer w.p.deactivate(w)
	if w.after != nil {
		<-w.after
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-w.stop
		cancel()
	}()
	select {
	case <-w.stop:
		// Deleted before it started: only the teardown's checks run.
	default:
		if reason, message := w.p.admit(w); reason != "" {
			w.reject(reason, message)
		} else if w.prepare(ctx) {
			w.loop(ctx)
		}
	}
	cancel()
	if err := w.teardown(); err != nil {
		w.logf("teardown: %v", err)
	}
}

// reject publishes the status of a pod kubelet's admission refuses, records why, and waits for
// the pod's deletion: nothing of it is made.
func (w *podWorker) reject(reason, message string) {
	pod := w.current()
	w.logf("rejected: %s: %s", reason, message)
	w.p.onEvent(podruntime.Event{Pod: pod, Type: v1.EventTypeWarning, Reason: reason, Message: message})
	st := rejectedStatus(pod, reason, message)
	w.mu.Lock()
	w.apiStatus = &st
	published := w.pod.DeepCopy()
	published.Status = *st.DeepCopy()
	w.mu.Unlock()
	w.p.publish(published)
	<-w.stop
}

// stopped reports whether the worker was told to stop, waiting at most d for it.
func (w *podWorker) stopped(d time.Duration) bool {
	select {
	case <-w.stop:
		return true
	case <-w.wake:
		return false
	case <-time.After(d):
		return false
	}
}

// prepare makes the pod's directories and sets up its volumes, retrying until they are (a
// ConfigMap a volume needs may come later), as kubelet's volume manager does before the pod's
// first sync; meanwhile the status shows the containers waiting in ContainerCreating. It
// returns false when the worker was stopped first.
func (w *podWorker) prepare(ctx context.Context) bool {
	for {
		err := w.setUp(ctx)
		if err == nil {
			return true
		}
		w.logf("set-up: %v", err)
		pod := w.current()
		w.p.onEvent(podruntime.Event{Pod: pod, Type: v1.EventTypeWarning, Reason: "FailedMount", Message: err.Error()})
		w.observe(pod, &podruntime.PodStatus{ID: pod.UID, Name: pod.Name, Namespace: pod.Namespace}, false)
		if w.stopped(retryInterval) {
			return false
		}
	}
}

func (w *podWorker) setUp(ctx context.Context) error {
	pod := w.current()
	var err error
	if w.podDir, err = w.p.gen.PodDir(pod); err != nil {
		return err
	}
	if err := w.p.gen.MakePodDataDirs(pod); err != nil {
		return err
	}
	w.volumes, err = w.p.vols.SetUpPod(ctx, pod)
	return err
}

// resyncVolumes rewrites the pod's configMap, secret, downwardAPI and projected volumes whose
// sources changed, as kubelet's periodic remount does; a volume that fails keeps its content.
func (w *podWorker) resyncVolumes(ctx context.Context, pod *v1.Pod) {
	for i := range pod.Spec.Volumes {
		vol := &pod.Spec.Volumes[i]
		src := &vol.VolumeSource
		if src.ConfigMap == nil && src.Secret == nil && src.DownwardAPI == nil && src.Projected == nil {
			continue
		}
		if _, err := w.p.vols.SetUp(ctx, pod, vol); err != nil {
			w.logf("volume resync: %v", err)
		}
	}
}

// loop syncs the pod until it reaches a terminal phase or the worker is stopped: each pass
// reads the pod from the runtime, publishes its status when it changed, and runs SyncPod when
// the runtime's view changed, the pod was updated, a back-off ended or the resync period passed.
// A pod that ended is stopped in the runtime (its containers stay for their logs) and waits
// for its deletion.
func (w *podWorker) loop(ctx context.Context) {
	var (
		lastSeen   string
		nextSync   time.Time
		nextResync = time.Now().Add(w.p.cfg.ResyncInterval)
		woken      bool
	)
	for {
		pod := w.refresh()
		st, err := w.p.rt.GetPodStatus(ctx, pod.UID, pod.Name, pod.Namespace)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			w.logf("status: %v", err)
		} else {
			api := w.observe(pod, st, false)
			if pastDeadline(pod, api.StartTime, time.Now()) {
				w.mu.Lock()
				w.failReason, w.failMessage = reasonDeadlineExceeded, messageDeadlineExceeded
				w.mu.Unlock()
				w.p.onEvent(podruntime.Event{Pod: pod, Type: v1.EventTypeNormal, Reason: reasonDeadlineExceeded, Message: messageDeadlineExceeded})
				api = w.observe(pod, st, false)
			}
			if api.Phase == v1.PodSucceeded || api.Phase == v1.PodFailed {
				w.logf("%s", api.Phase)
				w.p.deactivate(w)
				w.finish(ctx, pod)
				<-w.stop
				return
			}
			now := time.Now()
			if seen := signature(st); woken || seen != lastSeen || !now.Before(nextSync) {
				lastSeen = seen
				if woken || !now.Before(nextResync) {
					w.resyncVolumes(ctx, pod)
					nextResync = now.Add(w.p.cfg.ResyncInterval)
				}
				nextSync = w.sync(ctx, pod, st)
			}
		}
		woken = false
		select {
		case <-ctx.Done():
			return
		case <-w.wake:
			woken = true
		case <-time.After(pollInterval):
		}
	}
}

// sync runs one SyncPod pass and returns when the next is due: after the resync period, sooner
// when a back-off ends, and after syncBackOff when a step failed (kubelet's pod worker requeues
// a pod whose sync failed after its workerBackOffPeriod, 10 s), unless the runtime's view or
// the pod changes first. The pass runs to its end even when the worker is stopped, so the teardown
// finds what the runtime can stop, not what was cut off half-way.
func (w *podWorker) sync(ctx context.Context, pod *v1.Pod, st *podruntime.PodStatus) time.Time {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), syncTimeout)
	defer cancel()
	result := w.p.rt.SyncPod(sctx, pod, st, w.volumes)
	next := time.Now().Add(w.p.cfg.ResyncInterval)
	if t, ok := result.MinBackoffExpiration(); ok && t.Before(next) {
		next = t
	}
	if result.SyncError != nil {
		w.logf("sync: %v", result.SyncError)
		return time.Now().Add(syncBackOff)
	}
	for _, r := range result.SyncResults {
		if r.Error != nil && !errors.Is(r.Error, podruntime.ErrCrashLoopBackOff) {
			w.logf("sync: %s %s: %v: %s", r.Action, r.Target, r.Error, r.Message)
			if t := time.Now().Add(syncBackOff); t.Before(next) {
				next = t
			}
		}
	}
	return next
}

// finish stops a pod that reached a terminal phase in the runtime: what still runs (sidecars)
// and the sandbox, as kubelet's terminating pod worker does. Its containers are kept for their
// logs until the pod is deleted; the final status is published.
func (w *podWorker) finish(ctx context.Context, pod *v1.Pod) {
	kctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), teardownTimeout)
	defer cancel()
	st, err := w.p.rt.GetPodStatus(kctx, pod.UID, pod.Name, pod.Namespace)
	if err == nil {
		err = w.p.rt.KillPod(kctx, pod, st, nil)
	}
	if err != nil {
		w.logf("stopping the ended pod: %v", err)
		return
	}
	if final, err := w.p.rt.GetPodStatus(kctx, pod.UID, pod.Name, pod.Namespace); err == nil {
		final.IPs = st.IPs
		w.observe(pod, final, true)
	}
}

// observe generates the pod's status from the runtime's view as kubelet does, and publishes it
// when it differs from the last.
func (w *podWorker) observe(pod *v1.Pod, st *podruntime.PodStatus, terminal bool) v1.PodStatus {
	w.mu.Lock()
	old := w.apiStatus
	if old == nil {
		old = pod.Status.DeepCopy()
	}
	api := w.p.rt.GenerateAPIPodStatus(pod, st, old, terminal)
	if w.failReason != "" {
		api.Phase, api.Reason, api.Message = v1.PodFailed, w.failReason, w.failMessage
	}
	changed := w.apiStatus == nil || !equality.Semantic.DeepEqual(*w.apiStatus, api)
	w.apiStatus = &api
	var published *v1.Pod
	if changed {
		published = w.pod.DeepCopy()
		published.Status = *api.DeepCopy()
	}
	w.mu.Unlock()
	if published != nil {
		w.p.publish(published)
	}
	return api
}

// teardown undoes what the worker made, in reverse: it kills the pod (each container within the
// deletion grace period), publishes the final status, removes the containers and sandboxes
// (GarbageCollectPod), the subPath mounts, the volumes and the pod's data and log directories,
// then deletes the pod from the API server when it was deleted there. It carries on past
// errors; the pod directory is kept when something before failed (something may still be
// mounted in it), and the pod is then left in the API server, as kubelet leaves a pod whose
// volumes it could not clean up.
func (w *podWorker) teardown() error {
	w.mu.Lock()
	pod, grace, deleteFromAPI := w.pod.DeepCopy(), w.grace, w.deleteFromAPI
	w.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), teardownTime(grace))
	defer cancel()
	rt := w.p.rt
	var errs []error
	var running *podruntime.PodStatus
	err := retry(ctx, func() error {
		st, err := rt.GetPodStatus(ctx, pod.UID, pod.Name, pod.Namespace)
		if err != nil {
			return err
		}
		if running == nil {
			running = st
		}
		return rt.KillPod(ctx, pod, st, grace)
	})
	if err != nil {
		errs = append(errs, fmt.Errorf("KillPod: %w", err))
	}
	if st, err := rt.GetPodStatus(ctx, pod.UID, pod.Name, pod.Namespace); err == nil {
		if running != nil {
			st.IPs = running.IPs
		}
		w.observe(pod, st, true)
	}
	if err := retry(ctx, func() error { return rt.GarbageCollectPod(ctx, pod.UID, true) }); err != nil {
		errs = append(errs, err)
	}
	rt.ForgetPod(pod)
	if w.podDir != "" {
		for _, vol := range pod.Spec.Volumes {
			if err := w.p.sub.CleanSubPaths(w.podDir, vol.Name); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if err := w.p.vols.TearDownPod(pod); err != nil {
		errs = append(errs, err)
	}
	if w.podDir != "" {
		if len(errs) > 0 {
			errs = append(errs, fmt.Errorf("pod directory %s kept", w.podDir))
		} else if err := w.p.sub.CleanupPodDir(w.podDir); err != nil {
			errs = append(errs, err)
		}
	}
	if dir := w.podLogsDir(pod); dir != "" {
		if err := w.p.sub.RemoveAllOneFilesystem(dir); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	w.p.userns.Release(pod.UID)
	if deleteFromAPI {
		// As kubelet's status manager once the pod is torn down: the pod goes at once, and only
		// the pod with this UID (a new pod of the same name is not touched).
		uid := pod.UID
		err := w.p.cfg.Client.CoreV1().Pods(pod.Namespace).Delete(ctx, pod.Name,
			metav1.DeleteOptions{GracePeriodSeconds: new(int64), Preconditions: &metav1.Preconditions{UID: &uid}})
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
			return fmt.Errorf("deleting the pod from the API server: %w", err)
		}
	}
	w.logf("torn down")
	return nil
}

// teardownTime is how long the teardown may take: teardownTimeout beyond the grace period. The
// grace period is the pod's (the API server bounds it only below, and a client may send a
// negative one): one past time.Duration's range would wrap the sum to a negative timeout, and a
// teardown that ends before it stops anything leaves the deleted pod's containers running; so a
// negative grace counts as none, and one too long to add leaves the teardown unbounded, the time
// the pod asked for.
func teardownTime(grace *int64) time.Duration {
	if grace == nil || *grace <= 0 {
		return teardownTimeout
	}
	if *grace >= int64((math.MaxInt64-teardownTimeout)/time.Second) {
		return math.MaxInt64
	}
	return teardownTimeout + time.Duration(*grace)*time.Second
}

// podLogsDir is the pod's log directory, or "" when the node has no absolute logs directory or
// the pod's names cannot make one below it.
func (w *podWorker) podLogsDir(pod *v1.Pod) string {
	root := w.p.cfg.PodLogsDir
	if !filepath.IsAbs(root) {
		return ""
	}
	dir := logs.BuildPodLogsDirectory(root, pod.Namespace, pod.Name, pod.UID)
	if filepath.Dir(dir) != filepath.Clean(root) || dir != filepath.Clean(dir) {
		return ""
	}
	return dir
}

// retry calls fn up to teardownAttempts times, waiting longer after each failure: the runtime
// refuses some calls for a moment (a container still exiting), and kubelet retries them on its
// next pass.
func retry(ctx context.Context, fn func() error) error {
	var err error
	for i := range teardownAttempts {
		if err = fn(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(i+1) * 200 * time.Millisecond):
		}
	}
	return err
}

// Kubelet's reason and message for a pod past its activeDeadlineSeconds.
const (
	reasonDeadlineExceeded  = "DeadlineExceeded"
	messageDeadlineExceeded = "Pod was active on the node longer than the specified deadline"
)

// pastDeadline reports whether the pod has been active on the node longer than its
// activeDeadlineSeconds, counted from its status.startTime, as kubelet's active deadline handler
// decides.
func pastDeadline(pod *v1.Pod, start *metav1.Time, now time.Time) bool {
	if pod.Spec.ActiveDeadlineSeconds == nil || start == nil || start.IsZero() {
		return false
	}
	return now.Sub(start.Time) >= time.Duration(*pod.Spec.ActiveDeadlineSeconds)*time.Second
}

// signature sums up the runtime's view of a pod: its sandboxes' and containers' IDs and states.
func signature(st *podruntime.PodStatus) string {
	s := ""
	for _, sb := range st.SandboxStatuses {
		s += sb.GetId() + "=" + sb.GetState().String() + ";"
	}
	for _, c := range st.ContainerStatuses {
		s += c.ID.ID + "=" + string(c.State) + ";"
	}
	return s
}
