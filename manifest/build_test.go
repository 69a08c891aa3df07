package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

// toJSON is what Read builds from the first document of a YAML input.
func toJSON(t testing.TB, doc []byte, strict bool) ([]byte, error) {
	t.Helper()
	var n yamlv3.Node
	err := yamlv3.NewDecoder(bytes.NewReader(doc)).Decode(&n)
	if errors.Is(err, io.EOF) {
		return []byte("null"), nil
	}
	if err != nil {
		return nil, err
	}
	return newBuilder(len(doc)).appendJSON(nil, &n, strict)
}

// sameJSON compares two JSON documents as values, numbers by their text.
func sameJSON(t testing.TB, a, b []byte) bool {
	t.Helper()
	decode := func(data []byte) interface{} {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var v interface{}
		require.NoError(t, d.Decode(&v), "%s", data)
		return v
	}
	return reflect.DeepEqual(decode(a), decode(b))
}

// The YAML becomes the JSON kubectl's decoder (YAML 1.1) makes of it.
func TestBuildResolvesScalarsAsKubectl(t *testing.T) {
	docs := []string{
		"a: yes\nb: No\nc: on\nd: OFF\ne: y\nf: N\ng: true\nh: False",
		"a: ~\nb: null\nc: NULL\nd:\ne: ''",
		"a: 1\nb: -1\nc: +1\nd: 0x1F\ne: 0o17\nf: 017\ng: 0b101\nh: -0b101\ni: 1_000\nj: 08\nk: 9223372036854775808\nl: 18446744073709551616",
		"a: 1.0\nb: .5\nc: 1e3\nd: -1.5e-7\ne: 1e21\nf: 123456789012345678901234567890\ng: 1.\nh: +.5",
		"a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\nc: 2001-12-14 21:59:43.10\nd: 12:30:00\ne: 190:20:30",
		"a: \"1\"\nb: '2'\nc: |\n  3\nd: >\n  4\n",
		"a: !!str 1\nb: !!int \"2\"\nc: !!float 3\nd: !!bool yes\ne: !!null ~\nf: !!binary aGVsbG8=\ng: !foo 5\nh: !!timestamp 2001-01-01",
		"1: a\n2.5: b\ntrue: c\n0x10: d\n~x: e\n1e3: f",
		"base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  z: 3\nn:\n  <<: [*b, {x: 9, w: 8}]\n",
		"a: &a [1, 2]\nb: *a\nc: &c {d: *a}\ne: [*c, *c]",
		"s: \"tab\\there\\u00e9\\x41\\\\ \\\" end\"\nt: 'it''s'\nu: \"\\e\\0\"",
		"a: .inf_\nb: -.5_0\nc: 1__0\nd: +\ne: -\nf: .\ng: 0x\nh: 0b",
		"\"<<\": {a: 1}\nb: <<",
		"[1, two, {three: 3}]",
		"plain multi\n  line",
		"",
		"a: b\n---\nc: d",
		"{\"a\": 1, \"b\": [true, null, \"x\"], \"c\": {\"d\": 1.5}}",
		"a: 'x\ty'\nb: \"\\u2028\"",
		"? [a]\n: b",
		"a: &x 1\n*x : 2",
	}
	for _, doc := range docs {
		t.Run(doc, func(t *testing.T) {
			for _, strict := range []bool{false, true} {
				want, wantErr := yaml.YAMLToJSON([]byte(doc))
				if strict {
					want, wantErr = yaml.YAMLToJSONStrict([]byte(doc))
				}
				got, err := toJSON(t, []byte(doc), strict)
				if wantErr != nil {
					assert.Error(t, err, "kubectl: %v; podconfig: %s", wantErr, got)
					continue
				}
				require.NoError(t, err, "kubectl: %s", want)
				assert.True(t, sameJSON(t, want, got), "kubectl: %s\npodconfig: %s", want, got)
			}
		})
	}
}

// FuzzBuildMatchesKubectl compares the JSON Read builds from a YAML document with what
// kubectl's YAML decoder makes of it, where both read it: the same values. (The two parsers
// disagree about some malformed documents, which one of them refuses; Read uses one parser only.
// The non-specific tag "!" is left out: kubectl's decoder makes "! 12" the string "12", and the
// parser Read uses forgets the tag, so it is the number 12, as if untagged.)
func FuzzBuildMatchesKubectl(f *testing.F) {
	f.Add([]byte("a: yes\nb: [1, 0x10, .5, ~]\nc: &c {d: *c}"))
	f.Add([]byte("base: &b {x: 1}\nm: {<<: *b, y: 017}"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) > 4096 || hasNonSpecificTag(doc) {
			return
		}
		for _, strict := range []bool{false, true} {
			want, wantErr := yaml.YAMLToJSON(doc)
			if strict {
				want, wantErr = yaml.YAMLToJSONStrict(doc)
			}
			got, err := toJSON(t, doc, strict)
			if wantErr != nil || err != nil {
				continue
			}
			if !sameJSON(t, want, got) {
				t.Fatalf("%q (strict %v):\nkubectl:   %s\npodconfig: %s", doc, strict, want, got)
			}
		}
	})
}

// An input of 64 MiB exactly is read (parsing it takes a minute under the race detector, so the
// limit is tested where it is applied).
func TestReadAllTakes64MiBExactly(t *testing.T) {
	data, err := readAll(bytes.NewReader(make([]byte, MaxInputSize)))
	require.NoError(t, err)
	assert.Len(t, data, MaxInputSize)
	_, err = readAll(bytes.NewReader(make([]byte, MaxInputSize+1)))
	assert.ErrorIs(t, err, ErrTooLarge)
}

// hasNonSpecificTag reports a "!" that is not the start of a named tag ("!!int", "!foo",
// "!<tag:...>"), which the fuzz target cannot compare.
func hasNonSpecificTag(doc []byte) bool {
	for i, c := range doc {
		if c != '!' || (i > 0 && doc[i-1] == '!') {
			continue
		}
		if i+1 == len(doc) {
			return true
		}
		switch next := doc[i+1]; {
		case next == '!' || next == '<' || next == '-' || next == '_',
			next >= 'a' && next <= 'z', next >= 'A' && next <= 'Z', next >= '0' && next <= '9':
		default:
			return true
		}
	}
	return false
}
