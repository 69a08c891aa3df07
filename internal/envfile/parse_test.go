package envfile

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, content, key, want, wantErr string
	}{
		{name: "simple definition", content: "A='1'\nB='2'\n", key: "B", want: "2"},
		{name: "key not defined gives empty value", content: "A='1'\n", key: "B", want: ""},
		{name: "empty file gives empty value", content: "", key: "A", want: ""},
		{name: "last line without newline", content: "A='1'\nB='2'", key: "B", want: "2"},
		{name: "leading spaces and tabs are ignored", content: "  A='1'\n\t\tB='2'\n", key: "B", want: "2"},
		{name: "blank and whitespace-only lines are skipped", content: "\n   \n\t\nA='1'\n", key: "A", want: "1"},
		{name: "comment lines are skipped", content: "# c\n   # indented\nA='1'\n", key: "A", want: "1"},
		{name: "first definition wins", content: "A='first'\nA='second'\n", key: "A", want: "first"},
		{name: "lines after the match are not checked", content: "A='1'\nthis is not valid\n", key: "A", want: "1"},
		{name: "lines before the match are checked", content: "bad line\nA='1'\n", key: "A", wantErr: "invalid environment variable format at line 1: missing '='"},
		{name: "line without = is an error with its line number", content: "A='1'\n\nNOEQUALS\n", key: "Z", wantErr: "invalid environment variable format at line 3: missing '='"},
		{name: "empty name is an error", content: "='x'\n", key: "A", wantErr: "invalid environment variable format at line 1: empty variable name"},
		{name: "whitespace before = is an error", content: "A ='x'\n", key: "A", wantErr: "invalid environment variable format at line 1: whitespace before '=' is not allowed"},
		{name: "tab before = is an error", content: "A\t='x'\n", key: "A", wantErr: "invalid environment variable format at line 1: whitespace before '=' is not allowed"},
		{name: "space inside a name is accepted", content: "A B='x'\n", key: "A B", want: "x"},
		{name: "whitespace after = is an empty assignment", content: "A= 'x'\n", key: "A", want: ""},
		{name: "empty assignment of another key skips the rest of its line", content: "A= 'x' garbage ' more\nB='2'\n", key: "B", want: "2"},
		{name: "empty assignment does not read a multi-line value", content: "A= 'x\nB='2'\n", key: "B", want: "2"},
		{name: "unquoted value is an error", content: "A=x\n", key: "A", wantErr: "invalid environment variable format at line 1: value must be enclosed in single quotes"},
		{name: "double-quoted value is an error", content: "A=\"x\"\n", key: "A", wantErr: "invalid environment variable format at line 1: value must be enclosed in single quotes"},
		{name: "nothing after = is an error", content: "A=\n", key: "A", wantErr: "invalid environment variable format at line 1: value must be enclosed in single quotes"},
		{name: "empty quoted value", content: "A=''\n", key: "A", want: ""},
		{name: "content is literal", content: `A='$B ${C} \n "q" #x'` + "\n", key: "A", want: `$B ${C} \n "q" #x`},
		{name: "spaces inside quotes are kept", content: "A='  x  '\n", key: "A", want: "  x  "},
		{name: "comment after the closing quote", content: "A='x'   # note\n", key: "A", want: "x"},
		{name: "trailing blanks after the closing quote", content: "A='x' \t\n", key: "A", want: "x"},
		{name: "content after the closing quote is an error", content: "A='x'y\n", key: "A", wantErr: "invalid environment variable format at line 1: unexpected content after closing quote"},
		{name: "adjacent quoted strings are an error", content: "A='x''y'\n", key: "A", wantErr: "invalid environment variable format at line 1: unexpected content after closing quote"},
		{name: "carriage return after the quote in the middle of a line is an error", content: "A='x'\r \n", key: "A", wantErr: "invalid environment variable format at line 1: unexpected content after closing quote"},
		{name: "CRLF line ends are accepted", content: "A='x'\r\nB='y'\r\n", key: "B", want: "y"},
		{name: "multi-line value keeps newlines", content: "A='one\n  two\n\n# three'\nB='b'\n", key: "A", want: "one\n  two\n\n# three"},
		{name: "multi-line value of another key is skipped", content: "A='one\ntwo'\nB='b'\n", key: "B", want: "b"},
		{name: "error after a multi-line value names the closing line", content: "A='one\ntwo'x\n", key: "A", wantErr: "invalid environment variable format at line 2: unexpected content after closing quote"},
		{name: "line numbers count the lines of a multi-line value", content: "A='1\n2\n3'\nbad\n", key: "Z", wantErr: "invalid environment variable format at line 4: missing '='"},
		{name: "unclosed quote names its starting line", content: "A='1'\nB='open\nmore\n", key: "C", wantErr: "invalid environment variable format starting at line 2: unclosed single quote"},
		{name: "a quote on a later line closes an open value", content: "B='open\nC='x\n", key: "C", wantErr: "invalid environment variable format at line 2: unexpected content after closing quote"},
		{name: "unclosed quote at end of file", content: "A='open", key: "A", wantErr: "invalid environment variable format starting at line 1: unclosed single quote"},
		{name: "line of 65535 bytes is read", content: "A='" + strings.Repeat("x", 65535-4) + "'\n", key: "A", want: strings.Repeat("x", 65535-4)},
		{name: "line over 64 KiB is a read error", content: "A='" + strings.Repeat("x", 65536) + "'\n", key: "A", wantErr: `error reading environment variable file "/vol/env": bufio.Scanner: token too long`},
		{name: "line over 64 KiB inside a quoted value reads as an unclosed quote", content: "A='x\n" + strings.Repeat("x", 65536) + "'\n", key: "A", wantErr: "invalid environment variable format starting at line 1: unclosed single quote"},
		{name: "match before a too-long line is returned", content: "A='x'\n" + strings.Repeat("x", 65536) + "\n", key: "A", want: "x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(strings.NewReader(tc.content), "/vol/env", tc.key)
			refGot, refErr := reference(tc.content, "/vol/env", tc.key)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				require.EqualError(t, refErr, tc.wantErr, "reference reading")
				assert.Empty(t, got)
				return
			}
			require.NoError(t, err)
			require.NoError(t, refErr, "reference reading")
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.want, refGot, "reference reading")
		})
	}
}

// reference is a plain, line-by-line reading of kubelet's ParseEnv on whole strings,
// written independently of Parse, to compare it with on any input.
func reference(content, path, key string) (string, error) {
	sc := bufio.NewScanner(strings.NewReader(content))
	n := 0
	bad := func(line int, reason string) error {
		return fmt.Errorf("invalid environment variable format at line %d: %s", line, reason)
	}
	for sc.Scan() {
		n++
		line := strings.TrimLeft(sc.Text(), " \t")
		if line == "" || line[0] == '#' {
			continue
		}
		eq := strings.Index(line, "=")
		if eq < 0 {
			return "", bad(n, "missing '='")
		}
		name := strings.TrimRight(line[:eq], " \t")
		switch {
		case name == "":
			return "", bad(n, "empty variable name")
		case name != line[:eq]:
			return "", bad(n, "whitespace before '=' is not allowed")
		}
		value := line[eq+1:]
		if strings.TrimLeft(value, " \t") != value {
			if name == key {
				return "", nil
			}
			continue
		}
		if !strings.HasPrefix(value, "'") {
			return "", bad(n, "value must be enclosed in single quotes")
		}
		start, rest, collected := n, value[1:], ""
		for {
			before, after, closed := strings.Cut(rest, "'")
			if closed {
				collected += before
				if after = strings.TrimLeft(after, " \t"); after != "" && after[0] != '#' {
					return "", bad(n, "unexpected content after closing quote")
				}
				if name == key {
					return collected, nil
				}
				break
			}
			collected += rest + "\n"
			if !sc.Scan() {
				return "", fmt.Errorf("invalid environment variable format starting at line %d: unclosed single quote", start)
			}
			n++
			rest = sc.Text()
		}
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("error reading environment variable file %q: %w", path, err)
	}
	return "", nil
}

func TestParseErrorTypes(t *testing.T) {
	t.Run("syntax errors are FormatError", func(t *testing.T) {
		_, err := Parse(strings.NewReader("B='open\n"), "p", "A")
		var fe *FormatError
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, FormatError{Line: 1, Reason: "unclosed single quote", Starting: true}, *fe)
	})
	t.Run("read errors wrap the reader's error", func(t *testing.T) {
		boom := errors.New("boom")
		_, err := Parse(iotest.ErrReader(boom), "/p", "A")
		require.EqualError(t, err, `error reading environment variable file "/p": boom`)
		assert.ErrorIs(t, err, boom)
	})
}

// Scan reads what Parse reads, and leaves naming the file to the caller.
func TestScan(t *testing.T) {
	long := strings.Repeat("v", 2000)
	for _, tc := range []struct{ name, content, key, want string }{
		{name: "one-line value", content: "A='1'\nB='two'\n", key: "B", want: "two"},
		{name: "multi-line value", content: "A='one\ntwo'\n", key: "A", want: "one\ntwo"},
		{name: "line longer than the first buffer", content: "A='" + long + "'\n", key: "A", want: long},
		{name: "key not defined", content: "A='1'\n", key: "B", want: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Scan(strings.NewReader(tc.content), tc.key)
			require.NoError(t, err)
			want, err := Parse(strings.NewReader(tc.content), "p", tc.key)
			require.NoError(t, err)
			assert.Equal(t, want, got)
			assert.Equal(t, tc.want, got)
		})
	}
	t.Run("a read error is a ReadError that Parse names the file in", func(t *testing.T) {
		boom := errors.New("boom")
		_, err := Scan(iotest.ErrReader(boom), "A")
		var re *ReadError
		require.ErrorAs(t, err, &re)
		assert.ErrorIs(t, err, boom)
		require.EqualError(t, re.WithPath("/p"), `error reading environment variable file "/p": boom`)
		assert.ErrorIs(t, re.WithPath("/p"), boom)
	})
	t.Run("syntax errors stay FormatError", func(t *testing.T) {
		_, err := Scan(strings.NewReader("A=x\n"), "A")
		var fe *FormatError
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, FormatError{Line: 1, Reason: "value must be enclosed in single quotes"}, *fe)
	})
}

func TestParseFile(t *testing.T) {
	fsys := fstest.MapFS{"vol/env": {Data: []byte("A='1'\n")}}
	t.Run("reads the file", func(t *testing.T) {
		got, err := ParseFile(fsys, "vol/env", "A")
		require.NoError(t, err)
		assert.Equal(t, "1", got)
	})
	t.Run("open error names the file and wraps the cause", func(t *testing.T) {
		_, err := ParseFile(fsys, "vol/missing", "A")
		require.EqualError(t, err, `failed to open environment variable file "vol/missing": open vol/missing: file does not exist`)
		assert.ErrorIs(t, err, fs.ErrNotExist)
	})
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"", "A='1'\n", "A= 'x'\n", "A='multi\nline'\n", "A='open", "# c\n\n  A='x' # c\n", "=''", "A =''",
		"A='x'y", "A=x", "A='x'\r\n", "\t A='\x00'\n", "A='é'\nB='\xff'",
	} {
		f.Add(seed, "A")
	}
	f.Fuzz(func(t *testing.T, content, key string) {
		got, err := Parse(strings.NewReader(content), "p", key)
		want, wantErr := reference(content, "p", key)
		if got != want || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("Parse(%q, %q) = %q, %v; the reference reading gives %q, %v", content, key, got, err, want, wantErr)
		}
		if err != nil && got != "" {
			t.Fatalf("Parse returned %q with error %v", got, err)
		}
		if err == nil && len(got) > len(content) {
			t.Fatalf("Parse returned %d bytes from %d bytes of input", len(got), len(content))
		}
	})
}
