package main

import (
	"flag"
	"fmt"
	"net"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/podconfig/podconfig/blockdev"
	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/features"
	"github.com/podconfig/podconfig/images"
	"github.com/podconfig/podconfig/manifest"
)

// renderConfig is what the render command line asks for.
type renderConfig struct {
	files         []string
	fileFlags     fileFlag
	recursive     bool
	imageUsers    imageUserFlag
	defaultUser   defaultImageUserFlag
	output        string
	outputDir     string
	replicas      int
	ordinal       int // -1: not set
	applyDefaults bool
	admission     bool
	validation    bool
	// priorityClasses are --priority-class's, by name; priorityFlags the flag's values.
	priorityClasses []*schedulingv1.PriorityClass
	priorityFlags   listFlag
	// hostsFile is --hosts-file, the node's /etc/hosts for host-network pods.
	hostsFile string
	// scheduledTime is --scheduled-time, a CronJob's Job's time; zero when not given.
	scheduledTime time.Time
	// devices are --device's: per extended resource, the devices its plugin gives a container.
	devices       map[v1.ResourceName][]blockdev.DeviceInfo
	deviceFlags   listFlag
	allowMissing  bool
	showSecrets   bool
	container     string
	podIPs        listFlag
	nodeIPs       listFlag
	clusterDNS    listFlag
	clusterDomain string
	resolvConf    string
	cgroupDriver  string
	cgroupRoot    string
	cgroupVersion int
	featureGates  gatesFlag
}

func newRenderFlags() (*renderConfig, *flag.FlagSet) {
	cfg := &renderConfig{featureGates: gatesFlag{gates: features.Default()}}
	fs := flag.NewFlagSet("podconfig render", flag.ContinueOnError)
	fs.Var(&cfg.fileFlags, "f", "a file or directory to read, as kubectl's -f (repeatable; the same as naming it after the flags)")
	fs.Var(&cfg.fileFlags, "filename", "the same as -f")
	fs.BoolVar(&cfg.recursive, "R", false, "read the subdirectories of a directory too, as kubectl's -R")
	fs.BoolVar(&cfg.recursive, "recursive", false, "the same as -R")
	fs.StringVar(&cfg.output, "o", "json", "output format: json, yaml, table or crictl (files for crictl runp and create, written below --output-directory)")
	fs.StringVar(&cfg.output, "output", "json", "output format: json, yaml, table or crictl (same as -o)")
	fs.StringVar(&cfg.outputDir, "output-directory", "", "with -o crictl: where to write, per pod, <namespace>_<name>/pod-config.json, container-<name>.json and README.md, and the host files they mount (below kubelet/ and pods/): /etc/hosts, termination-message files, and the emptyDir, configMap, secret, downwardAPI and projected volumes as kubelet sets them up (each file with its mode and owner, the ..data link; on disk, nothing mounted), a Secret's values and tokens only with --show-secrets, otherwise each as the text "+strconv.Quote(secretPlaceholderText)+" repeated and cut to its size; hostPath volumes are the host's, other volumes empty directories")
	fs.IntVar(&cfg.replicas, "replicas", 1, "how many pods to render per workload, from the first (capped by the workload's own count)")
	cfg.ordinal = -1
	fs.Var(&ordinalFlag{&cfg.ordinal}, "ordinal", "render only this pod of each workload: a StatefulSet's ordinal, an Indexed Job's completion index, or the replica number (default: the first --replicas pods)")
	fs.BoolVar(&cfg.applyDefaults, "apply-defaults", true, "apply the API server's defaults to each pod, as a cluster does before kubelet sees it")
	fs.BoolVar(&cfg.admission, "admission", true, "apply what the API server's default admission plugins do to each pod (the service-account token volume, priority, LimitRange defaults, RuntimeClass overhead, default tolerations), reading the input's ServiceAccounts, PriorityClasses, LimitRanges and RuntimeClasses; false renders the spec as written")
	fs.BoolVar(&cfg.validation, "validate", true, "refuse, with the API server's field paths and words, each workload and pod a cluster would refuse (kube-apiserver's validation, after defaults and admission; not with --apply-defaults=false, whose pods lack the defaults it checks)")
	fs.Var(&cfg.priorityFlags, "priority-class", "a PriorityClass the cluster has, NAME=VALUE (repeatable, or comma-separated), as a PriorityClass document in the input would give it; system-node-critical and system-cluster-critical are built in")
	fs.StringVar(&cfg.hostsFile, "hosts-file", "", "the node's /etc/hosts, which kubelet copies into host-network pods (default: one line, 127.0.0.1 localhost, with a warning)")
	fs.Var(timeFlag{&cfg.scheduledTime}, "scheduled-time", "the time a CronJob's Job is scheduled for (RFC 3339), which names the Job and its pods (default: the RenderContext's scheduledTime, else the epoch, with a warning)")
	fs.Var(&cfg.deviceFlags, "device", "a device an extended resource's device plugin gives each container that requests it, RESOURCE=HOSTPATH[:CONTAINERPATH[:PERMISSIONS]] (repeatable; PERMISSIONS default mrw). Offline no plugin runs: a container that requests an extended resource without one gets no device, with a warning")
	fs.BoolVar(&cfg.showSecrets, "show-secrets", false, "print the content of Secret-backed volume files and service-account tokens, which are otherwise shown by size only (offline a token is a placeholder); with -o crictl, write a Secret's values into the files, its volumes' and the containers' environment, which otherwise hold placeholders of their size")
	fs.BoolVar(&cfg.allowMissing, "allow-missing", false, "instead of failing, with a warning: render ConfigMaps and Secrets that pods require (env or volumes) but the input lacks as visible placeholders (optional references to them are left out, as kubelet skips them), give block devices (volumeDevices) a placeholder device, render env variables read from a file that does not exist offline (fileKeyRef: written at run time by a container of the pod) as placeholders, and take a missing RuntimeClass as one with no settings")
	fs.Var(&cfg.imageUsers, "image-user", "the user an image runs as, IMAGE=UID[:GID] or IMAGE=NAME, repeatable (as a RenderContext's imageUsers; this wins). IMAGE is a reference or NAME:* for every tag and digest of a repository (matching: see above). Offline an image's USER is unknown: an image no rule names runs as uid 0, with a warning")
	fs.Var(&cfg.defaultUser, "default-image-user", "the user, UID[:GID] or NAME, of every image no --image-user or imageUsers names (as a RenderContext's defaultImageUser; this wins), with one warning naming them")
	fs.StringVar(&cfg.container, "container", "", "render only the container (init, app or ephemeral) of this name")
	fs.Var(&cfg.podIPs, "pod-ip", "the pods' IPs, comma-separated or repeated (default: the RenderContext's podIPs, else the pod's status.podIPs, else 10.244.0.10, .11, ... per pod; none for host-network pods, which get the node's IPs)")
	fs.Var(&cfg.nodeIPs, "node-ip", "kubelet's --node-ip, comma-separated or repeated (default: the Node's InternalIPs, else 10.0.0.1)")
	fs.Var(&cfg.clusterDNS, "cluster-dns", "kubelet's --cluster-dns, comma-separated or repeated (default 10.96.0.10)")
	fs.StringVar(&cfg.clusterDomain, "cluster-domain", "cluster.local", "kubelet's --cluster-domain")
	fs.StringVar(&cfg.resolvConf, "resolv-conf", "", "kubelet's --resolv-conf: the file read for dnsPolicy Default and host-network pods (default: a typical one, nameserver 10.0.0.2, with a warning)")
	fs.StringVar(&cfg.cgroupDriver, "cgroup-driver", "cgroupfs", "kubelet's --cgroup-driver: cgroupfs or systemd")
	fs.StringVar(&cfg.cgroupRoot, "cgroup-root", "", "kubelet's --cgroup-root: pods' cgroups go below <root>/kubepods (default /)")
	fs.IntVar(&cfg.cgroupVersion, "cgroup-version", 2, "the node's cgroup version: 1 or 2")
	fs.Var(&cfg.featureGates, "feature-gates", "kubelet feature gates, Name=true|false,... (known: "+strings.Join(gateNames(), ", ")+")")
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprint(out, `Usage: podconfig render [flags] FILE...|-
       podconfig render [flags] -f FILE [-f FILE...] [-R]

Renders the pods of Kubernetes manifests as kubelet v1.37 would start them on a Linux node:
per pod the CRI sandbox config, per container the CRI container config, environment, /etc/hosts
file and warnings. FILE is multi-document YAML or JSON ("-" reads standard input; a directory,
its .yaml, .yml and .json files, and its subdirectories' with -R) holding Pods, Deployments,
StatefulSets, DaemonSets, ReplicaSets, ReplicationControllers, Jobs, CronJobs or Lists of them,
the ConfigMaps, Secrets, Services, ServiceAccounts, PriorityClasses, LimitRanges, RuntimeClasses
and Node they use, and optionally a RenderContext document. Other kinds are skipped, with one
warning on standard error. A pod with no namespace gets "default", one with no UID a stable UID.

Each pod gets the API server's defaults, then its default admission (--admission): it mounts its
ServiceAccount's token (a ServiceAccount the input lacks is assumed, with a warning), gets its
PriorityClass's priority (system-node-critical and system-cluster-critical are built in), its
LimitRanges' default resources and its RuntimeClass's overhead. A Service with no clusterIP gets
a stable one in 10.96.0.0/16, as the API server would allocate one. When the input has none, a
"kubernetes" Service (10.96.0.1:443) is assumed, and a Node named as the pod is bound ("node")
with the --node-ip addresses (a live pod's status.hostIPs), 4 CPUs and 16Gi of memory (15Gi
allocatable).

A RenderContext gives what a node knows and a manifest cannot (any apiVersion; every field is
optional; --pod-ip, --image-user and --default-image-user win over it):

  kind: RenderContext
  podIPs: [10.1.0.5]                # every pod's IPs
  imageUsers:                       # the user each image runs as (default: uid 0, with a warning)
    nginx:1.27: 101                 # a uid; nginx:1.27 is docker.io/library/nginx:1.27
    registry.example/app:2: "1000:1000"
    redis:*: {username: redis}      # every tag and digest of docker.io/library/redis
  defaultImageUser: 65532           # every other image's
  restartCount: 0                   # every container's
  scheduledTime: "2026-01-01T00:00:00Z"  # a CronJob's Job

An image's user is that of its reference, normalised as kubelet and the runtime read it (nginx is
docker.io/library/nginx:latest; with a digest, the digest whatever the tag), else of its
repository (NAME:*), else the default; at each step the flags win over the RenderContext.

Flags:
`)
		fs.PrintDefaults()
		fmt.Fprint(out, `
Every pod that renders is printed, even when others fail. Each failure is one line on standard
error naming the document, the pod and container, the problem and what to do about it. Every
warning goes to standard error too, never among the configs (-o json and yaml also hold the pods'
warnings as data): skipped kinds are summarised in one line, and so is one warning for many pods.

Exit status: 0 on success, 2 for a usage error, 1 if any document or pod failed.
`)
	}
	return cfg, fs
}

func (c *renderConfig) validate() error {
	switch c.output {
	case "json", "yaml", "table":
		if c.outputDir != "" {
			return usageError{fmt.Sprintf("--output-directory is for -o crictl, not -o %s", c.output)}
		}
	case "crictl":
		if c.outputDir == "" {
			return usageError{"-o crictl writes files: name their directory with --output-directory"}
		}
		if !crictlSupported {
			return usageError{"-o crictl writes a Linux node's host files: it runs on Linux only"}
		}
		// The configs name host paths below it: they must not depend on the working directory.
		dir, err := filepath.Abs(c.outputDir)
		if err != nil {
			return usageError{fmt.Sprintf("--output-directory %q: %v", c.outputDir, err)}
		}
		c.outputDir = dir
	default:
		return usageError{fmt.Sprintf("-o %q: want json, yaml, table or crictl", c.output)}
	}
	if c.cgroupRoot != "" && !path.IsAbs(c.cgroupRoot) {
		return usageError{fmt.Sprintf("--cgroup-root %q: want an absolute path", c.cgroupRoot)}
	}
	c.files = append(append([]string{}, c.fileFlags...), c.files...)
	if len(c.files) == 0 {
		return usageError{"no input: name files (or -f FILE), or - for standard input"}
	}
	for _, v := range c.deviceFlags {
		res, spec, ok := strings.Cut(v, "=")
		parts := strings.Split(spec, ":")
		if !ok || res == "" || len(parts) > 3 || !path.IsAbs(parts[0]) {
			return usageError{fmt.Sprintf("--device %q: want RESOURCE=HOSTPATH[:CONTAINERPATH[:PERMISSIONS]], HOSTPATH absolute", v)}
		}
		d := blockdev.DeviceInfo{PathOnHost: parts[0], PathInContainer: parts[0], Permissions: "mrw"}
		if len(parts) > 1 && parts[1] != "" {
			d.PathInContainer = parts[1]
		}
		if len(parts) > 2 {
			d.Permissions = parts[2]
		}
		if !path.IsAbs(d.PathInContainer) || strings.Trim(d.Permissions, "rwm") != "" || d.Permissions == "" {
			return usageError{fmt.Sprintf("--device %q: CONTAINERPATH must be absolute and PERMISSIONS of r, w and m", v)}
		}
		if c.devices == nil {
			c.devices = map[v1.ResourceName][]blockdev.DeviceInfo{}
		}
		c.devices[v1.ResourceName(res)] = append(c.devices[v1.ResourceName(res)], d)
	}
	for _, v := range c.priorityFlags {
		name, value, ok := strings.Cut(v, "=")
		n, err := strconv.ParseInt(value, 10, 32)
		if !ok || name == "" || err != nil {
			return usageError{fmt.Sprintf("--priority-class %q: want NAME=VALUE, VALUE an integer", v)}
		}
		if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
			return usageError{fmt.Sprintf("--priority-class %q: the name %s", v, strings.Join(errs, "; "))}
		}
		c.priorityClasses = append(c.priorityClasses, &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: int32(n)})
	}
	if c.replicas < 1 {
		return usageError{fmt.Sprintf("--replicas %d: want 1 or more", c.replicas)}
	}
	if c.ordinal < -1 {
		return usageError{fmt.Sprintf("--ordinal %d: want 0 or more", c.ordinal)}
	}
	switch configgen.CgroupDriver(c.cgroupDriver) {
	case configgen.CgroupDriverSystemd, configgen.CgroupDriverCgroupfs:
	default:
		return usageError{fmt.Sprintf("--cgroup-driver %q: want systemd or cgroupfs", c.cgroupDriver)}
	}
	if c.cgroupVersion != 1 && c.cgroupVersion != 2 {
		return usageError{fmt.Sprintf("--cgroup-version %d: want 1 or 2", c.cgroupVersion)}
	}
	for _, list := range []struct {
		flag string
		ips  []string
	}{{"--pod-ip", c.podIPs}, {"--node-ip", c.nodeIPs}, {"--cluster-dns", c.clusterDNS}} {
		for _, ip := range list.ips {
			if net.ParseIP(ip) == nil {
				return usageError{fmt.Sprintf("%s %q: not an IP address", list.flag, ip)}
			}
		}
	}
	return nil
}

// ordinalFlag is --ordinal over an int that is -1 until set, so that 0 can be asked for.
type ordinalFlag struct{ n *int }

func (o *ordinalFlag) String() string {
	if o == nil || o.n == nil || *o.n < 0 {
		return ""
	}
	return strconv.Itoa(*o.n)
}

func (o *ordinalFlag) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil {
		return fmt.Errorf("%q: want a number", v)
	}
	*o.n = n
	return nil
}

// imageUserFlag collects --image-user IMAGE=USER, in order.
type imageUserFlag []imageUserEntry

// imageUserEntry is one --image-user: IMAGE as written and as a pattern, and the user.
type imageUserEntry struct {
	image   string
	pattern images.Pattern
	user    manifest.ImageUser
}

func (f *imageUserFlag) String() string { return fmt.Sprint(len(*f), " images") }

// Set refuses an IMAGE that is no reference or NAME:*, and one that names the image of an
// earlier --image-user with another user: one of them would be silently ignored.
func (f *imageUserFlag) Set(v string) error {
	image, user, ok := strings.Cut(v, "=")
	if !ok || image == "" {
		return fmt.Errorf("%q: want IMAGE=UID[:GID] or IMAGE=NAME", v)
	}
	p, err := images.ParsePattern(image)
	if err != nil {
		return err
	}
	u, err := manifest.ParseImageUser(user)
	if err != nil {
		return err
	}
	for _, e := range *f {
		if e.pattern.String() == p.String() && !e.user.Equal(u) {
			return fmt.Errorf("%q and %q both name %s, with different users", e.image, image, p)
		}
	}
	*f = append(*f, imageUserEntry{image: image, pattern: p, user: u})
	return nil
}

// defaultImageUserFlag is --default-image-user USER.
type defaultImageUserFlag struct{ user *manifest.ImageUser }

func (f *defaultImageUserFlag) String() string {
	if f == nil || f.user == nil {
		return ""
	}
	return describeUser(*f.user)
}

func (f *defaultImageUserFlag) Set(v string) error {
	u, err := manifest.ParseImageUser(v)
	if err != nil {
		return err
	}
	f.user = &u
	return nil
}

// fileFlag collects -f, one name per use (a comma may be part of a file name).
type fileFlag []string

func (f *fileFlag) String() string     { return strings.Join(*f, " ") }
func (f *fileFlag) Set(v string) error { *f = append(*f, v); return nil }

// listFlag is a comma-separated, repeatable list.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

// gatesFlag is kubelet's --feature-gates over features.Gates.
type gatesFlag struct {
	gates features.Gates
	set   []string
}

// gateFields maps a gate's name to its field.
func gateFields(g *features.Gates) map[string]*bool {
	return map[string]*bool{
		"EnvFiles":                    &g.EnvFiles,
		"PodLevelResources":           &g.PodLevelResources,
		"MemoryQoS":                   &g.MemoryQoS,
		"CustomCPUCFSQuotaPeriod":     &g.CustomCPUCFSQuotaPeriod,
		"ContainerStopSignals":        &g.ContainerStopSignals,
		"DefaultPodSysctls":           &g.DefaultPodSysctls,
		"DRANodeAllocatableResources": &g.DRANodeAllocatableResources,
	}
}

func gateNames() []string {
	var names []string
	for n := range gateFields(&features.Gates{}) {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (g *gatesFlag) String() string { return strings.Join(g.set, ",") }

func (g *gatesFlag) Set(v string) error {
	fields := gateFields(&g.gates)
	for _, kv := range strings.Split(v, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("%q: want Name=true or Name=false", kv)
		}
		field, known := fields[name]
		if !known {
			return fmt.Errorf("unknown feature gate %q (known: %s)", name, strings.Join(gateNames(), ", "))
		}
		b, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("%q: want Name=true or Name=false", kv)
		}
		*field = b
		g.set = append(g.set, kv)
	}
	return nil
}

// timeFlag is an RFC 3339 time.
type timeFlag struct{ t *time.Time }

func (f timeFlag) String() string {
	if f.t == nil || f.t.IsZero() {
		return ""
	}
	return f.t.Format(time.RFC3339)
}

func (f timeFlag) Set(v string) error {
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return fmt.Errorf("want an RFC 3339 time, e.g. 2026-01-01T00:00:00Z: %v", err)
	}
	*f.t = t
	return nil
}
