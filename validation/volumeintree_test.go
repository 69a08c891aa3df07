package validation

import (
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

func volISCSI(s v1.ISCSIVolumeSource) v1.VolumeSource { return v1.VolumeSource{ISCSI: &s} }

const volIQN = "iqn.2001-04.com.example:storage.disk1"

func volAzureDisk(kind v1.AzureDataDiskKind, uri string) v1.VolumeSource {
	return v1.VolumeSource{AzureDisk: &v1.AzureDiskVolumeSource{DiskName: "d", DataDiskURI: uri, Kind: &kind}}
}

var inTreeSourceCases = []volCase{
	volOne("a gcePersistentDisk's errors are reported under persistentDisk", v1.VolumeSource{GCEPersistentDisk: &v1.GCEPersistentDiskVolumeSource{Partition: 256}},
		"spec.volumes[0].persistentDisk.pdName: Required value",
		"spec.volumes[0].persistentDisk.partition: Invalid value: 256: must be between 1 and 255, inclusive"),
	volOne("a gcePersistentDisk's partition 0 passes", v1.VolumeSource{GCEPersistentDisk: &v1.GCEPersistentDiskVolumeSource{PDName: "pd"}}),
	volOne("an awsElasticBlockStore needs a volume ID and a partition up to 255", v1.VolumeSource{AWSElasticBlockStore: &v1.AWSElasticBlockStoreVolumeSource{Partition: -1}},
		"spec.volumes[0].awsElasticBlockStore.volumeID: Required value",
		"spec.volumes[0].awsElasticBlockStore.partition: Invalid value: -1: must be between 1 and 255, inclusive"),

	volOne("an nfs volume without a server or a path is refused, the empty path as relative too", v1.VolumeSource{NFS: &v1.NFSVolumeSource{}},
		"spec.volumes[0].nfs.server: Required value",
		"spec.volumes[0].nfs.path: Required value",
		`spec.volumes[0].nfs.path: Invalid value: "": must be an absolute path`),
	volOne("an nfs volume's relative path is refused", v1.VolumeSource{NFS: &v1.NFSVolumeSource{Server: "s", Path: "export"}},
		`spec.volumes[0].nfs.path: Invalid value: "export": must be an absolute path`),

	volOne("an iscsi volume passes", volISCSI(v1.ISCSIVolumeSource{TargetPortal: "10.0.0.1:3260", IQN: volIQN, Lun: 255,
		InitiatorName: ptr.To("eui.02004567A425678D")})),
	volOne("an iscsi volume needs a target portal and an IQN", volISCSI(v1.ISCSIVolumeSource{}),
		"spec.volumes[0].iscsi.targetPortal: Required value",
		"spec.volumes[0].iscsi.iqn: Required value"),
	volOne("an IQN not starting with iqn, eui or naa is refused", volISCSI(v1.ISCSIVolumeSource{TargetPortal: "t", IQN: "disk1"}),
		`spec.volumes[0].iscsi.iqn: Invalid value: "disk1": must be valid format starting with iqn, eui, or naa`),
	volOne("an IQN of the wrong shape is refused", volISCSI(v1.ISCSIVolumeSource{TargetPortal: "t", IQN: "naa.1234"}),
		`spec.volumes[0].iscsi.iqn: Invalid value: "naa.1234": must be valid format`),
	volOne("an iscsi LUN above 255 is refused", volISCSI(v1.ISCSIVolumeSource{TargetPortal: "t", IQN: volIQN, Lun: 256}),
		"spec.volumes[0].iscsi.lun: Invalid value: 256: must be between 0 and 255, inclusive"),
	volOne("CHAP authentication needs a secret", volISCSI(v1.ISCSIVolumeSource{TargetPortal: "t", IQN: volIQN, SessionCHAPAuth: true}),
		"spec.volumes[0].iscsi.secretRef: Required value"),
	volOne("an initiator name is checked and reported as initiatorname", volISCSI(v1.ISCSIVolumeSource{TargetPortal: "t", IQN: volIQN, InitiatorName: ptr.To("iqn.bad")}),
		`spec.volumes[0].iscsi.initiatorname: Invalid value: "iqn.bad": must be valid format`),
	volOne("an initiator name not starting with iqn, eui or naa is refused", volISCSI(v1.ISCSIVolumeSource{TargetPortal: "t", IQN: volIQN, InitiatorName: ptr.To("host")}),
		`spec.volumes[0].iscsi.initiatorname: Invalid value: "host": must be valid format starting with iqn, eui, or naa`),
	volOne("with an initiator name, the volume's name and target portal are bounded, even when iscsi is not the first source",
		v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}, ISCSI: &v1.ISCSIVolumeSource{TargetPortal: strings.Repeat("t", 63), InitiatorName: ptr.To("host")}},
		"spec.volumes[0].iscsi: Forbidden: may not specify more than 1 volume type",
		`spec.volumes[0].name: Invalid value: "v": Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.`),

	volOne("a glusterfs volume needs endpoints and a path", v1.VolumeSource{Glusterfs: &v1.GlusterfsVolumeSource{}},
		"spec.volumes[0].glusterfs.endpoints: Required value",
		"spec.volumes[0].glusterfs.path: Required value"),

	volOne("a flocker volume needs a dataset name or UUID", v1.VolumeSource{Flocker: &v1.FlockerVolumeSource{}},
		"spec.volumes[0].flocker: Required value: one of datasetName and datasetUUID is required"),
	volOne("a flocker volume with both a dataset name and UUID, the name with a '/', is refused twice",
		v1.VolumeSource{Flocker: &v1.FlockerVolumeSource{DatasetName: "a/b", DatasetUUID: "u"}},
		`spec.volumes[0].flocker: Invalid value: "resource": datasetName and datasetUUID can not be specified simultaneously`,
		`spec.volumes[0].flocker.datasetName: Invalid value: "a/b": must not contain '/'`),

	volOne("an rbd volume needs monitors and an image", v1.VolumeSource{RBD: &v1.RBDVolumeSource{}},
		"spec.volumes[0].rbd.monitors: Required value",
		"spec.volumes[0].rbd.image: Required value"),
	volOne("a cinder volume needs a volume ID and a named secret", v1.VolumeSource{Cinder: &v1.CinderVolumeSource{SecretRef: &v1.LocalObjectReference{}}},
		"spec.volumes[0].cinder.volumeID: Required value",
		"spec.volumes[0].cinder.secretRef.name: Required value"),
	volOne("a cephfs volume needs monitors", v1.VolumeSource{CephFS: &v1.CephFSVolumeSource{}},
		"spec.volumes[0].cephfs.monitors: Required value"),

	volOne("a quobyte volume needs a registry and a volume", v1.VolumeSource{Quobyte: &v1.QuobyteVolumeSource{}},
		"spec.volumes[0].quobyte.registry: Required value: must be a host:port pair or multiple pairs separated by commas",
		"spec.volumes[0].quobyte.volume: Required value"),
	volOne("a quobyte registry gets one error per pair that is not host:port", v1.VolumeSource{Quobyte: &v1.QuobyteVolumeSource{Registry: "a,b:1,c", Volume: "v"}},
		`spec.volumes[0].quobyte.registry: Invalid value: "a,b:1,c": must be a host:port pair or multiple pairs separated by commas`,
		`spec.volumes[0].quobyte.registry: Invalid value: "a,b:1,c": must be a host:port pair or multiple pairs separated by commas`),
	volOne("a quobyte tenant longer than 64 bytes is refused and the registry not parsed", v1.VolumeSource{Quobyte: &v1.QuobyteVolumeSource{Registry: "a", Tenant: strings.Repeat("t", 65), Volume: "v"}},
		"spec.volumes[0].quobyte.tenant: Required value: must be a UUID and may not exceed a length of 64 characters"),

	volOne("an fc volume needs target WWNs or WWIDs", v1.VolumeSource{FC: &v1.FCVolumeSource{}},
		"spec.volumes[0].fc.targetWWNs: Required value: must specify either targetWWNs or wwids, but not both"),
	volOne("an fc volume with target WWNs and WWIDs is refused, and its WWNs need a LUN", v1.VolumeSource{FC: &v1.FCVolumeSource{TargetWWNs: []string{"w1", "w2"}, WWIDs: []string{"id"}}},
		`spec.volumes[0].fc.targetWWNs: Invalid value: ["w1","w2"]: targetWWNs and wwids can not be specified simultaneously`,
		"spec.volumes[0].fc.lun: Required value: lun is required if targetWWNs is specified"),
	volOne("an fc LUN above 255 is refused", v1.VolumeSource{FC: &v1.FCVolumeSource{TargetWWNs: []string{"w"}, Lun: ptr.To[int32](256)}},
		"spec.volumes[0].fc.lun: Invalid value: 256: must be between 0 and 255, inclusive"),

	volOne("a flexVolume needs a driver", v1.VolumeSource{FlexVolume: &v1.FlexVolumeSource{}},
		"spec.volumes[0].flexVolume.driver: Required value"),
	volOne("flexVolume options in the kubernetes.io and k8s.io namespaces are refused, in key order",
		v1.VolumeSource{FlexVolume: &v1.FlexVolumeSource{Driver: "d", Options: map[string]string{
			"kubernetes.io/fsType": "", "Sub.K8S.IO": "", "notk8s.io/x": "", "example.com/k8s.io": ""}}},
		`spec.volumes[0].flexVolume.options[Sub.K8S.IO]: Invalid value: "Sub.K8S.IO": kubernetes.io and k8s.io namespaces are reserved`,
		`spec.volumes[0].flexVolume.options[kubernetes.io/fsType]: Invalid value: "kubernetes.io/fsType": kubernetes.io and k8s.io namespaces are reserved`),

	volOne("an azureFile volume needs a secret and a share", v1.VolumeSource{AzureFile: &v1.AzureFileVolumeSource{}},
		"spec.volumes[0].azureFile.secretName: Required value",
		"spec.volumes[0].azureFile.shareName: Required value"),

	volOne("an azureDisk volume needs a disk name and URI", v1.VolumeSource{AzureDisk: &v1.AzureDiskVolumeSource{}},
		"spec.volumes[0].azureDisk.diskName: Required value",
		"spec.volumes[0].azureDisk.diskURI: Required value"),
	volOne("an azureDisk's unknown caching mode is refused", v1.VolumeSource{AzureDisk: &v1.AzureDiskVolumeSource{DiskName: "d", DataDiskURI: "u",
		CachingMode: ptr.To[v1.AzureDataDiskCachingMode]("Fast")}},
		`spec.volumes[0].azureDisk.cachingMode: Unsupported value: "Fast": supported values: "None", "ReadOnly", "ReadWrite"`),
	volOne("an azureDisk's unknown kind is refused, and its URI must then be a blob URL", volAzureDisk("Blob", "/subscriptions/s"),
		`spec.volumes[0].azureDisk.kind: Unsupported value: "Blob": supported values: "Dedicated", "Managed", "Shared"`,
		`spec.volumes[0].azureDisk.diskURI: Unsupported value: "/subscriptions/s": supported values: "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"`),
	volOne("a managed azureDisk's URI must be a resource path", volAzureDisk(v1.AzureManagedDisk, "https://a.blob.core.windows.net/c/d.vhd"),
		`spec.volumes[0].azureDisk.diskURI: Unsupported value: "https://a.blob.core.windows.net/c/d.vhd": supported values: "/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"`),
	volOne("a shared azureDisk with a blob URL passes", volAzureDisk(v1.AzureSharedBlobDisk, "https://a.blob.core.windows.net/c/d.vhd")),

	volOne("a vsphereVolume needs a volume path", v1.VolumeSource{VsphereVolume: &v1.VsphereVirtualDiskVolumeSource{}},
		"spec.volumes[0].vsphereVolume.volumePath: Required value"),
	volOne("a photonPersistentDisk needs a disk ID", v1.VolumeSource{PhotonPersistentDisk: &v1.PhotonPersistentDiskVolumeSource{}},
		"spec.volumes[0].photonPersistentDisk.pdID: Required value"),
	volOne("a portworxVolume needs a volume ID", v1.VolumeSource{PortworxVolume: &v1.PortworxVolumeSource{}},
		"spec.volumes[0].portworxVolume.volumeID: Required value"),
	volOne("a scaleIO volume needs a gateway, a system and a volume name", v1.VolumeSource{ScaleIO: &v1.ScaleIOVolumeSource{}},
		"spec.volumes[0].scaleIO.gateway: Required value",
		"spec.volumes[0].scaleIO.system: Required value",
		"spec.volumes[0].scaleIO.volumeName: Required value"),

	volOne("a storageos volume needs a volume name and a named secret", v1.VolumeSource{StorageOS: &v1.StorageOSVolumeSource{SecretRef: &v1.LocalObjectReference{}}},
		"spec.volumes[0].storageos.volumeName: Required value",
		"spec.volumes[0].storageos.secretRef.name: Required value"),
	volOne("a storageos volume name and namespace must be DNS labels", v1.VolumeSource{StorageOS: &v1.StorageOSVolumeSource{VolumeName: "V", VolumeNamespace: "N"}},
		`spec.volumes[0].storageos.volumeName: Invalid value: "V": `+volDNSLabelMsg,
		`spec.volumes[0].storageos.volumeNamespace: Invalid value: "N": `+volDNSLabelMsg),
}

func TestValidateInTreeVolumeSources(t *testing.T) {
	volRunCases(t, inTreeSourceCases)
}
