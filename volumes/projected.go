package volumes

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	authenticationv1 "k8s.io/api/authentication/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
)

// Payload returns the files kubelet's plugin writes for one of pod's volumes: configMap, secret,
// downwardAPI or projected (kubelet: each plugin's SetUpAt up to the atomic writer's Write). It
// reads only its Sources and touches no host. An error carries kubelet's text and names the
// volume and the pod (see VolumeError); when it is returned nothing may be written, as kubelet
// writes nothing. Other volume types fail with an error matching ErrNotSupported.
func (s Sources) Payload(ctx context.Context, pod *v1.Pod, vol *v1.Volume) (Payload, error) {
	if pod == nil || vol == nil {
		return nil, errors.New("a payload needs a pod and one of its volumes")
	}
	p, err := s.projection(ctx, pod, vol, &budget{max: s.MaxPayloadBytes})
	if err != nil {
		return nil, &VolumeError{Op: opSetUp, Pod: pod, Volume: vol.Name, Err: err}
	}
	return p.payload(), nil
}

func (s Sources) projection(ctx context.Context, pod *v1.Pod, vol *v1.Volume, b *budget) (projection, error) {
	src := &vol.VolumeSource
	switch {
	case src.ConfigMap != nil:
		cm := src.ConfigMap
		optional := cm.Optional != nil && *cm.Optional
		obj, err := s.configMap(ctx, pod.Namespace, cm.Name, optional)
		if err != nil {
			return nil, err
		}
		return configMapProjection(cm.Items, obj, cm.DefaultMode, cm.DefaultUser, optional, s.UserFields, b)
	case src.Secret != nil:
		sec := src.Secret
		optional := sec.Optional != nil && *sec.Optional
		obj, err := s.secret(ctx, pod.Namespace, sec.SecretName, optional)
		if err != nil {
			return nil, err
		}
		return secretProjection(sec.Items, obj, sec.DefaultMode, sec.DefaultUser, optional, s.UserFields, b)
	case src.DownwardAPI != nil:
		d := src.DownwardAPI
		return downwardAPIProjection(ctx, DownwardAPIRequest{Items: d.Items, Pod: pod, Node: s.Node,
			DefaultMode: d.DefaultMode, DefaultUser: d.DefaultUser, UserFields: s.UserFields}, b)
	case src.Projected != nil:
		return s.projected(ctx, pod, vol.Name, src.Projected, b)
	}
	return nil, fmt.Errorf("%w: %s", ErrNotSupported, volumeType(vol))
}

func (s Sources) configMap(ctx context.Context, namespace, name string, optional bool) (*v1.ConfigMap, error) {
	if s.ConfigMaps == nil {
		return nil, fmt.Errorf("%w: no ConfigMapGetter to read configmap %q", ErrMissingDependency, name)
	}
	cm, err := s.ConfigMaps.GetConfigMap(ctx, namespace, name)
	if err != nil {
		if optional && apierrors.IsNotFound(err) {
			return &v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}, nil
		}
		return nil, err
	}
	return cm, nil
}

func (s Sources) secret(ctx context.Context, namespace, name string, optional bool) (*v1.Secret, error) {
	if s.Secrets == nil {
		return nil, fmt.Errorf("%w: no SecretGetter to read secret %q", ErrMissingDependency, name)
	}
	sec, err := s.Secrets.GetSecret(ctx, namespace, name)
	if err != nil {
		if optional && apierrors.IsNotFound(err) {
			return &v1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}, nil
		}
		return nil, err
	}
	return sec, nil
}

// projected collects a projected volume's sources in order (kubelet: projectedVolumeMounter's
// collectData): a later source's file replaces an earlier one at the same path; a failing source
// is skipped and its error kept, and all errors are returned together.
func (s Sources) projected(ctx context.Context, pod *v1.Pod, volName string, src *v1.ProjectedVolumeSource, b *budget) (projection, error) {
	if src.DefaultMode == nil {
		return nil, errNoDefaultMode
	}
	fsUser, fsGroup := FsUserFrom(pod), fsGroupOf(pod)
	// Token, trust-bundle and certificate files: the source's default mode, but 0600 when they
	// get an owner or a group (the fsGroup pass then makes it 0640).
	private := func(user *int64) (*int64, int32) {
		owner := fsUser
		if s.UserFields {
			if src.DefaultUser != nil {
				owner = src.DefaultUser
			}
			if user != nil {
				owner = user
			}
		}
		if owner != nil || fsGroup != nil {
			return owner, 0o600
		}
		return owner, *src.DefaultMode
	}
	var errs []error
	out := make(projection)
	for i, source := range src.Sources {
		if err := b.take(0); err != nil {
			// Past the bound: the first error says so, and nothing more is read.
			return nil, err
		}
		switch {
		case source.Secret != nil:
			sec := source.Secret
			optional := sec.Optional != nil && *sec.Optional
			obj, err := s.secret(ctx, pod.Namespace, sec.Name, optional)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			p, err := secretProjection(sec.Items, obj, src.DefaultMode, src.DefaultUser, optional, s.UserFields, b)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			out.merge(p)
		case source.ConfigMap != nil:
			cm := source.ConfigMap
			optional := cm.Optional != nil && *cm.Optional
			obj, err := s.configMap(ctx, pod.Namespace, cm.Name, optional)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			p, err := configMapProjection(cm.Items, obj, src.DefaultMode, src.DefaultUser, optional, s.UserFields, b)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			out.merge(p)
		case source.DownwardAPI != nil:
			p, err := downwardAPIProjection(ctx, DownwardAPIRequest{Items: source.DownwardAPI.Items, Pod: pod, Node: s.Node,
				DefaultMode: src.DefaultMode, DefaultUser: src.DefaultUser, UserFields: s.UserFields}, b)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			out.merge(p)
		case source.ServiceAccountToken != nil:
			tp := source.ServiceAccountToken
			owner, mode := private(tp.User)
			tr, err := s.serviceAccountToken(ctx, pod, tp)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if err := b.take(len(tr.Status.Token)); err != nil {
				return nil, err
			}
			out.set(tp.Path, []byte(tr.Status.Token), mode, owner)
		case source.ClusterTrustBundle != nil:
			ctb := source.ClusterTrustBundle
			data, err := s.trustAnchors(ctx, ctb)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if err := b.take(len(data)); err != nil {
				return nil, err
			}
			owner, mode := private(ctb.User)
			out.set(ctb.Path, data, mode, owner)
		case source.PodCertificate != nil:
			pc := source.PodCertificate
			if s.PodCertificates == nil {
				errs = append(errs, fmt.Errorf("%w: no PodCertificateGetter for a podCertificate projection", ErrMissingDependency))
				continue
			}
			key, chain, err := s.PodCertificates.GetPodCertificateCredentialBundle(ctx, pod.Namespace, pod.Name, string(pod.UID), volName, i)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if err := b.take(2 * (len(key) + len(chain))); err != nil {
				return nil, err
			}
			owner, mode := private(pc.User)
			if pc.CredentialBundlePath != "" {
				out.set(pc.CredentialBundlePath, bytes.Join([][]byte{key, chain}, nil), mode, owner)
			}
			if pc.KeyPath != "" {
				out.set(pc.KeyPath, key, mode, owner)
			}
			if pc.CertificateChainPath != "" {
				out.set(pc.CertificateChainPath, chain, mode, owner)
			}
		}
	}
	if err := utilerrors.NewAggregate(errs); err != nil {
		return nil, err
	}
	return out, nil
}

// serviceAccountToken asks for the projection's token as kubelet does: the pod's service
// account, the audience if any, the projection's expirationSeconds as it is, bound to the pod.
// An expirationSeconds the API server refuses (under 10 minutes, over 2^32 seconds) is sent
// too, as kubelet sends it: the TokenRequest's refusal is the volume's error.
func (s Sources) serviceAccountToken(ctx context.Context, pod *v1.Pod, tp *v1.ServiceAccountTokenProjection) (*authenticationv1.TokenRequest, error) {
	if s.Tokens == nil {
		return nil, fmt.Errorf("%w: no TokenGetter for a serviceAccountToken projection", ErrMissingDependency)
	}
	var auds []string
	if tp.Audience != "" {
		auds = []string{tp.Audience}
	}
	return s.Tokens.GetServiceAccountToken(ctx, pod.Namespace, pod.Spec.ServiceAccountName, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{
			Audiences:         auds,
			ExpirationSeconds: tp.ExpirationSeconds,
			BoundObjectRef: &authenticationv1.BoundObjectReference{
				APIVersion: "v1",
				Kind:       "Pod",
				Name:       pod.Name,
				UID:        pod.UID,
			},
		},
	})
}

// FsUserFrom is the uid that owns a projected volume's token, trust-bundle and certificate files
// (kubelet: FsUserFrom): the runAsUser every init, regular and ephemeral container runs as (its
// own, else the pod's) when all have one and they agree; nil otherwise.
func FsUserFrom(pod *v1.Pod) *int64 {
	if pod == nil {
		return nil
	}
	var uid *int64
	var podUser *int64
	if pod.Spec.SecurityContext != nil {
		podUser = pod.Spec.SecurityContext.RunAsUser
	}
	same := true
	visit := func(sc *v1.SecurityContext) {
		u := podUser
		if sc != nil && sc.RunAsUser != nil {
			u = sc.RunAsUser
		}
		switch {
		case u == nil:
			same = false
		case uid == nil:
			uid = u
		case *uid != *u:
			same = false
		}
	}
	for i := range pod.Spec.InitContainers {
		visit(pod.Spec.InitContainers[i].SecurityContext)
	}
	for i := range pod.Spec.Containers {
		visit(pod.Spec.Containers[i].SecurityContext)
	}
	for i := range pod.Spec.EphemeralContainers {
		visit(pod.Spec.EphemeralContainers[i].SecurityContext)
	}
	if !same || uid == nil {
		return nil
	}
	u := *uid
	return &u
}

func fsGroupOf(pod *v1.Pod) *int64 {
	if pod.Spec.SecurityContext == nil {
		return nil
	}
	return pod.Spec.SecurityContext.FSGroup
}

func volumeType(vol *v1.Volume) string {
	src := &vol.VolumeSource
	switch {
	case src.EmptyDir != nil:
		return "emptyDir"
	case src.HostPath != nil:
		return "hostPath"
	}
	return "this volume source"
}

func isNotFound(err error) bool { return apierrors.IsNotFound(err) }
