package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// volCase is a pod's volumes and the errors the API server gives them, as field.Error prints them.
type volCase struct {
	name string
	// podName is the pod's metadata.name; "" as in a template.
	podName string
	volumes []v1.Volume
	want    []string
}

// volRunCases checks each case's volumes with validateVolumes.
func volRunCases(t *testing.T, cases []volCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := validateVolumes(tc.volumes, &metav1.ObjectMeta{Name: tc.podName}, field.NewPath("spec", "volumes"))
			assert.Equal(t, tc.want, volTexts(errs))
		})
	}
}

// volTexts returns the errors' texts, nil for none.
func volTexts(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// vol returns the volume of that name and source.
func vol(name string, src v1.VolumeSource) v1.Volume {
	return v1.Volume{Name: name, VolumeSource: src}
}

// volEmptyDir is the simplest valid source.
func volEmptyDir() v1.VolumeSource {
	return v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}
}

// The apimachinery messages the cases expect.
const (
	volDNSLabelMsg      = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	volDNSSubdomainMsg  = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
	volQualifiedNameMsg = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	volUserMsg          = "must be between 0 and 2147483647, inclusive"
)

var volumeCases = []volCase{
	{
		name:    "valid volumes of distinct names pass",
		volumes: []v1.Volume{vol("a", volEmptyDir()), vol("b", volEmptyDir())},
	},
	{
		name:    "a volume without a name is refused after its source's errors",
		volumes: []v1.Volume{vol("", v1.VolumeSource{HostPath: &v1.HostPathVolumeSource{}})},
		want: []string{
			"spec.volumes[0].hostPath.path: Required value",
			"spec.volumes[0].name: Required value",
		},
	},
	{
		name:    "a volume name that is not a DNS label is refused",
		volumes: []v1.Volume{vol("Data_1", volEmptyDir())},
		want:    []string{`spec.volumes[0].name: Invalid value: "Data_1": ` + volDNSLabelMsg},
	},
	{
		name:    "a volume name longer than 63 bytes is refused",
		volumes: []v1.Volume{vol("a234567890123456789012345678901234567890123456789012345678901234", volEmptyDir())},
		want:    []string{`spec.volumes[0].name: Invalid value: "a234567890123456789012345678901234567890123456789012345678901234": must be no more than 63 characters`},
	},
	{
		name:    "a second volume of a name is a duplicate",
		volumes: []v1.Volume{vol("a", volEmptyDir()), vol("a", volEmptyDir())},
		want:    []string{`spec.volumes[1].name: Duplicate value: "a"`},
	},
	{
		name: "an invalid volume does not make a later namesake a duplicate",
		volumes: []v1.Volume{
			vol("a", v1.VolumeSource{HostPath: &v1.HostPathVolumeSource{}}),
			vol("a", volEmptyDir()),
		},
		want: []string{"spec.volumes[0].hostPath.path: Required value"},
	},
	{
		name:    "a volume without a source is refused",
		volumes: []v1.Volume{vol("a", v1.VolumeSource{})},
		want:    []string{"spec.volumes[0]: Required value: must specify a volume type"},
	},
	{
		name: "each source after the first is refused and only the first is validated",
		volumes: []v1.Volume{vol("a", v1.VolumeSource{
			HostPath:  &v1.HostPathVolumeSource{},
			Secret:    &v1.SecretVolumeSource{},
			ConfigMap: &v1.ConfigMapVolumeSource{},
		})},
		want: []string{
			"spec.volumes[0].hostPath.path: Required value",
			"spec.volumes[0].secret: Forbidden: may not specify more than 1 volume type",
			"spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type",
		},
	},
	{
		name: "a second cephfs, downwardAPI or gcePersistentDisk source is named as the API server spells it",
		volumes: []v1.Volume{vol("a", v1.VolumeSource{
			EmptyDir:          &v1.EmptyDirVolumeSource{},
			GCEPersistentDisk: &v1.GCEPersistentDiskVolumeSource{},
			CephFS:            &v1.CephFSVolumeSource{},
			DownwardAPI:       &v1.DownwardAPIVolumeSource{},
		})},
		want: []string{
			"spec.volumes[0].gcePersistentDisk: Forbidden: may not specify more than 1 volume type",
			"spec.volumes[0].cephFS: Forbidden: may not specify more than 1 volume type",
			"spec.volumes[0].downwarAPI: Forbidden: may not specify more than 1 volume type",
		},
	},
	{
		name:    "a claim of the pod's own ephemeral volume is refused",
		podName: "web",
		volumes: []v1.Volume{
			vol("scratch", volEphemeral()),
			vol("data", v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "web-scratch"}}),
		},
		want: []string{`spec.volumes[1].persistentVolumeClaim.claimName: Invalid value: "web-scratch": must not reference a PVC that gets created for an ephemeral volume`},
	},
	{
		name: "a claim named like an ephemeral volume's PVC is allowed in a template without a name",
		volumes: []v1.Volume{
			vol("scratch", volEphemeral()),
			vol("data", v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "-scratch"}}),
		},
	},
}

func TestValidateVolumes(t *testing.T) {
	volRunCases(t, volumeCases)
}

func TestValidateVolumesReturnsOnlyValidVolumes(t *testing.T) {
	vols, errs := validateVolumes([]v1.Volume{
		vol("good", volEmptyDir()),
		vol("bad", v1.VolumeSource{HostPath: &v1.HostPathVolumeSource{}}),
		vol("good", volEmptyDir()),
	}, &metav1.ObjectMeta{}, field.NewPath("spec", "volumes"))
	require.Len(t, errs, 2)
	assert.Equal(t, map[string]v1.VolumeSource{"good": volEmptyDir()}, vols)
}

// volSpecCase is a pod spec and the errors validateFileKeyRefVolumes gives it.
type volSpecCase struct {
	name string
	spec v1.PodSpec
	want []string
}

// volFileKeyEnv is an env var read from a file of the named volume.
func volFileKeyEnv(volume string) []v1.EnvVar {
	return []v1.EnvVar{{Name: "TOKEN", ValueFrom: &v1.EnvVarSource{FileKeyRef: &v1.FileKeySelector{VolumeName: volume, Path: "env", Key: "TOKEN"}}}}
}

var fileKeyRefCases = []volSpecCase{
	{
		name: "a fileKeyRef of an emptyDir passes",
		spec: v1.PodSpec{
			Volumes:    []v1.Volume{vol("cfg", volEmptyDir())},
			Containers: []v1.Container{{Name: "c", Env: volFileKeyEnv("cfg")}},
		},
	},
	{
		name: "a fileKeyRef of a missing volume is not found",
		spec: v1.PodSpec{Containers: []v1.Container{{Name: "c", Env: volFileKeyEnv("cfg")}}},
		want: []string{`spec.containers[0].env[0].valueFrom.fileKeyRef.volumeName: Not found: "cfg"`},
	},
	{
		name: "a fileKeyRef of a volume that is not an emptyDir is refused",
		spec: v1.PodSpec{
			Volumes:    []v1.Volume{vol("cfg", v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{}})},
			Containers: []v1.Container{{Name: "c", Env: volFileKeyEnv("cfg")}},
		},
		want: []string{`spec.containers[0].env[0].valueFrom.fileKeyRef.volumeName: Invalid value: "cfg": referenced volume must be of type emptyDir`},
	},
	{
		name: "a fileKeyRef names an invalid volume without error: the last volume of its name counts",
		spec: v1.PodSpec{
			Volumes: []v1.Volume{
				vol("cfg", v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{}}),
				vol("cfg", v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}, HostPath: &v1.HostPathVolumeSource{}}),
			},
			Containers: []v1.Container{{Name: "c", Env: volFileKeyEnv("cfg")}},
		},
	},
	{
		name: "init containers are checked before containers and ephemeral containers after",
		spec: v1.PodSpec{
			Containers:     []v1.Container{{Name: "c", Env: volFileKeyEnv("b")}},
			InitContainers: []v1.Container{{Name: "i", Env: volFileKeyEnv("a")}},
			EphemeralContainers: []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon{
				Name: "d", Env: append([]v1.EnvVar{{Name: "X", Value: "x"}}, volFileKeyEnv("c")...)}}},
		},
		want: []string{
			`spec.initContainers[0].env[0].valueFrom.fileKeyRef.volumeName: Not found: "a"`,
			`spec.containers[0].env[0].valueFrom.fileKeyRef.volumeName: Not found: "b"`,
			`spec.ephemeralContainers[0].env[1].valueFrom.fileKeyRef.volumeName: Not found: "c"`,
		},
	},
}

func TestValidateFileKeyRefVolumes(t *testing.T) {
	for _, tc := range fileKeyRefCases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, volTexts(validateFileKeyRefVolumes(&tc.spec, field.NewPath("spec"))))
		})
	}
}

// volEphemeral is a valid ephemeral volume source.
func volEphemeral() v1.VolumeSource {
	return v1.VolumeSource{Ephemeral: &v1.EphemeralVolumeSource{VolumeClaimTemplate: volClaimTemplate()}}
}

// volClaimTemplate is a valid claim template: one access mode and a storage request.
func volClaimTemplate() *v1.PersistentVolumeClaimTemplate {
	return &v1.PersistentVolumeClaimTemplate{Spec: volClaimSpec()}
}
