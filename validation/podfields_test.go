package validation

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
)

// The API server's messages for names, written out so that a test pins their text.
const (
	pfLabelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	pfSubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)

// pfPod returns a pod as the API server's defaulting leaves it, one it accepts, changed by edit.
func pfPod(edit func(p *v1.Pod)) *v1.Pod {
	p := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: v1.PodSpec{
			Containers: []v1.Container{{
				Name: "app", Image: "nginx", ImagePullPolicy: v1.PullIfNotPresent,
				TerminationMessagePath: v1.TerminationMessagePathDefault, TerminationMessagePolicy: v1.TerminationMessageReadFile,
			}},
			RestartPolicy:                 v1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: ptr.To[int64](30),
			DNSPolicy:                     v1.DNSClusterFirst,
			SecurityContext:               &v1.PodSecurityContext{},
			SchedulerName:                 v1.DefaultSchedulerName,
		},
	}
	if edit != nil {
		edit(p)
	}
	return p
}

// pfPodSC returns the pod's securityContext, for an edit to set fields of.
func pfPodSC(p *v1.Pod) *v1.PodSecurityContext { return p.Spec.SecurityContext }

// pfContainerSC returns the first container's securityContext, created if unset.
func pfContainerSC(p *v1.Pod) *v1.SecurityContext {
	if p.Spec.Containers[0].SecurityContext == nil {
		p.Spec.Containers[0].SecurityContext = &v1.SecurityContext{}
	}
	return p.Spec.Containers[0].SecurityContext
}

// pfTexts returns the texts of errs.
func pfTexts(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// pfCase is a pod, as an edit of pfPod, and the errors ValidatePodCreate gives it.
type pfCase struct {
	name string
	edit func(p *v1.Pod)
	want []string
}

// pfRun checks each case's errors, in order.
func pfRun(t *testing.T, cases []pfCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, pfTexts(ValidatePodCreate(pfPod(tc.edit))))
		})
	}
}

func TestPodFieldsBasePodIsAccepted(t *testing.T) {
	assert.Empty(t, ValidatePodCreate(pfPod(nil)), "a defaulted minimal pod is accepted")
}

func TestResourceClaims(t *testing.T) {
	pfRun(t, []pfCase{
		{
			name: "a claim without a name is refused",
			edit: func(p *v1.Pod) { p.Spec.ResourceClaims = []v1.PodResourceClaim{{ResourceClaimName: ptr.To("gpu")}} },
			want: []string{"spec.resourceClaims[0].name: Required value"},
		},
		{
			name: "a claim name that is not a DNS label is refused",
			edit: func(p *v1.Pod) {
				p.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: "My_Claim", ResourceClaimName: ptr.To("gpu")}}
			},
			want: []string{`spec.resourceClaims[0].name: Invalid value: "My_Claim": ` + pfLabelMsg},
		},
		{
			name: "two claims with one name are refused",
			edit: func(p *v1.Pod) {
				p.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: "a", ResourceClaimName: ptr.To("x")}, {Name: "a", ResourceClaimName: ptr.To("y")}}
			},
			want: []string{`spec.resourceClaims[1].name: Duplicate value: "a"`},
		},
		{
			name: "a claim naming both a claim and a template is refused, printed as the internal type",
			edit: func(p *v1.Pod) {
				p.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: "a", ResourceClaimName: ptr.To("x"), ResourceClaimTemplateName: ptr.To("y")}}
			},
			want: []string{`spec.resourceClaims[0]: Invalid value: {"Name":"a","ResourceClaimName":"x","ResourceClaimTemplateName":"y"}: at most one of ` +
				"`resourceClaimName` or `resourceClaimTemplateName` may be specified"},
		},
		{
			name: "a claim naming neither a claim nor a template is refused",
			edit: func(p *v1.Pod) { p.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: "a"}} },
			want: []string{`spec.resourceClaims[0]: Invalid value: {"Name":"a","ResourceClaimName":null,"ResourceClaimTemplateName":null}: must specify one of: ` +
				"`resourceClaimName`, `resourceClaimTemplateName`"},
		},
		{
			name: "a resourceClaimTemplateName that is not a DNS subdomain is refused",
			edit: func(p *v1.Pod) {
				p.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: "a", ResourceClaimTemplateName: ptr.To("T")}}
			},
			want: []string{`spec.resourceClaims[0].resourceClaimTemplateName: Invalid value: "T": ` + pfSubdomainMsg},
		},
		{
			name: "a static pod's claims are refused on the empty path, the repeated text once as the API server reports it",
			edit: func(p *v1.Pod) {
				p.Annotations = map[string]string{v1.MirrorPodAnnotationKey: "x"}
				p.Spec.NodeName = "node"
				p.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: "a", ResourceClaimName: ptr.To("x")}, {Name: "b", ResourceClaimName: ptr.To("y")}}
			},
			want: []string{"[]: Forbidden: static pods do not support resource claims"},
		},
	})
}

func TestGatherPodResourceClaimNamesLeavesOutEmptyNames(t *testing.T) {
	names := gatherPodResourceClaimNames([]v1.PodResourceClaim{{Name: "a"}, {Name: ""}})
	assert.ElementsMatch(t, []string{"a"}, names.UnsortedList())
}

func TestSpecLevelFields(t *testing.T) {
	pfRun(t, []pfCase{
		{
			name: "with hostNetwork a hostPort other than the containerPort is refused",
			edit: func(p *v1.Pod) {
				p.Spec.HostNetwork = true
				p.Spec.Containers[0].Ports = []v1.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: v1.ProtocolTCP}}
			},
			want: []string{"spec.containers[0].ports[0].hostPort: Invalid value: 8080: must match `containerPort` when `hostNetwork` is true"},
		},
		{
			name: "an empty restartPolicy is required",
			edit: func(p *v1.Pod) { p.Spec.RestartPolicy = "" },
			want: []string{"spec.restartPolicy: Required value"},
		},
		{
			name: "an unknown restartPolicy is refused with the supported values",
			edit: func(p *v1.Pod) { p.Spec.RestartPolicy = "Sometimes" },
			want: []string{`spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`},
		},
		{
			name: "shareProcessNamespace with hostPID is refused",
			edit: func(p *v1.Pod) { p.Spec.HostPID = true; p.Spec.ShareProcessNamespace = ptr.To(true) },
			want: []string{"spec.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled"},
		},
		{
			name: "a serviceAccountName that is not a DNS subdomain is refused",
			edit: func(p *v1.Pod) { p.Spec.ServiceAccountName = "Builder"; p.Spec.DeprecatedServiceAccount = "Builder" },
			want: []string{`spec.serviceAccountName: Invalid value: "Builder": ` + pfSubdomainMsg},
		},
		{
			name: "a deprecatedServiceAccount other than serviceAccountName is refused",
			edit: func(p *v1.Pod) { p.Spec.DeprecatedServiceAccount = "old" },
			want: []string{`spec.deprecatedServiceAccount: Invalid value: "old": must be the same as serviceAccountName: ""`},
		},
		{
			name: "a nodeName that is not a DNS subdomain is refused",
			edit: func(p *v1.Pod) { p.Spec.NodeName = "node_1" },
			want: []string{`spec.nodeName: Invalid value: "node_1": ` + pfSubdomainMsg},
		},
		{
			name: "an activeDeadlineSeconds of 0 is refused",
			edit: func(p *v1.Pod) { p.Spec.ActiveDeadlineSeconds = ptr.To[int64](0) },
			want: []string{"spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive"},
		},
		{
			name: "an activeDeadlineSeconds above 2^31-1 is refused",
			edit: func(p *v1.Pod) { p.Spec.ActiveDeadlineSeconds = ptr.To[int64](1 << 31) },
			want: []string{"spec.activeDeadlineSeconds: Invalid value: 2147483648: must be between 1 and 2147483647, inclusive"},
		},
		{
			name: "a hostname with a dot is refused",
			edit: func(p *v1.Pod) { p.Spec.Hostname = "web.local" },
			want: []string{`spec.hostname: Invalid value: "web.local": must not contain dots`},
		},
		{
			name: "a hostname that is not a DNS label is refused",
			edit: func(p *v1.Pod) { p.Spec.Hostname = "Web" },
			want: []string{`spec.hostname: Invalid value: "Web": ` + pfLabelMsg},
		},
		{
			name: "a subdomain longer than a DNS label is refused",
			edit: func(p *v1.Pod) { p.Spec.Subdomain = strings.Repeat("s", 64) },
			want: []string{`spec.subdomain: Invalid value: "` + strings.Repeat("s", 64) + `": must be no more than 63 characters`},
		},
		{
			name: "a hostnameOverride with setHostnameAsFQDN or hostNetwork, too long and not a subdomain is refused for each",
			edit: func(p *v1.Pod) {
				p.Spec.HostnameOverride = ptr.To(strings.Repeat("H", 65))
				p.Spec.SetHostnameAsFQDN = ptr.To(true)
				p.Spec.HostNetwork = true
			},
			want: []string{
				"spec.hostnameOverride: Forbidden: may not be specified when setHostnameAsFQDN is true",
				"spec.hostnameOverride: Forbidden: may not be specified when hostNetwork is true",
				"spec.hostnameOverride: Too long: may not be more than 64 bytes",
				`spec.hostnameOverride: Invalid value: "` + strings.Repeat("H", 65) + `": ` + pfSubdomainMsg,
			},
		},
		{
			name: "a priorityClassName that is not a DNS subdomain is refused",
			edit: func(p *v1.Pod) { p.Spec.PriorityClassName = "High" },
			want: []string{`spec.priorityClassName: Invalid value: "High": ` + pfSubdomainMsg},
		},
		{
			name: "an empty runtimeClassName is refused",
			edit: func(p *v1.Pod) { p.Spec.RuntimeClassName = ptr.To("") },
			want: []string{`spec.runtimeClassName: Invalid value: "": ` + pfSubdomainMsg},
		},
		{
			name: "an empty preemptionPolicy is required",
			edit: func(p *v1.Pod) { p.Spec.PreemptionPolicy = ptr.To(v1.PreemptionPolicy("")) },
			want: []string{"spec.preemptionPolicy: Required value"},
		},
		{
			name: "an unknown preemptionPolicy is refused, its value printed as JSON",
			edit: func(p *v1.Pod) { p.Spec.PreemptionPolicy = ptr.To(v1.PreemptionPolicy("<Always>")) },
			want: []string{`spec.preemptionPolicy: Unsupported value: "\u003cAlways\u003e": supported values: "PreemptLowerPriority", "Never"`},
		},
		{
			name: "a schedulingGroup without podGroupName is refused with a null value",
			edit: func(p *v1.Pod) { p.Spec.SchedulingGroup = &v1.PodSchedulingGroup{} },
			want: []string{"spec.schedulingGroup.podGroupName: Invalid value: null: must specify one of: `podGroupName`"},
		},
		{
			name: "a podGroupName that is not a DNS subdomain is refused",
			edit: func(p *v1.Pod) { p.Spec.SchedulingGroup = &v1.PodSchedulingGroup{PodGroupName: ptr.To("G")} },
			want: []string{`spec.schedulingGroup.podGroupName: Invalid value: "G": ` + pfSubdomainMsg},
		},
		{
			name: "a schedulingGroup beside evictionResponders is refused",
			edit: func(p *v1.Pod) {
				p.Spec.SchedulingGroup = &v1.PodSchedulingGroup{PodGroupName: ptr.To("g")}
				p.Spec.EvictionResponders = []v1.EvictionResponder{{Name: "example.com/r", Priority: ptr.To[int32](1)}}
			},
			want: []string{"spec.schedulingGroup: Forbidden: may not be set when evictionResponders is set"},
		},
		{
			name: "an overhead of 100m cpu is accepted",
			edit: func(p *v1.Pod) { p.Spec.Overhead = v1.ResourceList{v1.ResourceCPU: resource.MustParse("100m")} },
		},
	})
}

func TestImagePullSecretsWithOnlyANameAreAccepted(t *testing.T) {
	assert.Empty(t, validateImagePullSecrets([]v1.LocalObjectReference{{Name: "a"}, {}}, field.NewPath("spec", "imagePullSecrets")))
}
