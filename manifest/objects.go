package manifest

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// storedObjects are objects of one kind as the compact JSON they were checked as, in document
// order, found by namespace and name.
type storedObjects struct {
	list  [][]byte
	index map[string]int // namespace/name, "default" for none
}

func objectKey(namespace, name string) string {
	if namespace == "" {
		namespace = metav1.NamespaceDefault
	}
	return namespace + "/" + name
}

// add keeps a copy of js, which decoded without error; one namespace and name is added once
// (addObject refuses a second).
func (s *storedObjects) add(namespace, name string, js []byte) {
	if s.index == nil {
		s.index = map[string]int{}
	}
	s.index[objectKey(namespace, name)] = len(s.list)
	s.list = append(s.list, append([]byte(nil), js...))
}

func (s *storedObjects) get(namespace, name string) ([]byte, bool) {
	i, ok := s.index[objectKey(namespace, name)]
	if !ok {
		return nil, false
	}
	return s.list[i], true
}

// decodeConfigMap decodes a stored ConfigMap; it decoded strictly when it was read, so the
// plain decoding makes the same object.
func decodeConfigMap(js []byte) (*v1.ConfigMap, error) {
	cm := &v1.ConfigMap{}
	return cm, decodeLenient(js, cm)
}

// decodeSecret decodes a stored Secret with its stringData folded into data, as the API server
// stores it.
func decodeSecret(js []byte) (*v1.Secret, error) {
	s := &v1.Secret{}
	if err := decodeLenient(js, s); err != nil {
		return nil, err
	}
	for k, v := range s.StringData {
		if s.Data == nil {
			s.Data = map[string][]byte{}
		}
		s.Data[k] = []byte(v)
	}
	s.StringData = nil
	return s, nil
}

// GetConfigMap returns the input's ConfigMap namespace/name, decoded anew at each call (one
// written without a namespace is in "default", and is returned so), or the API's NotFound error.
func (s *Stream) GetConfigMap(_ context.Context, namespace, name string) (*v1.ConfigMap, error) {
	if s == nil {
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, name)
	}
	js, ok := s.configMaps.get(namespace, name)
	if !ok {
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, name)
	}
	cm, err := decodeConfigMap(js)
	if err != nil {
		return nil, fmt.Errorf("configmap %s: %w", objectKey(namespace, name), err)
	}
	if cm.Namespace == "" {
		cm.Namespace = metav1.NamespaceDefault
	}
	return cm, nil
}

// GetSecret returns the input's Secret namespace/name, decoded anew at each call, with its
// stringData folded into data (one written without a namespace is in "default", and is returned
// so), or the API's NotFound error.
func (s *Stream) GetSecret(_ context.Context, namespace, name string) (*v1.Secret, error) {
	if s == nil {
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "secrets"}, name)
	}
	js, ok := s.secrets.get(namespace, name)
	if !ok {
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "secrets"}, name)
	}
	secret, err := decodeSecret(js)
	if err != nil {
		return nil, fmt.Errorf("secret %s: %w", objectKey(namespace, name), err)
	}
	if secret.Namespace == "" {
		secret.Namespace = metav1.NamespaceDefault
	}
	return secret, nil
}

// decodeAll decodes every stored ConfigMap and Secret into b, in document order, as written.
func (s *Stream) decodeAll(b *Bundle) error {
	for _, js := range s.configMaps.list {
		cm, err := decodeConfigMap(js)
		if err != nil {
			return err
		}
		b.ConfigMaps = append(b.ConfigMaps, cm)
	}
	for _, js := range s.secrets.list {
		secret, err := decodeSecret(js)
		if err != nil {
			return err
		}
		b.Secrets = append(b.Secrets, secret)
	}
	return nil
}
