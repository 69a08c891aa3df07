package validation

import (
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// volClaimSpec is a valid claim spec: one access mode and a storage request.
func volClaimSpec() v1.PersistentVolumeClaimSpec {
	return v1.PersistentVolumeClaimSpec{
		AccessModes: []v1.PersistentVolumeAccessMode{v1.ReadWriteOnce},
		Resources:   v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: resource.MustParse("1Gi")}},
	}
}

// volClaimWith is an ephemeral volume source whose claim spec is the valid one changed by edit.
func volClaimWith(edit func(*v1.PersistentVolumeClaimSpec)) v1.VolumeSource {
	src := volEphemeral()
	edit(&src.Ephemeral.VolumeClaimTemplate.Spec)
	return src
}

const volSpecPath = "spec.volumes[0].ephemeral.volumeClaimTemplate.spec"

var ephemeralVolumeCases = []volCase{
	{name: "an ephemeral volume of a named pod passes", podName: "web", volumes: []v1.Volume{vol("scratch", volEphemeral())}},
	volOne("an ephemeral volume needs a claim template", v1.VolumeSource{Ephemeral: &v1.EphemeralVolumeSource{}},
		"spec.volumes[0].ephemeral.volumeClaimTemplate: Required value"),
	{
		name:    "the PVC an ephemeral volume becomes must have a DNS subdomain name",
		podName: strings.Repeat("p", 253),
		volumes: []v1.Volume{vol("v", volEphemeral())},
		want:    []string{`spec.volumes[0].name: Invalid value: "v": PVC name "` + strings.Repeat("p", 253) + `-v": must be no more than 253 characters`},
	},
	{
		name:    "the PVC name is not checked for a volume without a name",
		podName: "Web",
		volumes: []v1.Volume{vol("", volEphemeral())},
		want:    []string{"spec.volumes[0].name: Required value"},
	},
	volOne("a claim template may set labels and annotations only", v1.VolumeSource{Ephemeral: &v1.EphemeralVolumeSource{VolumeClaimTemplate: &v1.PersistentVolumeClaimTemplate{
		ObjectMeta: metav1.ObjectMeta{
			Name: "n", Namespace: "ns", UID: "u", Generation: 1, Finalizers: []string{},
			Labels: map[string]string{"app": "web"}, Annotations: map[string]string{"note": "x"},
		},
		Spec: volClaimSpec(),
	}}},
		"spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.name: Forbidden: cannot be set",
		"spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.namespace: Forbidden: cannot be set",
		"spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.uID: Forbidden: cannot be set",
		"spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.generation: Forbidden: cannot be set",
		"spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.finalizers: Forbidden: cannot be set"),
	volOne("a claim template's annotation keys and labels are checked in key order", v1.VolumeSource{Ephemeral: &v1.EphemeralVolumeSource{VolumeClaimTemplate: &v1.PersistentVolumeClaimTemplate{
		ObjectMeta: metav1.ObjectMeta{
			Annotations: map[string]string{"Note_": "", "Bad_": ""},
			Labels:      map[string]string{"app": "-web"},
		},
		Spec: volClaimSpec(),
	}}},
		`spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.annotations: Invalid value: "Bad_": `+volQualifiedNameMsg,
		`spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.annotations: Invalid value: "Note_": `+volQualifiedNameMsg,
		`spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.labels: Invalid value: "-web": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`),

	volOne("a claim template's annotations are bounded in size", v1.VolumeSource{Ephemeral: &v1.EphemeralVolumeSource{VolumeClaimTemplate: &v1.PersistentVolumeClaimTemplate{
		ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{"a": strings.Repeat("x", 256<<10)}},
		Spec:       volClaimSpec(),
	}}},
		"spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.annotations: Too long: may not be more than 262144 bytes"),
	volOne("a claim needs an access mode and a storage request", volClaimWith(func(s *v1.PersistentVolumeClaimSpec) { *s = v1.PersistentVolumeClaimSpec{} }),
		volSpecPath+".accessModes: Required value: at least 1 access mode is required",
		volSpecPath+".resources[storage]: Required value"),
	volOne("a claim's unknown access mode is refused", volClaimWith(func(s *v1.PersistentVolumeClaimSpec) {
		s.AccessModes = []v1.PersistentVolumeAccessMode{"ReadWriteSometimes"}
	}),
		volSpecPath+`.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"`),
	volOne("ReadWriteOncePod beside another access mode is refused", volClaimWith(func(s *v1.PersistentVolumeClaimSpec) {
		s.AccessModes = []v1.PersistentVolumeAccessMode{v1.ReadWriteOncePod, v1.ReadOnlyMany}
	}),
		volSpecPath+".accessModes: Forbidden: may not use ReadWriteOncePod with other access modes"),
	volOne("a claim's storage request must be positive", volClaimWith(func(s *v1.PersistentVolumeClaimSpec) {
		s.Resources.Requests[v1.ResourceStorage] = resource.MustParse("0")
	}),
		volSpecPath+`.resources[storage]: Invalid value: "0": must be greater than zero`),
	volOne("a claim's selector is checked", volClaimWith(func(s *v1.PersistentVolumeClaimSpec) {
		s.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "k", Operator: metav1.LabelSelectorOpIn}}}
	}),
		volSpecPath+".selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"),
	volOne("a claim's class names must be DNS subdomains", volClaimWith(func(s *v1.PersistentVolumeClaimSpec) {
		s.StorageClassName = ptr.To("Fast_SSD")
		s.VolumeAttributesClassName = ptr.To("Gold_")
	}),
		volSpecPath+`.storageClassName: Invalid value: "Fast_SSD": `+volDNSSubdomainMsg,
		volSpecPath+`.volumeAttributesClassName: Invalid value: "Gold_": `+volDNSSubdomainMsg),
	volOne("a claim's unknown volume mode is refused", volClaimWith(func(s *v1.PersistentVolumeClaimSpec) {
		s.VolumeMode = ptr.To[v1.PersistentVolumeMode]("Raw")
	}),
		volSpecPath+`.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"`),
	volOne("an empty data source is refused for its name, its kind and its group", volClaimWith(func(s *v1.PersistentVolumeClaimSpec) {
		s.DataSource = &v1.TypedLocalObjectReference{}
	}),
		volSpecPath+".dataSource.name: Required value",
		volSpecPath+".dataSource.kind: Required value",
		volSpecPath+`.dataSource: Invalid value: "": must be 'PersistentVolumeClaim' when referencing the default apiGroup`),
	volOne("a data source's group must be a DNS subdomain", volClaimWith(func(s *v1.PersistentVolumeClaimSpec) {
		s.DataSourceRef = &v1.TypedObjectReference{APIGroup: ptr.To("Snap_"), Kind: "VolumeSnapshot", Name: "s", Namespace: ptr.To("NS")}
	}),
		volSpecPath+`.dataSourceRef.apiGroup: Invalid value: "Snap_": `+volDNSSubdomainMsg,
		volSpecPath+`.dataSourceRef.namespace: Invalid value: "NS": `+volDNSLabelMsg),
	volOne("a data source beside a data source reference in another namespace is refused, with dataSource's path printed as {}",
		volClaimWith(func(s *v1.PersistentVolumeClaimSpec) {
			s.DataSource = &v1.TypedLocalObjectReference{Kind: "PersistentVolumeClaim", Name: "a"}
			s.DataSourceRef = &v1.TypedObjectReference{Kind: "PersistentVolumeClaim", Name: "a", Namespace: ptr.To("other")}
		}),
		volSpecPath+": Invalid value: {}: may not be specified when dataSourceRef.namespace is specified"),
	volOne("a data source must match the data source reference", volClaimWith(func(s *v1.PersistentVolumeClaimSpec) {
		s.DataSource = &v1.TypedLocalObjectReference{Kind: "PersistentVolumeClaim", Name: "a"}
		s.DataSourceRef = &v1.TypedObjectReference{Kind: "PersistentVolumeClaim", Name: "b"}
	}),
		volSpecPath+": Invalid value: {}: must match dataSourceRef"),
	volOne("a data source equal to its reference passes", volClaimWith(func(s *v1.PersistentVolumeClaimSpec) {
		s.DataSource = &v1.TypedLocalObjectReference{APIGroup: ptr.To("snapshot.storage.k8s.io"), Kind: "VolumeSnapshot", Name: "a"}
		s.DataSourceRef = &v1.TypedObjectReference{APIGroup: ptr.To("snapshot.storage.k8s.io"), Kind: "VolumeSnapshot", Name: "a"}
	})),
}

func TestValidateEphemeralVolumes(t *testing.T) {
	volRunCases(t, ephemeralVolumeCases)
}
