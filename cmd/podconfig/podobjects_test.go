package main

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// countingStore decodes a fresh object at each call, as manifest.Stream does, and counts calls.
type countingStore struct{ calls int }

func (s *countingStore) GetConfigMap(_ context.Context, namespace, name string) (*v1.ConfigMap, error) {
	s.calls++
	if name == "missing" {
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, name)
	}
	return &v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}, nil
}

func (s *countingStore) GetSecret(_ context.Context, namespace, name string) (*v1.Secret, error) {
	s.calls++
	return &v1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}, nil
}

func TestPodObjects(t *testing.T) {
	ctx := context.Background()
	next := &countingStore{}
	p := &podObjects{next: next}

	a, err := p.GetConfigMap(ctx, "ns", "a")
	require.NoError(t, err)
	again, err := p.GetConfigMap(ctx, "ns", "a")
	require.NoError(t, err)
	assert.Same(t, a, again, "an object is decoded once for the pod")
	other, err := p.GetConfigMap(ctx, "other", "a")
	require.NoError(t, err)
	assert.NotSame(t, a, other, "one of the same name in another namespace is another")
	s, err := p.GetSecret(ctx, "ns", "a")
	require.NoError(t, err)
	assert.Equal(t, "a", s.Name, "Secrets are apart from ConfigMaps")
	assert.Equal(t, 3, next.calls)

	_, err = p.GetConfigMap(ctx, "ns", "missing")
	assert.True(t, apierrors.IsNotFound(err), "a missing object is the store's NotFound")

	p.forget()
	after, err := p.GetConfigMap(ctx, "ns", "a")
	require.NoError(t, err)
	assert.NotSame(t, a, after, "the next pod decodes its own")
}
