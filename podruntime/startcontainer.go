package podruntime

import (
	"context"
	"fmt"

	"google.golang.org/grpc/status"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/backoff"
	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/mounts"
)

// startTarget is what SyncPod starts a container in: the sandbox and its config, the pod's IPs
// and its volumes, the image volumes pulled this pass among them.
type startTarget struct {
	sandboxID string
	sandbox   *runtimeapi.PodSandboxConfig
	podIPs    []string
	volumes   mounts.VolumeMap
	// imageVolumes are this pass's image-volume pulls by volume name.
	imageVolumes map[string]imageVolumePull
}

// imageVolumePull is the outcome of making an image volume's image present.
type imageVolumePull struct {
	spec        *runtimeapi.ImageSpec
	msg         string
	reason, err error
}

// grpcMessage is the text kubelet keeps of an error: a gRPC status's message, or the error's
// text.
func grpcMessage(err error) string {
	return status.Convert(err).Message()
}

// startContainer starts one container as kubelet's startContainer does, recording kubelet's
// events: it makes the image present (by pull policy), works out the restart count (the newest
// attempt's plus one, or from the log files of a container the runtime has no attempt of),
// generates the config, and creates and starts the container. It returns kubelet's message and
// brief reason on failure, with the error behind them. Lifecycle hooks are not run: a
// postStart handler is skipped.
func (m *Manager) startContainer(ctx context.Context, pod *v1.Pod, podStatus *PodStatus, c *v1.Container, eph *v1.EphemeralContainer, t *startTarget) (string, error, error) {
	record := func(typ, reason, msg string) { m.containerEvent(pod, c, "", typ, reason, "%s", msg) }
	imageRef, msg, reason, cause := m.images.ensureImageExists(ctx, imageRequest{pod: pod, image: c.Image, policy: c.ImagePullPolicy, sandbox: t.sandbox}, record)
	if reason != nil {
		m.containerEvent(pod, c, "", v1.EventTypeWarning, EventFailed, "Error: %v", reason.Error())
		return msg, reason, cause
	}
	restartCount := 0
	if s := podStatus.FindContainerStatusByName(c.Name); s != nil {
		restartCount = s.RestartCount + 1
	} else {
		// A runtime that lost its state (a node reboot) must not start over at 0.log.
		n, err := m.opts.Generator.RestartCountFromLogs(pod, c.Name)
		if err != nil {
			m.warn(pod, "container %s: cannot calculate the restart count from the log directory: %v", c.Name, err)
		}
		restartCount = n
	}
	target := ""
	if eph != nil && eph.TargetContainerName != "" {
		s := podStatus.FindContainerStatusByName(eph.TargetContainerName)
		if s == nil {
			msg := fmt.Sprintf("unable to find target container %v", eph.TargetContainerName)
			m.containerEvent(pod, c, "", v1.EventTypeWarning, EventFailed, "Error: %v", msg)
			return msg, ErrCreateContainerConfig, nil
		}
		target = s.ID.ID
	}
	vols, msg, reason, cause := m.containerImageVolumes(pod, c, t)
	if reason != nil {
		return msg, reason, cause
	}
	cfg, err := m.opts.Generator.GenerateContainerConfig(ctx, configgen.ContainerRequest{
		Pod: pod, Container: c, RestartCount: restartCount, PodIPs: t.podIPs, ImageRef: imageRef, Volumes: vols, NamespaceTarget: target,
	})
	if err != nil {
		m.containerEvent(pod, c, "", v1.EventTypeWarning, EventFailed, "Error: %v", grpcMessage(err))
		return grpcMessage(err), ErrCreateContainerConfig, err
	}
	resp, err := m.opts.Runtime.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{PodSandboxId: t.sandboxID, Config: cfg, SandboxConfig: t.sandbox})
	if err != nil {
		m.containerEvent(pod, c, "", v1.EventTypeWarning, EventFailed, "Error: %v", grpcMessage(err))
		return grpcMessage(err), ErrCreateContainer, err
	}
	id := resp.GetContainerId()
	m.containerEvent(pod, c, id, v1.EventTypeNormal, EventCreated, "Container created")
	if _, err := m.opts.Runtime.StartContainer(ctx, &runtimeapi.StartContainerRequest{ContainerId: id}); err != nil {
		m.containerEvent(pod, c, id, v1.EventTypeWarning, EventFailed, "Error: %v", grpcMessage(err))
		return grpcMessage(err), ErrRunContainer, err
	}
	m.containerEvent(pod, c, id, v1.EventTypeNormal, EventStarted, "Container started")
	return "", nil, nil
}

// containerImageVolumes returns the volumes the container mounts with this pass's image
// volumes added, or the failure of the last image volume it mounts that could not be pulled
// (kubelet's toKubeContainerImageVolumes).
func (m *Manager) containerImageVolumes(pod *v1.Pod, c *v1.Container, t *startTarget) (mounts.VolumeMap, string, error, error) {
	if len(t.imageVolumes) == 0 {
		return t.volumes, "", nil, nil
	}
	vols := make(mounts.VolumeMap, len(t.volumes)+len(t.imageVolumes))
	for k, v := range t.volumes {
		vols[k] = v
	}
	var last imageVolumePull
	for _, vm := range c.VolumeMounts {
		res, ok := t.imageVolumes[vm.Name]
		if !ok {
			continue
		}
		if res.reason != nil {
			m.containerEvent(pod, c, "", v1.EventTypeWarning, EventFailed, "Error: %v", res.reason.Error())
			last = res
			continue
		}
		// Kubelet's image plugin reports its volumes read-only.
		vols[vm.Name] = mounts.Volume{Image: res.spec, ReadOnly: true}
	}
	if last.reason != nil {
		return nil, last.msg, last.reason, last.err
	}
	return vols, "", nil, nil
}

// pullImageVolumes makes every image volume's image present, as kubelet's getImageVolumes does
// once a pass before it starts containers, recording the events under the pod.
func (m *Manager) pullImageVolumes(ctx context.Context, pod *v1.Pod, sandbox *runtimeapi.PodSandboxConfig) map[string]imageVolumePull {
	out := map[string]imageVolumePull{}
	record := func(typ, reason, msg string) { m.event(pod, typ, reason, msg) }
	for _, vol := range pod.Spec.Volumes {
		if vol.Image == nil {
			continue
		}
		ref, msg, reason, err := m.images.ensureImageExists(ctx, imageRequest{pod: pod, image: vol.Image.Reference, policy: vol.Image.PullPolicy, sandbox: sandbox}, record)
		if reason != nil {
			out[vol.Name] = imageVolumePull{msg: msg, reason: reason, err: err}
			continue
		}
		out[vol.Name] = imageVolumePull{spec: &runtimeapi.ImageSpec{Image: ref, UserSpecifiedImage: vol.Image.Reference, Annotations: copyMap(pod.Annotations)}}
	}
	return out
}

// doBackOff reports whether the container waits out its crash-loop back-off, as kubelet's
// doBackOff does: from the finish time of its newest exited attempt, the container waits while
// backoff.CrashLoop says so (a BackOff event, and a BackoffError naming when the wait ends);
// otherwise the restart is recorded (CrashLoop.Next). A container with no exited attempt never
// waits.
func (m *Manager) doBackOff(pod *v1.Pod, c *v1.Container, podStatus *PodStatus) (bool, string, error) {
	var exited *ContainerStatus
	if podStatus != nil {
		for _, s := range podStatus.ContainerStatuses {
			if s.Name == c.Name && s.State == ContainerStateExited {
				exited = s
				break
			}
		}
	}
	if exited == nil {
		return false, "", nil
	}
	key := backoff.GetBackoffKey(pod, c)
	if m.crashLoop.IsInBackOffSince(key, exited.FinishedAt) {
		m.containerEvent(pod, c, "", v1.EventTypeWarning, EventBackOff, "Back-off restarting failed container %s in pod %s", c.Name, podDesc(pod))
		d := m.crashLoop.Get(key)
		msg := fmt.Sprintf("back-off %s restarting failed container=%s pod=%s", d, c.Name, podDesc(pod))
		return true, msg, &BackoffError{Err: ErrCrashLoopBackOff, Until: exited.FinishedAt.Add(d)}
	}
	m.crashLoop.Next(key, exited.FinishedAt)
	return false, "", nil
}
