package manifest_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/manifest"
)

// streamPods collects what one loop over s.Pods yields.
func streamPods(s *manifest.Stream) ([]manifest.Pod, []error) {
	var pods []manifest.Pod
	var errs []error
	for p, err := range s.Pods() {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		pods = append(pods, p)
	}
	return pods, errs
}

func TestStreamMakesReadsPods(t *testing.T) {
	// Every manifest of the command's test data, and all of them as one read: the Pods a Stream
	// yields are Read's, with the same objects, warnings and errors of reading.
	files, err := filepath.Glob("../cmd/podconfig/testdata/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	open := func(names ...string) []manifest.Input {
		var inputs []manifest.Input
		for _, name := range names {
			data, err := os.ReadFile(name)
			require.NoError(t, err)
			inputs = append(inputs, manifest.Input{Name: name, Reader: strings.NewReader(string(data))})
		}
		return inputs
	}
	cases := [][]string{files}
	for _, f := range files {
		cases = append(cases, []string{f})
	}
	for _, names := range cases {
		for _, opts := range []manifest.Options{{ContinueOnError: true}, {ContinueOnError: true, Replicas: 3, DefaultTemplates: true}} {
			want, err := manifest.Read(opts, open(names...)...)
			require.NoError(t, err)
			s, err := manifest.Open(opts, open(names...)...)
			require.NoError(t, err)
			for range 2 { // a second loop makes the same Pods
				pods, errs := streamPods(s)
				assert.Equal(t, want.Pods, pods, "%v", names)
				got := *s.Bundle()
				got.Pods = pods
				got.Errors = append(got.Errors[:len(got.Errors):len(got.Errors)], errs...)
				assert.Equal(t, want.Warnings, got.Warnings)
				assert.Equal(t, len(want.Errors), len(got.Errors), "%v", names)
				assert.Equal(t, want.ConfigMaps, got.ConfigMaps)
				assert.Equal(t, want.Node, got.Node)
			}
		}
	}
}

func TestStreamYieldsErrorsInPlace(t *testing.T) {
	const doc = `apiVersion: v1
kind: Pod
metadata: {name: a}
spec: {containers: [{name: app, image: app:1}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: s}
spec:
  replicas: -1
  selector: {matchLabels: {app: s}}
  template:
    metadata: {labels: {app: s}}
    spec: {containers: [{name: app, image: app:1}]}
---
apiVersion: v1
kind: Pod
metadata: {name: a}
spec: {containers: [{name: app, image: app:1}]}
---
apiVersion: v1
kind: Pod
metadata: {name: b}
spec: {containers: [{name: app, image: app:1}]}
`
	s, err := manifest.Open(manifest.Options{}, manifest.Input{Name: "in.yaml", Reader: strings.NewReader(doc)})
	require.NoError(t, err)
	type step struct {
		pod string
		err string
	}
	var got []step
	for p, err := range s.Pods() {
		if err != nil {
			got = append(got, step{err: err.Error()})
			continue
		}
		got = append(got, step{pod: p.Pod.Name + " " + p.Source})
	}
	assert.Equal(t, []step{
		{pod: "a in.yaml: document 1 (Pod a)"},
		{err: "in.yaml: document 2 (StatefulSet s): spec.replicas: -1 is negative"},
		{err: "in.yaml: document 1 (Pod a) and in.yaml: document 3 (Pod a): two pods named default/a"},
		{pod: "b in.yaml: document 4 (Pod b)"},
	}, got)

	// Read gives the same errors as before there was a Stream: the workload's first, then the
	// duplicate; without ContinueOnError the workload's alone.
	_, err = manifest.Read(manifest.Options{}, manifest.Input{Name: "in.yaml", Reader: strings.NewReader(doc)})
	assert.EqualError(t, err, "in.yaml: document 2 (StatefulSet s): spec.replicas: -1 is negative")
	b, err := manifest.Read(manifest.Options{ContinueOnError: true}, manifest.Input{Name: "in.yaml", Reader: strings.NewReader(doc)})
	require.NoError(t, err)
	require.Len(t, b.Errors, 2)
	var docErr *manifest.DocumentError
	assert.True(t, errors.As(b.Errors[0], &docErr))
	assert.ErrorIs(t, b.Errors[1], manifest.ErrDuplicatePod)
	assert.Len(t, b.Pods, 2)

	// A loop may stop early.
	n := 0
	for range s.Pods() {
		n++
		break
	}
	assert.Equal(t, 1, n)
}

func TestStreamReadingErrors(t *testing.T) {
	// What fails to decode fails when it is read, as in Read, not when its Pods are made.
	const doc = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: yes}\n"
	_, err := manifest.Open(manifest.Options{}, manifest.Input{Name: "in.yaml", Reader: strings.NewReader(doc)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "in.yaml: document 1 (Deployment d): ")
	s, err := manifest.Open(manifest.Options{ContinueOnError: true}, manifest.Input{Name: "in.yaml", Reader: strings.NewReader(doc)})
	require.NoError(t, err)
	require.Len(t, s.Bundle().Errors, 1)
	pods, errs := streamPods(s)
	assert.Empty(t, pods)
	assert.Empty(t, errs)
}

func TestZeroStream(t *testing.T) {
	var s manifest.Stream
	pods, errs := streamPods(&s)
	assert.Empty(t, pods)
	assert.Empty(t, errs)
	assert.Nil(t, s.Bundle())
}
