package configgen

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	netutils "k8s.io/utils/net"

	"github.com/podconfig/podconfig/internal/errkind"
	"github.com/podconfig/podconfig/internal/pathelem"
	"github.com/podconfig/podconfig/internal/podid"
)

// ValidatePod is the node-side validation of the pod-level fields a Generator turns into host
// paths, files or CRI messages, and of every container of the pod. The
// Generator calls it before any host effect; it is exported so that a provider can refuse a pod
// before it starts. It checks what the API server would have refused and what matters on the node,
// since podconfig may be fed specs that never passed one:
//
//   - every string that reaches a CRI message is valid UTF-8 (protobuf refuses to marshal anything
//     else), and those that become host paths, files, process arguments or kernel settings hold no
//     NUL byte (the kernel would cut them there);
//   - the namespace is an RFC 1123 label and the name an RFC 1123 subdomain, as the API server
//     requires, and the UID 1 to 128 ASCII letters, digits and '-': they become the pod's
//     directories, its log directory <namespace>_<name>_<uid>, its cgroup and its DNS search
//     domain, which no two pods may share and no name may break out of;
//   - other names that become host path elements are single elements of at most 255 bytes, and no
//     two containers of the pod share a name;
//   - user and group ids are within 0..2147483647; sysctl names are well formed, and net.* (or IPC)
//     sysctls are refused with hostNetwork (or hostIPC), whose namespace is the host's;
//   - environment variable names are not empty and hold no '=';
//   - hostPID and hostIPC are refused when hostUsers is false, and an Unmasked procMount unless it
//     is false;
//   - dnsConfig nameservers are IP addresses, searches "." or DNS subdomains, and option names
//     and values single words, since the runtime writes them into the container's resolv.conf.
//
// Errors wrap ErrInvalidPod and name the pod, the container when there is one, and the field.
func ValidatePod(pod *v1.Pod) error {
	if pod == nil {
		return fmt.Errorf("%w: pod must not be nil", ErrInvalidPod)
	}
	v := validator{pod: pod}
	v.podFields()
	for i := range pod.Spec.InitContainers {
		v.container(&pod.Spec.InitContainers[i])
	}
	for i := range pod.Spec.Containers {
		v.container(&pod.Spec.Containers[i])
	}
	for i := range pod.Spec.EphemeralContainers {
		c := v1.Container(pod.Spec.EphemeralContainers[i].EphemeralContainerCommon)
		v.container(&c)
	}
	return v.err
}

// validateContainer is ValidatePod's check of the pod-level fields and of one container, the one a
// Generator is about to configure (see ValidatePod for the rules), except that only that
// container's name is checked for a twin among the pod's containers, so that a call costs the
// same in a pod of thousands of containers (ValidatePod, which GeneratePodSandboxConfig calls,
// compares every name with every other). On top of the API server's rules
// for a container, Bidirectional mount propagation is refused for an unprivileged container, and
// negative resource quantities are refused wherever the API server refuses them.
func validateContainer(pod *v1.Pod, container *v1.Container) error {
	if pod == nil || container == nil {
		return fmt.Errorf("%w: pod and container must not be nil", ErrInvalidPod)
	}
	v := validator{pod: pod, only: container.Name}
	v.podFields()
	v.container(container)
	return v.err
}

// validator walks a pod and keeps the first problem. Field names are built only for the error, so
// a valid pod costs one pass over each string.
type validator struct {
	pod *v1.Pod
	ctr *v1.Container
	// only, when set, is the one container name uniqueContainerNames looks for twins of.
	only string
	err  error
}

// fail records the first problem: field, already formatted, and why it is refused.
func (v *validator) fail(field string, why string) {
	v.failMsg("invalid " + field + ": " + why)
}

// failMsg records the first problem, prefixed with the pod and the container.
func (v *validator) failMsg(msg string) {
	if v.err != nil {
		return
	}
	who := fmt.Sprintf("pod %q", v.pod.Namespace+"/"+v.pod.Name)
	if v.ctr != nil {
		who += fmt.Sprintf(" container %q", v.ctr.Name)
	}
	v.err = errkind.New(ErrInvalidPod, who+": "+msg, nil)
}

// badByte is pathelem.FirstBad: the offset of the first invalid UTF-8 byte (or NUL, with
// noNUL), or -1.
func badByte(s string, noNUL bool) int { return pathelem.FirstBad(s, noNUL) }

// badText is why s is refused, or "" (see badByte).
func badText(s string, noNUL bool) string {
	i := badByte(s, noNUL)
	if i < 0 {
		return ""
	}
	if s[i] == 0 {
		return "must not contain a NUL byte (at byte " + strconv.Itoa(i) + ")"
	}
	return "must be valid UTF-8 (invalid byte at " + strconv.Itoa(i) + ")"
}

// text checks a string that reaches a CRI message; path also refuses NUL, for strings that become
// host paths, files, arguments or kernel settings.
func (v *validator) text(field, s string) {
	if v.err == nil && badByte(s, false) >= 0 {
		v.fail(field, badText(s, false))
	}
}

func (v *validator) path(field, s string) {
	if v.err == nil && badByte(s, true) >= 0 {
		v.fail(field, badText(s, true))
	}
}

func (v *validator) pathPtr(field string, s *string) {
	if s != nil {
		v.path(field, *s)
	}
}

func (v *validator) list(field string, l []string, noNUL bool) {
	for i, s := range l {
		if v.err == nil && badByte(s, noNUL) >= 0 {
			v.fail(field+"["+strconv.Itoa(i)+"]", badText(s, noNUL))
		}
	}
}

func (v *validator) dict(field string, m map[string]string) {
	for k, s := range m {
		if v.err != nil {
			return
		}
		// An AppArmor annotation's value is a profile name the kernel reads as a C string.
		noNUL := strings.HasPrefix(k, v1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix)
		if badByte(k, false) >= 0 {
			v.fail(field+"["+strconv.Quote(k)+"]", "key "+badText(k, false))
		} else if badByte(s, noNUL) >= 0 {
			v.fail(field+"["+strconv.Quote(k)+"]", badText(s, noNUL))
		}
	}
}

// name checks a name that becomes one host path element.
func (v *validator) name(field, s string) {
	if v.err != nil {
		return
	}
	// A name Validate accepts holds no NUL and is valid UTF-8, so it passes path too.
	if msg := pathelem.Validate(field, s); msg != "" {
		v.failMsg(msg)
	}
}

// id checks a user or group id as the API server's IsValidUserID and IsValidGroupID do.
func (v *validator) id(field string, id *int64) {
	if v.err == nil && id != nil && (*id < 0 || *id > math.MaxInt32) {
		v.fail(field, fmt.Sprintf("%d must be between 0 and 2147483647, inclusive", *id))
	}
}

func (v *validator) podFields() {
	p := v.pod
	if _, msg := podid.Problem(p.Namespace, p.Name, p.UID); msg != "" && v.err == nil {
		v.failMsg(msg)
	}
	v.dict("metadata.labels", p.Labels)
	v.dict("metadata.annotations", p.Annotations)
	if dc := p.Spec.DNSConfig; dc != nil {
		v.dnsConfig(dc)
	}
	v.uniqueContainerNames()
	v.path("spec.hostname", p.Spec.Hostname)
	v.path("spec.subdomain", p.Spec.Subdomain)
	for i, a := range p.Spec.HostAliases {
		if v.err == nil && badByte(a.IP, true) >= 0 {
			v.fail(fmt.Sprintf("spec.hostAliases[%d].ip", i), badText(a.IP, true))
		}
		for j, h := range a.Hostnames {
			if v.err == nil && badByte(h, true) >= 0 {
				v.fail(fmt.Sprintf("spec.hostAliases[%d].hostnames[%d]", i, j), badText(h, true))
			}
		}
	}
	v.resources("spec.overhead", p.Spec.Overhead)
	if r := p.Spec.Resources; r != nil {
		v.resources("spec.resources.limits", r.Limits)
		v.resources("spec.resources.requests", r.Requests)
	}
	if p.Spec.HostUsers != nil && !*p.Spec.HostUsers {
		if p.Spec.HostPID {
			v.fail("spec.hostPID", "forbidden when spec.hostUsers is false")
		}
		if p.Spec.HostIPC {
			v.fail("spec.hostIPC", "forbidden when spec.hostUsers is false")
		}
	}
	sc := p.Spec.SecurityContext
	if sc == nil {
		return
	}
	v.seLinux("spec.securityContext.seLinuxOptions", sc.SELinuxOptions)
	if sc.SeccompProfile != nil {
		v.pathPtr("spec.securityContext.seccompProfile.localhostProfile", sc.SeccompProfile.LocalhostProfile)
	}
	if sc.AppArmorProfile != nil {
		v.pathPtr("spec.securityContext.appArmorProfile.localhostProfile", sc.AppArmorProfile.LocalhostProfile)
	}
	v.id("spec.securityContext.runAsUser", sc.RunAsUser)
	v.id("spec.securityContext.runAsGroup", sc.RunAsGroup)
	v.id("spec.securityContext.fsGroup", sc.FSGroup)
	for i, g := range sc.SupplementalGroups {
		if g < 0 || g > math.MaxInt32 {
			v.id(fmt.Sprintf("spec.securityContext.supplementalGroups[%d]", i), &g)
		}
	}
	for i, s := range sc.Sysctls {
		v.sysctl(i, s)
	}
}

// uniqueContainerNames refuses two containers of a pod (regular, init or ephemeral) with one name,
// as the API server does: the name is a host path element of the container's log directory,
// its subPath bind targets and its termination-message directory, which two containers would
// share. Names are compared in the API server's order (regular, init, ephemeral), so the error
// names the later of the two.
func (v *validator) uniqueContainerNames() {
	s := &v.pod.Spec
	n := len(s.Containers) + len(s.InitContainers) + len(s.EphemeralContainers)
	if n < 2 || v.err != nil {
		return
	}
	// at is the i-th container in that order: its list, its index there and its name.
	at := func(i int) (list string, index int, name string) {
		switch {
		case i < len(s.Containers):
			return "spec.containers", i, s.Containers[i].Name
		case i < len(s.Containers)+len(s.InitContainers):
			i -= len(s.Containers)
			return "spec.initContainers", i, s.InitContainers[i].Name
		default:
			i -= len(s.Containers) + len(s.InitContainers)
			return "spec.ephemeralContainers", i, s.EphemeralContainers[i].Name
		}
	}
	if v.only != "" {
		// The configured container's name against the others': the second one found is the
		// later of a pair, in one walk that allocates nothing.
		found := false
		for i := 0; i < n; i++ {
			list, idx, ni := at(i)
			if ni != v.only {
				continue
			}
			if found {
				v.fail(list+"["+strconv.Itoa(idx)+"].name", strconv.Quote(ni)+" is also the name of another container of the pod")
				return
			}
			found = true
		}
		return
	}
	seen := make(map[string]bool, n)
	for i := 0; i < n; i++ {
		list, idx, ni := at(i)
		dup := seen[ni]
		seen[ni] = true
		if dup {
			v.fail(list+"["+strconv.Itoa(idx)+"].name", strconv.Quote(ni)+" is also the name of another container of the pod")
			return
		}
	}
}

// dnsConfig checks a pod's DNS config as the API server's validatePodDNSConfig does: nameservers
// are IP addresses, searches "." or DNS subdomains with underscores allowed (a trailing dot too),
// options named. The runtime
// writes each of them into the container's resolv.conf, so an option's name or value holding
// whitespace or a control character, which the API server lets through, is refused too: it
// would add a line to that file.
func (v *validator) dnsConfig(dc *v1.PodDNSConfig) {
	v.list("spec.dnsConfig.nameservers", dc.Nameservers, true)
	v.list("spec.dnsConfig.searches", dc.Searches, true)
	for i, ns := range dc.Nameservers {
		if v.err == nil && netutils.ParseIPSloppy(ns) == nil {
			v.fail(fmt.Sprintf("spec.dnsConfig.nameservers[%d]", i), strconv.Quote(ns)+" must be a valid IP address")
		}
	}
	for i, search := range dc.Searches {
		// RelaxedDNSSearchValidation (GA, locked on): a lone "." and underscores are valid.
		if v.err == nil && search != "." && len(validation.IsDNS1123SubdomainWithUnderscore(strings.TrimSuffix(search, "."))) > 0 {
			v.fail(fmt.Sprintf("spec.dnsConfig.searches[%d]", i), strconv.Quote(search)+" must be \".\" or a DNS subdomain (RFC 1123, underscores allowed), optionally ending in a dot")
		}
	}
	for i, o := range dc.Options {
		if v.err != nil {
			return
		}
		f := func(name string) string { return fmt.Sprintf("spec.dnsConfig.options[%d].%s", i, name) }
		if badByte(o.Name, true) >= 0 || o.Value != nil && badByte(*o.Value, true) >= 0 {
			v.path(f("name"), o.Name)
			v.pathPtr(f("value"), o.Value)
			return
		}
		switch {
		case o.Name == "":
			v.fail(f("name"), "must not be empty")
		case !resolvConfWord(o.Name):
			v.fail(f("name"), "must not contain whitespace or control characters: "+strconv.Quote(o.Name))
		case o.Value != nil && !resolvConfWord(*o.Value):
			v.fail(f("value"), "must not contain whitespace or control characters: "+strconv.Quote(*o.Value))
		}
	}
}

// resolvConfWord reports whether valid UTF-8 s stays one word of a resolv.conf line: no
// whitespace and no control character.
func resolvConfWord(s string) bool {
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// sysctl checks a sysctl's name as the API server's IsValidSysctlName does, and that it does not
// reach a namespace the pod shares with the host.
func (v *validator) sysctl(i int, s v1.Sysctl) {
	if v.err != nil {
		return
	}
	field := func() string { return fmt.Sprintf("spec.securityContext.sysctls[%d]", i) }
	if why := badText(s.Value, true); why != "" {
		v.fail(field()+".value", why)
		return
	}
	if !validSysctlName(s.Name) {
		v.fail(field()+".name", fmt.Sprintf("%q must have at most 253 characters and match the regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$", s.Name))
		return
	}
	if !v.pod.Spec.HostNetwork && !v.pod.Spec.HostIPC {
		return
	}
	name := strings.ReplaceAll(s.Name, "/", ".")
	switch {
	case v.pod.Spec.HostNetwork && strings.HasPrefix(name, "net."):
		v.fail(field()+".name", fmt.Sprintf("%q may not be set when spec.hostNetwork is true: the network namespace is the host's", s.Name))
	case v.pod.Spec.HostIPC && isIPCSysctl(name):
		v.fail(field()+".name", fmt.Sprintf("%q may not be set when spec.hostIPC is true: the IPC namespace is the host's", s.Name))
	}
}

// validSysctlName matches ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$
// and at most 253 bytes, without a regexp: a separator ('.' or '/') follows a letter or digit, a
// '-' or '_' does not follow a separator (or start the name), and the name ends in a letter or
// digit. Letters and digits, most of a name, take one test each.
func validSysctlName(name string) bool {
	if len(name) > 253 {
		return false
	}
	prev := byte('.') // the start of the name is the start of a segment
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c-'a' < 26 || c-'0' < 10 {
			prev = c
			continue
		}
		switch c {
		case '-', '_':
			if prev == '.' || prev == '/' {
				return false
			}
		case '.', '/':
			if !(prev-'a' < 26 || prev-'0' < 10) {
				return false
			}
		default:
			return false
		}
		prev = c
	}
	return prev-'a' < 26 || prev-'0' < 10
}

// isIPCSysctl reports whether a dotted sysctl name is namespaced by IPC.
func isIPCSysctl(name string) bool {
	switch name {
	case "kernel.shmall", "kernel.shmmax", "kernel.shmmni", "kernel.shm_rmid_forced",
		"kernel.msgmax", "kernel.msgmnb", "kernel.msgmni", "kernel.sem":
		return true
	}
	return strings.HasPrefix(name, "fs.mqueue.")
}

func (v *validator) seLinux(field string, o *v1.SELinuxOptions) {
	if o == nil || v.err != nil {
		return
	}
	for _, s := range [...]string{o.User, o.Role, o.Type, o.Level} {
		if why := badText(s, true); why != "" {
			v.fail(field, why)
		}
	}
}

// resources refuses negative quantities, as the API server's ValidateResourceQuantityValue.
func (v *validator) resources(field string, l v1.ResourceList) {
	if v.err != nil || !anyNegative(l) {
		return
	}
	for name, q := range l {
		if v.err == nil && q.Sign() < 0 {
			v.fail(field+"["+strconv.Quote(string(name))+"]", q.String()+" must be greater than or equal to 0")
		}
	}
}

// anyNegative reports whether a quantity of l is negative. Most lists name only cpu and memory:
// looking those two up costs less than walking the map, which is left for the others.
func anyNegative(l v1.ResourceList) bool {
	if len(l) == 0 {
		return false
	}
	found := 0
	for _, name := range [...]v1.ResourceName{v1.ResourceCPU, v1.ResourceMemory} {
		if q, ok := l[name]; ok {
			if q.Sign() < 0 {
				return true
			}
			found++
		}
	}
	if found == len(l) {
		return false
	}
	for _, q := range l {
		if q.Sign() < 0 {
			return true
		}
	}
	return false
}

func (v *validator) container(c *v1.Container) {
	if v.err != nil {
		return
	}
	v.ctr = c
	defer func() { v.ctr = nil }()
	v.name("container name", c.Name)
	v.text("image", c.Image)
	v.list("command", c.Command, true)
	v.list("args", c.Args, true)
	v.path("workingDir", c.WorkingDir)
	v.path("terminationMessagePath", c.TerminationMessagePath)
	v.text("terminationMessagePolicy", string(c.TerminationMessagePolicy))
	for i, e := range c.Env {
		// A plain name that is not empty is one envNameProblem accepts, found in one pass.
		plain := e.Name != "" && pathelem.Plain(e.Name, '=')
		if v.err == nil && (!plain && envNameProblem(e.Name) != "" || strings.IndexByte(e.Value, 0) >= 0) {
			f := fmt.Sprintf("env[%d]", i)
			if why := envNameProblem(e.Name); why != "" {
				v.fail(f+".name", why)
			} else {
				v.fail(f+".value", nulText(e.Value))
			}
		}
	}
	for i, e := range c.EnvFrom {
		if v.err == nil && badByte(e.Prefix, true) >= 0 {
			v.fail(fmt.Sprintf("envFrom[%d].prefix", i), badText(e.Prefix, true))
		}
	}
	for i, p := range c.Ports {
		v.port(i, p)
	}
	privileged := c.SecurityContext != nil && c.SecurityContext.Privileged != nil && *c.SecurityContext.Privileged
	for i, m := range c.VolumeMounts {
		if v.err != nil {
			return
		}
		if badByte(m.Name, true) >= 0 || badByte(m.MountPath, true) >= 0 || badByte(m.SubPath, true) >= 0 || badByte(m.SubPathExpr, true) >= 0 {
			f := fmt.Sprintf("volumeMounts[%d]", i)
			v.path(f+".name", m.Name)
			v.path(f+".mountPath", m.MountPath)
			v.path(f+".subPath", m.SubPath)
			v.path(f+".subPathExpr", m.SubPathExpr)
		}
		if m.MountPropagation != nil && *m.MountPropagation == v1.MountPropagationBidirectional && !privileged {
			v.fail(fmt.Sprintf("volumeMounts[%d].mountPropagation", i), "Bidirectional mount propagation is available only to privileged containers")
		}
	}
	for i, d := range c.VolumeDevices {
		if v.err == nil && (badByte(d.Name, true) >= 0 || badByte(d.DevicePath, true) >= 0) {
			f := fmt.Sprintf("volumeDevices[%d]", i)
			v.path(f+".name", d.Name)
			v.path(f+".devicePath", d.DevicePath)
		}
	}
	v.resources("resources.limits", c.Resources.Limits)
	v.resources("resources.requests", c.Resources.Requests)
	sc := c.SecurityContext
	if sc == nil {
		return
	}
	if caps := sc.Capabilities; caps != nil {
		for i, s := range caps.Add {
			if v.err == nil && badByte(string(s), true) >= 0 {
				v.fail(fmt.Sprintf("securityContext.capabilities.add[%d]", i), badText(string(s), true))
			}
		}
		for i, s := range caps.Drop {
			if v.err == nil && badByte(string(s), true) >= 0 {
				v.fail(fmt.Sprintf("securityContext.capabilities.drop[%d]", i), badText(string(s), true))
			}
		}
	}
	v.seLinux("securityContext.seLinuxOptions", sc.SELinuxOptions)
	if sc.SeccompProfile != nil {
		v.pathPtr("securityContext.seccompProfile.localhostProfile", sc.SeccompProfile.LocalhostProfile)
	}
	if sc.AppArmorProfile != nil {
		v.pathPtr("securityContext.appArmorProfile.localhostProfile", sc.AppArmorProfile.LocalhostProfile)
	}
	v.id("securityContext.runAsUser", sc.RunAsUser)
	v.id("securityContext.runAsGroup", sc.RunAsGroup)
	v.procMount(sc.ProcMount)
}

// procMount checks a container's procMount as the API server does: Default or Unmasked, and
// Unmasked only in a user namespace (hostUsers: false). Kubelet sends an Unmasked container no
// masked or read-only /proc paths, so in the host's user namespace container root would reach
// the host's /proc/sys and /proc/sysrq-trigger.
func (v *validator) procMount(pm *v1.ProcMountType) {
	if pm == nil || v.err != nil {
		return
	}
	switch *pm {
	case v1.DefaultProcMount:
	case v1.UnmaskedProcMount:
		if hu := v.pod.Spec.HostUsers; hu == nil || *hu {
			v.fail("securityContext.procMount", "`hostUsers` must be false to use `Unmasked`")
		}
	default:
		v.fail("securityContext.procMount", strconv.Quote(string(*pm))+" is not supported (Default, Unmasked)")
	}
}

// port checks a container port as the API server's validateContainerPorts does, with hostIP as
// text: containerPort in 1..65535, hostPort in 0..65535 and, on the host network, equal to it.
func (v *validator) port(i int, p v1.ContainerPort) {
	if v.err != nil {
		return
	}
	f := func(name string) string { return fmt.Sprintf("ports[%d].%s", i, name) }
	switch {
	case p.ContainerPort < 1 || p.ContainerPort > 65535:
		v.fail(f("containerPort"), fmt.Sprintf("%d must be between 1 and 65535, inclusive", p.ContainerPort))
	case p.HostPort < 0 || p.HostPort > 65535:
		v.fail(f("hostPort"), fmt.Sprintf("%d must be between 0 and 65535, inclusive", p.HostPort))
	case v.pod.Spec.HostNetwork && p.HostPort != 0 && p.HostPort != p.ContainerPort:
		v.fail(f("hostPort"), fmt.Sprintf("%d must match containerPort %d when spec.hostNetwork is true", p.HostPort, p.ContainerPort))
	case badByte(p.Name, false) >= 0:
		v.fail(f("name"), badText(p.Name, false))
	case badByte(p.HostIP, true) >= 0:
		v.fail(f("hostIP"), badText(p.HostIP, true))
	}
}

// commandLine is a container's command and args after $(VAR) expansion.
type commandLine struct {
	command, args []string
}

// checkEnv checks the environment as it will reach the runtime: names and values come from
// ConfigMaps, Secrets, env files and expansion too, so they are checked once built. Names are
// strings in CRI; values are bytes, which may be any binary data but are cut at a NUL by execve.
func checkEnv(pod *v1.Pod, container *v1.Container, envs []EnvVar) error {
	for _, e := range envs {
		if envPassesCheck(e) {
			continue
		}
		v := validator{pod: pod, ctr: container}
		if why := envNameProblem(e.Name); why != "" {
			v.fail("environment variable name "+strconv.Quote(e.Name), why)
		} else {
			v.fail("value of environment variable "+strconv.Quote(e.Name), nulText(e.Value))
		}
		return v.err
	}
	return nil
}

// envPassesCheck reports whether checkEnv accepts e.
func envPassesCheck(e EnvVar) bool {
	// A plain name (ASCII, no NUL or '=') passes envNameProblem without a closer look.
	plain := e.Name != "" && pathelem.Plain(e.Name, '=')
	return (plain || envNameProblem(e.Name) == "") && strings.IndexByte(e.Value, 0) < 0
}

// envNameProblem is why an environment variable's name is refused, or "". The runtime hands the
// process NAME=value, so a name must be non-empty and hold no '=' (the API server's
// IsRelaxedEnvVarName), besides the UTF-8 and NUL rules of every string.
func envNameProblem(name string) string {
	switch {
	case name == "":
		return "must not be empty"
	case badByte(name, true) >= 0:
		return badText(name, true)
	case strings.IndexByte(name, '=') >= 0:
		return "must not contain '='"
	}
	return ""
}

// nulText is why a value holding a NUL is refused.
func nulText(s string) string {
	return "must not contain a NUL byte (at byte " + strconv.Itoa(strings.IndexByte(s, 0)) + ")"
}

// checkCommandLine checks the expanded command and args.
func checkCommandLine(pod *v1.Pod, container *v1.Container, cmd *commandLine) error {
	v := validator{pod: pod, ctr: container}
	v.list("command (expanded)", cmd.command, true)
	v.list("args (expanded)", cmd.args, true)
	return v.err
}

// checkContainerArgs checks what GenerateContainerConfig's caller passes beside the pod.
func checkContainerArgs(req ContainerRequest) error {
	v := validator{pod: req.Pod, ctr: req.Container}
	if req.RestartCount < 0 || req.RestartCount > math.MaxUint32 {
		v.fail("restart count", strconv.Itoa(req.RestartCount)+" must be between 0 and 4294967295")
	}
	v.text("image reference", req.ImageRef)
	v.text("namespace target", req.NamespaceTarget)
	return v.err
}
