package manifest_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

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
				assert.Empty(t, got.ConfigMaps)
				assert.Empty(t, got.Secrets)
				assert.Equal(t, want.Services, got.Services)
				assert.Equal(t, want.ServiceAccounts, got.ServiceAccounts)
				assert.Equal(t, want.Node, got.Node)
				assert.Equal(t, want.Context, got.Context)
				for _, cm := range want.ConfigMaps {
					got, err := s.GetConfigMap(context.Background(), cm.Namespace, cm.Name)
					require.NoError(t, err)
					cm = cm.DeepCopy()
					if cm.Namespace == "" {
						cm.Namespace = "default"
					}
					assert.Equal(t, cm, got)
				}
				for _, secret := range want.Secrets {
					got, err := s.GetSecret(context.Background(), secret.Namespace, secret.Name)
					require.NoError(t, err)
					secret = secret.DeepCopy()
					if secret.Namespace == "" {
						secret.Namespace = "default"
					}
					assert.Equal(t, secret, got)
				}
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

func TestStreamObjects(t *testing.T) {
	const doc = `apiVersion: v1
kind: ConfigMap
metadata: {name: cm}
data: {a: "1"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm, namespace: other}
data: {a: "2"}
---
apiVersion: v1
kind: Secret
metadata: {name: s, namespace: other}
data: {b: MQ==}
stringData: {c: "3"}
`
	ctx := context.Background()
	s, err := manifest.Open(manifest.Options{}, manifest.Input{Name: "in.yaml", Reader: strings.NewReader(doc)})
	require.NoError(t, err)
	tests := []struct {
		name                 string
		get                  func() (interface{}, error)
		wantNamespace        string
		wantData, wantSecret map[string]string
		wantNotFound         string
	}{
		{name: "a ConfigMap with no namespace is in default", get: func() (interface{}, error) { return s.GetConfigMap(ctx, "default", "cm") },
			wantNamespace: "default", wantData: map[string]string{"a": "1"}},
		{name: "and found with none", get: func() (interface{}, error) { return s.GetConfigMap(ctx, "", "cm") },
			wantNamespace: "default", wantData: map[string]string{"a": "1"}},
		{name: "one of the same name in another namespace is another", get: func() (interface{}, error) { return s.GetConfigMap(ctx, "other", "cm") },
			wantNamespace: "other", wantData: map[string]string{"a": "2"}},
		{name: "a Secret's stringData is folded into data", get: func() (interface{}, error) { return s.GetSecret(ctx, "other", "s") },
			wantNamespace: "other", wantSecret: map[string]string{"b": "1", "c": "3"}},
		{name: "a missing ConfigMap is the API's NotFound", get: func() (interface{}, error) { return s.GetConfigMap(ctx, "nope", "cm") },
			wantNotFound: `configmaps "cm" not found`},
		{name: "a missing Secret is the API's NotFound", get: func() (interface{}, error) { return s.GetSecret(ctx, "default", "s") },
			wantNotFound: `secrets "s" not found`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj, err := tt.get()
			if tt.wantNotFound != "" {
				assert.True(t, apierrors.IsNotFound(err))
				assert.EqualError(t, err, tt.wantNotFound)
				return
			}
			require.NoError(t, err)
			switch o := obj.(type) {
			case *v1.ConfigMap:
				assert.Equal(t, tt.wantNamespace, o.Namespace)
				assert.Equal(t, tt.wantData, o.Data)
			case *v1.Secret:
				assert.Equal(t, tt.wantNamespace, o.Namespace)
				data := map[string]string{}
				for k, v := range o.Data {
					data[k] = string(v)
				}
				assert.Equal(t, tt.wantSecret, data)
				assert.Empty(t, o.StringData)
			}
		})
	}
	t.Run("each call decodes anew: a change to one object is not seen by the next", func(t *testing.T) {
		cm, err := s.GetConfigMap(ctx, "", "cm")
		require.NoError(t, err)
		cm.Data["a"] = "changed"
		again, err := s.GetConfigMap(ctx, "", "cm")
		require.NoError(t, err)
		assert.Equal(t, "1", again.Data["a"])
	})
	t.Run("Read returns them as written", func(t *testing.T) {
		b, err := manifest.Read(manifest.Options{}, manifest.Input{Name: "in.yaml", Reader: strings.NewReader(doc)})
		require.NoError(t, err)
		require.Len(t, b.ConfigMaps, 2)
		assert.Equal(t, "", b.ConfigMaps[0].Namespace)
		assert.Equal(t, "other", b.ConfigMaps[1].Namespace)
		require.Len(t, b.Secrets, 1)
		assert.Equal(t, []byte("3"), b.Secrets[0].Data["c"])
	})
}
