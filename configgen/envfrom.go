package configgen

import (
	"fmt"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// envSource is one envFrom entry whose object was found.
type envSource struct {
	prefix string
	cm     *v1.ConfigMap
	secret *v1.Secret
}

// objectCache remembers the ConfigMaps or Secrets fetched during one call, so that each is read
// once however many references name it, as kubelet does. A missing optional object is not
// remembered: every reference asks again. A few objects are looked up by a scan; past
// objectScanMax, by a map, so a pod naming thousands of objects costs no more than linear time.
type objectCache[T any] struct {
	entries []cacheEntry[T]
	buf     [4]cacheEntry[T]
	index   map[string]T
}

const objectScanMax = 8

type cacheEntry[T any] struct {
	name string
	obj  T
}

func (c *objectCache[T]) get(name string) (T, bool) {
	if c.index != nil {
		obj, ok := c.index[name]
		return obj, ok
	}
	for _, e := range c.entries {
		if e.name == name {
			return e.obj, true
		}
	}
	var zero T
	return zero, false
}

func (c *objectCache[T]) put(name string, obj T) {
	if c.index != nil {
		c.index[name] = obj
		return
	}
	if c.entries == nil {
		c.entries = c.buf[:0]
	}
	c.entries = append(c.entries, cacheEntry[T]{name: name, obj: obj})
	if len(c.entries) > objectScanMax {
		c.index = make(map[string]T, 2*len(c.entries))
		for _, e := range c.entries {
			c.index[e.name] = e.obj
		}
		c.entries = nil
	}
}

// configMap returns the named ConfigMap of the pod's namespace, or nil when it is missing and
// optional.
func (b *envBuilder) configMap(name string, optional bool) (*v1.ConfigMap, error) {
	if cm, ok := b.cms.get(name); ok {
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
	b.cms.put(name, cm)
	return cm, nil
}

// secret is configMap for Secrets.
func (b *envBuilder) secret(name string, optional bool) (*v1.Secret, error) {
	if s, ok := b.secrets.get(name); ok {
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
	b.secrets.put(name, s)
	return s, nil
}

// fetchEnvFrom reads every envFrom object in order, so that errors come in kubelet's order and the
// number of variables is known before any is stored.
func (b *envBuilder) fetchEnvFrom() error {
	b.sources = b.srcBuf[:0]
	for i := range b.in.Container.EnvFrom {
		ef := &b.in.Container.EnvFrom[i]
		src := envSource{prefix: ef.Prefix}
		var n int
		switch {
		case ef.ConfigMapRef != nil:
			cm, err := b.configMap(ef.ConfigMapRef.Name, isTrue(ef.ConfigMapRef.Optional))
			if err != nil {
				return err
			}
			if cm == nil {
				b.warn(ReasonOptionalConfigMapNotFound, fmt.Sprintf("configmap %q not found", ef.ConfigMapRef.Name))
				continue
			}
			src.cm, n = cm, len(cm.Data)
		case ef.SecretRef != nil:
			s, err := b.secret(ef.SecretRef.Name, isTrue(ef.SecretRef.Optional))
			if err != nil {
				return err
			}
			if s == nil {
				b.warn(ReasonOptionalSecretNotFound, fmt.Sprintf("secret %q not found", ef.SecretRef.Name))
				continue
			}
			src.secret, n = s, len(s.Data)
		default:
			continue
		}
		b.sources = append(b.sources, src)
		b.fromKeys += n
	}
	return nil
}

// addEnvFrom defines the variables of every envFrom source, each source's keys in sorted order.
// Keys are not validated: kubelet passes any key through since RelaxedEnvironmentVariableValidation.
func (b *envBuilder) addEnvFrom() {
	if len(b.sources) == 0 {
		b.text.Grow(b.textSize)
		return
	}
	// Every source's keys and values are gathered in one pass over its map, which also sizes the
	// text: prefixed names and secret values are written into b.text and sliced from it, so a
	// source costs no allocation per key. A usual environment is gathered and sorted on the
	// stack, where moving entries costs no write barrier.
	var stack [32]fromEntry
	entries := stack[:0]
	if b.fromKeys > len(stack) {
		entries = make([]fromEntry, 0, b.fromKeys)
	}
	var ends [4]int
	srcEnds := ends[:0]
	size := 0
	for _, src := range b.sources {
		if src.cm != nil {
			first := len(entries)
			for k, v := range src.cm.Data {
				entries = append(entries, fromEntry{key: k, value: v})
			}
			if src.prefix != "" {
				for _, e := range entries[first:] {
					size += len(src.prefix) + len(e.key)
				}
			}
		} else {
			for k, v := range src.secret.Data {
				entries = append(entries, fromEntry{key: k, raw: v})
				size += len(v)
				if src.prefix != "" {
					size += len(src.prefix) + len(k)
				}
			}
		}
		srcEnds = append(srcEnds, len(entries))
	}
	text := &b.text
	text.Grow(size + b.textSize)
	start := 0
	for i, src := range b.sources {
		list := entries[start:srcEnds[i]]
		start = srcEnds[i]
		// Keys of one source share its prefix, so they sort as the prefixed names do.
		sortFromEntries(list)
		for j := range list {
			e := &list[j]
			name, value := e.key, e.value
			if src.prefix != "" {
				at := text.Len()
				text.WriteString(src.prefix)
				text.WriteString(name)
				name = text.String()[at:]
			}
			if src.secret != nil {
				at := text.Len()
				text.Write(e.raw)
				value = text.String()[at:]
			}
			b.set(name, value)
		}
	}
}

// fromEntry is one key of an envFrom source: a ConfigMap's value or a Secret's raw bytes.
type fromEntry struct {
	key, value string
	raw        []byte
}

// sortFromEntries sorts one source's entries by key; keys are unique. The keys of a usual source
// (up to 32, which addEnvFrom gathers on the stack) are sorted by insertion, comparing strings
// directly, which beats a general sort's calls through a comparison function at that size.
func sortFromEntries(list []fromEntry) {
	if len(list) > 32 {
		slices.SortFunc(list, func(a, c fromEntry) int { return strings.Compare(a.key, c.key) })
		return
	}
	for i := 1; i < len(list); i++ {
		e := list[i]
		j := i
		for ; j > 0 && list[j-1].key > e.key; j-- {
			list[j] = list[j-1]
		}
		list[j] = e
	}
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
	return b.keep(raw), true, nil
}

func isTrue(b *bool) bool { return b != nil && *b }
