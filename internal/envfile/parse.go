package envfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
)

// FormatError is a syntax error in an env file. Its text is kubelet's.
type FormatError struct {
	// Line is the 1-based line of the error; for an unclosed quote, the line the value started on.
	Line int
	// Reason says what is wrong, e.g. "missing '='" or "unclosed single quote".
	Reason string
	// Starting is set when Line is where a multi-line value started rather than where the parser
	// stopped (only for an unclosed quote).
	Starting bool
}

// Error returns kubelet's text for the format error, with its line number.
func (e *FormatError) Error() string {
	if e.Starting {
		return "invalid environment variable format starting at line " + strconv.Itoa(e.Line) + ": " + e.Reason
	}
	return "invalid environment variable format at line " + strconv.Itoa(e.Line) + ": " + e.Reason
}

// Opener opens a file for reading; hostfs.OS and *hostfs.Memory implement it.
type Opener interface {
	Open(path string) (fs.File, error)
}

// ParseFile opens path through fsys and returns the value Parse finds for key (kubelet:
// envutil.ParseEnv). An open error reads "failed to open environment variable file %q: %w".
func ParseFile(fsys Opener, path, key string) (string, error) {
	if fsys == nil {
		return "", fmt.Errorf("failed to open environment variable file %q: no file system", path)
	}
	f, err := fsys.Open(path)
	if err != nil {
		return "", fmt.Errorf("failed to open environment variable file %q: %w", path, err)
	}
	defer func() { _ = f.Close() }()
	return Parse(f, path, key)
}

// Parse reads an env file from r and returns the value of the first definition of key, or "" with
// a nil error when the file does not define it (kubelet: envutil.ParseEnv, reading from r). path
// only names the file in the read error.
//
// The format is a strict subset of POSIX shell, as kubelet parses it:
//   - leading spaces and tabs are ignored; blank lines and lines starting with '#' are skipped;
//   - each definition is NAME='value': no whitespace before '=', the value in single quotes, taken
//     literally up to the next quote, possibly across lines (the newlines are kept);
//   - after the closing quote only spaces, tabs and a '#' comment may follow;
//   - whitespace right after '=' makes an empty assignment, as in a shell: the definition's value
//     is "" and the rest of that line is not read;
//   - lines are read with bufio.Scanner's default 64 KiB limit; a longer line is a read error
//     (or an unclosed quote, when it comes inside a quoted value, as in kubelet).
//
// Lines before the matching definition are checked, lines after it are not. Syntax errors are
// *FormatError.
func Parse(r io.Reader, path, key string) (string, error) {
	if r == nil {
		return "", fmt.Errorf("failed to read environment variable file %q: no reader", path)
	}
	value, err := Scan(r, key)
	if re, ok := err.(*ReadError); ok {
		return "", re.WithPath(path)
	}
	return value, err
}

var errNoReader = errors.New("no reader")

// startBuf is the scanner's first buffer: env files are small, and it grows to the same 64 KiB
// limit.
const startBuf = 512

// ReadError is a failure to read an env file (not a syntax error), as Scan returns it without
// the file's path.
type ReadError struct {
	Err error
}

// Error returns the read failure's text.
func (e *ReadError) Error() string {
	if e == nil || e.Err == nil {
		return "read error"
	}
	return e.Err.Error()
}

// Unwrap returns the read failure.
func (e *ReadError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// WithPath returns Parse's error for the failure: "error reading environment variable file %q: %w".
func (e *ReadError) WithPath(path string) error {
	return fmt.Errorf("error reading environment variable file %q: %w", path, e.Unwrap())
}

// Scan is Parse for a caller that names the file only if something fails: a failure to read
// comes back as *ReadError, whose WithPath gives Parse's error.
func Scan(r io.Reader, key string) (string, error) {
	if r == nil {
		return "", &ReadError{Err: errNoReader}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, startBuf), bufio.MaxScanTokenSize)
	line := 0
	for sc.Scan() {
		line++
		text := trimLeft(sc.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		eq := bytes.IndexByte(text, '=')
		if eq < 0 {
			return "", &FormatError{Line: line, Reason: "missing '='"}
		}
		name := trimRight(text[:eq])
		if len(name) == 0 {
			return "", &FormatError{Line: line, Reason: "empty variable name"}
		}
		if len(name) != eq {
			return "", &FormatError{Line: line, Reason: "whitespace before '=' is not allowed"}
		}
		match := string(name) == key
		value := text[eq+1:]
		if len(value) > 0 && isBlank(value[0]) {
			if match {
				return "", nil
			}
			continue
		}
		if len(value) == 0 || value[0] != '\'' {
			return "", &FormatError{Line: line, Reason: "value must be enclosed in single quotes"}
		}
		v, err := readQuoted(sc, value[1:], &line, match)
		if err != nil || match {
			return v, err
		}
	}
	if err := sc.Err(); err != nil {
		return "", &ReadError{Err: err}
	}
	return "", nil
}

// readQuoted reads a quoted value whose text after the opening quote starts with rest, taking
// further lines from sc until the closing quote. It collects the value only when keep is set.
func readQuoted(sc *bufio.Scanner, rest []byte, line *int, keep bool) (string, error) {
	start := *line
	var value []byte
	for {
		if q := bytes.IndexByte(rest, '\''); q >= 0 {
			after := trimLeft(rest[q+1:])
			if len(after) > 0 && after[0] != '#' {
				return "", &FormatError{Line: *line, Reason: "unexpected content after closing quote"}
			}
			if !keep {
				return "", nil
			}
			if value == nil {
				// A one-line value is copied once, straight from the line.
				return string(rest[:q]), nil
			}
			return string(append(value, rest[:q]...)), nil
		}
		if keep {
			value = append(value, rest...)
			value = append(value, '\n')
		}
		// Kubelet reports a read error inside a quoted value, including a too-long line, as
		// an unclosed quote.
		if !sc.Scan() {
			return "", &FormatError{Line: start, Reason: "unclosed single quote", Starting: true}
		}
		*line++
		rest = sc.Bytes()
	}
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func trimLeft(b []byte) []byte {
	for len(b) > 0 && isBlank(b[0]) {
		b = b[1:]
	}
	return b
}

func trimRight(b []byte) []byte {
	for len(b) > 0 && isBlank(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}
