package logs

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"time"
)

// tailBlockSize is how much of a log file is read at a time while looking for its last lines.
const tailBlockSize = 1024

// maxLogHeader bounds the "<time> <stream> <tag> " prefix of a CRI log line.
const maxLogHeader = 256

// ReadLastStringFromContainerLogs returns what kubelet's readLastStringFromContainerLogs
// returns for a container that failed under FallbackToLogsOnError: the output recorded in the
// last MaxContainerTerminationMessageLogLines lines of the CRI log file at path ("<time>
// <stream> <P|F> <content>" a line; a partial line P adds its content without a newline), of
// which the last MaxContainerTerminationMessageLogLength bytes. A line that is not in that format
// is skipped, as kubelet's ReadLogs skips it. An error reading the file is the message
// "Error on reading termination message from logs: ...", in kubelet's words.
//
// Unlike kubelet, which reads each line whole, it holds at most one buffer of the file and the
// 2 KiB kept, whatever the length of the lines, and it opens the file as ReadAtMost does: only a
// regular file, without following a final symlink, without blocking.
func ReadLastStringFromContainerLogs(path string) string {
	out, err := readLastString(path)
	if err != nil {
		return fmt.Sprintf("Error on reading termination message from logs: %v", err)
	}
	return out
}

func readLastString(path string) (string, error) {
	f, size, err := openRegular(path)
	if err != nil {
		return "", fmt.Errorf("failed to open log file %q: %v", path, err)
	}
	defer func() { _ = f.Close() }()
	start, err := TailLineStart(f, size, MaxContainerTerminationMessageLogLines)
	if err != nil {
		return "", fmt.Errorf("failed to tail %d lines of log file %q: %w", MaxContainerTerminationMessageLogLines, path, err)
	}
	keep := &lastBytes{max: MaxContainerTerminationMessageLogLength}
	r := bufio.NewReaderSize(io.NewSectionReader(f, start, size-start), 32*1024)
	for lines := 0; lines < MaxContainerTerminationMessageLogLines; {
		ok, head, err := copyLogLine(r, keep)
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", fmt.Errorf("failed to read log file %q: %v", path, err)
		}
		if !ok && lines == 0 && len(keep.buf) == 0 {
			// Kubelet picks the log format from the first line it reads.
			return "", fmt.Errorf("failed to get parse function: unsupported log format: %q", head)
		}
		if ok {
			lines++
		}
	}
	return string(keep.bytes()), nil
}

// TailLineStart returns the offset at which the last n lines of the file of size bytes read
// through f begin, 0 when it has n lines or fewer: kubelet's FindTailLineStartIndex, with which
// its log API serves tailLines. It reads the file backwards a block at a time and holds one
// block, whatever n and the file's size, so a node can serve the tail of a log as large as a
// container made it by reading forward from there.
func TailLineStart(f io.ReaderAt, size int64, n int) (int64, error) {
	var left int64
	count := 0
	var buf []byte
	for right := size; right > 0 && count <= n; right = left {
		left = max(right-tailBlockSize, 0)
		buf = make([]byte, right-left)
		if _, err := f.ReadAt(buf, left); err != nil && err != io.EOF {
			return 0, err
		}
		count += bytes.Count(buf, []byte{'\n'})
	}
	for ; count > n; count-- {
		i := bytes.IndexByte(buf, '\n') + 1
		buf = buf[i:]
		left += int64(i)
	}
	return left, nil
}

// copyLogLine reads one line of a CRI log and writes its content to w: with its newline for a
// full line, without it for a partial one. It reports whether the line was in the CRI format,
// and, when it was not, its first bytes.
func copyLogLine(r *bufio.Reader, w *lastBytes) (bool, []byte, error) {
	head, err := r.ReadSlice('\n')
	long := err == bufio.ErrBufferFull
	if err != nil && !long {
		if err == io.EOF && len(head) > 0 {
			err = nil // a last line without its newline
		} else {
			return false, nil, err
		}
	}
	content, partial, ok := ParseCRILog(head)
	if !ok {
		head = bytes.Clone(head[:min(len(head), maxLogHeader)])
		return false, head, skipRest(r, long)
	}
	if partial {
		content = bytes.TrimSuffix(content, []byte{'\n'})
	}
	w.write(content)
	for long {
		var chunk []byte
		chunk, err = r.ReadSlice('\n')
		long = err == bufio.ErrBufferFull
		if err != nil && !long && err != io.EOF {
			return false, nil, err
		}
		if partial {
			chunk = bytes.TrimSuffix(chunk, []byte{'\n'})
		}
		w.write(chunk)
	}
	return true, nil, nil
}

// skipRest discards the rest of a long line.
func skipRest(r *bufio.Reader, long bool) error {
	for long {
		_, err := r.ReadSlice('\n')
		long = err == bufio.ErrBufferFull
		if err != nil && !long && err != io.EOF {
			return err
		}
	}
	return nil
}

// ParseCRILog splits a line of a container's CRI log file, "<RFC 3339 time> <stdout|stderr>
// <tag> <content>", into its content (the rest of the line, newline included if the line has
// it) and whether it is partial (tag P: the runtime split a long line, and the next entry
// continues it), as kubelet's parseCRILog does; ok is false for a line with a bad timestamp or
// stream, or without a tag. content is a slice of line.
func ParseCRILog(line []byte) (content []byte, partial, ok bool) {
	header := line[:min(len(line), maxLogHeader)]
	ts, rest, found := bytes.Cut(header, []byte{' '})
	if !found {
		return nil, false, false
	}
	if _, err := time.Parse(time.RFC3339Nano, string(ts)); err != nil {
		return nil, false, false
	}
	stream, rest, found := bytes.Cut(rest, []byte{' '})
	if !found || (string(stream) != "stdout" && string(stream) != "stderr") {
		return nil, false, false
	}
	tag, _, found := bytes.Cut(rest, []byte{' '})
	if !found {
		return nil, false, false
	}
	tags, _, _ := bytes.Cut(tag, []byte{':'})
	start := len(ts) + len(stream) + len(tag) + 3
	return line[start:], string(tags) == "P", true
}

// lastBytes keeps the last max bytes written to it.
type lastBytes struct {
	max int
	buf []byte
}

func (b *lastBytes) write(p []byte) {
	if len(p) >= b.max {
		b.buf = append(b.buf[:0], p[len(p)-b.max:]...)
		return
	}
	b.buf = append(b.buf, p...)
	if len(b.buf) > 2*b.max {
		b.buf = append(b.buf[:0], b.buf[len(b.buf)-b.max:]...)
	}
}

func (b *lastBytes) bytes() []byte {
	if len(b.buf) > b.max {
		return b.buf[len(b.buf)-b.max:]
	}
	return b.buf
}
