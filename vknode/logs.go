package vknode

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"time"

	"github.com/virtual-kubelet/virtual-kubelet/errdefs"
	"github.com/virtual-kubelet/virtual-kubelet/node/api"

	"github.com/podconfig/podconfig/logs"
	"github.com/podconfig/podconfig/podruntime"
)

// followInterval is how often a followed log is read again for what the container wrote since.
const followInterval = 200 * time.Millisecond

// maxLogLine bounds a line of the log file the reader holds; a longer one is cut.
const maxLogLine = 1 << 20

// ContainerLogs serves the container's log as kubelet's /containerLogs does, from the CRI log
// file the runtime writes (<time> <stream> <tag> <content> a line): the content, each line
// behind its time with Timestamps, from SinceSeconds or SinceTime on, the last Tail lines, at
// most LimitBytes, the previous attempt's with Previous, and with Follow what the container
// writes next until it exits or ctx is done. It fits virtual-kubelet's
// api.ContainerLogsHandlerFunc.
func (p *Provider) ContainerLogs(ctx context.Context, namespace, podName, containerName string, opts api.ContainerLogOpts) (io.ReadCloser, error) {
	w := p.worker(namespace, podName)
	if w == nil {
		return nil, errdefs.NotFoundf("pod %s/%s is not on this node", namespace, podName)
	}
	pod := w.current()
	st, err := p.rt.GetPodStatus(ctx, pod.UID, pod.Name, pod.Namespace)
	if err != nil {
		return nil, err
	}
	var attempts []*podruntime.ContainerStatus
	for _, c := range st.ContainerStatuses {
		if c.Name == containerName {
			attempts = append(attempts, c)
		}
	}
	var c *podruntime.ContainerStatus
	switch {
	case opts.Previous && len(attempts) < 2:
		return nil, errdefs.InvalidInputf("previous terminated container %q in pod %q not found", containerName, podName)
	case opts.Previous:
		c = attempts[1]
	case len(attempts) == 0:
		return nil, errdefs.InvalidInputf("container %q in pod %q is waiting to start: ContainerCreating", containerName, podName)
	default:
		c = attempts[0]
	}
	// The runtime's log file, opened as a regular file only (no FIFO, no final symlink).
	f, err := logs.OpenLogFile(c.LogPath)
	if err != nil {
		return nil, err
	}
	since := opts.SinceTime
	if opts.SinceSeconds > 0 {
		since = time.Now().Add(-time.Duration(opts.SinceSeconds) * time.Second)
	}
	r := &logReader{opts: opts, since: since, follow: opts.Follow && c.State == podruntime.ContainerStateRunning,
		running: func() bool {
			s, err := p.rt.GetPodStatus(ctx, pod.UID, pod.Name, pod.Namespace)
			if err != nil {
				return false
			}
			for _, cs := range s.ContainerStatuses {
				if cs.ID == c.ID {
					return cs.State == podruntime.ContainerStateRunning
				}
			}
			return false
		}}
	pr, pw := io.Pipe()
	go func() {
		defer f.Close()
		pw.CloseWithError(r.copy(ctx, f, pw))
	}()
	return pr, nil
}

// logReader turns a CRI log file into what kubelet's log API returns.
type logReader struct {
	opts    api.ContainerLogOpts
	since   time.Time
	follow  bool
	running func() bool
	written int
	// midLine says the last entry sent was part of a line the runtime split.
	midLine bool
}

// errLimit ends a copy that reached LimitBytes.
var errLimit = errors.New("limit reached")

// copy writes the log to out: from its last Tail lines with Tail, else from its start, to the
// end, following the file while the container runs when asked to.
func (r *logReader) copy(ctx context.Context, f *os.File, out io.Writer) error {
	if err := r.seekTail(f); err != nil {
		return err
	}
	br := bufio.NewReaderSize(f, 64*1024)
	var pending []byte
	readAvailable := func() error {
		for {
			chunk, err := br.ReadSlice('\n')
			pending = append(pending, chunk...)
			if len(pending) > maxLogLine {
				pending = append(pending[:maxLogLine-1], '\n')
				err = nil
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil && err != io.EOF {
				return err
			}
			if len(pending) == 0 || pending[len(pending)-1] != '\n' {
				// EOF amid a line: the runtime is writing it.
				return nil
			}
			line := pending
			pending = nil
			if b, ok := r.render(line); ok {
				if err := r.write(out, b); err != nil {
					return err
				}
			}
			if err == io.EOF {
				return nil
			}
		}
	}
	if err := readAvailable(); err != nil {
		return ignoreLimit(err)
	}
	for r.follow {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(followInterval):
		}
		alive := r.running()
		if err := readAvailable(); err != nil {
			return ignoreLimit(err)
		}
		if !alive {
			return nil
		}
	}
	return nil
}

// seekTail moves f to where its last Tail lines begin, as kubelet's log API starts tailLines: the
// file's lines are counted, so the log is streamed from there and never held, however many lines
// are asked for and however large the container made its log.
func (r *logReader) seekTail(f *os.File) error {
	if r.opts.Tail <= 0 {
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	start, err := logs.TailLineStart(f, fi.Size(), r.opts.Tail)
	if err != nil {
		return err
	}
	_, err = f.Seek(start, io.SeekStart)
	return err
}

// render turns one line of the log file into what is sent: its content, the newline that
// separates entries in the file left out of an entry the runtime split (tag P), so the line is
// sent whole; with Timestamps the entry's time before a line's first entry. ok is false for a
// line before since or that does not parse.
func (r *logReader) render(line []byte) ([]byte, bool) {
	content, partial, ok := logs.ParseCRILog(line)
	if !ok {
		return nil, false
	}
	ts, _, _ := bytes.Cut(line, []byte{' '})
	if !r.since.IsZero() {
		t, err := time.Parse(time.RFC3339Nano, string(ts))
		if err != nil || t.Before(r.since) {
			return nil, false
		}
	}
	if partial {
		content = bytes.TrimSuffix(content, []byte{'\n'})
	}
	out := make([]byte, 0, len(ts)+1+len(content))
	if r.opts.Timestamps && !r.midLine {
		out = append(append(out, ts...), ' ')
	}
	r.midLine = partial
	return append(out, content...), true
}

// write sends b, cut at LimitBytes.
func (r *logReader) write(out io.Writer, b []byte) error {
	if r.opts.LimitBytes > 0 {
		left := r.opts.LimitBytes - r.written
		if left <= 0 {
			return errLimit
		}
		if len(b) > left {
			b = b[:left]
		}
	}
	n, err := out.Write(b)
	r.written += n
	return err
}

func ignoreLimit(err error) error {
	if errors.Is(err, errLimit) {
		return nil
	}
	return err
}
