package manifest

import (
	"bytes"
	"strconv"
	"strings"
)

// docCounter numbers documents as kubectl splits a file into them: at every line that starts
// with "---", not counting a document of no bytes at all (before a leading "---", or between two
// "---" lines). The parser's own idea of documents differs where a comment stands alone before a
// "---": kubectl counts it as a document, and so do the numbers in errors and warnings.
type docCounter struct {
	data []byte
	pos  int // start of line `line`
	line int // 1-based
	// done is the number of documents with bytes that ended before line; open says the current
	// one has bytes.
	done int
	open bool
}

func newDocCounter(data []byte) *docCounter {
	return &docCounter{data: data, line: 1}
}

// at is the number of the document that holds line; lines come in increasing order.
func (c *docCounter) at(line int) int {
	for c.line < line && c.pos < len(c.data) {
		end := bytes.IndexByte(c.data[c.pos:], '\n')
		next := len(c.data)
		if end >= 0 {
			next = c.pos + end + 1
		}
		if bytes.HasPrefix(c.data[c.pos:next], []byte("---")) {
			if c.open {
				c.done++
			}
			c.open = false
		} else {
			c.open = true
		}
		c.pos, c.line = next, c.line+1
	}
	return c.done + 1
}

// errorLine is the line a parser error names ("yaml: line 7: ..."), or 0.
func errorLine(err error) int {
	rest, ok := strings.CutPrefix(err.Error(), "yaml: line ")
	if !ok {
		return 0
	}
	if i := strings.IndexByte(rest, ':'); i > 0 {
		if n, err := strconv.Atoi(rest[:i]); err == nil {
			return n
		}
	}
	return 0
}
