package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"text/tabwriter"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/internal/terminal"
)

// protoJSON is protobuf's JSON mapping with enum names, lowerCamelCase names and every scalar,
// list and map shown even when it holds its default, so "seccomp": {} reads
// "profileType": "RuntimeDefault".
var protoJSON = protojson.MarshalOptions{EmitDefaultValues: true}

// jsonPod is one element of the -o json and -o yaml document's "pods"; its "warnings" follow
// them, the input's. writePodJSON writes it in three parts, the head, each container and the
// tail, so that a pod of many containers is never marshalled whole; encoding/json flattens the
// embedded parts, so jsonPod is the shape of what it writes.
type jsonPod struct {
	jsonPodHead
	// Containers are in the order a node starts them: init and sidecar, app, ephemeral.
	Containers []jsonContainer `json:"containers"`
	jsonPodTail
}

// jsonPodHead is what a pod's JSON holds before its containers.
type jsonPodHead struct {
	Source    string          `json:"source"`
	Namespace string          `json:"namespace"`
	Name      string          `json:"name"`
	UID       string          `json:"uid"`
	QOSClass  string          `json:"qosClass"`
	Sandbox   json.RawMessage `json:"sandbox"`
}

// jsonPodTail is what a pod's JSON holds after its containers.
type jsonPodTail struct {
	// Volumes are the files kubelet would write into the pod's configMap, secret, downwardAPI
	// and projected volumes.
	Volumes  []jsonVolume        `json:"volumes,omitempty"`
	Warnings []configgen.Warning `json:"warnings"`
}

type jsonContainer struct {
	Name      string              `json:"name"`
	Type      string              `json:"type"`
	LogPath   string              `json:"logPath"`
	Env       []jsonEnv           `json:"env"`
	HostsFile string              `json:"hostsFile"`
	Config    json.RawMessage     `json:"config"`
	Warnings  []configgen.Warning `json:"warnings"`
}

// jsonEnv is one variable as text (the CRI config holds values as bytes, which JSON shows in
// base64).
type jsonEnv struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// podWriter writes the -o json, yaml and table documents one pod at a time, as each pod is
// rendered, so that no more than one pod's configs are held: the bytes are those of the whole
// document marshalled at once (json.MarshalIndent; YAML from that JSON; one table).
type podWriter struct {
	w      io.Writer
	format string
	// pods is how many pods were written so far.
	pods int
	// in indents -o json's pods, one after the other.
	in *indenter
}

// pod writes one rendered pod.
func (pw *podWriter) pod(p *podResult) error {
	defer func() { pw.pods++ }()
	switch pw.format {
	case "table":
		return writeTable(pw.w, p, pw.pods == 0)
	case "yaml":
		// A one-pod document, "pods:" and the pod as its only element: the element's lines are
		// the same in the document of every pod.
		doc, err := podJSON(p)
		if err != nil {
			return err
		}
		doc, err = jsonToYAML(append(append([]byte(`{"pods":[`), doc...), "]}"...))
		if err != nil {
			return err
		}
		if pw.pods > 0 {
			doc = bytes.TrimPrefix(doc, []byte("pods:\n"))
		}
		_, err = pw.w.Write(doc)
		return err
	}
	head := ",\n    "
	if pw.pods == 0 {
		head = "{\n  \"pods\": [\n    "
	}
	if _, err := io.WriteString(pw.w, head); err != nil {
		return err
	}
	// The pod's JSON is indented as it is made, one container at a time, so that a pod of
	// thousands of containers is never held as a document: the bytes are json.Indent's of the
	// whole.
	if pw.in == nil {
		pw.in = &indenter{w: pw.w, prefix: "    ", indent: "  ", buf: make([]byte, 0, indenterBuffer)}
	}
	if err := writePodJSON(pw.in, p); err != nil {
		return err
	}
	return pw.in.flush()
}

// finish ends the document with the input's warnings after the pods.
func (pw *podWriter) finish(warnings []string) error {
	if pw.format == "table" {
		// Warnings go to standard error only, summarised (runRender).
		return nil
	}
	w, err := json.MarshalIndent(nonNil(warnings), "  ", "  ")
	if err != nil {
		return err
	}
	if pw.format == "yaml" {
		doc, err := jsonToYAML(append(append([]byte(`{"warnings":`), w...), '}'))
		if err != nil {
			return err
		}
		if pw.pods == 0 {
			doc = append([]byte("pods: []\n"), doc...)
		}
		_, err = pw.w.Write(doc)
		return err
	}
	head := "\n  ],\n"
	if pw.pods == 0 {
		head = "{\n  \"pods\": [],\n"
	}
	_, err = fmt.Fprintf(pw.w, "%s  \"warnings\": %s\n}\n", head, w)
	return err
}

// podJSON is one pod of the -o json document, compact.
func podJSON(p *podResult) ([]byte, error) {
	var buf bytes.Buffer
	if err := writePodJSON(&buf, p); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writePodJSON writes one pod of the -o json document, compact: the bytes of json.Marshal of its
// jsonPod, marshalled a container at a time.
func writePodJSON(w io.Writer, p *podResult) error {
	sandbox, err := marshalProto(p.Sandbox)
	if err != nil {
		return err
	}
	// jsonPod's fields before the containers, then each container, then the fields after.
	head, err := json.Marshal(jsonPodHead{p.Source, p.Pod.Namespace, p.Pod.Name, string(p.Pod.UID), string(p.QOSClass), sandbox})
	if err != nil {
		return err
	}
	if _, err := w.Write(append(head[:len(head)-1], `,"containers":[`...)); err != nil {
		return err
	}
	for i, c := range p.Items {
		jc, err := containerJSON(c)
		if err != nil {
			return err
		}
		if i > 0 {
			if _, err := w.Write([]byte{','}); err != nil {
				return err
			}
		}
		if _, err := w.Write(jc); err != nil {
			return err
		}
	}
	tail, err := json.Marshal(jsonPodTail{p.Volumes, nonNilWarnings(p.Warnings)})
	if err != nil {
		return err
	}
	tail[0] = ','
	_, err = w.Write(append([]byte{']'}, tail...))
	return err
}

// containerJSON is one element of a pod's "containers", compact.
func containerJSON(c containerResult) ([]byte, error) {
	cfg, err := marshalProto(c.Config)
	if err != nil {
		return nil, err
	}
	jc := jsonContainer{
		Name: c.Name, Type: c.Type, LogPath: c.LogPath, Env: []jsonEnv{}, HostsFile: c.HostsFile,
		Config: cfg, Warnings: nonNilWarnings(c.Warnings),
	}
	for _, kv := range c.Config.Envs {
		jc.Env = append(jc.Env, jsonEnv{Name: kv.Key, Value: string(kv.Value)})
	}
	return json.Marshal(jc)
}

// indenterBuffer is the size of an indenter's buffer, written out once half full.
const indenterBuffer = 64 << 10

// indenter writes compact JSON as json.Indent(dst, src, prefix, indent) would, as it comes, in
// pieces of any size.
type indenter struct {
	w              io.Writer
	prefix, indent string
	buf            []byte
	depth          int
	// needIndent: a '{' or '[' was written; the line break after it waits for what follows, so
	// that an empty object or array stays {} or [].
	needIndent, inString, escaped bool
}

func (in *indenter) Write(p []byte) (int, error) {
	for _, c := range p {
		if in.inString {
			in.buf = append(in.buf, c)
			switch {
			case in.escaped:
				in.escaped = false
			case c == '\\':
				in.escaped = true
			case c == '"':
				in.inString = false
			}
			continue
		}
		if in.needIndent && c != '}' && c != ']' {
			in.needIndent = false
			in.depth++
			in.newline()
		}
		switch c {
		case '"':
			in.inString = true
			in.buf = append(in.buf, c)
		case '{', '[':
			in.needIndent = true
			in.buf = append(in.buf, c)
		case ',':
			in.buf = append(in.buf, c)
			in.newline()
		case ':':
			in.buf = append(in.buf, c, ' ')
		case '}', ']':
			if in.needIndent {
				in.needIndent = false
			} else {
				in.depth--
				in.newline()
			}
			in.buf = append(in.buf, c)
		default:
			in.buf = append(in.buf, c)
		}
	}
	if len(in.buf) >= indenterBuffer/2 {
		return len(p), in.flush()
	}
	return len(p), nil
}

func (in *indenter) newline() {
	in.buf = append(in.buf, '\n')
	in.buf = append(in.buf, in.prefix...)
	for range in.depth {
		in.buf = append(in.buf, in.indent...)
	}
}

// flush writes what is buffered.
func (in *indenter) flush() error {
	_, err := in.w.Write(in.buf)
	in.buf = in.buf[:0]
	return err
}

// marshalProto is protoJSON's output, compacted so that the document's indentation is stable
// (protojson varies its whitespace on purpose).
func marshalProto(m proto.Message) (json.RawMessage, error) {
	return protoJSON.Marshal(m)
}

func nonNilWarnings(s []configgen.Warning) []configgen.Warning {
	if s == nil {
		return []configgen.Warning{}
	}
	return s
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// writeTable prints a summary of one pod and its containers for people; pods after the first
// are set off by an empty line. The pod's and each container's header line holds no tab, so it
// ends tabwriter's columns: the pod's rows and each container's are padded to their own widest
// key, not to a header's name.
func writeTable(w io.Writer, p *podResult, first bool) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	if !first {
		fmt.Fprintln(tw)
	}
	sb := p.Sandbox
	fmt.Fprintf(tw, "POD %s  %s\n", terminal.Escape(p.Pod.Namespace+"/"+p.Pod.Name), terminal.Escape(p.Source))
	row(tw, "qos", string(p.QOSClass))
	row(tw, "hostname", orNone(sb.GetHostname()))
	if d := sb.GetDnsConfig(); d != nil {
		row(tw, "dns", fmt.Sprintf("servers %v, searches %v, options %v", d.Servers, d.Searches, d.Options))
	}
	row(tw, "cgroup parent", orNone(sb.GetLinux().GetCgroupParent()))
	ns := sb.GetLinux().GetSecurityContext().GetNamespaceOptions()
	row(tw, "namespaces", fmt.Sprintf("network %s, pid %s, ipc %s", ns.GetNetwork(), ns.GetPid(), ns.GetIpc()))
	for _, m := range sb.GetPortMappings() {
		row(tw, "port", portMapping(m))
	}
	writeVolumeFiles(tw, p.Volumes)
	for _, c := range p.Items {
		writeContainer(tw, p.Pod, c)
	}
	return tw.Flush()
}

// portMapping is a port as kubectl describe shows a container's: the protocol and container port,
// and the host's address and port only when it maps one (hostPort), an IPv6 address in brackets.
func portMapping(m *runtimeapi.PortMapping) string {
	s := fmt.Sprintf("%s %d", m.GetProtocol(), m.GetContainerPort())
	if m.GetHostPort() != 0 {
		s += " -> host " + net.JoinHostPort(m.GetHostIp(), strconv.Itoa(int(m.GetHostPort())))
	}
	return s
}

// writeVolumeFiles prints one row per file of the pod's configMap, secret, downwardAPI and
// projected volumes: its path in the volume, mode, owner and size. Contents are never shown here,
// so secret data and tokens stay out of the table whatever --show-secrets says.
func writeVolumeFiles(tw io.Writer, vols []jsonVolume) {
	for _, v := range vols {
		for _, f := range v.Files {
			owner := "kubelet"
			if f.Owner != nil {
				owner = fmt.Sprintf("uid %d", *f.Owner)
			}
			row(tw, "volume file", fmt.Sprintf("%s/%s (%s, mode %s, owner %s, %d bytes)", v.Name, f.Path, v.Type, f.Mode, owner, f.Size))
		}
	}
}

func writeContainer(tw io.Writer, pod *v1.Pod, c containerResult) {
	cfg := c.Config
	sc := cfg.GetLinux().GetSecurityContext()
	res := cfg.GetLinux().GetResources()
	fmt.Fprintf(tw, "  CONTAINER %s  %s\n", terminal.Escape(c.Name), terminal.Escape(c.Type+", image "+cfg.GetImage().GetUserSpecifiedImage()))
	user := "image's user"
	switch {
	case sc.GetRunAsUser() != nil:
		user = fmt.Sprintf("uid %d", sc.GetRunAsUser().GetValue())
	case sc.GetRunAsUsername() != "":
		user = "user " + sc.GetRunAsUsername()
	}
	if g := sc.GetRunAsGroup(); g != nil {
		user += fmt.Sprintf(", gid %d", g.GetValue())
	}
	if len(sc.GetSupplementalGroups()) > 0 {
		user += fmt.Sprintf(", groups %v", sc.GetSupplementalGroups())
	}
	row(tw, "  user", user)
	row(tw, "  capabilities", fmt.Sprintf("add %v, drop %v", sc.GetCapabilities().GetAddCapabilities(), sc.GetCapabilities().GetDropCapabilities()))
	row(tw, "  privileged", fmt.Sprint(sc.GetPrivileged()))
	row(tw, "  read-only root", fmt.Sprint(sc.GetReadonlyRootfs()))
	row(tw, "  no new privileges", fmt.Sprint(sc.GetNoNewPrivs()))
	row(tw, "  seccomp", profile(sc.GetSeccomp()))
	row(tw, "  apparmor", profile(sc.GetApparmor()))
	row(tw, "  cpu", fmt.Sprintf("shares %d, quota %d, period %d", res.GetCpuShares(), res.GetCpuQuota(), res.GetCpuPeriod()))
	row(tw, "  memory limit", fmt.Sprint(res.GetMemoryLimitInBytes()))
	row(tw, "  oom score adj", fmt.Sprint(res.GetOomScoreAdj()))
	subPaths := subPathsOf(pod, c.Name)
	for _, m := range cfg.GetMounts() {
		mode := "rw"
		if m.Readonly {
			mode = "ro"
		}
		extra := ""
		if sp := subPaths[m.ContainerPath]; sp != "" {
			extra = ", " + sp
		}
		row(tw, "  mount", fmt.Sprintf("%s <- %s (%s%s)", m.ContainerPath, m.HostPath, mode, extra))
	}
	names := make([]string, len(cfg.GetEnvs()))
	for i, kv := range cfg.GetEnvs() {
		names[i] = kv.Key
	}
	row(tw, "  env", orNone(strings.Join(names, " ")))
}

// row prints one line of the table. The value may hold manifest strings: its control characters
// are escaped, so that a tab, a newline or a terminal escape sequence cannot lay out rows of its
// own or rewrite what was printed before.
func row(tw io.Writer, name, value string) {
	fmt.Fprintf(tw, "  %s\t%s\n", name, terminal.Escape(value))
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// profile names a seccomp or AppArmor profile.
func profile(p *runtimeapi.SecurityProfile) string {
	if p == nil {
		return "(none)"
	}
	s := p.GetProfileType().String()
	if p.GetLocalhostRef() != "" {
		s += " " + p.GetLocalhostRef()
	}
	return s
}

// subPathsOf maps a container's mount paths to the subPath or subPathExpr they use.
func subPathsOf(pod *v1.Pod, name string) map[string]string {
	out := map[string]string{}
	var all []v1.Container
	all = append(all, pod.Spec.InitContainers...)
	all = append(all, pod.Spec.Containers...)
	for _, ec := range pod.Spec.EphemeralContainers {
		all = append(all, v1.Container(ec.EphemeralContainerCommon))
	}
	for _, c := range all {
		if c.Name != name {
			continue
		}
		for _, vm := range c.VolumeMounts {
			switch {
			case vm.SubPath != "":
				out[vm.MountPath] = "subPath " + vm.SubPath
			case vm.SubPathExpr != "":
				out[vm.MountPath] = "subPathExpr " + vm.SubPathExpr
			}
		}
	}
	return out
}
