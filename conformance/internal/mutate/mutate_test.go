package mutate

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
)

func testPod() *v1.Pod {
	return &v1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Labels: map[string]string{"app": "web"}, CreationTimestamp: metav1.Unix(100, 0)},
		Spec: v1.PodSpec{
			Containers: []v1.Container{{Name: "app", Image: "nginx", Ports: []v1.ContainerPort{{Name: "http", ContainerPort: 80}}}},
			Volumes:    []v1.Volume{{Name: "data", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}},
		},
		Status: v1.PodStatus{Phase: v1.PodRunning, PodIP: "10.0.0.1"},
	}
}

func TestObjectIsReplayedBySeed(t *testing.T) {
	a, b := testPod(), testPod()
	ca := New(rand.New(rand.NewPCG(7, 8))).Object(a, 5)
	cb := New(rand.New(rand.NewPCG(7, 8))).Object(b, 5)
	assert.Equal(t, ca, cb, "one seed, the same changes")
	assert.Equal(t, a, b, "one seed, the same object")
}

func TestObjectNeverChangesTypeMetaStatusOrTimestamps(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		pod := testPod()
		for _, c := range New(r).Object(pod, 3) {
			require.Regexp(t, `^(metadata|spec)\.`, c.Path, "draw %d", i)
		}
		require.Equal(t, testPod().Status, pod.Status)
		require.Equal(t, testPod().TypeMeta, pod.TypeMeta)
		require.Equal(t, testPod().CreationTimestamp, pod.CreationTimestamp)
	}
}

// indices matches the indices and keys of a field path.
var indices = regexp.MustCompile(`\[[^\]]*\]`)

func TestObjectReachesDeepLeavesOfTheType(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	paths := map[string]bool{}
	m := New(r)
	for range 20000 {
		for _, c := range m.Object(testPod(), 1) {
			paths[indices.ReplaceAllString(c.Path, "[*]")] = true
		}
	}
	assert.Greater(t, len(paths), 800, "distinct fields changed")
	assert.Greater(t, m.leafCount(reflect.TypeFor[v1.Pod](), 0), 800, "leaves of a pod")
	for _, p := range []string{
		"metadata.name",
		"metadata.labels[*]",
		"spec.containers[*].image",
		"spec.containers[*].ports[*].containerPort",
		"spec.containers[*].resources.limits[*]",
		"spec.containers[*].securityContext.privileged",
		"spec.initContainers[*].livenessProbe.httpGet.port",
		"spec.ephemeralContainers[*].targetContainerName",
		"spec.volumes[*].projected.sources[*].downwardAPI.items[*].fieldRef.fieldPath",
		"spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[*].matchExpressions[*].key",
		"spec.securityContext.sysctls[*].name",
	} {
		assert.True(t, paths[p], "%s never changed", p)
	}
}

func TestChangeLeafGivesAValueOfTheFieldsType(t *testing.T) {
	cases := []struct {
		name  string
		field any
		check func(t *testing.T, v any)
	}{
		{"an int32 is given another value that fits", ptr.To[int32](80), func(t *testing.T, v any) { assert.NotEqual(t, int32(80), *v.(*int32)) }},
		{"a boolean is flipped", ptr.To(true), func(t *testing.T, v any) { assert.False(t, *v.(*bool)) }},
		{"a quantity is parsed from a bad quantity", &resource.Quantity{}, func(t *testing.T, v any) {
			assert.Contains(t, badQuantities, v.(*resource.Quantity).String())
		}},
		{"an int-or-string is one of the bad ones", &intstr.IntOrString{}, func(t *testing.T, v any) {
			assert.Contains(t, badIntOrStrings, *v.(*intstr.IntOrString))
		}},
		{"a nil map is given an entry", &map[string]string{}, func(t *testing.T, v any) { assert.Len(t, *v.(*map[string]string), 1) }},
		{"a resource list is given a quantity", &v1.ResourceList{}, func(t *testing.T, v any) { assert.Len(t, *v.(*v1.ResourceList), 1) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := New(rand.New(rand.NewPCG(13, 14)))
			ch := m.changeLeaf(reflect.ValueOf(c.field).Elem(), field.NewPath("f"))
			assert.True(t, strings.HasPrefix(ch.Path, "f"), ch.String())
			c.check(t, c.field)
		})
	}
}

func TestFieldsOfFollowsJSON(t *testing.T) {
	names := func(t reflect.Type) []string {
		var out []string
		for _, f := range fieldsOf(t) {
			out = append(out, f.name)
		}
		return out
	}
	assert.Equal(t, []string{"metadata", "spec"}, names(reflect.TypeFor[v1.Pod]()), "TypeMeta and status are left out")
	assert.Contains(t, names(reflect.TypeFor[v1.EphemeralContainer]()), "name", "an inline struct's fields are the object's")
	assert.Contains(t, names(reflect.TypeFor[v1.EphemeralContainer]()), "targetContainerName")
	assert.NotContains(t, names(reflect.TypeFor[metav1.ObjectMeta]()), "creationTimestamp")
}

func TestDuplicatedEntriesShareNothingWithTheOriginal(t *testing.T) {
	pod := testPod()
	v := reflect.ValueOf(&pod.Spec.Containers).Elem()
	v.Set(reflect.Append(v, deepCopy(v.Index(0))))
	pod.Spec.Containers[1].Ports[0].Name = "changed"
	assert.Equal(t, "http", pod.Spec.Containers[0].Ports[0].Name)
}

func TestSkipKeepsAWorkloadsTemplate(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for range 500 {
		d := &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](1), Template: v1.PodTemplateSpec{Spec: testPod().Spec}}}
		m := New(r)
		m.Skip = func(p *field.Path) bool { return p.String() == "spec.template" }
		for _, c := range m.Object(d, 2) {
			require.False(t, strings.HasPrefix(c.Path, "spec.template"), c.String())
		}
		require.Equal(t, testPod().Spec, d.Spec.Template.Spec)
	}
}

func TestPodCombinationKeepsAContainerToChange(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for range 1000 {
		pod := testPod()
		pod.Spec.Containers = nil
		c := New(r).PodCombination(pod)
		require.Regexp(t, `^spec\.`, c.Path)
		require.True(t, strings.HasPrefix(c.What, "("), c.String())
	}
}
