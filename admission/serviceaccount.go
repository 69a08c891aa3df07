package admission

import (
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
)

// The ServiceAccount plugin's names.
const (
	// DefaultServiceAccountName is the ServiceAccount a pod that names none runs as.
	DefaultServiceAccountName = "default"
	// TokenVolumePrefix begins the name of the service-account token volume.
	TokenVolumePrefix = "kube-api-access-"
	// TokenMountPath is where every container mounts the token volume.
	TokenMountPath = "/var/run/secrets/kubernetes.io/serviceaccount"
	// TokenExpirationSeconds is the lifetime the token volume asks for: an hour and seven seconds,
	// which marks the token as one the API server only warns about when it is used past an hour.
	TokenExpirationSeconds = 3607
	// RootCAConfigMap is the ConfigMap every namespace holds with the cluster's CA as ca.crt.
	RootCAConfigMap = "kube-root-ca.crt"

	mirrorPodAnnotation       = "kubernetes.io/config.mirror"
	enforceMountableSecretsAn = "kubernetes.io/enforce-mountable-secrets"
	// The API server's generated-name alphabet and length (names.SimpleNameGenerator).
	suffixAlphabet = "bcdfghjklmnpqrstvwxz2456789"
	suffixLength   = 5
)

func (a *admitter) isMirrorPod() bool {
	_, ok := a.pod.Annotations[mirrorPodAnnotation]
	return ok
}

// serviceAccountAdmit is serviceaccount.Plugin.Admit on a pod CREATE.
func (a *admitter) serviceAccountAdmit() error {
	if a.isMirrorPod() {
		return a.serviceAccountValidate()
	}
	spec := &a.pod.Spec
	if spec.ServiceAccountName == "" {
		spec.ServiceAccountName = DefaultServiceAccountName
		spec.DeprecatedServiceAccount = DefaultServiceAccountName //nolint:staticcheck // kept in step, as the API server does
	}
	sa, err := a.serviceAccount(spec.ServiceAccountName)
	if err != nil {
		return a.forbidden(fmt.Errorf("error looking up service account %s/%s: %w", a.namespace(), spec.ServiceAccountName, err))
	}
	if shouldAutomount(sa, a.pod) {
		a.mountServiceAccountToken()
	}
	if len(spec.ImagePullSecrets) == 0 && len(sa.ImagePullSecrets) > 0 {
		spec.ImagePullSecrets = make([]v1.LocalObjectReference, len(sa.ImagePullSecrets))
		for i, s := range sa.ImagePullSecrets {
			spec.ImagePullSecrets[i].Name = s.Name
		}
	}
	// The plugin validates at once, so its refusal comes before any later plugin's.
	return a.serviceAccountValidate()
}

// serviceAccount finds the pod's ServiceAccount: in the objects, else the namespace's default one
// the service-account controller makes, else an assumed one with AssumeMissing.
func (a *admitter) serviceAccount(name string) (*v1.ServiceAccount, error) {
	ns := a.namespace()
	if sa, ok := a.objs.serviceAccounts[namespacedName{ns, name}]; ok {
		return sa, nil
	}
	if name != DefaultServiceAccountName && !a.assume("ServiceAccount", ns, name) {
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "serviceaccount"}, name)
	}
	sa := &v1.ServiceAccount{}
	sa.Name, sa.Namespace = name, ns
	return sa, nil
}

// shouldAutomount: the pod's automountServiceAccountToken, else the ServiceAccount's, else true.
func shouldAutomount(sa *v1.ServiceAccount, pod *v1.Pod) bool {
	if pod.Spec.AutomountServiceAccountToken != nil {
		return *pod.Spec.AutomountServiceAccountToken
	}
	if sa.AutomountServiceAccountToken != nil {
		return *sa.AutomountServiceAccountToken
	}
	return true
}

// mountServiceAccountToken mounts the token volume in every init and regular container with no
// mount at TokenMountPath, and adds the volume when one got the mount and the pod has none.
func (a *admitter) mountServiceAccountToken() {
	spec := &a.pod.Spec
	name, hasVolume := "", false
	for _, v := range spec.Volumes {
		if strings.HasPrefix(v.Name, TokenVolumePrefix) {
			name, hasVolume = v.Name, true
			break
		}
	}
	if name == "" {
		name = TokenVolumeName(a.pod)
	}
	mount := v1.VolumeMount{Name: name, ReadOnly: true, MountPath: TokenMountPath}
	needed := false
	for _, cs := range [][]v1.Container{spec.InitContainers, spec.Containers} {
		for i := range cs {
			if !mountsPath(cs[i].VolumeMounts, TokenMountPath) {
				cs[i].VolumeMounts = append(cs[i].VolumeMounts, mount)
				needed = true
			}
		}
	}
	if needed && !hasVolume {
		spec.Volumes = append(spec.Volumes, v1.Volume{
			Name:         name,
			VolumeSource: v1.VolumeSource{Projected: TokenVolumeSource()},
		})
	}
}

func mountsPath(mounts []v1.VolumeMount, path string) bool {
	for _, m := range mounts {
		if m.MountPath == path {
			return true
		}
	}
	return false
}

// TokenVolumeName is the name Admit gives a pod's service-account token volume:
// kube-api-access- and five characters of the API server's generated-name alphabet. The API
// server draws them at random; here they derive from the pod's namespace, name and generateName,
// so the same pod always gets the same volume. A nil pod is named as an empty one.
func TokenVolumeName(pod *v1.Pod) string {
	if pod == nil {
		pod = &v1.Pod{}
	}
	sum := sha256.Sum256([]byte("kube-api-access\x00" + namespaceOf(pod.Namespace) + "\x00" + pod.Name + "\x00" + pod.GenerateName))
	suffix := make([]byte, suffixLength)
	for i := range suffix {
		suffix[i] = suffixAlphabet[int(sum[i])%len(suffixAlphabet)]
	}
	return TokenVolumePrefix + string(suffix)
}

// TokenVolumeSource is the projected volume the ServiceAccount plugin adds
// (serviceaccount.TokenVolumeSource): a token, the cluster CA and the namespace, mode 0644.
func TokenVolumeSource() *v1.ProjectedVolumeSource {
	return &v1.ProjectedVolumeSource{
		DefaultMode: ptr.To[int32](v1.ProjectedVolumeSourceDefaultMode),
		Sources: []v1.VolumeProjection{
			{ServiceAccountToken: &v1.ServiceAccountTokenProjection{
				Path: "token", ExpirationSeconds: ptr.To[int64](TokenExpirationSeconds),
			}},
			{ConfigMap: &v1.ConfigMapProjection{
				LocalObjectReference: v1.LocalObjectReference{Name: RootCAConfigMap},
				Items:                []v1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}},
			}},
			{DownwardAPI: &v1.DownwardAPIProjection{
				Items: []v1.DownwardAPIVolumeFile{{
					Path:     "namespace",
					FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"},
				}},
			}},
		},
	}
}

// serviceAccountValidate is serviceaccount.Plugin.Validate on a pod CREATE.
func (a *admitter) serviceAccountValidate() error {
	spec := &a.pod.Spec
	if a.isMirrorPod() {
		if spec.ServiceAccountName != "" {
			return a.forbidden(fmt.Errorf("a mirror pod may not reference service accounts"))
		}
		if referencesSecrets(a.pod) {
			return a.forbidden(fmt.Errorf("a mirror pod may not reference secrets"))
		}
		for _, v := range spec.Volumes {
			if v.Projected == nil {
				continue
			}
			for _, s := range v.Projected.Sources {
				if s.ServiceAccountToken != nil {
					return a.forbidden(fmt.Errorf("a mirror pod may not use ServiceAccountToken volume projections"))
				}
			}
		}
		return nil
	}
	if spec.ServiceAccountName == "" {
		return a.forbidden(fmt.Errorf("no service account specified for pod %s/%s", a.namespace(), a.pod.Name))
	}
	sa, err := a.serviceAccount(spec.ServiceAccountName)
	if err != nil {
		return a.forbidden(fmt.Errorf("error looking up service account %s/%s: %w", a.namespace(), spec.ServiceAccountName, err))
	}
	if v, ok := sa.Annotations[enforceMountableSecretsAn]; ok {
		if enforce, _ := strconv.ParseBool(v); enforce {
			if err := limitSecretReferences(sa, a.pod); err != nil {
				return a.forbidden(err)
			}
		}
	}
	return nil
}

// limitSecretReferences refuses a Secret the ServiceAccount does not list, in volumes, init and
// regular containers' env and envFrom, and imagePullSecrets.
func limitSecretReferences(sa *v1.ServiceAccount, pod *v1.Pod) error {
	mountable := map[string]bool{}
	for _, s := range sa.Secrets {
		mountable[s.Name] = true
	}
	const notReferenced = "is not allowed because service account %s does not reference that secret"
	for _, v := range pod.Spec.Volumes {
		if v.Secret != nil && !mountable[v.Secret.SecretName] {
			return fmt.Errorf("volume with secret.secretName=\"%s\" "+notReferenced, v.Secret.SecretName, sa.Name)
		}
	}
	for _, group := range []struct {
		kind       string
		containers []v1.Container
	}{{"init container", pod.Spec.InitContainers}, {"container", pod.Spec.Containers}} {
		for _, c := range group.containers {
			for _, e := range c.Env {
				if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && !mountable[e.ValueFrom.SecretKeyRef.Name] {
					return fmt.Errorf("%s %s with envVar %s referencing secret.secretName=\"%s\" "+notReferenced,
						group.kind, c.Name, e.Name, e.ValueFrom.SecretKeyRef.Name, sa.Name)
				}
			}
			for _, e := range c.EnvFrom {
				if e.SecretRef != nil && !mountable[e.SecretRef.Name] {
					return fmt.Errorf("%s %s with envFrom referencing secret.secretName=\"%s\" "+notReferenced,
						group.kind, c.Name, e.SecretRef.Name, sa.Name)
				}
			}
		}
	}
	pullable := map[string]bool{}
	for _, s := range sa.ImagePullSecrets {
		pullable[s.Name] = true
	}
	for i, s := range pod.Spec.ImagePullSecrets {
		if !pullable[s.Name] {
			return fmt.Errorf(`imagePullSecrets[%d].name="%s" is not allowed because service account %s does not reference that imagePullSecret`, i, s.Name, sa.Name)
		}
	}
	return nil
}

// referencesSecrets reports whether the pod names any Secret (podutil.VisitPodSecretNames over
// all containers): pull secrets, env and envFrom, and secret-backed volumes.
func referencesSecrets(pod *v1.Pod) bool {
	if len(pod.Spec.ImagePullSecrets) > 0 {
		return true
	}
	all := append(append([]v1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...)
	for _, ec := range pod.Spec.EphemeralContainers {
		all = append(all, v1.Container(ec.EphemeralContainerCommon))
	}
	for _, c := range all {
		for _, e := range c.EnvFrom {
			if e.SecretRef != nil {
				return true
			}
		}
		for _, e := range c.Env {
			if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
				return true
			}
		}
	}
	for _, v := range pod.Spec.Volumes {
		s := v.VolumeSource
		switch {
		case s.Secret != nil,
			s.AzureFile != nil && s.AzureFile.SecretName != "",
			s.CephFS != nil && s.CephFS.SecretRef != nil,
			s.Cinder != nil && s.Cinder.SecretRef != nil,
			s.FlexVolume != nil && s.FlexVolume.SecretRef != nil,
			s.RBD != nil && s.RBD.SecretRef != nil,
			s.ScaleIO != nil && s.ScaleIO.SecretRef != nil,
			s.ISCSI != nil && s.ISCSI.SecretRef != nil,
			s.StorageOS != nil && s.StorageOS.SecretRef != nil,
			s.CSI != nil && s.CSI.NodePublishSecretRef != nil:
			return true
		case s.Projected != nil:
			for _, p := range s.Projected.Sources {
				if p.Secret != nil {
					return true
				}
			}
		}
	}
	return false
}
