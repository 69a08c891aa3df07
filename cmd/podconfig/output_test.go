package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jsonPodOf is the pod as one jsonPod, marshalled at once.
func jsonPodOf(t *testing.T, p *podResult) []byte {
	t.Helper()
	sandbox, err := marshalProto(p.Sandbox)
	require.NoError(t, err)
	jp := jsonPod{
		jsonPodHead: jsonPodHead{
			Source: p.Source, Namespace: p.Pod.Namespace, Name: p.Pod.Name, UID: string(p.Pod.UID),
			QOSClass: string(p.QOSClass), Sandbox: sandbox,
		},
		Containers:  []jsonContainer{},
		jsonPodTail: jsonPodTail{Volumes: p.Volumes, Warnings: nonNilWarnings(p.Warnings)},
	}
	for _, c := range p.Items {
		cfg, err := marshalProto(c.Config)
		require.NoError(t, err)
		jc := jsonContainer{
			Name: c.Name, Type: c.Type, LogPath: c.LogPath, Env: []jsonEnv{}, HostsFile: c.HostsFile,
			Config: cfg, Warnings: nonNilWarnings(c.Warnings),
		}
		for _, kv := range c.Config.Envs {
			jc.Env = append(jc.Env, jsonEnv{Name: kv.Key, Value: string(kv.Value)})
		}
		jp.Containers = append(jp.Containers, jc)
	}
	doc, err := json.Marshal(jp)
	require.NoError(t, err)
	return doc
}

// indentInPieces runs src through an indenter in pieces of n bytes.
func indentInPieces(t *testing.T, src []byte, n int) []byte {
	t.Helper()
	var out bytes.Buffer
	in := &indenter{w: &out, prefix: "    ", indent: "  "}
	for len(src) > 0 {
		k := min(n, len(src))
		_, err := in.Write(src[:k])
		require.NoError(t, err)
		src = src[k:]
	}
	require.NoError(t, in.flush())
	return out.Bytes()
}

// The pod is written a container at a time, and indented as it is written: the bytes are those
// of the whole jsonPod marshalled and indented at once.
func TestPodJSONInPieces(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yaml")
	require.NoError(t, err)
	cfg, _ := newRenderFlags()
	cfg.files = files
	pods := 0
	_, err = render(cfg, nil, func(p *podResult) error {
		pods++
		want := jsonPodOf(t, p)
		got, err := podJSON(p)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), p.Source)
		var indented bytes.Buffer
		require.NoError(t, json.Indent(&indented, want, "    ", "  "))
		for _, n := range []int{1, 7, 1 << 20} {
			assert.Equal(t, indented.String(), string(indentInPieces(t, want, n)), "%s in pieces of %d", p.Source, n)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, pods, 20)
}

func TestIndenter(t *testing.T) {
	for _, src := range []string{
		`{}`, `[]`, `{"a":[]}`, `{"a":{},"b":[{}]}`, `[1,"x",true,null]`,
		`{"s":"a\"b\\","t":"{[,:]}","u":"\\\"","v":"\u003c"}`,
		`{"a":{"b":{"c":[1,[2,[3]]]}}}`,
	} {
		var want bytes.Buffer
		require.NoError(t, json.Indent(&want, []byte(src), "    ", "  "))
		for _, n := range []int{1, 2, 100} {
			assert.Equal(t, want.String(), string(indentInPieces(t, []byte(src), n)), "%s", src)
		}
	}
}
