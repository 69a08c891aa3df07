package security_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/security"
)

func TestVerifyRunAsNonRoot(t *testing.T) {
	const (
		pod       = `"bar_new(12345678)"`
		suffix    = " (pod: " + pod + ", container: foo)"
		breaks    = "container's runAsUser breaks non-root policy" + suffix
		asRoot    = "container has runAsNonRoot and image will run as root" + suffix
		nonNumber = "container has runAsNonRoot and image has non-numeric user (%s), cannot verify user is non-root" + suffix
		invalid   = "container has runAsNonRoot and image has an invalid user id (%d). (Must be 1-(2147483647)): must be between 0 and 2147483647, inclusive" + suffix
	)
	nonRoot := &v1.SecurityContext{RunAsNonRoot: ptr.To(true)}
	for _, tc := range []struct {
		name        string
		podSC       *v1.PodSecurityContext
		containerSC *v1.SecurityContext
		uid         *int64
		username    string
		wantErr     string
	}{
		{name: "no security context passes even for a root image", uid: ptr.To[int64](0)},
		{name: "runAsNonRoot unset passes with runAsUser 0", containerSC: &v1.SecurityContext{RunAsUser: ptr.To[int64](0)}, uid: ptr.To[int64](0)},
		{name: "runAsNonRoot false passes with a root image", containerSC: &v1.SecurityContext{RunAsNonRoot: ptr.To(false)}, uid: ptr.To[int64](0)},
		{name: "runAsNonRoot false passes with runAsUser 0", containerSC: &v1.SecurityContext{RunAsNonRoot: ptr.To(false), RunAsUser: ptr.To[int64](0)}, uid: ptr.To[int64](0)},
		{name: "runAsUser 0 breaks the policy", containerSC: &v1.SecurityContext{RunAsNonRoot: ptr.To(true), RunAsUser: ptr.To[int64](0)}, uid: ptr.To[int64](1000), wantErr: breaks},
		{name: "pod-level runAsUser 0 breaks a pod-level policy", podSC: &v1.PodSecurityContext{RunAsNonRoot: ptr.To(true), RunAsUser: ptr.To[int64](0)}, uid: ptr.To[int64](1000), wantErr: breaks},
		{name: "non-root runAsUser passes without consulting the image", containerSC: &v1.SecurityContext{RunAsNonRoot: ptr.To(true), RunAsUser: ptr.To[int64](1000)}, uid: ptr.To[int64](0)},
		{name: "runAsUser -1 fails since setuid(-1) keeps root", containerSC: &v1.SecurityContext{RunAsNonRoot: ptr.To(true), RunAsUser: ptr.To[int64](-1)}, uid: ptr.To[int64](1000),
			wantErr: "container has runAsNonRoot and an invalid runAsUser (-1): must be between 0 and 2147483647, inclusive" + suffix},
		{name: "runAsUser 2^32 fails since it narrows to uid 0", podSC: &v1.PodSecurityContext{RunAsNonRoot: ptr.To(true), RunAsUser: ptr.To[int64](1 << 32)}, uid: ptr.To[int64](1000),
			wantErr: "container has runAsNonRoot and an invalid runAsUser (4294967296): must be between 0 and 2147483647, inclusive" + suffix},
		{name: "runAsUser MaxInt32 passes", containerSC: &v1.SecurityContext{RunAsNonRoot: ptr.To(true), RunAsUser: ptr.To[int64](math.MaxInt32)}, uid: ptr.To[int64](0)},
		{name: "container runAsUser 0 beats a non-root pod runAsUser", podSC: &v1.PodSecurityContext{RunAsNonRoot: ptr.To(true), RunAsUser: ptr.To[int64](1000)}, containerSC: &v1.SecurityContext{RunAsUser: ptr.To[int64](0)}, uid: ptr.To[int64](1000), wantErr: breaks},
		{name: "container runAsUser overrides a root pod runAsUser", podSC: &v1.PodSecurityContext{RunAsUser: ptr.To[int64](0)}, containerSC: &v1.SecurityContext{RunAsNonRoot: ptr.To(true), RunAsUser: ptr.To[int64](1000)}},
		{name: "container runAsNonRoot false overrides the pod's true", podSC: &v1.PodSecurityContext{RunAsNonRoot: ptr.To(true)}, containerSC: &v1.SecurityContext{RunAsNonRoot: ptr.To(false)}, uid: ptr.To[int64](0)},
		{name: "image uid 0 fails", containerSC: nonRoot, uid: ptr.To[int64](0), wantErr: asRoot},
		{name: "pod-level runAsNonRoot applies to the container", podSC: &v1.PodSecurityContext{RunAsNonRoot: ptr.To(true)}, uid: ptr.To[int64](0), wantErr: asRoot},
		{name: "image with a non-numeric user fails", containerSC: nonRoot, username: "test", wantErr: sprintf(nonNumber, "test")},
		{name: "image user named root fails as non-numeric", containerSC: nonRoot, username: "root", wantErr: sprintf(nonNumber, "root")},
		{name: "image user named 0 without a uid fails as non-numeric", containerSC: nonRoot, username: "0", wantErr: sprintf(nonNumber, "0")},
		{name: "image user with a group fails as non-numeric", containerSC: nonRoot, username: "1000:0", wantErr: sprintf(nonNumber, "1000:0")},
		{name: "image uid 0 wins over a harmless user name", containerSC: nonRoot, uid: ptr.To[int64](0), username: "nobody", wantErr: asRoot},
		{name: "non-root image uid passes", containerSC: nonRoot, uid: ptr.To[int64](1000)},
		{name: "image uid MaxInt32 passes", containerSC: nonRoot, uid: ptr.To[int64](math.MaxInt32)},
		{name: "image uid above MaxInt32 fails", containerSC: nonRoot, uid: ptr.To[int64](2147483648), wantErr: sprintf(invalid, int64(2147483648))},
		{name: "image uid 2^32 fails and is not truncated to 0", containerSC: nonRoot, uid: ptr.To[int64](1 << 32), wantErr: sprintf(invalid, int64(1<<32))},
		{name: "negative image uid fails", containerSC: nonRoot, uid: ptr.To[int64](-1000), wantErr: sprintf(invalid, int64(-1000))},
		{name: "image uid -1 fails", containerSC: nonRoot, uid: ptr.To[int64](-1), wantErr: sprintf(invalid, int64(-1))},
		{name: "image reporting no user counts as root", containerSC: nonRoot, wantErr: asRoot},
		{name: "runAsGroup 0 is never checked", containerSC: &v1.SecurityContext{RunAsNonRoot: ptr.To(true), RunAsGroup: ptr.To[int64](0)}, uid: ptr.To[int64](1000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := testPod(tc.podSC, tc.containerSC)
			err := security.VerifyRunAsNonRoot(pod, &pod.Spec.Containers[0], tc.uid, tc.username)
			if tc.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tc.wantErr)
			assert.ErrorIs(t, err, security.ErrRunAsNonRoot)
			var rerr *security.RunAsNonRootError
			require.ErrorAs(t, err, &rerr)
			assert.Equal(t, "bar_new(12345678)", rerr.Pod)
			assert.Equal(t, "foo", rerr.Container)
		})
	}
}

func TestVerifyRunAsNonRootNilInput(t *testing.T) {
	pod := testPod(nil, nil)
	err := security.VerifyRunAsNonRoot(nil, &pod.Spec.Containers[0], nil, "")
	require.ErrorIs(t, err, security.ErrInvalidInput)
	err = security.VerifyRunAsNonRoot(pod, nil, nil, "")
	require.ErrorIs(t, err, security.ErrInvalidInput)
	assert.False(t, errors.Is(err, security.ErrRunAsNonRoot))
}

func TestFormatPod(t *testing.T) {
	assert.Equal(t, "bar_new(12345678)", security.FormatPod(testPod(nil, nil)))
	assert.Equal(t, "<nil>", security.FormatPod(nil))
}
