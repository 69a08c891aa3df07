package configgen

import (
	"fmt"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// configMap returns the named ConfigMap of the pod's namespace, or nil when it is missing and
// optional.
func (b *envBuilder) configMap(name string, optional bool) (*v1.ConfigMap, error) {
	if cm, ok := b.cms[name]; ok {
		return cm, nil
	}
	ns := b.in.Pod.Namespace
	failed := ReasonFailedToReadMandatoryConfigMap
	if optional {
		failed = ReasonFailedToReadOptionalConfigMap
	}
	if b.in.ConfigMaps == nil {
		return nil, b.fail(failed, newEnvError(ErrInvalidOptions, fmt.Sprintf("couldn't get configMap %v/%v, no kubeClient defined", ns, name), nil), nil)
	}
	cm, err := b.in.ConfigMaps.GetConfigMap(b.ctx, ns, name)
	if err != nil {
		switch {
		case !apierrors.IsNotFound(err):
			return nil, b.fail(failed, err, err)
		case optional:
			return nil, nil
		}
		return nil, b.fail(ReasonMandatoryConfigMapNotFound, err, err)
	}
	if cm == nil {
		return nil, newEnvError(ErrInvalidOptions, fmt.Sprintf("%s: ConfigMap %s/%s: the getter returned neither an object nor an error", b.where(), ns, name), nil)
	}
	if b.cms == nil {
		b.cms = map[string]*v1.ConfigMap{}
	}
	b.cms[name] = cm
	return cm, nil
}

// secret is configMap for Secrets.
func (b *envBuilder) secret(name string, optional bool) (*v1.Secret, error) {
	if s, ok := b.secrets[name]; ok {
		return s, nil
	}
	ns := b.in.Pod.Namespace
	failed := ReasonFailedToReadMandatorySecret
	if optional {
		failed = ReasonFailedToReadOptionalSecret
	}
	if b.in.Secrets == nil {
		return nil, b.fail(failed, newEnvError(ErrInvalidOptions, fmt.Sprintf("couldn't get secret %v/%v, no kubeClient defined", ns, name), nil), nil)
	}
	s, err := b.in.Secrets.GetSecret(b.ctx, ns, name)
	if err != nil {
		switch {
		case !apierrors.IsNotFound(err):
			return nil, b.fail(failed, err, err)
		case optional:
			return nil, nil
		}
		return nil, b.fail(ReasonMandatorySecretNotFound, err, err)
	}
	if s == nil {
		return nil, newEnvError(ErrInvalidOptions, fmt.Sprintf("%s: Secret %s/%s: the getter returned neither an object nor an error", b.where(), ns, name), nil)
	}
	if b.secrets == nil {
		b.secrets = map[string]*v1.Secret{}
	}
	b.secrets[name] = s
	return s, nil
}

// envSource is one envFrom entry whose object was found.
type envSource struct {
	prefix string
	cm     *v1.ConfigMap
	secret *v1.Secret
}

// fetchEnvFrom reads every envFrom object in order and returns those found, with the number of
// their keys.
func (b *envBuilder) fetchEnvFrom() (sources []envSource, keys int, err error) {
	for i := range b.in.Container.EnvFrom {
		ef := &b.in.Container.EnvFrom[i]
		switch {
		case ef.ConfigMapRef != nil:
			cm, err := b.configMap(ef.ConfigMapRef.Name, isTrue(ef.ConfigMapRef.Optional))
			if err != nil {
				return nil, 0, err
			}
			if cm == nil {
				b.warn(ReasonOptionalConfigMapNotFound, fmt.Sprintf("configmap %q not found", ef.ConfigMapRef.Name))
				continue
			}
			sources = append(sources, envSource{prefix: ef.Prefix, cm: cm})
			keys += len(cm.Data)
		case ef.SecretRef != nil:
			s, err := b.secret(ef.SecretRef.Name, isTrue(ef.SecretRef.Optional))
			if err != nil {
				return nil, 0, err
			}
			if s == nil {
				b.warn(ReasonOptionalSecretNotFound, fmt.Sprintf("secret %q not found", ef.SecretRef.Name))
				continue
			}
			sources = append(sources, envSource{prefix: ef.Prefix, secret: s})
			keys += len(s.Data)
		}
	}
	return sources, keys, nil
}

// addEnvFrom defines the variables of one envFrom source, its keys in sorted order. Keys are not
// validated: kubelet passes any key through since RelaxedEnvironmentVariableValidation.
func (b *envBuilder) addEnvFrom(src envSource) error {
	var entries []EnvVar
	if src.cm != nil {
		entries = sortedEntriesOnce(b, src.cm, src.cm.Data)
	} else {
		entries = sortedEntriesOnce(b, src.secret, src.secret.Data)
	}
	for _, e := range entries {
		if err := b.set(src.prefix+e.Name, e.Value); err != nil {
			return err
		}
	}
	return nil
}

// sortedEntriesOnce returns the keys and values of data, obj's, sorted by key. They are sorted
// (and a Secret's values made strings) once per object however many envFrom entries name it: a
// hostile pod may name one large object thousands of times.
func sortedEntriesOnce[V ~string | ~[]byte](b *envBuilder, obj any, data map[string]V) []EnvVar {
	if entries, ok := b.entries[obj]; ok {
		return entries
	}
	entries := make([]EnvVar, 0, len(data))
	for k, v := range data {
		entries = append(entries, EnvVar{Name: k, Value: string(v)})
	}
	slices.SortFunc(entries, func(a, c EnvVar) int { return strings.Compare(a.Name, c.Name) })
	if b.entries == nil {
		b.entries = map[any][]EnvVar{}
	}
	b.entries[obj] = entries
	return entries
}

// configMapKey resolves a configMapKeyRef; keep is false when the variable is to be left out.
func (b *envBuilder) configMapKey(envName string, ref *v1.ConfigMapKeySelector) (value string, keep bool, err error) {
	optional := isTrue(ref.Optional)
	cm, err := b.configMap(ref.Name, optional)
	if err != nil {
		return "", false, err
	}
	if cm == nil {
		b.warn(ReasonOptionalConfigMapNotFound, fmt.Sprintf("skipping optional envvar %q: configmap %q not found", envName, ref.Name))
		return "", false, nil
	}
	value, ok := cm.Data[ref.Key]
	if !ok {
		if optional {
			b.warn(ReasonOptionalConfigMapKeyNotFound, fmt.Sprintf("skipping optional envvar %q: key %q does not exist in configmap %q", envName, ref.Key, ref.Name))
			return "", false, nil
		}
		return "", false, b.fail(ReasonMandatoryConfigMapKeyNotFound,
			newEnvError(ErrKeyNotFound, fmt.Sprintf("couldn't find key %v in ConfigMap %v/%v", ref.Key, b.in.Pod.Namespace, ref.Name), nil), nil)
	}
	return value, true, nil
}

// secretKey resolves a secretKeyRef; keep is false when the variable is to be left out.
func (b *envBuilder) secretKey(envName string, ref *v1.SecretKeySelector) (value string, keep bool, err error) {
	optional := isTrue(ref.Optional)
	s, err := b.secret(ref.Name, optional)
	if err != nil {
		return "", false, err
	}
	if s == nil {
		b.warn(ReasonOptionalSecretNotFound, fmt.Sprintf("skipping optional envvar %q: secret %q not found", envName, ref.Name))
		return "", false, nil
	}
	raw, ok := s.Data[ref.Key]
	if !ok {
		if optional {
			b.warn(ReasonOptionalSecretKeyNotFound, fmt.Sprintf("skipping optional envvar %q: key %q does not exist in secret %q", envName, ref.Key, ref.Name))
			return "", false, nil
		}
		return "", false, b.fail(ReasonMandatorySecretKeyNotFound,
			newEnvError(ErrKeyNotFound, fmt.Sprintf("couldn't find key %v in Secret %v/%v", ref.Key, b.in.Pod.Namespace, ref.Name), nil), nil)
	}
	return string(raw), true, nil
}

func isTrue(b *bool) bool { return b != nil && *b }
