package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/examples/minikubelet/internal/node"
	"github.com/podconfig/podconfig/internal/terminal"
	"github.com/podconfig/podconfig/manifest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	var usage usageError
	switch {
	case errors.As(err, &usage):
		fmt.Fprintln(os.Stderr, "minikubelet: "+terminal.Escape(err.Error()))
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "minikubelet: "+terminal.Escape(err.Error()))
		os.Exit(1)
	}
}

type usageError struct{ error }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("minikubelet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	endpoint := fs.String("endpoint", "unix:///run/containerd/containerd.sock", "the CRI runtime's endpoint")
	file := fs.String("f", "", "the manifest to run (- for stdin): Pods with the ConfigMaps, Secrets and Services they use")
	rootDir := fs.String("root-dir", "/var/lib/kubelet", "kubelet's --root-dir: pod directories and volumes")
	podLogsDir := fs.String("pod-logs-dir", "/var/log/pods", "kubelet's pod logs directory")
	nodeIPs := fs.String("node-ip", "", "the node's IPs, comma-separated (default: the host's first non-loopback IPv4)")
	nodeName := fs.String("node-name", "", "the node's name (default: the host name)")
	cgroupRoot := fs.String("cgroup-root", "", "kubelet's --cgroup-root")
	cgroupDriver := fs.String("cgroup-driver", "cgroupfs", "kubelet's --cgroup-driver (cgroupfs or systemd), used when the runtime does not report its own")
	clusterDomain := fs.String("cluster-domain", "cluster.local", "kubelet's --cluster-domain")
	clusterDNS := fs.String("cluster-dns", "", "kubelet's --cluster-dns, comma-separated")
	resolvConf := fs.String("resolv-conf", "/etc/resolv.conf", "the resolv.conf of pods with dnsPolicy Default")
	backoff := fs.Duration("restart-backoff", 10*time.Second, "kubelet's crash-loop back-off: a container's first restart is at once, the next after this, doubled each time up to 5m")
	replicas := fs.Int("replicas", 1, "how many pods to run of each workload (capped by its own replica count)")
	shutdownGrace := fs.Duration("shutdown-grace-period", 0, "kubelet's --shutdown-grace-period: caps the grace period of the containers stopped on Ctrl-C (default: each pod's terminationGracePeriodSeconds)")
	statusFile := fs.String("status-file", "", "write the pods' final statuses there as JSON, once every pod has ended")
	verbose := fs.Bool("v", false, "log what the node does")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	if *file == "" || fs.NArg() != 0 {
		return usageError{errors.New("usage: minikubelet [-endpoint unix:///path.sock] -f manifest.yaml")}
	}

	in, err := readInput(*file, *replicas, *nodeName)
	if err != nil {
		return err
	}
	for _, w := range in.Warnings {
		printWarning(stderr, w)
	}
	switch configgen.CgroupDriver(*cgroupDriver) {
	case configgen.CgroupDriverCgroupfs, configgen.CgroupDriverSystemd:
	default:
		return usageError{fmt.Errorf("-cgroup-driver %q: want cgroupfs or systemd", *cgroupDriver)}
	}
	ips, err := parseNodeIPs(*nodeIPs)
	if err != nil {
		return usageError{err}
	}
	var resolv []byte
	if *resolvConf != "" {
		if resolv, err = os.ReadFile(*resolvConf); err != nil {
			return err
		}
	}
	conn, err := node.Dial(*endpoint)
	if err != nil {
		return err
	}
	defer conn.Close()
	logf := func(string, ...any) {}
	if *verbose {
		logf = verboseLog(stderr)
	}
	n, err := node.New(ctx, node.Config{
		Runtime:        runtimeapi.NewRuntimeServiceClient(conn),
		Images:         runtimeapi.NewImageServiceClient(conn),
		NodeName:       *nodeName,
		NodeIPs:        ips,
		RootDir:        *rootDir,
		PodLogsDir:     *podLogsDir,
		CgroupRoot:     *cgroupRoot,
		CgroupDriver:   configgen.CgroupDriver(*cgroupDriver),
		ClusterDomain:  *clusterDomain,
		ClusterDNS:     splitList(*clusterDNS),
		ResolvConf:     resolv,
		Objects:        in.Objects,
		Out:            stdout,
		Logf:           logf,
		RestartBackoff: *backoff,
		StopTimeout:    *shutdownGrace,
	})
	if err != nil {
		return err
	}

	if *file != "-" {
		stopReload := reloadOnHangup(ctx, n, *file, *replicas, *nodeName, stderr)
		defer stopReload()
	}

	var wg sync.WaitGroup
	errs := make([]error, len(in.Pods))
	statuses := make([]podResult, len(in.Pods))
	for i, pod := range in.Pods {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, err := n.RunPod(ctx, pod)
			statuses[i] = podResult{Namespace: pod.Namespace, Name: pod.Name, Status: status}
			if err != nil {
				statuses[i].Error = err.Error()
				errs[i] = fmt.Errorf("pod %s: %w", pod.Name, err)
				return
			}
			for _, c := range append(status.InitContainers, status.Containers...) {
				printExited(stderr, pod.Name, c)
			}
		}()
	}
	wg.Wait()
	if *statusFile != "" {
		if err := writeStatuses(*statusFile, statuses); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// podResult is one pod's entry in the -status-file.
type podResult struct {
	Namespace string          `json:"namespace"`
	Name      string          `json:"name"`
	Status    *node.PodStatus `json:"status"`
	// Error is why the pod ended with an error, or its teardown failed; empty when neither.
	Error string `json:"error,omitempty"`
}

// writeStatuses writes the statuses to path, readable by its owner alone (what containers logged
// may be secret). A symlink at path is refused, never written through; an existing regular file
// must be the caller's own and is cut and made 0600 before anything is written; a FIFO or a
// device (a pipe named on the command line) is written as it is.
func writeStatuses(path string, statuses []podResult) error {
	data, err := json.MarshalIndent(statuses, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return fmt.Errorf("-status-file: %w", err)
	}
	err = prepareStatusFile(f)
	if err == nil {
		_, err = f.Write(append(data, '\n'))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("-status-file: %w", err)
	}
	return nil
}

// prepareStatusFile checks an opened status file: a regular file another user owns (who could
// have opened it for reading before) is refused; the caller's own is emptied and made 0600.
func prepareStatusFile(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return nil
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("%s is owned by uid %d, not by this process", f.Name(), st.Uid)
	}
	if err := f.Chmod(0o600); err != nil {
		return err
	}
	return f.Truncate(0)
}

// reloadOnHangup re-reads the manifest on SIGHUP and puts its ConfigMaps and Secrets in the node's
// store, then refreshes the running pods' volumes (Node.UpdateObjects), as kubelet's periodic
// remount shows an update made through the API server. Pods are read once, at the start: a
// changed or added Pod is not run. stop ends the watch.
func reloadOnHangup(ctx context.Context, n *node.Node, file string, replicas int, nodeName string, stderr io.Writer) (stop func()) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-hup:
			}
			if err := reload(ctx, n, file, replicas, nodeName); err != nil {
				fmt.Fprintln(stderr, "minikubelet: reload: "+terminal.Escape(err.Error()))
			}
		}
	}()
	return func() { signal.Stop(hup); close(done) }
}

func reload(ctx context.Context, n *node.Node, file string, replicas int, nodeName string) error {
	in, err := readInput(file, replicas, nodeName)
	if err != nil {
		return err
	}
	return n.UpdateObjects(ctx, in)
}

// What minikubelet prints for a person names pods and containers, and quotes warnings and errors,
// from a manifest that no API server checked (which would refuse control characters in names)
// and from what containers wrote: each line is escaped whole, so none of it acts on the terminal.

// verboseLog is the -v log. An entry may span lines (a refused config's category and cause):
// each line is escaped.
func verboseLog(w io.Writer) func(format string, args ...any) {
	return func(format string, args ...any) {
		lines := strings.Split(fmt.Sprintf(format, args...), "\n")
		for i, l := range lines {
			lines[i] = terminal.Escape(l)
		}
		fmt.Fprintln(w, "minikubelet: "+strings.Join(lines, "\n"))
	}
}

// printWarning prints a warning of reading the manifest.
func printWarning(w io.Writer, warning string) {
	fmt.Fprintln(w, "minikubelet: warning: "+terminal.Escape(warning))
}

// printExited prints how the container's last attempt ended, if it has.
func printExited(w io.Writer, pod string, c node.ContainerStatus) {
	if a := c.Last(); a != nil && a.Exited {
		fmt.Fprintln(w, terminal.Escape(fmt.Sprintf("pod %s: container %s exited with code %d after %d restarts",
			pod, c.Name, a.ExitCode, a.RestartCount))+message(a.Message))
	}
}

// message is a container's termination message as printed for a person: the container wrote it,
// so control characters are escaped and cannot rewrite the terminal.
func message(m string) string {
	if m == "" {
		return ""
	}
	return ": " + terminal.Escape(strings.TrimSpace(m))
}

func readInput(file string, replicas int, nodeName string) (*node.Input, error) {
	r := io.Reader(os.Stdin)
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	name := file
	if file == "-" {
		name = "stdin"
	}
	return node.Load(manifest.Options{Replicas: replicas, NodeName: nodeName}, manifest.Input{Name: name, Reader: r})
}

func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// parseNodeIPs parses -node-ip, or finds the host's first non-loopback IPv4 address.
func parseNodeIPs(s string) ([]net.IP, error) {
	var ips []net.IP
	for _, v := range splitList(s) {
		ip := net.ParseIP(v)
		if ip == nil {
			return nil, fmt.Errorf("-node-ip: %q is not an IP address", v)
		}
		ips = append(ips, ip)
	}
	if len(ips) > 0 {
		return ips, nil
	}
	addrs, err := net.InterfaceAddrs()
	if err == nil {
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok && !ipn.IP.IsLoopback() && ipn.IP.To4() != nil {
				return []net.IP{ipn.IP}, nil
			}
		}
	}
	return []net.IP{net.ParseIP("127.0.0.1")}, nil
}
