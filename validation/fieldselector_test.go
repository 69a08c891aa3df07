package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// volEnvSelectorCase is an env var's fieldRef or resourceFieldRef (one of them) and the errors it
// gets at spec.containers[0].env[0].valueFrom.
type volEnvSelectorCase struct {
	name             string
	fieldRef         *v1.ObjectFieldSelector
	resourceFieldRef *v1.ResourceFieldSelector
	want             []string
}

const volEnvPath = "spec.containers[0].env[0].valueFrom"

func volFieldRef(version, fieldPath string) *v1.ObjectFieldSelector {
	return &v1.ObjectFieldSelector{APIVersion: version, FieldPath: fieldPath}
}

func volResourceRef(res, divisor string) *v1.ResourceFieldSelector {
	ref := &v1.ResourceFieldSelector{Resource: res}
	if divisor != "" {
		ref.Divisor = resource.MustParse(divisor)
	}
	return ref
}

var envSelectorCases = []volEnvSelectorCase{
	{name: "a field env vars may read passes", fieldRef: volFieldRef("v1", "status.podIPs")},
	{name: "spec.host, an old name of spec.nodeName, passes", fieldRef: volFieldRef("v1", "spec.host")},
	{name: "a label by key passes for an env var", fieldRef: volFieldRef("v1", "metadata.labels['app']")},
	{name: "a field selector without an API version is refused and its path not checked", fieldRef: volFieldRef("", "bogus"),
		want: []string{volEnvPath + ".fieldRef.apiVersion: Required value"}},
	{name: "a field selector without a path is refused", fieldRef: volFieldRef("v1", ""),
		want: []string{volEnvPath + ".fieldRef.fieldPath: Required value"}},
	{name: "a field selector of another API version is refused", fieldRef: volFieldRef("v2", "metadata.name"),
		want: []string{volEnvPath + `.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2`}},
	{name: "a field the pod's v1 labels do not know is refused", fieldRef: volFieldRef("v1", "spec.containers"),
		want: []string{volEnvPath + `.fieldRef.fieldPath: Invalid value: "spec.containers": error converting fieldPath: field label not supported: spec.containers`}},
	{name: "a subscript of a field other than labels and annotations is refused", fieldRef: volFieldRef("v1", "spec.nodeName['x']"),
		want: []string{volEnvPath + `.fieldRef.fieldPath: Invalid value: "spec.nodeName['x']": error converting fieldPath: field label does not support subscript: spec.nodeName['x']`}},
	{name: "a subscript without a field is not a subscript", fieldRef: volFieldRef("v1", "['a']"),
		want: []string{volEnvPath + `.fieldRef.fieldPath: Invalid value: "['a']": error converting fieldPath: field label not supported: ['a']`}},
	{name: "a known field env vars may not read is refused", fieldRef: volFieldRef("v1", "metadata.labels"),
		want: []string{volEnvPath + `.fieldRef.fieldPath: Unsupported value: "metadata.labels": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"`}},
	{name: "an annotation key is checked lowercased", fieldRef: volFieldRef("v1", "metadata.annotations['Bad Key']"),
		want: []string{volEnvPath + `.fieldRef: Invalid value: "bad key": ` + volQualifiedNameMsg}},
	{name: "a label key is checked as written", fieldRef: volFieldRef("v1", "metadata.labels['Bad Key']"),
		want: []string{volEnvPath + `.fieldRef: Invalid value: "Bad Key": ` + volQualifiedNameMsg}},

	{name: "a container's cpu limit passes", resourceFieldRef: volResourceRef("limits.cpu", "1m")},
	{name: "a hugepages request passes", resourceFieldRef: volResourceRef("requests.hugepages-2Mi", "1Mi")},
	{name: "a resource selector without a resource is refused", resourceFieldRef: volResourceRef("", ""),
		want: []string{volEnvPath + ".resourceFieldRef.resource: Required value"}},
	{name: "an unknown resource is refused and its divisor not checked", resourceFieldRef: volResourceRef("limits.gpu", "3"),
		want: []string{volEnvPath + `.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"`}},
	{name: "a cpu divisor other than 1m and 1 is refused", resourceFieldRef: volResourceRef("requests.cpu", "1k"),
		want: []string{volEnvPath + `.resourceFieldRef.divisor: Invalid value: "requests.cpu": only divisor's values 1m and 1 are supported with the cpu resource`}},
	{name: "a memory divisor that is not a byte unit is refused", resourceFieldRef: volResourceRef("limits.memory", "1m"),
		want: []string{volEnvPath + `.resourceFieldRef.divisor: Invalid value: "limits.memory": only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource`}},
	{name: "an ephemeral storage divisor that is not a byte unit is refused", resourceFieldRef: volResourceRef("limits.ephemeral-storage", "2"),
		want: []string{volEnvPath + `.resourceFieldRef.divisor: Invalid value: "limits.ephemeral-storage": only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the local ephemeral storage resource`}},
	{name: "a hugepages divisor that is not a byte unit is refused", resourceFieldRef: volResourceRef("limits.hugepages-1Gi", "1500m"),
		want: []string{volEnvPath + `.resourceFieldRef.divisor: Invalid value: "limits.hugepages-1Gi": only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the hugepages resource`}},
}

func TestValidateEnvFieldSelectors(t *testing.T) {
	path := field.NewPath("spec", "containers").Index(0).Child("env").Index(0).Child("valueFrom")
	for _, tc := range envSelectorCases {
		t.Run(tc.name, func(t *testing.T) {
			var errs field.ErrorList
			if tc.fieldRef != nil {
				errs = validateObjectFieldSelector(tc.fieldRef, &validEnvDownwardAPIFieldPaths, path.Child("fieldRef"))
			} else {
				errs = validateContainerResourceFieldSelector(tc.resourceFieldRef, &validContainerResourceFieldPaths,
					&validContainerResourceFieldPathPrefixes, path.Child("resourceFieldRef"), false)
			}
			assert.Equal(t, tc.want, volTexts(errs))
		})
	}
}

func TestValidateVolumeResourceFieldSelectorNeedsAContainer(t *testing.T) {
	ref := volResourceRef("limits.bogus", "1k")
	errs := validateContainerResourceFieldSelector(ref, &validContainerResourceFieldPaths, &validContainerResourceFieldPathPrefixes,
		field.NewPath("resourceFieldRef"), true)
	assert.Equal(t, []string{"resourceFieldRef.containerName: Required value"}, volTexts(errs),
		"the resource is not checked when the container is missing")
	ref.ContainerName = "c"
	errs = validateContainerResourceFieldSelector(ref, &validContainerResourceFieldPaths, nil, field.NewPath("resourceFieldRef"), true)
	assert.Equal(t, []string{`resourceFieldRef.resource: Unsupported value: "limits.bogus": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"`},
		volTexts(errs), "without prefixes, only the listed resources pass")
}
