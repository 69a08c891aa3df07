package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
)

// ctrCase is one rule: a change to the minimal pod and the errors, as err.Error() gives them and
// in order, that the API server gives the changed pod on create.
type ctrCase struct {
	name   string
	mutate func(pod *v1.Pod)
	want   []string
}

// ctrPod is the minimal pod the API server accepts as created (after defaulting): one container,
// an emptyDir "config", a persistentVolumeClaim "data" and a resource claim "gpu".
func ctrPod() *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: v1.PodSpec{
			Containers:                    []v1.Container{ctrContainer("app")},
			RestartPolicy:                 v1.RestartPolicyAlways,
			DNSPolicy:                     v1.DNSClusterFirst,
			TerminationGracePeriodSeconds: ptr.To[int64](30),
			SchedulerName:                 v1.DefaultSchedulerName,
			Volumes: []v1.Volume{
				{Name: "config", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
				{Name: "data", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}},
			},
			ResourceClaims: []v1.PodResourceClaim{{Name: "gpu", ResourceClaimName: ptr.To("gpu-claim")}},
		},
	}
}

// ctrContainer is a defaulted container named name.
func ctrContainer(name string) v1.Container {
	return v1.Container{
		Name:                     name,
		Image:                    "nginx:1.27",
		TerminationMessagePath:   v1.TerminationMessagePathDefault,
		TerminationMessagePolicy: v1.TerminationMessageReadFile,
		ImagePullPolicy:          v1.PullIfNotPresent,
	}
}

// ctrEphemeral is a defaulted ephemeral container named name.
func ctrEphemeral(name string) v1.EphemeralContainer {
	return v1.EphemeralContainer{EphemeralContainerCommon: v1.EphemeralContainerCommon(ctrContainer(name))}
}

// ctrErrors is what ValidatePodCreate gives pod, as texts.
func ctrErrors(pod *v1.Pod) []string {
	return ctrTexts(ValidatePodCreate(pod))
}

// ctrTexts is each error's err.Error().
func ctrTexts(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// ctrRun checks each case against ValidatePodCreate on the changed minimal pod.
func ctrRun(t *testing.T, cases []ctrCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pod := ctrPod()
			c.mutate(pod)
			assert.Equal(t, c.want, ctrErrors(pod))
		})
	}
}

// ctrFirst changes the pod's first container.
func ctrFirst(change func(c *v1.Container)) func(*v1.Pod) {
	return func(pod *v1.Pod) { change(&pod.Spec.Containers[0]) }
}

// TestContainerMinimalPodIsValid keeps the cases honest: the unchanged pod has no error.
func TestContainerMinimalPodIsValid(t *testing.T) {
	assert.Empty(t, ctrErrors(ctrPod()))
}

// ctrSpecPath is the path of a pod's spec.
func ctrSpecPath() *field.Path { return field.NewPath("spec") }
