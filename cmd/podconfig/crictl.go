package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"google.golang.org/protobuf/proto"
	"k8s.io/apimachinery/pkg/util/validation"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/internal/terminal"
	"github.com/podconfig/podconfig/mounts/mountstest"
)

// With -o crictl, the kubelet root and pod logs directories are these, below --output-directory,
// so that every host path the configs mount exists once the files are written.
const (
	crictlRootDir    = "kubelet"
	crictlPodLogsDir = "pods"
)

// crictlPod is what -o crictl needs of one rendered pod beyond its configs: the offline node's
// files, the paths it knows with their modes, and the subPath binds it recorded (bind target ->
// source).
type crictlPod struct {
	files *hostfs.Memory
	paths *mountstest.HostUtils
	binds map[string]string
	// podDir is the pod's kubelet directory, <root>/pods/<uid>.
	podDir string
}

// writeCrictlPod writes, below dir, the pod's directory <namespace>_<name> holding the JSON files
// crictl takes (pod-config.json for runp, container-<name>.json for create) and a README of the
// commands, and the host files the configs mount (the pod's directory below dir/kubelet, its log
// directory below dir/pods). It prints the pod's directory on w.
func writeCrictlPod(w io.Writer, dir string, p *podResult) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	podName := p.Pod.Namespace + "/" + p.Pod.Name
	// The names become file names and words of the README's shell commands: they must be
	// what the API server admits (a pod read from a file may never have passed one).
	if errs := validation.IsDNS1123Label(p.Pod.Namespace); len(errs) > 0 {
		return fmt.Errorf("pod %s: namespace: %s", terminal.Escape(podName), strings.Join(errs, "; "))
	}
	if errs := validation.IsDNS1123Subdomain(p.Pod.Name); len(errs) > 0 {
		return fmt.Errorf("pod %s: name: %s", terminal.Escape(podName), strings.Join(errs, "; "))
	}
	for _, c := range p.Items {
		if errs := validation.IsDNS1123Label(c.Name); len(errs) > 0 {
			return fmt.Errorf("pod %s, container %s: name: %s", terminal.Escape(podName), terminal.Escape(c.Name), strings.Join(errs, "; "))
		}
	}
	// The host side first: the configs name these paths.
	for _, tree := range []string{p.crictl.podDir, p.Sandbox.GetLogDirectory()} {
		if err := materialize(p.crictl.files, tree); err != nil {
			return fmt.Errorf("pod %s: %w", terminal.Escape(podName), err)
		}
	}
	for _, src := range p.crictl.binds {
		// A subPath directory the offline node made exists only in its HostUtils.
		if err := makeSubPathDir(p.crictl, src); err != nil {
			return fmt.Errorf("pod %s: %w", terminal.Escape(podName), err)
		}
	}
	out := filepath.Join(dir, p.Pod.Namespace+"_"+p.Pod.Name)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if err := writeJSONFile(filepath.Join(out, "pod-config.json"), p.Sandbox); err != nil {
		return err
	}
	for _, c := range p.Items {
		cfg := proto.Clone(c.Config).(*runtimeapi.ContainerConfig)
		for _, m := range cfg.Mounts {
			// Offline no subPath is bind-mounted: the mount names the directory in the volume
			// the bind would show.
			if src, ok := p.crictl.binds[m.HostPath]; ok {
				m.HostPath = src
			}
		}
		if err := writeJSONFile(filepath.Join(out, "container-"+c.Name+".json"), cfg); err != nil {
			return err
		}
	}
	if err := writeFileNoFollow(filepath.Join(out, "README.md"), []byte(crictlReadme(*p, dir)), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(w, "pod %s: %s\n", terminal.Escape(podName), terminal.Escape(out))
	return nil
}

// writeJSONFile writes m as the JSON crictl reads: crictl decodes its files with sigs.k8s.io/yaml
// into the CRI Go types, so field names are their JSON tags and enums are numbers, which is
// encoding/json's mapping of those types (not protobuf's JSON mapping).
func writeJSONFile(path string, m proto.Message) error {
	doc, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeFileNoFollow(path, append(doc, '\n'), 0o644)
}

// writeFileNoFollow writes a file, refusing to write through a symlink at path.
func writeFileNoFollow(path string, data []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// materialize copies the directories and regular files of the in-memory tree at root to the same
// absolute paths on disk, with their modes. Only the pod's own directories below the output
// directory are copied; a symlink in the tree is an error, as nothing the Generator makes there
// is one.
func materialize(files *hostfs.Memory, root string) error {
	fi, err := files.Lstat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	switch {
	case fi.IsDir():
		if err := os.MkdirAll(root, 0o755); err != nil {
			return err
		}
		disk, err := os.Lstat(root)
		if err != nil {
			return err
		}
		if !disk.IsDir() {
			return fmt.Errorf("%s: not a directory", root)
		}
		if err := os.Chmod(root, fi.Mode().Perm()); err != nil {
			return err
		}
		entries, err := files.ReadDir(root)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := materialize(files, filepath.Join(root, e.Name())); err != nil {
				return err
			}
		}
		return nil
	case fi.Mode().IsRegular():
		data, err := files.ReadFile(root)
		if err != nil {
			return err
		}
		return writeFileNoFollow(root, data, fi.Mode().Perm())
	default:
		return fmt.Errorf("%s: not a directory or a regular file (%v)", root, fi.Mode().Type())
	}
}

// makeSubPathDir makes the directory a subPath mount names, when it is in the pod's directory and
// the offline node made it (kubelet's SafeMakeDir gives it the volume directory's mode).
func makeSubPathDir(p *crictlPod, src string) error {
	if !strings.HasPrefix(src, p.podDir+"/") {
		return nil // a hostPath volume's: the host's own
	}
	mode, err := p.paths.GetMode(src)
	if err != nil || !mode.IsDir() {
		return nil // a file, or a path the node does not know: nothing to make
	}
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	return os.Chmod(src, mode.Perm())
}

// crictlReadme is the per-pod README: the crictl commands that run the pod from its files.
func crictlReadme(p podResult, dir string) string {
	var b bytes.Buffer
	name := p.Pod.Namespace + "/" + p.Pod.Name
	fmt.Fprintf(&b, "# Pod %s with crictl\n\n", terminal.Escape(name))
	fmt.Fprintf(&b, "Rendered by `podconfig render -o crictl` from %s: the CRI configs kubelet v1.37 sends for\n", terminal.Escape(p.Source))
	b.WriteString("this pod. `pod-config.json` is the sandbox's config (`crictl runp`), each `container-<name>.json`\n")
	b.WriteString("a container's (`crictl create`). The host files the configs mount (the pod's /etc/hosts,\n")
	fmt.Fprintf(&b, "termination-message files, volume directories) are below %s and its logs go below %s:\n",
		terminal.Escape(filepath.Join(dir, crictlRootDir)), terminal.Escape(filepath.Join(dir, crictlPodLogsDir)))
	b.WriteString("keep them where they are. Volumes are empty directories, as no volume plugin ran; hostPath\n")
	b.WriteString("volumes name the host's own paths; a subPath mount names its directory in the volume, which\n")
	b.WriteString("kubelet would bind-mount. The images must be on the node already (`--no-pull`).\n\n")
	b.WriteString("Run as root, in this directory (add `--runtime-endpoint unix:///path/to/cri.sock` to each\n")
	b.WriteString("command for a runtime other than crictl's default):\n\n")
	b.WriteString("```sh\n")
	b.WriteString("POD=$(crictl runp pod-config.json)\n")
	for _, c := range p.Items {
		v := "CTR_" + strings.NewReplacer("-", "_", ".", "_").Replace(c.Name)
		switch c.Type {
		case "init":
			fmt.Fprintf(&b, "# init container %s: start it, then wait until it has exited with code 0\n", c.Name)
		case "ephemeral":
			fmt.Fprintf(&b, "# ephemeral container %s: fill in its target's container ID first\n", c.Name)
		}
		fmt.Fprintf(&b, "%s=$(crictl create --no-pull \"$POD\" container-%s.json pod-config.json)\n", v, c.Name)
		fmt.Fprintf(&b, "crictl start \"$%s\"\n", v)
		if c.Type == "init" {
			fmt.Fprintf(&b, "until crictl inspect -o go-template --template '{{.status.state}}' \"$%s\" | grep -q EXITED; do sleep 1; done\n", v)
		}
	}
	b.WriteString("crictl ps --pod \"$POD\" -a\n")
	if len(p.Items) > 0 {
		v := "CTR_" + strings.NewReplacer("-", "_", ".", "_").Replace(p.Items[len(p.Items)-1].Name)
		fmt.Fprintf(&b, "crictl logs \"$%s\"\ncrictl exec \"$%s\" env\n", v, v)
	}
	b.WriteString("# done: stop and remove the pod with its containers\n")
	b.WriteString("crictl stopp \"$POD\" && crictl rmp \"$POD\"\n")
	b.WriteString("```\n")
	return b.String()
}
