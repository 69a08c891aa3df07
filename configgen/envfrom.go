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

// envSourceKey identifies what an envFrom entry defines: its object and its prefix.
type envSourceKey struct {
	obj    any
	prefix string
}

func (src envSource) key() envSourceKey {
	if src.secret != nil {
		return envSourceKey{src.secret, src.prefix}
	}
	return envSourceKey{src.cm, src.prefix}
}

// addEnvFromSources defines the variables of the envFrom sources in order. Entries naming the
// same object under the same prefix define the same names: the first of them defines them all,
// where they keep their position, and only the last can decide their values (any other source
// between them included), so the entries between are skipped: a pod naming one object a thousand
// times costs what two entries cost, not a thousand times its keys.
func (b *envBuilder) addEnvFromSources(sources []envSource) error {
	last := make(map[envSourceKey]int, len(sources))
	for i, src := range sources {
		last[src.key()] = i
	}
	done := make(map[envSourceKey]bool, len(last))
	for i, src := range sources {
		k := src.key()
		if done[k] && last[k] != i {
			continue
		}
		done[k] = true
		if err := b.addEnvFrom(src); err != nil {
			return err
		}
	}
	return nil
}

// addEnvFrom defines the variables of one envFrom source, its keys in sorted order. Keys are not
// validated: kubelet passes any key through since RelaxedEnvironmentVariableValidation.
func (b *envBuilder) addEnvFrom(src envSource) error {
	entries := b.sortedEntriesOnce(src)
	for i := range entries {
		e := &entries[i]
		if src.secret != nil && e.Value == "" {
			// A Secret's value is made a string when it is first defined, so that the bound stops a
			// Secret larger than it before it is copied whole; an empty one stays empty for free.
			e.Value = string(src.secret.Data[e.Name])
		}
		if err := b.set(src.prefix+e.Name, e.Value); err != nil {
			return err
		}
	}
	return nil
}

// sortedEntriesOnce returns the keys of the source's object sorted, with a ConfigMap's values (a
// Secret's are filled in as they are defined). They are sorted once per object however many
// envFrom entries name it: a hostile pod may name one large object thousands of times.
func (b *envBuilder) sortedEntriesOnce(src envSource) []EnvVar {
	obj := src.key().obj
	if entries, ok := b.entries[obj]; ok {
		return entries
	}
	var entries []EnvVar
	if src.cm != nil {
		entries = make([]EnvVar, 0, len(src.cm.Data))
		for k, v := range src.cm.Data {
			entries = append(entries, EnvVar{Name: k, Value: v})
		}
	} else {
		entries = make([]EnvVar, 0, len(src.secret.Data))
		for k := range src.secret.Data {
			entries = append(entries, EnvVar{Name: k})
		}
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
