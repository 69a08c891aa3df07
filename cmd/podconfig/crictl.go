package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"google.golang.org/protobuf/proto"
	"k8s.io/apimachinery/pkg/util/validation"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/internal/terminal"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/offline"
	"github.com/podconfig/podconfig/volumes"
)

// With -o crictl, the kubelet root and pod logs directories are these, below --output-directory,
// so that every host path the configs mount exists once the files are written.
const (
	crictlRootDir    = "kubelet"
	crictlPodLogsDir = "pods"
)

// crictlPod is what -o crictl needs of one rendered pod beyond its configs: the offline node's
// files, the paths it knows with their modes, the subPath binds it recorded (bind target ->
// source), the host paths of the pod's volumes, and the volume manager that writes their files.
type crictlPod struct {
	files *hostfs.Memory
	paths *offline.HostUtils
	binds map[string]string
	// podDir is the pod's kubelet directory, <root>/pods/<uid>.
	podDir string
	// mounts are the pod's volumes by name, with the host paths the configs mount.
	mounts mounts.VolumeMap
	// volumes sets the volumes up; its Host is the output directory's, given when it is open.
	volumes volumes.Manager
}

// writeCrictlPod writes, below dir, the pod's directory <namespace>_<name> holding the JSON files
// crictl takes (pod-config.json for runp, container-<name>.json for create) and a README of the
// commands, and the host files the configs mount (the pod's directory below dir/kubelet with its
// volumes' files, its log directory below dir/pods). It prints the pod's directory on w.
//
// Containers of a pod run from these files write below dir (their volumes are there), so
// everything below it is resolved through descriptors one name at a time without following a
// link (crictlOut): a link, a FIFO, a socket, a device or a hard-linked file found where a
// directory or a file is written is an error, and nothing is written or chmod'ed outside dir.
func writeCrictlPod(w io.Writer, dir string, p *podResult) error {
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
	o, err := openCrictlOut(dir)
	if err != nil {
		return err
	}
	defer o.close()
	if err := o.writePod(p); err != nil {
		o.undo()
		if o.created {
			_ = os.Remove(dir) // only if empty: another pod may have written there meanwhile
		}
		return fmt.Errorf("pod %s: %w", terminal.Escape(podName), err)
	}
	fmt.Fprintf(w, "pod %s: %s\n", terminal.Escape(podName), terminal.Escape(filepath.Join(dir, p.Pod.Namespace+"_"+p.Pod.Name)))
	return nil
}

// writePod writes the pod's host files, then its crictl files and README.
func (o *crictlOut) writePod(p *podResult) error {
	// The host side first: the configs name these paths. The directories of the volumes the
	// volume manager sets up are its own.
	setUp := map[string]bool{}
	for _, vol := range crictlSetUp(p) {
		setUp[p.crictl.mounts[vol.Name].HostPath] = true
	}
	for _, tree := range []string{p.crictl.podDir, p.Sandbox.GetLogDirectory()} {
		if err := o.materialize(p.crictl.files, tree, setUp); err != nil {
			return err
		}
	}
	if err := o.setUpVolumes(p); err != nil {
		return err
	}
	sources := make([]string, 0, len(p.crictl.binds))
	for _, src := range p.crictl.binds {
		sources = append(sources, src)
	}
	slices.Sort(sources)
	var filled []string
	for _, v := range p.Volumes {
		filled = append(filled, p.crictl.mounts[v.Name].HostPath)
	}
	for _, src := range sources {
		// A subPath directory the offline node made exists only in its HostUtils.
		if err := o.makeSubPathDir(p.crictl, src, filled); err != nil {
			return err
		}
	}
	out := p.Pod.Namespace + "_" + p.Pod.Name
	if err := o.dir(out, 0o755, false); err != nil {
		return err
	}
	doc, err := crictlJSON(p.Sandbox)
	if err != nil {
		return err
	}
	if err := o.file(path.Join(out, "pod-config.json"), doc, 0o644); err != nil {
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
		if doc, err = crictlJSON(cfg); err != nil {
			return err
		}
		if err := o.file(path.Join(out, "container-"+c.Name+".json"), doc, 0o644); err != nil {
			return err
		}
	}
	return o.file(path.Join(out, "README.md"), []byte(crictlReadme(*p, o.path)), 0o644)
}

// crictlJSON is m as the JSON crictl reads: crictl decodes its files with sigs.k8s.io/yaml into
// the CRI Go types, so field names are their JSON tags and enums are numbers, which is
// encoding/json's mapping of those types (not protobuf's JSON mapping).
func crictlJSON(m proto.Message) ([]byte, error) {
	doc, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(doc, '\n'), nil
}

// crictlDir is the output directory as -o crictl writes below it: every name is relative to it
// and resolved one element at a time without following a link (a volumes.LinuxFS).
type crictlDir interface {
	// FS holds what the volumes' files are written with (the atomic writer's calls).
	volumes.FS
	// RewriteFile writes the regular file name in place, or creates it, with exactly perm,
	// opening nothing else for writing.
	RewriteFile(name string, data []byte, perm fs.FileMode) error
	// Close releases the directory.
	Close() error
}

// crictlOut writes below the output directory, held open as fsys; path is its path, which the
// configs' host paths start with. root says the writer may change owners. made lists, in order,
// the directories and files it created, which undo removes when the pod fails; created says it
// made the output directory itself.
type crictlOut struct {
	fsys    crictlDir
	path    string
	root    bool
	made    []string
	created bool
}

// openCrictlOut opens --output-directory dir, making it (and its parents) when it is missing. The
// directories above it are the user's own and may be links; dir itself may not, so that what
// the configs name below it is reached through no link.
func openCrictlOut(dir string) (*crictlOut, error) {
	fi, err := os.Lstat(dir)
	created := false
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		created = true
	case err != nil:
		return nil, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, outputDirLinkError(dir)
	}
	fsys, err := openNoFollowDir(dir)
	if errors.Is(err, syscall.ELOOP) {
		return nil, outputDirLinkError(dir)
	}
	if err != nil {
		return nil, err
	}
	return &crictlOut{fsys: fsys, path: dir, root: os.Geteuid() == 0, created: created}, nil
}

// outputDirLinkError is the error for an output directory that is a symbolic link.
func outputDirLinkError(dir string) error {
	return fmt.Errorf("--output-directory %s is a symbolic link: -o crictl writes only into a directory named as it is; name the directory the link points to", terminal.Escape(dir))
}

// close releases the output directory.
func (o *crictlOut) close() { _ = o.fsys.Close() }

// undo removes what the writer created, the last first, with what is below it (a volume's files),
// never following a link; a file it rewrote in place stays as written. A directory that existed
// keeps what was made in it only through the volume manager, which undoes a volume it fails to
// set up and leaves one it set up whole.
func (o *crictlOut) undo() {
	for i := len(o.made) - 1; i >= 0; i-- {
		_ = o.removeAll(o.made[i])
	}
	o.made = nil
}

// rel is p, an absolute path below the output directory, relative to it.
func (o *crictlOut) rel(p string) (string, error) {
	r, err := filepath.Rel(o.path, p)
	if err != nil || !filepath.IsLocal(r) {
		return "", fmt.Errorf("%s is not below --output-directory %s", terminal.Escape(p), terminal.Escape(o.path))
	}
	return filepath.ToSlash(r), nil
}

// dirs makes each directory of rel, from the top, that is missing, with exactly perm, and checks
// that each one there is a directory; it leaves their modes as they are.
func (o *crictlOut) dirs(rel string, perm fs.FileMode) error {
	return o.dirsBelow("", rel, perm)
}

// dirsBelow is dirs for rel below the directory base.
func (o *crictlOut) dirsBelow(base, rel string, perm fs.FileMode) error {
	cur := base
	for _, name := range strings.Split(rel, "/") {
		cur = path.Join(cur, name)
		if err := o.dir(cur, perm, false); err != nil {
			return err
		}
	}
	return nil
}

// isDir checks that rel is a directory.
func (o *crictlOut) isDir(rel string) error {
	fi, err := o.fsys.Lstat(rel)
	switch {
	case err != nil:
		return err
	case !fi.IsDir():
		return o.unexpected(rel, fi.Mode(), "a directory")
	}
	return nil
}

// dir makes the directory rel with exactly perm, or checks that the file there is a directory
// and, with chmod, gives it perm (which refuses a link swapped in meanwhile).
func (o *crictlOut) dir(rel string, perm fs.FileMode, chmod bool) error {
	fi, err := o.fsys.Lstat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		err := o.fsys.Mkdir(rel, perm)
		if !errors.Is(err, fs.ErrExist) {
			// Made, or maybe made when only its chmod failed.
			o.made = append(o.made, rel)
		}
		return err
	case err != nil:
		return err
	case !fi.IsDir():
		return o.unexpected(rel, fi.Mode(), "a directory")
	case chmod:
		return o.fsys.Chmod(rel, perm)
	}
	return nil
}

// file writes the regular file rel in place, or creates it, with exactly perm.
func (o *crictlOut) file(rel string, data []byte, perm fs.FileMode) error {
	fi, err := o.fsys.Lstat(rel)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		return o.unexpected(rel, fi.Mode(), "a regular file")
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	case err != nil:
		o.made = append(o.made, rel)
	}
	err = o.fsys.RewriteFile(rel, data, perm)
	if errors.Is(err, syscall.EMLINK) {
		return fmt.Errorf("%s is a regular file with other hard links, which may be outside --output-directory: -o crictl does not write through it", terminal.Escape(filepath.Join(o.path, rel)))
	}
	return err
}

// unexpected is the error for a file of mode m at rel where -o crictl writes want.
func (o *crictlOut) unexpected(rel string, m fs.FileMode, want string) error {
	return fmt.Errorf("%s is %s, not %s: -o crictl follows no link and writes into no special file below --output-directory",
		terminal.Escape(filepath.Join(o.path, rel)), fileKind(m), want)
}

// fileKind names the type of a file of mode m.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m.IsRegular():
		return "a regular file"
	}
	return describeType(m)
}

// materialize copies the directories and regular files of the in-memory tree at root, a path
// below the output directory, to the same paths on disk, with their modes, leaving out the
// paths in skip and what is below them; the directories above root are made when missing. A
// symlink in the tree is an error, as nothing the Generator makes there is one.
func (o *crictlOut) materialize(files *hostfs.Memory, root string, skip map[string]bool) error {
	fi, err := files.Lstat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	rel, err := o.rel(root)
	if err != nil {
		return err
	}
	if parent := path.Dir(rel); parent != "." {
		if err := o.dirs(parent, 0o755); err != nil {
			return err
		}
	}
	return o.copyTree(files, root, rel, fi, skip)
}

// copyTree copies src of the in-memory tree, described by fi, to rel on disk, and what is below
// it but the paths in skip.
func (o *crictlOut) copyTree(files *hostfs.Memory, src, rel string, fi fs.FileInfo, skip map[string]bool) error {
	switch {
	case skip[src]:
		return nil
	case fi.IsDir():
		if err := o.dir(rel, fi.Mode().Perm(), true); err != nil {
			return err
		}
		entries, err := files.ReadDir(src)
		if err != nil {
			return err
		}
		for _, e := range entries {
			info, err := e.Info()
			if err != nil {
				return err
			}
			if err := o.copyTree(files, filepath.Join(src, e.Name()), path.Join(rel, e.Name()), info, skip); err != nil {
				return err
			}
		}
		return nil
	case fi.Mode().IsRegular():
		data, err := files.ReadFile(src)
		if err != nil {
			return err
		}
		return o.file(rel, data, fi.Mode().Perm())
	default:
		return fmt.Errorf("%s: not a directory or a regular file (%v)", src, fi.Mode().Type())
	}
}

// makeSubPathDir makes the directory a subPath mount names, when it is in the pod's directory and
// the offline node made it (kubelet's SafeMakeDir gives it the volume directory's mode). In the
// directories of filled, the volumes whose files were written, a subPath names what is there
// through the volume's own links (..data), which the runtime's bind follows as kubelet's subPath
// resolution does within the volume: only a path the volume lacks is made.
func (o *crictlOut) makeSubPathDir(p *crictlPod, src string, filled []string) error {
	if !strings.HasPrefix(src, p.podDir+"/") {
		return nil // a hostPath volume's: the host's own
	}
	mode, err := p.paths.GetMode(src)
	if err != nil || !mode.IsDir() {
		return nil // a file, or a path the node does not know: nothing to make
	}
	rel, err := o.rel(src)
	if err != nil {
		return err
	}
	for _, dir := range filled {
		if strings.HasPrefix(src, dir+"/") {
			if _, err := o.fsys.Lstat(rel); !errors.Is(err, fs.ErrNotExist) {
				return nil
			}
		}
	}
	if err := o.dirs(path.Dir(rel), 0o755); err != nil {
		return err
	}
	return o.dir(rel, mode.Perm(), true)
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
	b.WriteString("keep them where they are. The emptyDir, configMap, secret, downwardAPI and projected volumes\n")
	b.WriteString("are set up as kubelet's volume plugins would (files, modes, the ..data link), on disk, nothing\n")
	b.WriteString("mounted; a Secret's values and the tokens are placeholders of their size unless rendered with\n")
	b.WriteString("--show-secrets. hostPath volumes name the host's own paths; other volumes are empty\n")
	b.WriteString("directories; a subPath mount names its directory in the volume, which kubelet would\n")
	b.WriteString("bind-mount. The images must be on the node already (`--no-pull`).\n\n")
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
