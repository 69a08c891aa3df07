package validation

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
)

const pfIDMsg = "must be between 0 and 2147483647, inclusive"

func TestPodSecurityContext(t *testing.T) {
	pfRun(t, []pfCase{
		{
			name: "negative or too large ids are refused, each supplemental group on its own",
			edit: func(p *v1.Pod) {
				sc := pfPodSC(p)
				sc.FSGroup = ptr.To[int64](-1)
				sc.RunAsUser = ptr.To[int64](1 << 31)
				sc.RunAsGroup = ptr.To[int64](-2)
				sc.SupplementalGroups = []int64{5, -3}
			},
			want: []string{
				"spec.securityContext.fsGroup: Invalid value: -1: " + pfIDMsg,
				"spec.securityContext.runAsUser: Invalid value: 2147483648: " + pfIDMsg,
				"spec.securityContext.runAsGroup: Invalid value: -2: " + pfIDMsg,
				"spec.securityContext.supplementalGroups[1]: Invalid value: -3: " + pfIDMsg,
			},
		},
		{
			name: "an unknown fsGroupChangePolicy is refused with the sorted supported values",
			edit: func(p *v1.Pod) { pfPodSC(p).FSGroupChangePolicy = ptr.To(v1.PodFSGroupChangePolicy("Never")) },
			want: []string{`spec.securityContext.fsGroupChangePolicy: Unsupported value: "Never": supported values: "Always", "OnRootMismatch"`},
		},
		{
			name: "an unknown supplementalGroupsPolicy is refused",
			edit: func(p *v1.Pod) { pfPodSC(p).SupplementalGroupsPolicy = ptr.To(v1.SupplementalGroupsPolicy("Loose")) },
			want: []string{`spec.securityContext.supplementalGroupsPolicy: Unsupported value: "Loose": supported values: "Merge", "Strict"`},
		},
		{
			name: "an unknown seLinuxChangePolicy is refused, MountOption being allowed as SELinuxMount is on",
			edit: func(p *v1.Pod) { pfPodSC(p).SELinuxChangePolicy = ptr.To(v1.PodSELinuxChangePolicy("Relabel")) },
			want: []string{`spec.securityContext.seLinuxChangePolicy: Unsupported value: "Relabel": supported values: "MountOption", "Recursive"`},
		},
		{
			name: "seLinuxChangePolicy MountOption is accepted",
			edit: func(p *v1.Pod) { pfPodSC(p).SELinuxChangePolicy = ptr.To(v1.SELinuxChangePolicyMountOption) },
		},
		{
			name: "a seccompProfile without a type is refused",
			edit: func(p *v1.Pod) { pfPodSC(p).SeccompProfile = &v1.SeccompProfile{} },
			want: []string{"spec.securityContext.seccompProfile.type: Required value: type is required when seccompProfile is set"},
		},
		{
			name: "a Localhost seccompProfile without a localhostProfile is refused",
			edit: func(p *v1.Pod) { pfPodSC(p).SeccompProfile = &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost} },
			want: []string{"spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost"},
		},
		{
			name: "an absolute Localhost seccomp profile climbing out is refused for both",
			edit: func(p *v1.Pod) {
				pfPodSC(p).SeccompProfile = &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost, LocalhostProfile: ptr.To("/../p.json")}
			},
			want: []string{
				`spec.securityContext.seccompProfile.localhostProfile: Invalid value: "/../p.json": must be a relative path`,
				`spec.securityContext.seccompProfile.localhostProfile: Invalid value: "/../p.json": must not contain '..'`,
			},
		},
		{
			name: "a localhostProfile with another seccomp type is refused, the profile printed as the internal type",
			edit: func(p *v1.Pod) {
				pfPodSC(p).SeccompProfile = &v1.SeccompProfile{Type: v1.SeccompProfileTypeRuntimeDefault, LocalhostProfile: ptr.To("p.json")}
			},
			want: []string{`spec.securityContext.seccompProfile.localhostProfile: Invalid value: {"Type":"RuntimeDefault","LocalhostProfile":"p.json"}: can only be set when seccomp type is Localhost`},
		},
		{
			name: "an unknown seccomp type is refused with the supported values",
			edit: func(p *v1.Pod) { pfPodSC(p).SeccompProfile = &v1.SeccompProfile{Type: "Strict"} },
			want: []string{`spec.securityContext.seccompProfile.type: Unsupported value: "Strict": supported values: "Localhost", "RuntimeDefault", "Unconfined"`},
		},
		{
			name: "an appArmorProfile without a type is refused",
			edit: func(p *v1.Pod) { pfPodSC(p).AppArmorProfile = &v1.AppArmorProfile{} },
			want: []string{"spec.securityContext.appArmorProfile.type: Required value: type is required when appArmorProfile is set"},
		},
		{
			name: "an unknown AppArmor type is refused",
			edit: func(p *v1.Pod) { pfPodSC(p).AppArmorProfile = &v1.AppArmorProfile{Type: "Complain"} },
			want: []string{`spec.securityContext.appArmorProfile.type: Unsupported value: "Complain": supported values: "Localhost", "RuntimeDefault", "Unconfined"`},
		},
		{
			name: "a Localhost AppArmor profile that is empty is required",
			edit: func(p *v1.Pod) {
				pfPodSC(p).AppArmorProfile = &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeLocalhost, LocalhostProfile: ptr.To("")}
			},
			want: []string{"spec.securityContext.appArmorProfile.localhostProfile: Required value: must be set when AppArmor type is Localhost"},
		},
		{
			name: "a padded Localhost AppArmor profile longer than 4095 bytes is refused for both",
			edit: func(p *v1.Pod) {
				pfPodSC(p).AppArmorProfile = &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeLocalhost, LocalhostProfile: ptr.To(strings.Repeat("p", 4095) + " ")}
			},
			want: []string{
				`spec.securityContext.appArmorProfile.localhostProfile: Invalid value: "` + strings.Repeat("p", 4095) + ` ": must not be padded with whitespace`,
				"spec.securityContext.appArmorProfile.localhostProfile: Too long: may not be more than 4095 bytes",
			},
		},
		{
			name: "a localhostProfile with AppArmor type Unconfined is refused",
			edit: func(p *v1.Pod) {
				pfPodSC(p).AppArmorProfile = &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeUnconfined, LocalhostProfile: ptr.To("p")}
			},
			want: []string{`spec.securityContext.appArmorProfile.localhostProfile: Invalid value: "p": can only be set when AppArmor type is Localhost`},
		},
		{
			name: "a gmsaCredentialSpecName that is not a subdomain and an empty gmsaCredentialSpec are refused",
			edit: func(p *v1.Pod) {
				pfPodSC(p).WindowsOptions = &v1.WindowsSecurityContextOptions{GMSACredentialSpecName: ptr.To("Spec"), GMSACredentialSpec: ptr.To("")}
			},
			want: []string{
				`spec.securityContext.windowsOptions.gmsaCredentialSpecName: Invalid value: "Spec": ` + pfSubdomainMsg,
				`spec.securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string`,
			},
		},
	})
}

func TestSysctls(t *testing.T) {
	const nameMsg = `must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$`
	pfRun(t, []pfCase{
		{
			name: "a sysctl without a name is refused",
			edit: func(p *v1.Pod) { pfPodSC(p).Sysctls = []v1.Sysctl{{Value: "1"}} },
			want: []string{"spec.securityContext.sysctls[0].name: Required value"},
		},
		{
			name: "a sysctl name that is not segments of lowercase letters and digits is refused",
			edit: func(p *v1.Pod) { pfPodSC(p).Sysctls = []v1.Sysctl{{Name: "Net.Core", Value: "1"}} },
			want: []string{`spec.securityContext.sysctls[0].name: Invalid value: "Net.Core": ` + nameMsg},
		},
		{
			name: "a sysctl named twice is refused the second time",
			edit: func(p *v1.Pod) {
				pfPodSC(p).Sysctls = []v1.Sysctl{{Name: "kernel.shm_rmid_forced", Value: "1"}, {Name: "kernel.shm_rmid_forced", Value: "0"}}
			},
			want: []string{`spec.securityContext.sysctls[1].name: Duplicate value: "kernel.shm_rmid_forced"`},
		},
		{
			name: "with hostNetwork a network sysctl is refused, also in slash form",
			edit: func(p *v1.Pod) {
				p.Spec.HostNetwork = true
				pfPodSC(p).Sysctls = []v1.Sysctl{{Name: "net.core.somaxconn", Value: "1"}, {Name: "net/ipv4/conf/eth0.1/rp_filter", Value: "1"}, {Name: "kernel.msgmax", Value: "1"}}
			},
			want: []string{
				`spec.securityContext.sysctls[0].name: Invalid value: "net.core.somaxconn": may not be specified when 'hostNetwork' is true`,
				`spec.securityContext.sysctls[1].name: Invalid value: "net/ipv4/conf/eth0.1/rp_filter": may not be specified when 'hostNetwork' is true`,
			},
		},
		{
			name: "with hostIPC an IPC sysctl is refused, by name, by prefix or by fs.mqueue",
			edit: func(p *v1.Pod) {
				p.Spec.HostIPC = true
				pfPodSC(p).Sysctls = []v1.Sysctl{{Name: "kernel.shmmax", Value: "1"}, {Name: "kernel.msg*", Value: "1"}, {Name: "fs.mqueue.msg_max", Value: "1"}, {Name: "kernel.domainname", Value: "x"}, {Name: "net.core.somaxconn", Value: "1"}}
			},
			want: []string{
				`spec.securityContext.sysctls[0].name: Invalid value: "kernel.shmmax": may not be specified when 'hostIPC' is true`,
				`spec.securityContext.sysctls[1].name: Invalid value: "kernel.msg*": ` + nameMsg,
				`spec.securityContext.sysctls[1].name: Invalid value: "kernel.msg*": may not be specified when 'hostIPC' is true`,
				`spec.securityContext.sysctls[2].name: Invalid value: "fs.mqueue.msg_max": may not be specified when 'hostIPC' is true`,
			},
		},
	})
}

func TestContainerSecurityContext(t *testing.T) {
	path := field.NewPath("spec", "containers").Index(0).Child("securityContext")
	podWithHostUsers := func(hostUsers *bool) *v1.PodSpec { return &v1.PodSpec{HostUsers: hostUsers} }
	tests := []struct {
		name string
		sc   *v1.SecurityContext
		spec *v1.PodSpec
		want []string
	}{
		{name: "no securityContext is accepted", spec: podWithHostUsers(nil)},
		{
			name: "a privileged container is accepted, as --allow-privileged is set",
			sc:   &v1.SecurityContext{Privileged: ptr.To(true)},
			spec: podWithHostUsers(nil),
		},
		{
			name: "bad user and group ids are refused",
			sc:   &v1.SecurityContext{RunAsUser: ptr.To[int64](-1), RunAsGroup: ptr.To[int64](1 << 32)},
			spec: podWithHostUsers(nil),
			want: []string{
				"spec.containers[0].securityContext.runAsUser: Invalid value: -1: " + pfIDMsg,
				"spec.containers[0].securityContext.runAsGroup: Invalid value: 4294967296: " + pfIDMsg,
			},
		},
		{
			name: "an unknown procMount is refused",
			sc:   &v1.SecurityContext{ProcMount: ptr.To(v1.ProcMountType("Masked"))},
			spec: podWithHostUsers(nil),
			want: []string{`spec.containers[0].securityContext.procMount: Unsupported value: "Masked": supported values: "Default", "Unmasked"`},
		},
		{
			name: "procMount Unmasked in the host's user namespace is refused",
			sc:   &v1.SecurityContext{ProcMount: ptr.To(v1.UnmaskedProcMount)},
			spec: podWithHostUsers(ptr.To(true)),
			want: []string{"spec.containers[0].securityContext.procMount: Invalid value: \"Unmasked\": `hostUsers` must be false to use `Unmasked`"},
		},
		{
			name: "procMount Unmasked with hostUsers false is accepted",
			sc:   &v1.SecurityContext{ProcMount: ptr.To(v1.UnmaskedProcMount)},
			spec: podWithHostUsers(ptr.To(false)),
		},
		{
			name: "allowPrivilegeEscalation false with privileged is refused, the context printed as the internal type",
			sc:   &v1.SecurityContext{Privileged: ptr.To(true), AllowPrivilegeEscalation: ptr.To(false)},
			spec: podWithHostUsers(nil),
			want: []string{`spec.containers[0].securityContext: Invalid value: {"Capabilities":null,"Privileged":true,"SELinuxOptions":null,"WindowsOptions":null,"RunAsUser":null,"RunAsGroup":null,"RunAsNonRoot":null,"ReadOnlyRootFilesystem":null,"AllowPrivilegeEscalation":false,"ProcMount":null,"SeccompProfile":null,"AppArmorProfile":null}: cannot set ` + "`allowPrivilegeEscalation` to false and `privileged` to true"},
		},
		{
			name: "allowPrivilegeEscalation false with CAP_SYS_ADMIN added is refused, SYS_ADMIN is not",
			sc: &v1.SecurityContext{
				AllowPrivilegeEscalation: ptr.To(false),
				Capabilities:             &v1.Capabilities{Add: []v1.Capability{"SYS_ADMIN", "CAP_SYS_ADMIN"}},
				SELinuxOptions:           &v1.SELinuxOptions{Type: "spc_t"},
			},
			spec: podWithHostUsers(nil),
			want: []string{`spec.containers[0].securityContext: Invalid value: {"Capabilities":{"Add":["SYS_ADMIN","CAP_SYS_ADMIN"],"Drop":null},"Privileged":null,"SELinuxOptions":{"User":"","Role":"","Type":"spc_t","Level":""},"WindowsOptions":null,"RunAsUser":null,"RunAsGroup":null,"RunAsNonRoot":null,"ReadOnlyRootFilesystem":null,"AllowPrivilegeEscalation":false,"ProcMount":null,"SeccompProfile":null,"AppArmorProfile":null}: cannot set ` + "`allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"},
		},
		{
			name: "a container's seccomp and AppArmor profiles are checked like the pod's",
			sc: &v1.SecurityContext{
				SeccompProfile:  &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost},
				AppArmorProfile: &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeLocalhost},
			},
			spec: podWithHostUsers(nil),
			want: []string{
				"spec.containers[0].securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost",
				"spec.containers[0].securityContext.appArmorProfile.localhostProfile: Required value: must be set when AppArmor type is Localhost",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, pfTexts(validateContainerSecurityContext(tc.sc, tc.spec, path)))
		})
	}
}

func TestWindowsRunAsUserName(t *testing.T) {
	tests := []struct {
		name     string
		userName string
		want     []string
	}{
		{name: "a plain user is accepted", userName: "ContainerUser"},
		{name: "a NetBIOS domain and user are accepted", userName: `NT AUTHORITY\NETWORK SERVICE`},
		{name: "a DNS domain and user are accepted", userName: `corp.example.com\svc`},
		{name: "an empty name is refused", userName: "", want: []string{"runAsUserName cannot be an empty string"}},
		{name: "a control character is refused", userName: "a\tb", want: []string{"runAsUserName cannot contain control characters"}},
		{name: "two backslashes are refused", userName: `a\b\c`, want: []string{"runAsUserName cannot contain more than one backslash"}},
		{name: "a domain of 256 bytes is refused for its length and its form", userName: strings.Repeat("d", 256) + `\u`,
			want: []string{"runAsUserName's Domain length must be under 256 characters", "runAsUserName's Domain doesn't match the NetBios nor the DNS format"}},
		{name: "an empty user is refused", userName: `dom\`, want: []string{"runAsUserName's User cannot be empty"}},
		{name: "a user of 105 bytes is refused", userName: strings.Repeat("u", 105),
			want: []string{"runAsUserName's User length must not be longer than 104 characters"}},
		{name: "a user of dots and spaces is refused", userName: ". .", want: []string{"runAsUserName's User cannot contain only periods or spaces"}},
		{name: "a user with '@' is refused", userName: "me@corp", want: []string{`runAsUserName's User cannot contain the following characters: "/\:;|=,+*?<>@[]`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, runAsUserNameProblems(tc.userName))
		})
	}
}

func TestSysctlNamespace(t *testing.T) {
	tests := []struct {
		name, sysctl string
		want         sysctlNS
	}{
		{name: "net.* is the network namespace", sysctl: "net.ipv4.ip_forward", want: sysctlNetNamespace},
		{name: "a slash-separated name is normalised first", sysctl: "net/ipv4/conf/eno2.100/rp_filter", want: sysctlNetNamespace},
		{name: "kernel.sem is IPC", sysctl: "kernel.sem", want: sysctlIPCNamespace},
		{name: "a kernel.shm prefix with '*' is IPC", sysctl: "kernel.shm*", want: sysctlIPCNamespace},
		{name: "fs.mqueue.* is IPC", sysctl: "fs.mqueue.queues_max", want: sysctlIPCNamespace},
		{name: "kernel.shmall.x is not a known IPC name", sysctl: "kernel.shmall.x", want: sysctlOtherNamespace},
		{name: "net alone has no namespace", sysctl: "net", want: sysctlOtherNamespace},
		{name: "kernel.domainname (UTS) is neither", sysctl: "kernel.domainname", want: sysctlOtherNamespace},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, sysctlNamespace(tc.sysctl))
		})
	}
}
