package clientgo_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/clientgo"
	"github.com/podconfig/podconfig/configgen"
)

// capture is an EventRecorder that keeps what it is given.
type capture struct {
	record.EventRecorder
	refs                  []*v1.ObjectReference
	types, reasons, texts []string
}

func (c *capture) Event(obj runtime.Object, eventtype, reason, message string) {
	c.refs = append(c.refs, obj.(*v1.ObjectReference))
	c.types = append(c.types, eventtype)
	c.reasons = append(c.reasons, reason)
	c.texts = append(c.texts, message)
}

func eventPod() *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "cart-0", UID: "u-1"},
		Spec: v1.PodSpec{
			EnableServiceLinks: ptr.To(false),
			InitContainers:     []v1.Container{{Name: "setup"}},
			Containers: []v1.Container{{Name: "cart", Env: []v1.EnvVar{
				{Name: "A", ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{
					LocalObjectReference: v1.LocalObjectReference{Name: "absent"}, Key: "k", Optional: ptr.To(true)}}},
			}}},
			EphemeralContainers: []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "debug"}}},
		},
	}
}

// Warnings become Warning events on the container, with kubelet's field path.
func TestRecorderWarnings(t *testing.T) {
	pod := eventPod()
	c := &capture{}
	r := clientgo.Recorder{Events: c}
	r.Warnings(pod, []configgen.Warning{
		{Reason: configgen.ReasonOptionalConfigMapNotFound, Message: "m1", Container: "cart"},
		{Reason: configgen.ReasonHostnameTruncated, Message: "m2", Container: "setup"},
		{Reason: configgen.ReasonPodIPNotKnown, Message: "m3", Container: "debug"},
		{Reason: configgen.ReasonDNSConfigForming, Message: "m4"},
	})
	assert.Equal(t, []string{"Warning", "Warning", "Warning", "Warning"}, c.types)
	assert.Equal(t, []string{"OptionalConfigMapNotFound", "HostnameTruncated", "PodIPNotKnown", "DNSConfigForming"}, c.reasons)
	assert.Equal(t, []string{"m1", "m2", "m3", "m4"}, c.texts)
	var paths []string
	for _, ref := range c.refs {
		assert.Equal(t, "Pod", ref.Kind)
		assert.Equal(t, "cart-0", ref.Name)
		assert.Equal(t, "shop", ref.Namespace)
		assert.EqualValues(t, "u-1", ref.UID)
		paths = append(paths, ref.FieldPath)
	}
	assert.Equal(t, []string{"spec.containers{cart}", "spec.initContainers{setup}", "spec.ephemeralContainers{debug}", ""}, paths)

	c2 := &capture{}
	clientgo.Recorder{Events: c2}.OnWarning(pod, &pod.Spec.Containers[0], configgen.Warning{Reason: "R", Message: "m"})
	assert.Equal(t, "spec.containers{cart}", c2.refs[0].FieldPath, "OnWarning names the container it is given")
}

// Errors are recorded with the reasons and texts kubelet records.
func TestRecorderError(t *testing.T) {
	pod := eventPod()
	tests := []struct {
		name                string
		err                 error
		reason, text, field string
	}{
		{
			name:   "a container's config error is kubelet's Failed event",
			err:    &configgen.Error{Reason: configgen.ReasonCreateContainerConfigError, Container: "cart", Err: errors.New("boom")},
			reason: "Failed", text: "Error: boom", field: "spec.containers{cart}",
		},
		{
			name:   "a sandbox error is FailedCreatePodSandBox",
			err:    &configgen.Error{Reason: configgen.ReasonFailedCreatePodSandBox, Err: errors.New("fqdn too long")},
			reason: "FailedCreatePodSandBox", text: "Failed to create pod sandbox: fqdn too long",
		},
		{
			name:   "an environment error keeps its reason",
			err:    &configgen.Error{Reason: configgen.ReasonMandatorySecretNotFound, Container: "setup", Err: errors.New(`secrets "db" not found`)},
			reason: "MandatorySecretNotFound", text: `secrets "db" not found`, field: "spec.initContainers{setup}",
		},
		{name: "any other error is Failed", err: errors.New("x"), reason: "Failed", text: "Error: x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &capture{}
			clientgo.Recorder{Events: c}.Error(pod, tt.err)
			require.Len(t, c.reasons, 1)
			assert.Equal(t, "Warning", c.types[0])
			assert.Equal(t, tt.reason, c.reasons[0])
			assert.Equal(t, tt.text, c.texts[0])
			assert.Equal(t, tt.field, c.refs[0].FieldPath)
		})
	}
	c := &capture{}
	clientgo.Recorder{Events: c}.Error(pod, nil)
	assert.Empty(t, c.reasons)
}

// Through a real broadcaster, the events reach the API (here the fake clientset).
func TestRecorderBroadcaster(t *testing.T) {
	client := fake.NewSimpleClientset()
	broadcaster := record.NewBroadcaster()
	defer broadcaster.Shutdown()
	broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: client.CoreV1().Events("")})
	r := clientgo.Recorder{Events: broadcaster.NewRecorder(scheme.Scheme, v1.EventSource{Component: "vk-provider"})}

	pod := eventPod()
	_, warnings, err := configgen.MakePodEnvironmentVariables(context.Background(), configgen.PodEnvInput{
		Pod: pod, ConfigMaps: clientgo.FromClientset(client, "vk-node").ConfigMaps,
	})
	require.NoError(t, err)
	r.Warnings(pod, warnings)
	assert.Eventually(t, func() bool {
		list, err := client.CoreV1().Events("shop").List(context.Background(), metav1.ListOptions{})
		if err != nil || len(list.Items) != 1 {
			return false
		}
		e := list.Items[0]
		return e.Reason == "OptionalConfigMapNotFound" && e.Type == "Warning" && e.InvolvedObject.FieldPath == "spec.containers{cart}"
	}, 10*time.Second, 10*time.Millisecond)
}
