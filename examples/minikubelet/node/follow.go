package node

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// follower streams one container attempt's CRI log file to the node's Out as it grows and keeps
// its content.
type follower struct {
	path, prefix string
	out          io.Writer
	outMu        *sync.Mutex
	stop         chan struct{}
	done         chan struct{}
	once         sync.Once

	content strings.Builder
	partial string // a line the runtime split (tag P), waiting for its end
	pending []byte // bytes after the last newline
}

// follow starts following the log file at path.
func (n *Node) follow(path, prefix string) *follower {
	f := &follower{path: path, prefix: prefix, out: n.cfg.Out, outMu: &n.outMu,
		stop: make(chan struct{}), done: make(chan struct{})}
	go f.run()
	return f
}

// Stop reads what is left of the log and returns its whole content; it may be called more than
// once.
func (f *follower) Stop() string {
	f.once.Do(func() { close(f.stop) })
	<-f.done
	return f.content.String()
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
	for {
		if file == nil {
			file, _ = os.Open(f.path)
		}
		for file != nil {
			n, err := file.Read(buf)
			f.consume(buf[:n])
			if n == 0 || err != nil {
				break
			}
		}
		select {
		case <-f.stop:
			// The runtime has closed the log once the container exited: read the rest.
			if file == nil {
				file, _ = os.Open(f.path)
			}
			for file != nil {
				n, err := file.Read(buf)
				f.consume(buf[:n])
				if n == 0 || err != nil {
					break
				}
			}
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// consume parses complete lines of the CRI log format, "<time> <stream> <P|F> <content>".
func (f *follower) consume(b []byte) {
	f.pending = append(f.pending, b...)
	for {
		i := bytes.IndexByte(f.pending, '\n')
		if i < 0 {
			return
		}
		line := string(f.pending[:i])
		f.pending = f.pending[i+1:]
		fields := strings.SplitN(line, " ", 4)
		if len(fields) < 3 {
			continue
		}
		content := ""
		if len(fields) == 4 {
			content = fields[3]
		}
		if fields[2] == "P" {
			f.partial += content
			continue
		}
		content, f.partial = f.partial+content, ""
		f.content.WriteString(content + "\n")
		f.outMu.Lock()
		fmt.Fprintf(f.out, "[%s] %s\n", f.prefix, content)
		f.outMu.Unlock()
	}
}
