package validation

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

func volDownwardAPI(d v1.DownwardAPIVolumeSource) v1.VolumeSource {
	return v1.VolumeSource{DownwardAPI: &d}
}

func volProjected(sources ...v1.VolumeProjection) v1.VolumeSource {
	return v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{Sources: sources}}
}

// volFieldFile is a downward API file of a pod field.
func volFieldFile(p, fieldPath string) v1.DownwardAPIVolumeFile {
	return v1.DownwardAPIVolumeFile{Path: p, FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: fieldPath}}
}

func volToken(p string, exp int64) *v1.ServiceAccountTokenProjection {
	return &v1.ServiceAccountTokenProjection{Path: p, ExpirationSeconds: &exp}
}

func volSecretItems(name string, paths ...string) *v1.SecretProjection {
	s := &v1.SecretProjection{LocalObjectReference: v1.LocalObjectReference{Name: name}}
	for _, p := range paths {
		s.Items = append(s.Items, v1.KeyToPath{Key: "k", Path: p})
	}
	return s
}

func volConfigMapItems(name string, paths ...string) *v1.ConfigMapProjection {
	cm := &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: name}}
	for _, p := range paths {
		cm.Items = append(cm.Items, v1.KeyToPath{Key: "k", Path: p})
	}
	return cm
}

var downwardAPIVolumeCases = []volCase{
	volOne("a downwardAPI volume of labels, annotations and a container's cpu passes", volDownwardAPI(v1.DownwardAPIVolumeSource{Items: []v1.DownwardAPIVolumeFile{
		volFieldFile("labels", "metadata.labels"),
		volFieldFile("owner", "metadata.annotations['Example.com/Owner']"),
		{Path: "cpu", ResourceFieldRef: &v1.ResourceFieldSelector{ContainerName: "c", Resource: "limits.cpu"}},
	}})),
	volOne("a downwardAPI file's errors are reported at the volume, without the item's index",
		volDownwardAPI(v1.DownwardAPIVolumeSource{Items: []v1.DownwardAPIVolumeFile{{}}}),
		"spec.volumes[0].downwardAPI.path: Required value",
		"spec.volumes[0].downwardAPI: Required value: one of fieldRef and resourceFieldRef is required"),
	volOne("a downwardAPI file with a field and a resource is refused after the field's errors",
		volDownwardAPI(v1.DownwardAPIVolumeSource{Items: []v1.DownwardAPIVolumeFile{{Path: "f",
			FieldRef:         &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "spec.nodeName"},
			ResourceFieldRef: &v1.ResourceFieldSelector{Resource: "limits.cpu"}}}}),
		`spec.volumes[0].downwardAPI.fieldRef.fieldPath: Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"`,
		`spec.volumes[0].downwardAPI: Invalid value: "resource": fieldRef and resourceFieldRef can not be specified simultaneously`),
	volOne("a downwardAPI resource file must name its container",
		volDownwardAPI(v1.DownwardAPIVolumeSource{Items: []v1.DownwardAPIVolumeFile{{Path: "f", ResourceFieldRef: &v1.ResourceFieldSelector{Resource: "limits.cpu"}}}}),
		"spec.volumes[0].downwardAPI.resourceFieldRef.containerName: Required value"),
	volOne("a downwardAPI volume's modes are bounded", volDownwardAPI(v1.DownwardAPIVolumeSource{DefaultMode: ptr.To[int32](-1),
		Items: []v1.DownwardAPIVolumeFile{{Path: "..f", FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}, Mode: ptr.To[int32](0o1000)}}}),
		"spec.volumes[0].downwardAPI.defaultMode: Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive",
		`spec.volumes[0].downwardAPI.path: Invalid value: "..f": must not start with '..'`,
		"spec.volumes[0].downwardAPI.mode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive"),
	volOne("a downwardAPI volume's user fields are dropped before validation",
		volDownwardAPI(v1.DownwardAPIVolumeSource{DefaultUser: ptr.To[int64](-1), Items: []v1.DownwardAPIVolumeFile{{Path: "n",
			FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}, User: ptr.To[int64](-1)}}})),
	volOne("beside a configMap, whose user fields are dropped instead, a downwardAPI volume's are checked",
		v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{}, DownwardAPI: &v1.DownwardAPIVolumeSource{DefaultUser: ptr.To[int64](-1),
			Items: []v1.DownwardAPIVolumeFile{{Path: "n", FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}, User: ptr.To[int64](1 << 31)}}}},
		"spec.volumes[0].downwardAPI.defaultUser: Invalid value: -1: "+volUserMsg,
		"spec.volumes[0].downwardAPI.user: Invalid value: 2147483648: "+volUserMsg,
		"spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type"),
}

var projectedVolumeCases = []volCase{
	volOne("a projected volume of a secret, a configMap, the downward API and a token passes", volProjected(
		v1.VolumeProjection{Secret: volSecretItems("s", "a")},
		v1.VolumeProjection{ConfigMap: volConfigMapItems("c", "b")},
		v1.VolumeProjection{DownwardAPI: &v1.DownwardAPIProjection{Items: []v1.DownwardAPIVolumeFile{volFieldFile("c", "metadata.uid")}}},
		v1.VolumeProjection{ServiceAccountToken: volToken("token", 3600)},
	)),
	volOne("an empty projected volume passes", volProjected()),
	volOne("a projected volume's default mode is bounded and its defaultUser dropped before validation",
		v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: ptr.To[int32](0o1000), DefaultUser: ptr.To[int64](-1)}},
		"spec.volumes[0].projected.defaultMode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive"),
	volOne("a projected secret or configMap needs a name", volProjected(
		v1.VolumeProjection{Secret: &v1.SecretProjection{}},
		v1.VolumeProjection{ConfigMap: &v1.ConfigMapProjection{Items: []v1.KeyToPath{{Key: "k", Path: "/p"}}}}),
		"spec.volumes[0].projected.sources[0].secret.name: Required value",
		"spec.volumes[0].projected.sources[1].configMap.name: Required value",
		`spec.volumes[0].projected.sources[1].configMap.items[0].path: Invalid value: "/p": must be a relative path`),
	volOne("a path written by an earlier source is refused at the volume, with the secret's or configMap's name as the value", volProjected(
		v1.VolumeProjection{Secret: volSecretItems("s", "a", "a")},
		v1.VolumeProjection{ConfigMap: volConfigMapItems("cm", "a")}),
		`spec.volumes[0].projected: Invalid value: "s": conflicting duplicate paths`,
		`spec.volumes[0].projected: Invalid value: "cm": conflicting duplicate paths`),
	volOne("a downward API path written by an earlier source is refused with the path as the value", volProjected(
		v1.VolumeProjection{ConfigMap: volConfigMapItems("cm", "a")},
		v1.VolumeProjection{DownwardAPI: &v1.DownwardAPIProjection{Items: []v1.DownwardAPIVolumeFile{volFieldFile("a", "metadata.name")}}}),
		`spec.volumes[0].projected: Invalid value: "a": conflicting duplicate paths`),
	volOne("a projected downwardAPI file's errors are reported at its source", volProjected(
		v1.VolumeProjection{DownwardAPI: &v1.DownwardAPIProjection{Items: []v1.DownwardAPIVolumeFile{volFieldFile("a", "status.phase")}}}),
		`spec.volumes[0].projected.sources[0].downwardAPI.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"`),
	volOne("a source with two kinds is refused after both are checked", volProjected(
		v1.VolumeProjection{Secret: volSecretItems("s"), ServiceAccountToken: volToken("", 3600)}),
		"spec.volumes[0].projected.path: Required value",
		"spec.volumes[0].projected.sources[0]: Forbidden: may not specify more than 1 volume type per source"),
	volOne("a token lifetime under 10 minutes is refused", volProjected(v1.VolumeProjection{ServiceAccountToken: volToken("t", 599)}),
		"spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes"),
	volOne("a token lifetime above 2^32 seconds is refused", volProjected(v1.VolumeProjection{ServiceAccountToken: volToken("t", 1<<32+1)}),
		"spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds"),
	volOne("a token without a lifetime is refused", volProjected(v1.VolumeProjection{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "t"}}),
		"spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds: Required value"),
	volOne("a token's path is checked and reported at the volume, and not against other paths", volProjected(
		v1.VolumeProjection{Secret: volSecretItems("s", "t")},
		v1.VolumeProjection{ServiceAccountToken: volToken("t", 3600)},
		v1.VolumeProjection{ServiceAccountToken: volToken("../t", 3600)}),
		`spec.volumes[0].projected.path: Invalid value: "../t": must not contain '..'`),
	volOne("the user fields of a source's first kind are dropped, those of a further kind are checked", volProjected(
		v1.VolumeProjection{
			Secret:              &v1.SecretProjection{LocalObjectReference: v1.LocalObjectReference{Name: "s"}, Items: []v1.KeyToPath{{Key: "k", Path: "p", User: ptr.To[int64](-1)}}},
			ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "t", ExpirationSeconds: ptr.To[int64](3600), User: ptr.To[int64](-2)},
		}),
		"spec.volumes[0].projected.sources[0].serviceAccountToken.user: Invalid value: -2: "+volUserMsg,
		"spec.volumes[0].projected.sources[0]: Forbidden: may not specify more than 1 volume type per source"),
	volOne("a configMap's items beside a secret in one source keep their user fields", volProjected(
		v1.VolumeProjection{
			Secret:    volSecretItems("s", "a"),
			ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "c"}, Items: []v1.KeyToPath{{Key: "k", Path: "b", User: ptr.To[int64](-1)}}},
		}),
		"spec.volumes[0].projected.sources[0].configMap.items[0].user: Invalid value: -1: "+volUserMsg,
		"spec.volumes[0].projected.sources[0]: Forbidden: may not specify more than 1 volume type per source"),
}

func TestValidateDownwardAPIVolumes(t *testing.T) {
	volRunCases(t, downwardAPIVolumeCases)
}

func TestValidateProjectedVolumes(t *testing.T) {
	volRunCases(t, projectedVolumeCases)
}
