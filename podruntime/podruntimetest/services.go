package podruntimetest

import (
	"context"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// runtimeServer is the CRI runtime service over a Runtime; the methods podruntime does not call
// answer Unimplemented.
type runtimeServer struct {
	runtimeapi.UnimplementedRuntimeServiceServer
	r *Runtime
}

// Version reports Name.
func (s *runtimeServer) Version(context.Context, *runtimeapi.VersionRequest) (*runtimeapi.VersionResponse, error) {
	return &runtimeapi.VersionResponse{Version: "0.1.0", RuntimeName: Name, RuntimeVersion: "v0", RuntimeApiVersion: "v1"}, nil
}

// Status reports the runtime and its network ready, with Handlers.
func (s *runtimeServer) Status(context.Context, *runtimeapi.StatusRequest) (*runtimeapi.StatusResponse, error) {
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	return &runtimeapi.StatusResponse{
		Status: &runtimeapi.RuntimeStatus{Conditions: []*runtimeapi.RuntimeCondition{
			{Type: runtimeapi.RuntimeReady, Status: true}, {Type: runtimeapi.NetworkReady, Status: true}}},
		RuntimeHandlers: s.r.Handlers,
	}, nil
}

// RuntimeConfig reports the cgroupfs driver.
func (s *runtimeServer) RuntimeConfig(context.Context, *runtimeapi.RuntimeConfigRequest) (*runtimeapi.RuntimeConfigResponse, error) {
	return &runtimeapi.RuntimeConfigResponse{Linux: &runtimeapi.LinuxRuntimeConfiguration{CgroupDriver: runtimeapi.CgroupDriver_CGROUPFS}}, nil
}

// RunPodSandbox makes a ready sandbox; one with its own network gets PodIP.
func (s *runtimeServer) RunPodSandbox(_ context.Context, req *runtimeapi.RunPodSandboxRequest) (*runtimeapi.RunPodSandboxResponse, error) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	cfg := req.GetConfig()
	if err := r.call("RunPodSandbox", fmt.Sprintf("%s/%d", cfg.GetMetadata().GetName(), cfg.GetMetadata().GetAttempt())); err != nil {
		return nil, err
	}
	if cfg.GetMetadata().GetUid() == "" {
		return nil, status.Error(codes.InvalidArgument, "sandbox config must include metadata with a uid")
	}
	r.seq++
	sb := &sandbox{id: fmt.Sprintf("sandbox-%d", r.seq), config: cfg, handler: req.GetRuntimeHandler(),
		state: runtimeapi.PodSandboxState_SANDBOX_READY, createdAt: r.now()}
	if cfg.GetLinux().GetSecurityContext().GetNamespaceOptions().GetNetwork() != runtimeapi.NamespaceMode_NODE {
		sb.ip = r.PodIP
		if sb.ip == "" {
			sb.ip = DefaultPodIP
		}
	}
	r.sandboxes[sb.id] = sb
	return &runtimeapi.RunPodSandboxResponse{PodSandboxId: sb.id}, nil
}

// StopPodSandbox kills what runs in the sandbox and makes it not ready.
func (s *runtimeServer) StopPodSandbox(_ context.Context, req *runtimeapi.StopPodSandboxRequest) (*runtimeapi.StopPodSandboxResponse, error) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	sb, ok := r.sandboxes[req.GetPodSandboxId()]
	if err := r.call("StopPodSandbox", sandboxName(sb, req.GetPodSandboxId())); err != nil {
		return nil, err
	}
	if !ok {
		return nil, notFound("sandbox", req.GetPodSandboxId())
	}
	// Stopping a sandbox kills what still runs in it.
	for _, c := range r.containers {
		if c.sandboxID == sb.id && c.state == runtimeapi.ContainerState_CONTAINER_RUNNING {
			c.exit(r.now(), StoppedExitCode, StoppedReason)
		}
	}
	sb.state = runtimeapi.PodSandboxState_SANDBOX_NOTREADY
	return &runtimeapi.StopPodSandboxResponse{}, nil
}

func sandboxName(sb *sandbox, id string) string {
	if sb == nil {
		return id
	}
	return sb.name()
}

// RemovePodSandbox removes a stopped sandbox and its containers; an unknown one is no error.
func (s *runtimeServer) RemovePodSandbox(_ context.Context, req *runtimeapi.RemovePodSandboxRequest) (*runtimeapi.RemovePodSandboxResponse, error) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	sb, ok := r.sandboxes[req.GetPodSandboxId()]
	if err := r.call("RemovePodSandbox", sandboxName(sb, req.GetPodSandboxId())); err != nil {
		return nil, err
	}
	if !ok {
		return &runtimeapi.RemovePodSandboxResponse{}, nil
	}
	if sb.state == runtimeapi.PodSandboxState_SANDBOX_READY {
		return nil, status.Errorf(codes.FailedPrecondition, "sandbox container %q is not fully stopped", sb.id)
	}
	for id, c := range r.containers {
		if c.sandboxID == sb.id {
			delete(r.containers, id)
		}
	}
	delete(r.sandboxes, sb.id)
	return &runtimeapi.RemovePodSandboxResponse{}, nil
}

// PodSandboxStatus reports a sandbox.
func (s *runtimeServer) PodSandboxStatus(_ context.Context, req *runtimeapi.PodSandboxStatusRequest) (*runtimeapi.PodSandboxStatusResponse, error) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	sb, ok := r.sandboxes[req.GetPodSandboxId()]
	if !ok {
		return nil, notFound("sandbox", req.GetPodSandboxId())
	}
	return &runtimeapi.PodSandboxStatusResponse{Status: sb.status()}, nil
}

// ListPodSandbox lists the sandboxes the filter selects, the oldest first.
func (s *runtimeServer) ListPodSandbox(_ context.Context, req *runtimeapi.ListPodSandboxRequest) (*runtimeapi.ListPodSandboxResponse, error) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	f := req.GetFilter()
	out := &runtimeapi.ListPodSandboxResponse{}
	for _, sb := range r.sortedSandboxes() {
		if (f.GetId() != "" && f.GetId() != sb.id) || (f.GetState() != nil && f.GetState().GetState() != sb.state) ||
			!matches(sb.config.GetLabels(), f.GetLabelSelector()) {
			continue
		}
		out.Items = append(out.Items, &runtimeapi.PodSandbox{Id: sb.id, Metadata: sb.config.GetMetadata(), State: sb.state,
			CreatedAt: sb.createdAt, Labels: sb.config.GetLabels(), Annotations: sb.config.GetAnnotations(), RuntimeHandler: sb.handler})
	}
	return out, nil
}

// CreateContainer makes a created container in a ready sandbox.
func (s *runtimeServer) CreateContainer(_ context.Context, req *runtimeapi.CreateContainerRequest) (*runtimeapi.CreateContainerResponse, error) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	cfg := req.GetConfig()
	if err := r.call("CreateContainer", fmt.Sprintf("%s/%d", cfg.GetMetadata().GetName(), cfg.GetMetadata().GetAttempt())); err != nil {
		return nil, err
	}
	sb, ok := r.sandboxes[req.GetPodSandboxId()]
	if !ok {
		return nil, notFound("sandbox", req.GetPodSandboxId())
	}
	if sb.state != runtimeapi.PodSandboxState_SANDBOX_READY {
		return nil, status.Errorf(codes.FailedPrecondition, "sandbox %q is not running", sb.id)
	}
	for _, c := range r.containers {
		if c.sandboxID == sb.id && c.config.GetMetadata().GetName() == cfg.GetMetadata().GetName() &&
			c.config.GetMetadata().GetAttempt() == cfg.GetMetadata().GetAttempt() {
			// containerd reserves a container's name with its attempt in its sandbox.
			return nil, status.Errorf(codes.AlreadyExists, "the container name %q is already in use by %q", c.name(), c.id)
		}
	}
	r.seq++
	c := &container{id: fmt.Sprintf("container-%d", r.seq), sandboxID: sb.id, config: cfg, logPath: logPath(sb, cfg),
		state: runtimeapi.ContainerState_CONTAINER_CREATED, createdAt: r.now()}
	r.containers[c.id] = c
	return &runtimeapi.CreateContainerResponse{ContainerId: c.id}, nil
}

// StartContainer runs a created container.
func (s *runtimeServer) StartContainer(_ context.Context, req *runtimeapi.StartContainerRequest) (*runtimeapi.StartContainerResponse, error) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.containers[req.GetContainerId()]
	if err := r.call("StartContainer", containerName(c, req.GetContainerId())); err != nil {
		return nil, err
	}
	if !ok {
		return nil, notFound("container", req.GetContainerId())
	}
	if c.state != runtimeapi.ContainerState_CONTAINER_CREATED {
		return nil, status.Errorf(codes.FailedPrecondition, "container %q is not in created state", c.id)
	}
	c.state, c.startedAt = runtimeapi.ContainerState_CONTAINER_RUNNING, r.now()
	return &runtimeapi.StartContainerResponse{}, nil
}

func containerName(c *container, id string) string {
	if c == nil {
		return id
	}
	return c.name()
}

// StopContainer makes a running container exit with StoppedExitCode.
func (s *runtimeServer) StopContainer(_ context.Context, req *runtimeapi.StopContainerRequest) (*runtimeapi.StopContainerResponse, error) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.containers[req.GetContainerId()]
	if err := r.call("StopContainer", fmt.Sprintf("%s %ds", containerName(c, req.GetContainerId()), req.GetTimeout())); err != nil {
		return nil, err
	}
	if !ok {
		return nil, notFound("container", req.GetContainerId())
	}
	if c.state == runtimeapi.ContainerState_CONTAINER_RUNNING {
		c.exit(r.now(), StoppedExitCode, StoppedReason)
	}
	return &runtimeapi.StopContainerResponse{}, nil
}

// RemoveContainer removes a container that does not run; an unknown one is no error.
func (s *runtimeServer) RemoveContainer(_ context.Context, req *runtimeapi.RemoveContainerRequest) (*runtimeapi.RemoveContainerResponse, error) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.containers[req.GetContainerId()]
	if err := r.call("RemoveContainer", containerName(c, req.GetContainerId())); err != nil {
		return nil, err
	}
	if !ok {
		return &runtimeapi.RemoveContainerResponse{}, nil
	}
	if c.state == runtimeapi.ContainerState_CONTAINER_RUNNING {
		return nil, status.Errorf(codes.FailedPrecondition, "failed to set removing state for container %q: container is still running, to stop first", c.id)
	}
	delete(r.containers, c.id)
	return &runtimeapi.RemoveContainerResponse{}, nil
}

// ContainerStatus reports a container.
func (s *runtimeServer) ContainerStatus(_ context.Context, req *runtimeapi.ContainerStatusRequest) (*runtimeapi.ContainerStatusResponse, error) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	c, ok := r.containers[req.GetContainerId()]
	if !ok {
		return nil, notFound("container", req.GetContainerId())
	}
	return &runtimeapi.ContainerStatusResponse{Status: c.status()}, nil
}

// ListContainers lists the containers the filter selects, the oldest first.
func (s *runtimeServer) ListContainers(_ context.Context, req *runtimeapi.ListContainersRequest) (*runtimeapi.ListContainersResponse, error) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	f := req.GetFilter()
	out := &runtimeapi.ListContainersResponse{}
	for _, c := range r.sortedContainers() {
		if (f.GetId() != "" && f.GetId() != c.id) || (f.GetPodSandboxId() != "" && f.GetPodSandboxId() != c.sandboxID) ||
			(f.GetState() != nil && f.GetState().GetState() != c.state) || !matches(c.config.GetLabels(), f.GetLabelSelector()) {
			continue
		}
		out.Containers = append(out.Containers, &runtimeapi.Container{Id: c.id, PodSandboxId: c.sandboxID, Metadata: c.config.GetMetadata(),
			Image: c.config.GetImage(), ImageRef: c.config.GetImage().GetImage(), State: c.state, CreatedAt: c.createdAt,
			Labels: c.config.GetLabels(), Annotations: c.config.GetAnnotations()})
	}
	return out, nil
}

// imageServer is the CRI image service over a Runtime.
type imageServer struct {
	runtimeapi.UnimplementedImageServiceServer
	r *Runtime
}

// ImageStatus reports a present image, nil for another.
func (s *imageServer) ImageStatus(_ context.Context, req *runtimeapi.ImageStatusRequest) (*runtimeapi.ImageStatusResponse, error) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init()
	if q := r.failures["ImageStatus"]; len(q) > 0 {
		r.failures["ImageStatus"] = q[1:]
		return nil, q[0]
	}
	return &runtimeapi.ImageStatusResponse{Image: r.images[req.GetImage().GetImage()]}, nil
}

// PullImage makes an image of the Registry present.
func (s *imageServer) PullImage(_ context.Context, req *runtimeapi.PullImageRequest) (*runtimeapi.PullImageResponse, error) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	name := req.GetImage().GetImage()
	if err := r.call("PullImage", name); err != nil {
		return nil, err
	}
	id, ok := r.Registry[name]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "failed to pull and unpack image %q: %s: not found", name, name)
	}
	img := &runtimeapi.Image{Id: id, RepoTags: []string{name}, Size: 1 << 20}
	r.images[name], r.images[id] = img, img
	return &runtimeapi.PullImageResponse{ImageRef: id}, nil
}

// ListImages lists the present images.
func (s *imageServer) ListImages(context.Context, *runtimeapi.ListImagesRequest) (*runtimeapi.ListImagesResponse, error) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	out := &runtimeapi.ListImagesResponse{}
	seen := map[string]bool{}
	for _, img := range r.images {
		if !seen[img.Id] {
			seen[img.Id] = true
			out.Images = append(out.Images, img)
		}
	}
	return out, nil
}
