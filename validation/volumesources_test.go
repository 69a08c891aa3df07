package validation

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"
)

// volOne is a case of one volume named "v".
func volOne(name string, src v1.VolumeSource, want ...string) volCase {
	return volCase{name: name, volumes: []v1.Volume{vol("v", src)}, want: want}
}

func volSecret(s v1.SecretVolumeSource) v1.VolumeSource { return v1.VolumeSource{Secret: &s} }

func volConfigMap(cm v1.ConfigMapVolumeSource) v1.VolumeSource {
	return v1.VolumeSource{ConfigMap: &cm}
}

func volHostPath(p string, typ *v1.HostPathType) v1.VolumeSource {
	return v1.VolumeSource{HostPath: &v1.HostPathVolumeSource{Path: p, Type: typ}}
}

var localSourceCases = []volCase{
	volOne("an emptyDir with a size limit passes", v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: v1.StorageMediumMemory, SizeLimit: ptr.To(resource.MustParse("1Gi"))}}),
	volOne("an emptyDir's negative size limit is refused", v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{SizeLimit: ptr.To(resource.MustParse("-1"))}},
		"spec.volumes[0].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity"),
	volOne("an emptyDir's medium is not checked", v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: "Tape"}}),
	volOne("an emptyDir's mode is dropped before validation (EmptyDirVolumeMode is off)", v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Mode: ptr.To[int32](-1)}}),

	volOne("a hostPath of a known type passes", volHostPath("/var/log", ptr.To(v1.HostPathDirectory))),
	volOne("a hostPath without a path is refused and its type not checked", volHostPath("", ptr.To[v1.HostPathType]("Dir")),
		"spec.volumes[0].hostPath.path: Required value"),
	volOne("a hostPath with a '..' element is refused", volHostPath("/a/../b", nil),
		`spec.volumes[0].hostPath.path: Invalid value: "/a/../b": must not contain '..'`),
	volOne("a hostPath may be relative and contain '..' inside an element", volHostPath("a/..b", nil)),
	volOne("a hostPath of an unknown type is refused", volHostPath("/a", ptr.To[v1.HostPathType]("Dir")),
		`spec.volumes[0].hostPath.type: Unsupported value: "Dir": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"`),

	volOne("a gitRepo without a repository is refused", v1.VolumeSource{GitRepo: &v1.GitRepoVolumeSource{}},
		"spec.volumes[0].gitRepo.repository: Required value"),
	volOne("a gitRepo's absolute directory with a '..' element is refused twice", v1.VolumeSource{GitRepo: &v1.GitRepoVolumeSource{Repository: "r", Directory: "/../x"}},
		`spec.volumes[0].gitRepo.directory: Invalid value: "/../x": must be a relative path`,
		`spec.volumes[0].gitRepo.directory: Invalid value: "/../x": must not contain '..'`),

	volOne("a secret volume with items passes", volSecret(v1.SecretVolumeSource{SecretName: "s", DefaultMode: ptr.To[int32](0o644),
		Items: []v1.KeyToPath{{Key: "k", Path: "dir/file", Mode: ptr.To[int32](0o400)}}})),
	volOne("a secret volume without a secret name is refused", volSecret(v1.SecretVolumeSource{}),
		"spec.volumes[0].secret.secretName: Required value"),
	volOne("a secret volume's default mode above 0777 is refused", volSecret(v1.SecretVolumeSource{SecretName: "s", DefaultMode: ptr.To[int32](0o1000)}),
		"spec.volumes[0].secret.defaultMode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive"),
	volOne("an item without a key or a path is refused", volSecret(v1.SecretVolumeSource{SecretName: "s", Items: []v1.KeyToPath{{}}}),
		"spec.volumes[0].secret.items[0].key: Required value",
		"spec.volumes[0].secret.items[0].path: Required value"),
	volOne("an item's absolute path is refused", volSecret(v1.SecretVolumeSource{SecretName: "s", Items: []v1.KeyToPath{{Key: "k", Path: "/etc/x"}}}),
		`spec.volumes[0].secret.items[0].path: Invalid value: "/etc/x": must be a relative path`),
	volOne("an item's path starting with '..' is refused", volSecret(v1.SecretVolumeSource{SecretName: "s", Items: []v1.KeyToPath{{Key: "k", Path: "..data"}}}),
		`spec.volumes[0].secret.items[0].path: Invalid value: "..data": must not start with '..'`),
	volOne("an item's path '../x' is refused once, as a '..' element", volSecret(v1.SecretVolumeSource{SecretName: "s", Items: []v1.KeyToPath{{Key: "k", Path: "../x"}}}),
		`spec.volumes[0].secret.items[0].path: Invalid value: "../x": must not contain '..'`),
	volOne("an item's path '..' is refused as an element and as a start", volSecret(v1.SecretVolumeSource{SecretName: "s", Items: []v1.KeyToPath{{Key: "k", Path: ".."}}}),
		`spec.volumes[0].secret.items[0].path: Invalid value: "..": must not contain '..'`,
		`spec.volumes[0].secret.items[0].path: Invalid value: "..": must not start with '..'`),
	volOne("an item's negative mode is refused", volSecret(v1.SecretVolumeSource{SecretName: "s", Items: []v1.KeyToPath{{Key: "k", Path: "p", Mode: ptr.To[int32](-1)}}}),
		"spec.volumes[0].secret.items[0].mode: Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive"),
	volOne("a secret volume's user fields are dropped before validation (AtomicWriteVolumeUserFields is off)",
		volSecret(v1.SecretVolumeSource{SecretName: "s", DefaultUser: ptr.To[int64](-1), Items: []v1.KeyToPath{{Key: "k", Path: "p", User: ptr.To[int64](-1)}}})),

	volOne("a configMap volume without a name is refused", volConfigMap(v1.ConfigMapVolumeSource{}),
		"spec.volumes[0].configMap.name: Required value"),
	volOne("a configMap volume's default mode and items are checked", volConfigMap(v1.ConfigMapVolumeSource{
		LocalObjectReference: v1.LocalObjectReference{Name: "c"}, DefaultMode: ptr.To[int32](-1), Items: []v1.KeyToPath{{Key: "k", Path: "a/../b"}}}),
		"spec.volumes[0].configMap.defaultMode: Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive",
		`spec.volumes[0].configMap.items[0].path: Invalid value: "a/../b": must not contain '..'`),
	volOne("a configMap volume's user fields are dropped before validation",
		volConfigMap(v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "c"}, DefaultUser: ptr.To[int64](-1)})),

	volOne("a persistentVolumeClaim without a claim name is refused", v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{}},
		"spec.volumes[0].persistentVolumeClaim.claimName: Required value"),

	volOne("a csi volume with a mixed-case driver passes", v1.VolumeSource{CSI: &v1.CSIVolumeSource{Driver: "CSI.Example.com"}}),
	volOne("a csi volume without a driver is refused", v1.VolumeSource{CSI: &v1.CSIVolumeSource{}},
		"spec.volumes[0].csi.driver: Required value"),
	volOne("a csi driver longer than 63 bytes is refused", v1.VolumeSource{CSI: &v1.CSIVolumeSource{Driver: "a234567890123456789012345678901234567890123456789012345678901234"}},
		"spec.volumes[0].csi.driver: Too long: may not be more than 63 bytes"),
	volOne("a csi driver that is not a DNS subdomain is refused", v1.VolumeSource{CSI: &v1.CSIVolumeSource{Driver: "csi_driver"}},
		`spec.volumes[0].csi.driver: Invalid value: "csi_driver": `+volDNSSubdomainMsg),
	volOne("a csi node publish secret without a name is refused", v1.VolumeSource{CSI: &v1.CSIVolumeSource{Driver: "d", NodePublishSecretRef: &v1.LocalObjectReference{}}},
		"spec.volumes[0].csi.nodePublishSecretRef.name: Required value"),
	volOne("a csi node publish secret's bad name is reported at csi.name", v1.VolumeSource{CSI: &v1.CSIVolumeSource{Driver: "d", NodePublishSecretRef: &v1.LocalObjectReference{Name: "S"}}},
		`spec.volumes[0].csi.name: Invalid value: "S": `+volDNSSubdomainMsg),

	volOne("an image volume passes", v1.VolumeSource{Image: &v1.ImageVolumeSource{Reference: "registry/tool:v1", PullPolicy: v1.PullIfNotPresent}}),
	volOne("an image volume without a reference or pull policy is refused", v1.VolumeSource{Image: &v1.ImageVolumeSource{}},
		"spec.volumes[0].image.reference: Required value",
		"spec.volumes[0].image.pullPolicy: Required value"),
	volOne("an image volume's unknown pull policy is refused", v1.VolumeSource{Image: &v1.ImageVolumeSource{Reference: "r", PullPolicy: "Sometimes"}},
		`spec.volumes[0].image.pullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"`),
}

func TestValidateLocalVolumeSources(t *testing.T) {
	volRunCases(t, localSourceCases)
}
