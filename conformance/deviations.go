package conformance

import "strings"

// Deviation is a known difference between kubelet v1.37 and podconfig. Each has a row in the
// README's compatibility table.
type Deviation struct {
	// Name is what scenarios list.
	Name string
	// Why says what differs and why.
	Why string
	// Match reports whether a difference is this deviation.
	Match func(Diff) bool
}

// Deviations are the known differences, by name.
var Deviations = []Deviation{
	{
		Name:  "oom-score-pod-level-request",
		Why:   "kubelet clamps a pod's unclaimed memory request at zero when the pod-level request is below the containers' total; podconfig does not (fix under way)",
		Match: func(d Diff) bool { return strings.HasSuffix(d.Path, ".linux.resources.oomScoreAdj") },
	},
	{
		Name: "fqdn-over-64-fails-containers",
		Why:  "an FQDN over 64 characters with setHostnameAsFQDN fails only kubelet's sandbox; podconfig fails every container too (fix under way)",
		Match: func(d Diff) bool {
			return (strings.HasSuffix(d.Path, ".error") && d.Kubelet == "no error" && strings.Contains(d.Podconfig, "is too long")) ||
				(strings.HasSuffix(d.Path, ".etcHosts") && d.Podconfig == `""`)
		},
	},
	{
		Name:  "user-sysctls-host-users-unset",
		Why:   "kubelet keeps the default user.* sysctls only for hostUsers: false; podconfig also keeps them when hostUsers is unset (fix under way)",
		Match: func(d Diff) bool { return strings.HasPrefix(d.Path, "sandbox.linux.sysctls.user.") },
	},
	{
		Name: "userns-error-no-handlers",
		Why:  "with no runtime handlers reported kubelet says the runtime does not support user namespaces; podconfig names the handler and adds why (fix under way)",
		Match: func(d Diff) bool {
			return strings.HasSuffix(d.Path, ".error") && strings.Contains(d.Kubelet, "runtime does not support user namespaces")
		},
	},
	{
		Name: "image-sub-path-ordinary-mounts",
		Why:  "when a pod has an image volume kubelet copies every mount's subPath into image_sub_path; podconfig only for image volumes (fix under way)",
		Match: func(d Diff) bool {
			return strings.Contains(d.Path, ".mounts[") && strings.HasSuffix(d.Path, ".imageSubPath")
		},
	},
	{
		Name:  "default-pod-sysctls-gate",
		Why:   "Options.FeatureGates.DefaultPodSysctls has no effect; only Security.DefaultPodSysctlsGate is read (fix under way)",
		Match: func(d Diff) bool { return strings.HasPrefix(d.Path, "sandbox.linux.sysctls.") && d.Podconfig == "unset" },
	},
	{
		Name: "empty-volume-path",
		Why:  "a mounted volume whose path is empty cannot be expressed in a mounts.VolumeMap, so podconfig says `cannot find volume` where kubelet says `path is empty` (fix under way)",
		Match: func(d Diff) bool {
			return strings.HasSuffix(d.Path, ".error") && strings.Contains(d.Kubelet, "path is empty")
		},
	},
}

// DeviationByName returns the named deviation.
func DeviationByName(name string) (Deviation, bool) {
	for _, d := range Deviations {
		if d.Name == name {
			return d, true
		}
	}
	return Deviation{}, false
}

// Classify splits diffs into those explained by one of the named deviations (by name) and the
// rest.
func Classify(diffs []Diff, names []string) (explained map[string][]Diff, unexplained []Diff) {
	explained = map[string][]Diff{}
	for _, d := range diffs {
		matched := false
		for _, name := range names {
			dev, ok := DeviationByName(name)
			if ok && dev.Match(d) {
				explained[name] = append(explained[name], d)
				matched = true
				break
			}
		}
		if !matched {
			unexplained = append(unexplained, d)
		}
	}
	return explained, unexplained
}

// AllNames returns every deviation's name.
func AllNames() []string {
	names := make([]string, len(Deviations))
	for i, d := range Deviations {
		names[i] = d.Name
	}
	return names
}
