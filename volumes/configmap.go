package volumes

import (
	"errors"

	v1 "k8s.io/api/core/v1"
)

// errNoDefaultMode is kubelet's error for a volume source whose defaultMode the API server did
// not default.
var errNoDefaultMode = errors.New("no defaultMode used, not even the default value for it")

// MakeConfigMapPayload is the payload of a configMap volume or projection (kubelet:
// configmap.MakePayload). With no items every key of data, then of binaryData, becomes a file of
// that name with defaultMode; with items only the listed keys are written, at their paths, with
// their mode or defaultMode, and a key the ConfigMap lacks fails with "configmap references
// non-existent config key: <key>" unless optional. userFields is the AtomicWriteVolumeUserFields
// feature gate: off (the v1.37 default), defaultUser and items' user are ignored.
func MakeConfigMapPayload(items []v1.KeyToPath, cm *v1.ConfigMap, defaultMode *int32, defaultUser *int64, optional, userFields bool) (Payload, error) {
	p, err := configMapProjection(items, cm, defaultMode, defaultUser, optional, userFields, nil)
	if err != nil {
		return nil, err
	}
	return p.payload(), nil
}

func configMapProjection(items []v1.KeyToPath, cm *v1.ConfigMap, defaultMode *int32, defaultUser *int64, optional, userFields bool, b *budget) (projection, error) {
	if defaultMode == nil {
		return nil, errNoDefaultMode
	}
	p := make(projection, len(cm.Data)+len(cm.BinaryData))
	if len(items) == 0 {
		owner := resolveUser(userFields, defaultUser, nil)
		for k, v := range cm.Data {
			if err := b.take(len(v)); err != nil {
				return nil, err
			}
			p.set(k, []byte(v), *defaultMode, owner)
		}
		for k, v := range cm.BinaryData {
			if err := b.take(len(v)); err != nil {
				return nil, err
			}
			p.set(k, v, *defaultMode, owner)
		}
		return p, nil
	}
	for _, it := range items {
		var data []byte
		if s, ok := cm.Data[it.Key]; ok {
			if err := b.take(len(s)); err != nil {
				return nil, err
			}
			data = []byte(s)
		} else if bin, ok := cm.BinaryData[it.Key]; ok {
			if err := b.take(len(bin)); err != nil {
				return nil, err
			}
			data = bin
		} else {
			if optional {
				continue
			}
			return nil, errors.New("configmap references non-existent config key: " + it.Key)
		}
		p.set(it.Path, data, modeOr(it.Mode, *defaultMode), resolveUser(userFields, defaultUser, it.User))
	}
	return p, nil
}

// MakeSecretPayload is the payload of a secret volume or projection (kubelet:
// secret.MakePayload): as MakeConfigMapPayload, from the Secret's data, with "references
// non-existent secret key: <key>" for a missing key.
func MakeSecretPayload(items []v1.KeyToPath, secret *v1.Secret, defaultMode *int32, defaultUser *int64, optional, userFields bool) (Payload, error) {
	p, err := secretProjection(items, secret, defaultMode, defaultUser, optional, userFields, nil)
	if err != nil {
		return nil, err
	}
	return p.payload(), nil
}

func secretProjection(items []v1.KeyToPath, secret *v1.Secret, defaultMode *int32, defaultUser *int64, optional, userFields bool, b *budget) (projection, error) {
	if defaultMode == nil {
		return nil, errNoDefaultMode
	}
	p := make(projection, len(secret.Data))
	if len(items) == 0 {
		owner := resolveUser(userFields, defaultUser, nil)
		for k, v := range secret.Data {
			if err := b.take(len(v)); err != nil {
				return nil, err
			}
			p.set(k, v, *defaultMode, owner)
		}
		return p, nil
	}
	for _, it := range items {
		data, ok := secret.Data[it.Key]
		if !ok {
			if optional {
				continue
			}
			return nil, errors.New("references non-existent secret key: " + it.Key)
		}
		if err := b.take(len(data)); err != nil {
			return nil, err
		}
		p.set(it.Path, data, modeOr(it.Mode, *defaultMode), resolveUser(userFields, defaultUser, it.User))
	}
	return p, nil
}

func modeOr(mode *int32, def int32) int32 {
	if mode != nil {
		return *mode
	}
	return def
}

// resolveUser is the owner of a file with the AtomicWriteVolumeUserFields gate (kubelet:
// ResolvesFsUser): the item's user, else the source's defaultUser; nil with the gate off.
func resolveUser(userFields bool, defaultUser, itemUser *int64) *int64 {
	if !userFields {
		return nil
	}
	if itemUser != nil {
		return itemUser
	}
	return defaultUser
}
