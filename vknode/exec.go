package vknode

import (
	"context"
	"fmt"
	"net/url"

	"github.com/virtual-kubelet/virtual-kubelet/errdefs"
	"github.com/virtual-kubelet/virtual-kubelet/node/api"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/remotecommand"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/podruntime"
)

// RunInContainer runs cmd in the container as kubelet's /exec does with a CRI runtime: the
// runtime's Exec gives the URL of its streaming server, which the provider connects to over
// SPDY (as kubelet proxies to it), copying the caller's streams and terminal resizes through.
// A command that exits non-zero returns client-go's exec.CodeExitError unwrapped, which the
// API handler reports to the client as the exit code. It fits virtual-kubelet's
// api.ContainerExecHandlerFunc.
func (p *Provider) RunInContainer(ctx context.Context, namespace, podName, containerName string, cmd []string, attach api.AttachIO) error {
	w := p.worker(namespace, podName)
	if w == nil {
		return errdefs.NotFoundf("pod %s/%s is not on this node", namespace, podName)
	}
	pod := w.current()
	st, err := p.rt.GetPodStatus(ctx, pod.UID, pod.Name, pod.Namespace)
	if err != nil {
		return err
	}
	c := st.FindContainerStatusByName(containerName)
	if c == nil || c.State != podruntime.ContainerStateRunning {
		return errdefs.InvalidInputf("container %q of pod %s/%s is not running", containerName, namespace, podName)
	}
	req := &runtimeapi.ExecRequest{ContainerId: c.ID.ID, Cmd: cmd, Tty: attach.TTY(),
		Stdin: attach.Stdin() != nil, Stdout: attach.Stdout() != nil, Stderr: attach.Stderr() != nil && !attach.TTY()}
	resp, err := p.cfg.Runtime.Exec(ctx, req)
	if err != nil {
		return fmt.Errorf("exec in container %q of pod %s/%s: %w", containerName, namespace, podName, err)
	}
	u, err := url.Parse(resp.GetUrl())
	if err != nil {
		return fmt.Errorf("exec in container %q of pod %s/%s: the runtime's URL: %w", containerName, namespace, podName, err)
	}
	exec, err := remotecommand.NewSPDYExecutor(&rest.Config{}, "POST", u)
	if err != nil {
		return err
	}
	opts := remotecommand.StreamOptions{Tty: attach.TTY()}
	if in := attach.Stdin(); in != nil {
		opts.Stdin = in
	}
	if out := attach.Stdout(); out != nil {
		opts.Stdout = out
	}
	if e := attach.Stderr(); e != nil && !attach.TTY() {
		opts.Stderr = e
	}
	if attach.TTY() {
		opts.TerminalSizeQueue = resizes{ctx: ctx, ch: attach.Resize()}
	}
	return exec.StreamWithContext(ctx, opts)
}

// resizes passes the caller's terminal sizes on to the runtime's stream.
type resizes struct {
	ctx context.Context
	ch  <-chan api.TermSize
}

func (r resizes) Next() *remotecommand.TerminalSize {
	select {
	case <-r.ctx.Done():
		return nil
	case s, ok := <-r.ch:
		if !ok {
			return nil
		}
		return &remotecommand.TerminalSize{Width: s.Width, Height: s.Height}
	}
}
