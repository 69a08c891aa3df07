package conformance

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestCompareValidation(t *testing.T) {
	image := field.Required(field.NewPath("spec", "containers").Index(0).Child("image"), "")
	name := field.Invalid(field.NewPath("metadata", "name"), "A", "a lowercase RFC 1123 subdomain")
	nameOther := field.Invalid(field.NewPath("metadata", "name"), "A", "another detail")
	ns := field.Required(field.NewPath("metadata", "namespace"), "")
	cases := []struct {
		name           string
		api, podconfig field.ErrorList
		want           *ValidationMismatch
		groups         []string
	}{
		{name: "both accepting is no mismatch"},
		{name: "the same errors in the same order is no mismatch", api: field.ErrorList{name, image}, podconfig: field.ErrorList{name, image}},
		{
			name: "an error only the API server gives is missing",
			api:  field.ErrorList{name, image}, podconfig: field.ErrorList{name},
			want:   &ValidationMismatch{Missing: field.ErrorList{image}},
			groups: []string{"spec.containers[*].image (create): only the API server: FieldValueRequired"},
		},
		{
			name: "an error only podconfig gives is extra",
			api:  nil, podconfig: field.ErrorList{ns},
			want:   &ValidationMismatch{Extra: field.ErrorList{ns}},
			groups: []string{"metadata.namespace (create): only podconfig: FieldValueRequired"},
		},
		{
			name: "errors on one field that read differently are changed",
			api:  field.ErrorList{name}, podconfig: field.ErrorList{nameOther},
			want:   &ValidationMismatch{Changed: [][2]*field.Error{{name, nameOther}}},
			groups: []string{"metadata.name (create): both, read differently: FieldValueInvalid"},
		},
		{
			name: "the same errors in another order differ in order only",
			api:  field.ErrorList{name, image}, podconfig: field.ErrorList{image, name},
			want:   &ValidationMismatch{OrderOnly: true},
			groups: []string{"metadata.name (create): same errors, another order"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := CompareValidation(CheckCreate, c.api, c.podconfig)
			if c.want == nil {
				assert.Nil(t, got)
				return
			}
			c.want.Check, c.want.APIServer, c.want.Podconfig = CheckCreate, c.api, c.podconfig
			assert.Equal(t, c.want, got)
			assert.Equal(t, c.groups, got.Groups())
		})
	}
}

func TestNormaliseFieldPath(t *testing.T) {
	cases := map[string]string{
		"spec.containers[0].env[12].name":             "spec.containers[*].env[*].name",
		"metadata.labels[app.kubernetes.io/name]":     "metadata.labels[*]",
		"spec.containers[1].resources.limits[memory]": "spec.containers[*].resources.limits[*]",
		"":               "<no field>",
		"spec.volumes[3": "spec.volumes[3",
	}
	for in, want := range cases {
		assert.Equal(t, want, NormaliseFieldPath(in), in)
	}
}

func TestTrimmedYAMLShowsWhereThePathPoints(t *testing.T) {
	obj := []byte(`{"metadata":{"name":"web"},"spec":{"containers":[{"name":"a","image":""},{"name":"b","image":"x"}]}}`)
	cases := []struct {
		name, path, want, at string
	}{
		{"a scalar shows the object holding it", "spec.containers[1].image", "image: x\nname: b\n", "spec.containers[1]"},
		{"a missing field shows the deepest part that exists", "spec.containers[0].securityContext.runAsUser", "image: \"\"\nname: a\n", "spec.containers[0]"},
		{"an index past the end shows the list", "spec.containers[5].name", "- image: \"\"\n  name: a\n- image: x\n  name: b\n", "spec.containers"},
		{"a metadata field shows the metadata", "metadata.name", "name: web\n", "metadata"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, TrimmedYAML(obj, c.path, 30))
			assert.Equal(t, c.at, describeAt(obj, c.path))
		})
	}
}

func TestMapOrderExplainsOnlyTheOrderOfAMapsEntries(t *testing.T) {
	req := field.NewPath("spec", "resources", "requests")
	cpu := field.Invalid(req.Key("cpu"), "500m", "must be greater than or equal to aggregate container requests of 1")
	mem := field.Invalid(req.Key("memory"), "1Mi", "must be greater than or equal to aggregate container requests of 2Mi")
	labelKey := field.Invalid(field.NewPath("metadata", "labels"), "a b", "name part must consist of alphanumeric characters")
	labelValue := field.Invalid(field.NewPath("metadata", "labels"), "x y", "a valid label must be an empty string")
	image := field.Required(field.NewPath("spec", "containers").Index(0).Child("image"), "")
	ctrResources := field.NewPath("spec", "containers").Index(1).Child("resources")
	limitsRequired := field.Required(ctrResources.Child("limits"), "Limit must be set for non overcommitable resources")
	requestKey := field.Invalid(ctrResources.Child("requests").Key("Example.COM/x"), "Example.COM/x", "doesn't follow extended resource name standard")
	image1 := field.Required(field.NewPath("spec", "containers").Index(1).Child("image"), "")
	cases := []struct {
		name           string
		api, podconfig field.ErrorList
		want           string
	}{
		{"two entries of a resource list in another order are map-order", field.ErrorList{mem, cpu}, field.ErrorList{cpu, mem}, "map-order"},
		{"a refused limits list among the requests' entries in another order is map-order", field.ErrorList{limitsRequired, requestKey}, field.ErrorList{requestKey, limitsRequired}, "map-order"},
		{"two errors on the labels in another order are map-order", field.ErrorList{image, labelValue, labelKey}, field.ErrorList{image, labelKey, labelValue}, "map-order"},
		{"two entries of a list in another order are not", field.ErrorList{image1, image}, field.ErrorList{image, image1}, ""},
		{"errors on two fields in another order are not", field.ErrorList{image, cpu}, field.ErrorList{cpu, image}, ""},
		{"a missing entry is not", field.ErrorList{mem, cpu}, field.ErrorList{cpu}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, ExplainValidation(CompareValidation(CheckCreate, c.api, c.podconfig)))
		})
	}
}
