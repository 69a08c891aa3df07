package node

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/podconfig/podconfig/internal/terminal"
	"github.com/podconfig/podconfig/logs"
)

// maxLogLine bounds a line the node holds: the runtime writes a longer line of the container's
// as several partial entries (tag P, of at most 16 KiB with containerd's default), and a line
// that grows past this bound is put out in pieces of it, so neither a line without a newline nor
// a malformed log file makes the node hold more.
const maxLogLine = 16 * 1024

// logTailBytes is how much of an attempt's output the node keeps (Attempt.Log): enough for the
// FallbackToLogsOnError termination message (the last 80 lines, at most 2 KiB) and for a person
// to see why a container failed. The rest only streams through to Out.
const logTailBytes = 16 * 1024

// follower streams one container attempt's CRI log file to the node's Out as it grows, holding
// no more of it than the current line and the output's last logTailBytes.
type follower struct {
	path, prefix string
	out          io.Writer
	outMu        *sync.Mutex
	stop         chan struct{}
	done         chan struct{}
	once         sync.Once

	tail    []byte // the end of the output: at most 2*logTailBytes, trimmed to logTailBytes
	partial []byte // a line the runtime split (tag P), waiting for its end
	pending []byte // bytes of the log file after its last newline
}

// follow starts following the log file at path. Its lines go to Out behind prefix, escaped: it
// names the pod and container, which an unchecked manifest may give control characters.
func (n *Node) follow(path, prefix string) *follower {
	f := &follower{path: path, prefix: terminal.Escape(prefix), out: n.cfg.Out, outMu: &n.outMu,
		stop: make(chan struct{}), done: make(chan struct{})}
	go f.run()
	return f
}

// Stop reads what is left of the log and returns the output's last logTailBytes; it may be
// called more than once.
func (f *follower) Stop() string {
	f.once.Do(func() { close(f.stop) })
	<-f.done
	return f.tailString()
}

func (f *follower) tailString() string {
	if len(f.tail) > logTailBytes {
		return string(f.tail[len(f.tail)-logTailBytes:])
	}
	return string(f.tail)
}

func (f *follower) run() {
	defer close(f.done)
	var file *os.File
	defer func() {
		if file != nil {
			file.Close()
		}
	}()
	buf := make([]byte, 32*1024)
	// readNew reads what the log has gained since the last call, opening it once it exists.
	readNew := func() {
		if file == nil {
			file, _ = os.Open(f.path)
		}
		for file != nil {
			n, err := file.Read(buf)
			f.consume(buf[:n])
			if n == 0 || err != nil {
				return
			}
		}
	}
	for {
		readNew()
		select {
		case <-f.stop:
			// The runtime has closed the log once the container exited: read the rest.
			readNew()
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// consume splits the log file into lines for entry. A line of the file longer than maxLogLine
// (with room for its header) is cut there and its pieces taken as lines.
func (f *follower) consume(b []byte) {
	const maxEntry = maxLogLine + 128
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		room := maxEntry - len(f.pending)
		switch {
		case i >= 0 && i <= room:
			f.pending = append(f.pending, b[:i]...)
			b = b[i+1:]
		case len(b) < room:
			f.pending = append(f.pending, b...)
			return
		default:
			f.pending = append(f.pending, b[:room]...)
			b = b[room:]
		}
		f.entry(f.pending)
		f.pending = f.pending[:0]
	}
}

// entry takes one line of the log file; one that is not in the CRI log format is skipped.
func (f *follower) entry(line []byte) {
	content, partial, ok := logs.ParseCRILog(line)
	if !ok {
		return
	}
	if partial {
		f.partial = append(f.partial, content...)
		for len(f.partial) >= maxLogLine {
			f.emit(f.partial[:maxLogLine])
			f.partial = append(f.partial[:0], f.partial[maxLogLine:]...)
		}
		return
	}
	if len(f.partial) > 0 {
		content = append(f.partial, content...)
	}
	f.emit(content)
	f.partial = f.partial[:0]
}

// emit puts out one line of the container's output: to Out, and to the kept tail.
func (f *follower) emit(content []byte) {
	f.outMu.Lock()
	fmt.Fprintf(f.out, "[%s] %s\n", f.prefix, content)
	f.outMu.Unlock()
	f.tail = append(f.tail, content...)
	f.tail = append(f.tail, '\n')
	if len(f.tail) > 2*logTailBytes {
		f.tail = append(f.tail[:0], f.tail[len(f.tail)-logTailBytes:]...)
	}
}
