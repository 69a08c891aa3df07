package configgen

import (
	"context"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/blockdev"
	"github.com/podconfig/podconfig/logs"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/security"
)

// GenerateContainerConfig returns the CRI config to create req.Container with, as kubelet's
// generateContainerConfig does on Linux: run-container options, the image's user and the
// runAsNonRoot check, expanded command and args, the log directory, labels and annotations,
// devices and mounts (with the termination-message file), and the Linux security context and
// resources. ContainerRequest documents each input.
//
// The pod's data directories are made when missing (MakePodDataDirs), after every check of the
// spec, so a pod with no volumes renders too.
//
// Errors come in kubelet's order with kubelet's texts, as an *Error: its Category says whether
// to retry (ErrDependencyFailed) or not (ErrInvalidPod, ErrInvalidOptions), its Reason is
// ReasonCreateContainerConfigError or the environment's. Unlike kubelet, a failure leaves nothing
// this call did on the host: subPath bind mounts are undone, and the pod's data directories, the
// log directory, the etc-hosts file and the termination-message file are written only once
// nothing else on the pod's spec can fail. Kubelet's generateContainerConfig also returns a
// cleanup action, which is nil on Linux: there is nothing to undo after CreateContainer (subPath
// binds belong to the pod until its volumes are torn down, mounts.Subpather.CleanSubPaths), so
// this call returns none. Warnings go to Options.OnWarning.
func (g *Generator) GenerateContainerConfig(ctx context.Context, req ContainerRequest) (*runtimeapi.ContainerConfig, error) {
	pod, container := req.Pod, req.Container
	if err := g.built(); err != nil {
		return nil, asError(err, ReasonCreateContainerConfigError, pod, container)
	}
	if pod != nil && container != nil {
		if err := checkContainerArgs(req); err != nil {
			return nil, err
		}
	}
	// The environment is read only until criEnvs has copied it, so its memory comes from the
	// Generator's pool and goes back, emptied, when this call returns.
	space, _ := g.envSpaces.Get().(*envSpace)
	if space == nil {
		space = &envSpace{}
	}
	defer func() {
		if space.release() {
			g.envSpaces.Put(space)
		}
	}()
	opts, hostsFile, undo, cmd, err := g.runContainerOptions(ctx, req, true, space)
	if err != nil {
		return nil, asError(err, ReasonCreateContainerConfigError, pod, container)
	}
	cfg, err := g.containerConfig(ctx, req, opts, hostsFile, cmd)
	if err != nil {
		undo()
		return nil, asError(err, ReasonCreateContainerConfigError, pod, container)
	}
	g.warn(pod, container, opts.Warnings)
	return cfg, nil
}

func (g *Generator) containerConfig(ctx context.Context, req ContainerRequest, opts *RunContainerOptions, hostsFile *deferredWrites, cmd commandLine) (*runtimeapi.ContainerConfig, error) {
	pod, container, restartCount := req.Pod, req.Container, req.RestartCount
	if g.opts.ImageUsers == nil {
		return nil, fmt.Errorf("%w: Options.ImageUsers is needed to check runAsNonRoot against the image's user", ErrInvalidOptions)
	}
	uid, username, err := g.opts.ImageUsers.ImageUser(ctx, container.Image)
	if err != nil {
		return nil, err
	}
	if err := security.VerifyRunAsNonRoot(pod, container, uid, username); err != nil {
		return nil, err
	}
	if err := logs.ValidateLogPathNames(pod.Namespace, pod.Name, pod.UID, container.Name); err != nil {
		return nil, err
	}

	// The Linux config is computed before the log directory is made, so a spec error leaves no
	// directory behind; kubelet makes the directory first.
	linux, err := g.linuxContainerConfig(ctx, pod, container, uid, username, req.NamespaceTarget)
	if err != nil {
		return nil, err
	}
	// What is made from here on is taken back if a later step fails.
	logDir := logs.BuildContainerLogsDirectory(g.opts.PodLogsDir, pod.Namespace, pod.Name, pod.UID, container.Name)
	if err := g.makePodHostFiles(pod, logDir, container.Name, hostsFile); err != nil {
		return nil, err
	}

	annotations, annotationWarnings := containerAnnotations(pod, container, restartCount, opts.Annotations)
	opts.Warnings = append(opts.Warnings, annotationWarnings...)
	g.makePodContainerDir(pod, container, opts)
	criMounts, msgs := mounts.MakeCRIMounts(opts.Mounts, mounts.TerminationMessage{
		PodContainerDir: opts.PodContainerDir, Path: container.TerminationMessagePath,
		Files: g.files, Rand: g.opts.TerminationMessageRand,
	}, g.opts.SELinuxEnabled)
	opts.Warnings = append(opts.Warnings, warnings(ReasonTerminationLogPermissions, container.Name, msgs)...)
	security.ApplyUserNamespaceToMounts(criMounts, linux.GetSecurityContext().GetNamespaceOptions())

	cfg := &runtimeapi.ContainerConfig{
		Metadata:    &runtimeapi.ContainerMetadata{Name: container.Name, Attempt: uint32(restartCount)},
		Image:       &runtimeapi.ImageSpec{Image: req.ImageRef, UserSpecifiedImage: container.Image},
		Command:     cmd.command,
		Args:        cmd.args,
		WorkingDir:  container.WorkingDir,
		Labels:      containerLabels(pod, container),
		Annotations: annotations,
		Devices:     blockdev.ToCRIDevices(opts.Devices),
		CDIDevices:  cdiDevices(opts.CDIDevices),
		Mounts:      criMounts,
		LogPath:     logs.BuildContainerLogsPath(container.Name, restartCount),
		Stdin:       container.Stdin,
		StdinOnce:   container.StdinOnce,
		Tty:         container.TTY,
		Linux:       linux,
		Envs:        make([]*runtimeapi.KeyValue, len(opts.Envs)),
	}
	if g.gates.ContainerStopSignals && container.Lifecycle != nil && container.Lifecycle.StopSignal != nil {
		cfg.StopSignal = stopSignal(*container.Lifecycle.StopSignal)
	}
	criEnvs(cfg.Envs, opts.Envs)
	return cfg, nil
}

// criEnvs fills out with envs as CRI key-values. A container has dozens of variables, so the
// messages and their values each share one allocation; every value is capped at its length, so
// appending to one cannot write into the next.
func criEnvs(out []*runtimeapi.KeyValue, envs []EnvVar) {
	kvs := make([]runtimeapi.KeyValue, len(envs))
	size := 0
	for _, e := range envs {
		size += len(e.Value)
	}
	values := make([]byte, 0, size)
	for i, e := range envs {
		start := len(values)
		values = append(values, e.Value...)
		kvs[i].Key = e.Name
		kvs[i].Value = values[start:len(values):len(values)]
		out[i] = &kvs[i]
	}
}

// linuxContainerConfig is kubelet's generateLinuxContainerConfig: the security context (with the
// image user fallback and the ephemeral container's target) and the resources.
func (g *Generator) linuxContainerConfig(ctx context.Context, pod *v1.Pod, container *v1.Container, uid *int64, username, nsTarget string) (*runtimeapi.LinuxContainerConfig, error) {
	sc, err := g.security.ContainerSecurityContext(ctx, security.ContainerInput{
		Pod: pod, Container: container, ImageUID: uid, ImageUsername: username,
		ExtraSupplementalGroups: g.extraGroups(pod), NamespaceTarget: nsTarget,
	})
	if err != nil {
		return nil, err
	}
	res, resWarnings, err := g.resources.ContainerResources(pod, container)
	if err != nil {
		return nil, err
	}
	g.warn(pod, container, resourceWarnings(container.Name, resWarnings))
	return &runtimeapi.LinuxContainerConfig{Resources: res, SecurityContext: sc}, nil
}

func (g *Generator) extraGroups(pod *v1.Pod) []int64 {
	if g.opts.ExtraSupplementalGroups == nil {
		return nil
	}
	return g.opts.ExtraSupplementalGroups(pod)
}

func (g *Generator) warn(pod *v1.Pod, container *v1.Container, warnings []Warning) {
	if g.opts.OnWarning == nil {
		return
	}
	for _, w := range warnings {
		g.opts.OnWarning(pod, container, w)
	}
}

// stopSignal maps a lifecycle stop signal to CRI as kubelet's signal table does: CRI's enum names
// are SIGNAL_ and the API's name, with the real-time signals' "+" and "-" spelled PLUS and MINUS.
// A name outside the API's list, CRI's own spelling included, is RUNTIME_DEFAULT.
func stopSignal(sig v1.Signal) runtimeapi.Signal {
	name := string(sig)
	if strings.Contains(name, "PLUS") || strings.Contains(name, "MINUS") {
		return runtimeapi.Signal_SIGNAL_RUNTIME_DEFAULT
	}
	name = strings.ReplaceAll(strings.ReplaceAll(name, "+", "PLUS"), "-", "MINUS")
	return runtimeapi.Signal(runtimeapi.Signal_value["SIGNAL_"+name])
}

// cdiDevices converts CDI names; the result is never nil, as kubelet's makeCDIDevices.
func cdiDevices(names []string) []*runtimeapi.CDIDevice {
	out := make([]*runtimeapi.CDIDevice, len(names))
	for i, n := range names {
		out[i] = &runtimeapi.CDIDevice{Name: n}
	}
	return out
}

// RestartCountFromLogs returns the restart count of a container kubelet has no status for: one
// more than the highest <n>.log in its log directory, or 0 (kubelet's calcRestartCountByLogDir,
// whose errors it only logs).
func (g *Generator) RestartCountFromLogs(pod *v1.Pod, containerName string) (int, error) {
	if err := g.built(); err != nil {
		return 0, err
	}
	if pod == nil {
		return 0, fmt.Errorf("%w: pod must not be nil", ErrInvalidPod)
	}
	if err := logs.ValidateLogPathNames(pod.Namespace, pod.Name, pod.UID, containerName); err != nil {
		return 0, err
	}
	dir := logs.BuildContainerLogsDirectory(g.opts.PodLogsDir, pod.Namespace, pod.Name, pod.UID, containerName)
	return logs.CalcRestartCountByLogDir(g.files, dir)
}
