package node

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFollowerHoldsABoundedTailOfTheLog(t *testing.T) {
	// Finding: the node held every attempt's whole log (64 MiB logged, 61 MiB held) and grew a
	// line without a newline with += (quadratic).
	var out countingWriter
	f := &follower{prefix: "ns/pod/c", out: &out, outMu: new(sync.Mutex)}
	line := []byte("2026-01-01T00:00:00Z stdout F " + strings.Repeat("x", 1000) + "\n")
	for range 64 * 1024 {
		f.consume(line)
		require.LessOrEqual(t, len(f.tail), 2*logTailBytes)
	}
	assert.Equal(t, 64*1024*(len("[ns/pod/c] ")+1001), out.n, "everything streamed to Out")
	assert.Len(t, f.tailString(), logTailBytes, "only the last 16 KiB are kept")
	assert.True(t, strings.HasSuffix(f.tailString(), strings.Repeat("x", 1000)+"\n"))
}

func TestFollowerBoundsLongLines(t *testing.T) {
	var out countingWriter
	f := &follower{prefix: "p", out: &out, outMu: new(sync.Mutex)}
	t.Run("a 16 MiB line the runtime split into partial entries goes out in 16 KiB pieces", func(t *testing.T) {
		part := []byte("2026-01-01T00:00:00Z stdout P " + strings.Repeat("y", 16*1024) + "\n")
		for range 1024 {
			f.consume(part)
			require.Less(t, len(f.partial), maxLogLine)
		}
		f.consume([]byte("2026-01-01T00:00:00Z stdout F end\n"))
		assert.Equal(t, 1024+1, out.lines)
		assert.Empty(t, f.partial)
	})
	t.Run("a file line without a newline is cut, not grown", func(t *testing.T) {
		chunk := []byte(strings.Repeat("z", 32*1024))
		f.consume([]byte("2026-01-01T00:00:00Z stdout F "))
		for range 512 { // 16 MiB
			f.consume(chunk)
			require.LessOrEqual(t, len(f.pending), maxLogLine+128)
		}
	})
}

// countingWriter counts what is written to it.
type countingWriter struct{ n, lines int }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	w.lines += strings.Count(string(p), "\n")
	return len(p), nil
}
