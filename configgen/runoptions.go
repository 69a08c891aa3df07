package configgen

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/blockdev"
	"github.com/podconfig/podconfig/hosts"
	"github.com/podconfig/podconfig/mounts"
)

// RunContainerOptions is what a container gets before conversion to CRI (kubelet's
// kubecontainer.RunContainerOptions).
type RunContainerOptions struct {
	// Envs is the environment, device-plugin variables first, then MakeEnvironmentVariables' order.
	Envs []EnvVar
	// Mounts are the device-plugin mounts, then the volumeMounts, then /etc/hosts.
	Mounts []mounts.Mount
	// Devices are the device-plugin devices, then the block volumes.
	Devices []blockdev.DeviceInfo
	// CDIDevices are fully qualified CDI device names from device plugins and DRA.
	CDIDevices []string
	// Annotations are the device plugins' container annotations.
	Annotations map[string]string
	// PodContainerDir is <podDir>/containers/<name> when the container has a
	// terminationMessagePath and the directory could be made; the termination file goes there.
	PodContainerDir string
	// Hostname is the name the pod's UTS namespace gets, the sandbox's hostname: the pod's
	// hostname, or "<hostname>.<HostDomain>" when the pod sets setHostnameAsFQDN and has a domain
	// (hosts.GetNodenameForKernel). Kubelet v1.37's RunContainerOptions has no such field and
	// checks the FQDN's length only for the sandbox; when the FQDN is too long for the kernel,
	// GeneratePodSandboxConfig fails and Hostname is the short hostname.
	Hostname string
	// HostDomain is the pod's domain, "<subdomain>.<namespace>.svc.<cluster domain>" or empty
	// (hosts.GeneratePodHostNameAndDomain).
	HostDomain string
	// Warnings are what kubelet would only log or record as events, each with its reason.
	Warnings []Warning
}

// GenerateRunContainerOptions builds a container's environment, mounts and devices, as kubelet's
// GenerateRunContainerOptions does: device-plugin resources, hostname and domain, block volumes,
// environment, mounts (with subPath preparation and the pod's etc-hosts file) and the container's
// directory for its termination message.
//
// It reads req's Pod, Container, PodIPs and Volumes. The pod's data directories are made when
// missing (MakePodDataDirs). On error nothing this call did on the host remains: subPath binds
// are undone, and the pod's data directories, the etc-hosts file and the container directory are
// written only once every other step has passed. Kubelet's GenerateRunContainerOptions also
// returns a cleanup action, which is nil on Linux, so this call returns none: like kubelet it
// leaves subPath bind mounts in place, since they belong to the pod until its volumes are torn
// down (mounts.Subpather.CleanSubPaths). Errors are *Error, as GenerateContainerConfig's.
func (g *Generator) GenerateRunContainerOptions(ctx context.Context, req ContainerRequest) (*RunContainerOptions, error) {
	pod, container := req.Pod, req.Container
	if err := g.built(); err != nil {
		return nil, asError(err, ReasonCreateContainerConfigError, pod, container)
	}
	opts, hostsFile, undo, _, err := g.runContainerOptions(ctx, req, false, nil)
	if err != nil {
		return nil, asError(err, ReasonCreateContainerConfigError, pod, container)
	}
	if err := g.makePodHostFiles(pod, "", "", hostsFile); err != nil {
		undo()
		return nil, asError(err, ReasonCreateContainerConfigError, pod, container)
	}
	g.makePodContainerDir(pod, container, opts)
	return opts, nil
}

func noop() {}

// runContainerOptions is GenerateRunContainerOptions without its file writes: the pod's
// etc-hosts file is recorded in the returned deferredWrites and the container directory is left
// out, so GenerateContainerConfig can make both only once nothing else can fail. The returned undo
// reverses the subPath preparations. With withCommand, the container's command and args are
// expanded and checked before any host effect, and returned. A non-nil space lends the
// environment its memory: the caller then reads opts.Envs only until it releases space.
func (g *Generator) runContainerOptions(ctx context.Context, req ContainerRequest, withCommand bool, space *envSpace) (*RunContainerOptions, *deferredWrites, func(), commandLine, error) {
	pod, container, podIPs, volumes := req.Pod, req.Container, req.PodIPs, req.Volumes
	if pod == nil || container == nil {
		return nil, nil, noop, commandLine{}, fmt.Errorf("%w: pod and container must not be nil", ErrInvalidPod)
	}
	podDir, podHostsFile, err := g.podDirAndHostsFile(pod)
	if err != nil {
		return nil, nil, noop, commandLine{}, err
	}
	if err := checkPathElement("container name", container.Name); err != nil {
		return nil, nil, noop, commandLine{}, fmt.Errorf("pod %q: %w", pod.Namespace+"/"+pod.Name, err)
	}
	if err := validateContainer(pod, container); err != nil {
		return nil, nil, noop, commandLine{}, err
	}
	if err := g.checkPodDir(pod, podDir, podHostsFile); err != nil {
		return nil, nil, noop, commandLine{}, err
	}
	podIPs = HostNetworkPodIPs(pod, podIPs, g.opts.NodeIPs)
	opts := &RunContainerOptions{}
	supportsRRO := g.supportsRecursiveReadOnly(pod, container, opts)

	if g.opts.DeviceResources != nil {
		dr, err := g.opts.DeviceResources.GetResources(ctx, pod, container)
		if err != nil {
			return nil, nil, noop, commandLine{}, err
		}
		if dr != nil {
			// A getter may hand every container the same lists and map: the options get copies,
			// so that a caller editing one container's options never edits the next one's.
			opts.Devices = append(opts.Devices, dr.Devices...)
			for _, m := range dr.Mounts {
				m.BindMountOptions = slices.Clone(m.BindMountOptions)
				opts.Mounts = append(opts.Mounts, m)
			}
			opts.Envs = append(opts.Envs, dr.Envs...)
			opts.CDIDevices = append(opts.CDIDevices, dr.CDIDevices...)
			opts.Annotations = maps.Clone(dr.Annotations)
		}
	}

	hostname, domain, msgs, err := hosts.GeneratePodHostNameAndDomain(pod, g.opts.ClusterDomain)
	if err != nil {
		return nil, nil, noop, commandLine{}, err
	}
	opts.Warnings = append(opts.Warnings, warnings(ReasonHostnameTruncated, container.Name, msgs)...)
	// The hosts file keeps the short hostname whatever setHostnameAsFQDN says; only the kernel's
	// name becomes the FQDN. Kubelet checks the FQDN's length for the sandbox alone, so one too
	// long for the kernel fails GeneratePodSandboxConfig, not the container.
	opts.Hostname, opts.HostDomain = hostname, domain
	if nodename, err := hosts.GetNodenameForKernel(hostname, domain, pod.Spec.SetHostnameAsFQDN); err == nil {
		opts.Hostname = nodename
	}

	devices, msgs, err := blockdev.MakeBlockVolumes(container, volumes, g.blockdevs)
	if err != nil {
		return nil, nil, noop, commandLine{}, err
	}
	opts.Devices = append(opts.Devices, devices...)
	opts.Warnings = append(opts.Warnings, warnings(ReasonBlockDeviceMissing, container.Name, msgs)...)

	// One expansion budget covers the container's env values, then its command and args.
	env, err := buildEnv(ctx, envCall{
		EnvInput: EnvInput{
			Pod: pod, Container: container, PodIPs: podIPs, NodeIPs: g.opts.NodeIPs, Volumes: volumes,
			ConfigMaps: g.opts.ConfigMaps, Secrets: g.opts.Secrets, Services: g.opts.Services, Node: g.opts.Node,
			Files: g.files, FeatureGates: &g.gates, ServiceEnvCache: g.services,
		},
		space: space,
	}, g.opts.ExpansionLimits.budget())
	if err != nil {
		return nil, nil, noop, commandLine{}, asError(err, ReasonFailedToCreateEnvVars, pod, container)
	}
	// Device-plugin variables come first when there are any.
	lookup := env.lookup
	if len(opts.Envs) == 0 {
		opts.Envs = env.result
	} else {
		opts.Envs = append(opts.Envs, env.result...)
		lookup = nil
	}
	opts.Warnings = append(opts.Warnings, env.warnings...)
	// The service variables at the end were checked when the Generator cached them.
	if err := checkEnv(pod, container, opts.Envs[:len(opts.Envs)-env.checked]); err != nil {
		return nil, nil, noop, commandLine{}, err
	}
	var cmd commandLine
	if withCommand {
		// Without device-plugin variables the builder looks names up as the environment would,
		// without indexing it again.
		if cmd.command, cmd.args, err = expandContainerCommandAndArgs(container, opts.Envs, lookup, &env.budget); err != nil {
			return nil, nil, noop, commandLine{}, err
		}
		if err := checkCommandLine(pod, container, &cmd); err != nil {
			return nil, nil, noop, commandLine{}, err
		}
	}

	hostsFile := &deferredWrites{}
	mountsIn := mounts.Input{
		Pod: pod, Container: container, PodDir: podDir, PodIPs: podIPs, Volumes: volumes,
		HostUtils: g.hostUtils, Subpather: g.subpather, Env: subPathEnv(container, opts.Envs), SupportsRecursiveReadOnly: supportsRRO,
		// The write is deferred (hostsFile) until nothing else can fail.
		EnsureHostsFile: func() (string, error) {
			return hosts.MakeHostsFile(hostsFile, hosts.HostsFileOptions{
				PodDir: podDir, PodIPs: podIPs, HostName: hostname, HostDomainName: domain,
				HostAliases: pod.Spec.HostAliases, HostNetwork: pod.Spec.HostNetwork, NodeHosts: g.opts.NodeHosts,
			})
		},
	}
	ms, undo, msgs, err := mounts.MakeMounts(mountsIn)
	if err != nil {
		return nil, nil, noop, commandLine{}, err
	}
	opts.Mounts = append(opts.Mounts, ms...)
	opts.Warnings = append(opts.Warnings, warnings(ReasonSubPathCheckFailed, container.Name, msgs)...)
	return opts, hostsFile, undo, cmd, nil
}

// subPathEnv maps the environment for subPathExpr, later duplicates winning as in kubelet's
// envVarsToMap. Only subPathExpr reads it, so containers without one skip building it, and only
// the names a $(NAME) reference can name are put in: whatever follows a "$(" up to the next ")".
// That is every name the expansion looks up (and a few it may not, after a "$$("), so the map
// stays as small as the references. The names are gathered first and the environment is read
// once: looking each name up in it would cost the references times the variables, seconds of
// CPU for a hostile pod's megabyte of references among thousands of variables.
func subPathEnv(container *v1.Container, envs []EnvVar) map[string]string {
	var wanted map[string]bool
	for i := range container.VolumeMounts {
		expr := container.VolumeMounts[i].SubPathExpr
		if expr == "" {
			continue
		}
		if wanted == nil {
			wanted = map[string]bool{}
		}
		for {
			start := strings.Index(expr, "$(")
			if start < 0 {
				break
			}
			expr = expr[start+2:]
			end := strings.IndexByte(expr, ')')
			if end < 0 {
				break
			}
			wanted[expr[:end]] = true
		}
	}
	if wanted == nil {
		return nil
	}
	env := make(map[string]string, min(len(wanted), len(envs)))
	for _, e := range envs {
		if wanted[e.Name] {
			env[e.Name] = e.Value
		}
	}
	return env
}

// makePodContainerDir makes <podDir>/containers/<name> for the termination message. Kubelet only
// logs a failure, and the container then gets no termination-message file.
func (g *Generator) makePodContainerDir(pod *v1.Pod, container *v1.Container, opts *RunContainerOptions) {
	if container.TerminationMessagePath == "" {
		return
	}
	// PodDir and runContainerOptions have checked that the UID and the container name are each
	// one path element, so the concatenation is already clean.
	dir := g.podsDir + "/" + string(pod.UID) + "/containers/" + container.Name
	if err := g.files.MkdirAll(dir, 0o750); err != nil {
		opts.Warnings = append(opts.Warnings, Warning{Reason: ReasonContainerDirFailed, Container: container.Name,
			Message: fmt.Sprintf("error creating the container directory %s: %v", dir, err)})
		return
	}
	opts.PodContainerDir = dir
}

// supportsRecursiveReadOnly reports whether the pod's runtime handler supports recursive
// read-only mounts (kubelet's runtimeClassSupportsRecursiveReadOnlyMounts).
func (g *Generator) supportsRecursiveReadOnly(pod *v1.Pod, container *v1.Container, opts *RunContainerOptions) bool {
	handler := ""
	if r := g.security.Config().RuntimeClasses; r != nil {
		h, err := r.LookupRuntimeHandler(pod.Spec.RuntimeClassName)
		if err != nil {
			opts.Warnings = append(opts.Warnings, Warning{Reason: ReasonRuntimeHandlerLookupFailed, Container: container.Name,
				Message: fmt.Sprintf("failed to look up the runtime handler: %v", err)})
			return false
		}
		handler = h
	}
	if len(g.opts.RuntimeHandlers) == 0 {
		return false
	}
	for _, h := range g.opts.RuntimeHandlers {
		if h.GetName() == handler {
			return h.GetFeatures().GetRecursiveReadOnlyMounts()
		}
	}
	opts.Warnings = append(opts.Warnings, Warning{Reason: ReasonUnknownRuntimeHandler, Container: container.Name,
		Message: fmt.Sprintf("unknown runtime handler %q", handler)})
	return false
}
