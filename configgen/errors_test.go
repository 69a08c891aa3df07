package configgen_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/hostfs/hostfstest"
	"github.com/podconfig/podconfig/hosts"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/security"
	"github.com/podconfig/podconfig/subpath"
)

func cmEnv(name, cm string, optional bool) v1.EnvVar {
	return v1.EnvVar{Name: name, ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{
		LocalObjectReference: v1.LocalObjectReference{Name: cm}, Key: "k", Optional: ptr.To(optional)}}}
}

// Every failure is one *Error, found with errors.As, whose category says whether to retry; the
// finer kinds and the cause stay reachable with errors.Is.
func TestErrorCategories(t *testing.T) {
	errAPI := errors.New("etcdserver: request timed out")
	tests := []struct {
		name     string
		setup    func(node *configgentest.Node)
		mutate   func(pod *v1.Pod)
		sandbox  bool
		wantMsg  string
		category error
		reason   string
		is       []error
		// cause checks Error.Cause.
		cause func(t *testing.T, cause error)
	}{
		{
			name:     "a subPath with .. is an invalid pod: do not retry",
			mutate:   func(pod *v1.Pod) { pod.Spec.Containers[0].VolumeMounts[0].SubPath = "../escape" },
			wantMsg:  "unable to provision SubPath `../escape`: must not contain '..'",
			category: configgen.ErrInvalidPod, reason: configgen.ReasonCreateContainerConfigError,
			is: []error{mounts.ErrInvalidSubPath},
		},
		{
			name: "runAsNonRoot against a root image is an invalid pod",
			mutate: func(pod *v1.Pod) {
				pod.Spec.SecurityContext = &v1.PodSecurityContext{RunAsNonRoot: ptr.To(true)}
			},
			wantMsg:  `container has runAsNonRoot and image will run as root (pod: "web-7d9f8_shop(` + podUID + `)", container: web)`,
			category: configgen.ErrInvalidPod, reason: configgen.ReasonCreateContainerConfigError,
			is: []error{security.ErrRunAsNonRoot},
		},
		{
			name: "a subPath whose symlink escapes its volume is the spec's doing: invalid pod, with the check as cause",
			setup: func(node *configgentest.Node) {
				node.Subpather.Funcs.PrepareSafeSubpath = func(mounts.Subpath) error {
					return fmt.Errorf("path /vol/link resolves outside /vol: %w", subpath.ErrOutsideBase)
				}
			},
			category: configgen.ErrInvalidPod, reason: configgen.ReasonCreateContainerConfigError,
			is: []error{mounts.ErrSubPathSetup, subpath.ErrOutsideBase},
			cause: func(t *testing.T, cause error) {
				assert.EqualError(t, cause, "path /vol/link resolves outside /vol: path escapes its base directory")
			},
		},
		{
			name:     "a missing ConfigMap is a dependency: retry, MandatoryConfigMapNotFound, the getter's NotFound as cause",
			mutate:   func(pod *v1.Pod) { pod.Spec.Containers[0].Env = []v1.EnvVar{cmEnv("A", "absent", false)} },
			wantMsg:  `configmaps "absent" not found`,
			category: configgen.ErrDependencyFailed, reason: configgen.ReasonMandatoryConfigMapNotFound,
			cause: func(t *testing.T, cause error) { assert.True(t, apierrors.IsNotFound(cause)) },
		},
		{
			name: "a missing mandatory key is a dependency: MandatoryConfigMapKeyNotFound",
			setup: func(node *configgentest.Node) {
				node.Objects.Add(&v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "cfg"}})
			},
			mutate: func(pod *v1.Pod) {
				pod.Spec.Containers[0].Env = []v1.EnvVar{cmEnv("A", "cfg", false)}
			},
			wantMsg:  "couldn't find key k in ConfigMap shop/cfg",
			category: configgen.ErrDependencyFailed, reason: configgen.ReasonMandatoryConfigMapKeyNotFound,
			is: []error{configgen.ErrKeyNotFound},
		},
		{
			name: "a getter failing for an optional ConfigMap fails as kubelet's: FailedToReadOptionalConfigMap",
			setup: func(node *configgentest.Node) {
				node.Options.ConfigMaps = configgen.ConfigMapGetterFunc(func(context.Context, string, string) (*v1.ConfigMap, error) {
					return nil, errAPI
				})
			},
			mutate:   func(pod *v1.Pod) { pod.Spec.Containers[0].Env = []v1.EnvVar{cmEnv("A", "cfg", true)} },
			wantMsg:  errAPI.Error(),
			category: configgen.ErrDependencyFailed, reason: configgen.ReasonFailedToReadOptionalConfigMap,
			is:    []error{errAPI},
			cause: func(t *testing.T, cause error) { assert.Same(t, errAPI, cause) },
		},
		{
			name: "services not synced yet is a dependency: FailedToCreateEnvVars",
			setup: func(node *configgentest.Node) {
				node.Options.Services = notSynced{}
			},
			wantMsg:  "services have not yet been read at least once, cannot construct envvars",
			category: configgen.ErrDependencyFailed, reason: configgen.ReasonFailedToCreateEnvVars,
			is: []error{configgen.ErrServicesNotSynced},
		},
		{
			name: "an unsupported field reference is an invalid pod: FailedToCreateEnvVars",
			mutate: func(pod *v1.Pod) {
				pod.Spec.Containers[0].Env = []v1.EnvVar{{Name: "X", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "spec.nope"}}}}
			},
			wantMsg:  "field label not supported: spec.nope",
			category: configgen.ErrInvalidPod, reason: configgen.ReasonFailedToCreateEnvVars,
			is: []error{configgen.ErrFieldRef},
		},
		{
			name: "a host error is a dependency, with the host's error as cause",
			setup: func(node *configgentest.Node) {
				node.Options.Files = hostfstest.Wrap(node.Files, hostfstest.Funcs{MkdirAll: func(hostfstest.FS, string, fs.FileMode) error {
					return fs.ErrPermission
				}})
			},
			category: configgen.ErrDependencyFailed, reason: configgen.ReasonCreateContainerConfigError,
			is:    []error{configgen.ErrHost, fs.ErrPermission},
			cause: func(t *testing.T, cause error) { assert.Same(t, fs.ErrPermission, cause) },
		},
		{
			name:     "no image-user source is a configuration error",
			setup:    func(node *configgentest.Node) { node.ImageUsers = nil },
			category: configgen.ErrInvalidOptions, reason: configgen.ReasonCreateContainerConfigError,
			is: []error{configgen.ErrInvalidOptions},
		},
		{
			name: "an FQDN too long for the kernel fails the sandbox: invalid pod, FailedCreatePodSandBox",
			mutate: func(pod *v1.Pod) {
				pod.Spec.Hostname = strings.Repeat("h", 40)
				pod.Spec.Subdomain = strings.Repeat("s", 40)
				pod.Spec.SetHostnameAsFQDN = ptr.To(true)
			},
			sandbox:  true,
			category: configgen.ErrInvalidPod, reason: configgen.ReasonFailedCreatePodSandBox,
			is: []error{hosts.ErrFQDNTooLong},
		},
	}
	categories := []error{configgen.ErrInvalidPod, configgen.ErrDependencyFailed, configgen.ErrInvalidOptions}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node := configgentest.NewNode()
			if tt.setup != nil {
				tt.setup(node)
			}
			gen, err := node.Generator()
			require.NoError(t, err)
			pod := samplePod()
			if tt.mutate != nil {
				tt.mutate(pod)
			}
			if tt.sandbox {
				_, err = gen.GeneratePodSandboxConfig(context.Background(), pod, 0)
			} else {
				_, err = gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{
					Pod: pod, Container: &pod.Spec.Containers[0], ImageRef: "img", Volumes: node.Volumes(pod)})
			}
			require.Error(t, err)
			if tt.wantMsg != "" {
				assert.EqualError(t, err, tt.wantMsg, "kubelet's text is the message")
			}
			var e *configgen.Error
			require.ErrorAs(t, err, &e)
			assert.Same(t, tt.category, e.Category)
			assert.Equal(t, tt.reason, e.Reason)
			assert.Equal(t, "shop/web-7d9f8", e.Pod)
			if !tt.sandbox {
				assert.Equal(t, "web", e.Container)
			}
			for _, c := range categories {
				assert.Equal(t, c == tt.category, errors.Is(err, c), "errors.Is(err, %v)", c)
			}
			for _, target := range tt.is {
				assert.ErrorIs(t, err, target)
			}
			if tt.cause != nil {
				tt.cause(t, e.Cause)
			}
			full := fmt.Sprintf("%+v", err)
			assert.True(t, strings.HasPrefix(full, err.Error()+"\ncategory: "+tt.category.Error()+"\nreason: "+tt.reason+"\n"), full)
			assert.Equal(t, err.Error(), fmt.Sprintf("%v", err))
		})
	}
}

// notSynced is a ServiceLister whose cache has not synced.
type notSynced struct{}

func (notSynced) ListServices(context.Context, string) ([]*v1.Service, error) { return nil, nil }
func (notSynced) HasSynced() bool                                             { return false }

// MakeEnvironmentVariables with no ConfigMap getter fails as kubelet with no API client: a
// configuration error.
func TestErrorNoGetter(t *testing.T) {
	in := envInput(testPod(cmEnv("A", "cfg", false)))
	in.ConfigMaps = nil
	_, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
	require.EqualError(t, err, "couldn't get configMap ns/cfg, no kubeClient defined")
	var e *configgen.Error
	require.ErrorAs(t, err, &e)
	assert.Same(t, configgen.ErrInvalidOptions, e.Category)
	assert.Equal(t, configgen.ReasonFailedToReadMandatoryConfigMap, e.Reason)
	assert.Equal(t, "ns/web-0", e.Pod)
	assert.Equal(t, "app", e.Container)
	assert.ErrorIs(t, err, configgen.ErrInvalidOptions)
	assert.NotErrorIs(t, err, configgen.ErrDependencyFailed)
}

func TestErrorFormat(t *testing.T) {
	e := &configgen.Error{
		Category: configgen.ErrDependencyFailed, Reason: configgen.ReasonMandatorySecretNotFound,
		Pod: "shop/web", Container: "app", Cause: fs.ErrNotExist, Err: errors.New(`secrets "db" not found`),
	}
	assert.Equal(t, `secrets "db" not found`, fmt.Sprint(e))
	assert.Equal(t, `"secrets \"db\" not found"`, fmt.Sprintf("%q", e))
	assert.Equal(t, "secrets \"db\" not found\ncategory: dependency failed\nreason: MandatorySecretNotFound\npod: shop/web\ncontainer: app\ncause: file does not exist", fmt.Sprintf("%+v", e))
	wrapped := fmt.Errorf("provider: %w", e)
	var got *configgen.Error
	require.ErrorAs(t, wrapped, &got)
	assert.ErrorIs(t, wrapped, configgen.ErrDependencyFailed)
}
