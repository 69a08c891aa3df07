// Command vknode registers a node with an API server and runs the pods bound to it on a CRI
// runtime with podconfig (package vknode), through virtual-kubelet's node controller (the Node,
// its status and its lease) and pod controller (pods from the API server to the provider, their
// statuses back). It serves the kubelet API's /containerLogs and /exec over TLS to the clients
// named by -allowed-clients (the API server's kubelet client certificate), and runs until
// SIGINT or SIGTERM, when it stops every pod within -shutdown-grace-period and exits.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"
	vklog "github.com/virtual-kubelet/virtual-kubelet/log"
	vklogrus "github.com/virtual-kubelet/virtual-kubelet/log/logrus"
	"github.com/virtual-kubelet/virtual-kubelet/node"
	"github.com/virtual-kubelet/virtual-kubelet/node/api"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/logs"
	"github.com/podconfig/podconfig/vknode"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "vknode:", err)
		os.Exit(1)
	}
}

// flags are the command's options.
type flags struct {
	kubeconfig, nodeName, endpoint                  string
	rootDir, podLogsDir, cgroupRoot, cgroupDriver   string
	nodeIPs, address                                string
	port, maxPods, containerLogMaxFiles             int
	containerLogMaxSize                             string
	certFile, keyFile, clientCAFile, allowedClients string
	clusterDomain, clusterDNS, resolvConf           string
	shutdownGrace                                   time.Duration
	verbose                                         bool
}

func parseFlags(args []string, stderr io.Writer) (*flags, error) {
	var f flags
	fs := flag.NewFlagSet("vknode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.kubeconfig, "kubeconfig", "", "the node's kubeconfig (system:node:<name> credentials)")
	fs.StringVar(&f.nodeName, "node-name", "", "the node's name")
	fs.StringVar(&f.endpoint, "endpoint", "unix:///run/containerd/containerd.sock", "the CRI runtime's endpoint")
	fs.StringVar(&f.rootDir, "root-dir", "/var/lib/kubelet", "kubelet's --root-dir: pod directories and volumes")
	fs.StringVar(&f.podLogsDir, "pod-logs-dir", "/var/log/pods", "kubelet's pod logs directory")
	fs.StringVar(&f.cgroupRoot, "cgroup-root", "", "kubelet's --cgroup-root")
	fs.StringVar(&f.cgroupDriver, "cgroup-driver", "cgroupfs", "kubelet's --cgroup-driver, when the runtime does not report its own")
	fs.StringVar(&f.nodeIPs, "node-ip", "127.0.0.1", "the node's IPs, comma-separated: its InternalIP addresses, where the API server reaches the kubelet port")
	fs.StringVar(&f.address, "address", "127.0.0.1", "the address the kubelet API listens on")
	fs.IntVar(&f.port, "port", 10250, "the kubelet API's port (0: any free port), published in the Node's daemonEndpoints")
	fs.StringVar(&f.certFile, "tls-cert-file", "", "the kubelet API's serving certificate")
	fs.StringVar(&f.keyFile, "tls-private-key-file", "", "the key of -tls-cert-file")
	fs.StringVar(&f.clientCAFile, "client-ca-file", "", "the CA the kubelet API's clients' certificates are checked against")
	fs.StringVar(&f.allowedClients, "allowed-clients", "kube-apiserver-kubelet-client", "the common names of the client certificates the kubelet API serves, comma-separated")
	fs.IntVar(&f.maxPods, "max-pods", 110, "kubelet's --max-pods: the node's pods capacity, past which pods are refused")
	fs.StringVar(&f.containerLogMaxSize, "container-log-max-size", logs.DefaultContainerLogMaxSize, "kubelet's --container-log-max-size: the size (e.g. 10Mi) at which a container's log is rotated")
	fs.IntVar(&f.containerLogMaxFiles, "container-log-max-files", logs.DefaultContainerLogMaxFiles, "kubelet's --container-log-max-files: the most log files a container keeps; at least 2")
	fs.StringVar(&f.clusterDomain, "cluster-domain", "cluster.local", "kubelet's --cluster-domain")
	fs.StringVar(&f.clusterDNS, "cluster-dns", "", "kubelet's --cluster-dns, comma-separated")
	fs.StringVar(&f.resolvConf, "resolv-conf", "/etc/resolv.conf", "the resolv.conf of pods with dnsPolicy Default")
	fs.DurationVar(&f.shutdownGrace, "shutdown-grace-period", 10*time.Second, "caps the grace period of the containers stopped when the node stops")
	fs.BoolVar(&f.verbose, "v", false, "log what the node does")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if f.kubeconfig == "" || f.nodeName == "" || f.certFile == "" || f.keyFile == "" || f.clientCAFile == "" || fs.NArg() != 0 {
		return nil, errors.New("usage: vknode -kubeconfig FILE -node-name NAME -tls-cert-file FILE -tls-private-key-file FILE -client-ca-file FILE [-endpoint unix:///path.sock]")
	}
	if err := logs.ValidateContainerLogRotation(f.containerLogMaxSize, f.containerLogMaxFiles, logs.DefaultContainerLogMonitorInterval); err != nil {
		return nil, err
	}
	return &f, nil
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	f, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	logger := logrus.New()
	logger.SetOutput(stderr)
	logger.SetLevel(logrus.WarnLevel)
	logf := func(string, ...any) {}
	if f.verbose {
		logger.SetLevel(logrus.InfoLevel)
		logf = func(format string, args ...any) { logger.Infof(format, args...) }
	}
	vklog.L = vklogrus.FromLogrus(logrus.NewEntry(logger))
	ctx = vklog.WithLogger(ctx, vklog.L)

	restConfig, err := clientcmd.BuildConfigFromFlags("", f.kubeconfig)
	if err != nil {
		return err
	}
	// Kubelet's --kube-api-qps and --kube-api-burst: client-go's defaults (5 and 10) would queue
	// the node's status updates and events behind each other.
	restConfig.QPS, restConfig.Burst = 50, 100
	client, err := kubernetes.NewForConfig(restConfig)
	if err != nil {
		return err
	}
	ips, err := parseIPs(f.nodeIPs)
	if err != nil {
		return err
	}
	var resolv []byte
	if f.resolvConf != "" {
		if resolv, err = os.ReadFile(f.resolvConf); err != nil {
			return err
		}
	}
	if !strings.HasPrefix(f.endpoint, "unix://") {
		return fmt.Errorf("-endpoint %q: only unix:// endpoints are supported", f.endpoint)
	}
	conn, err := grpc.NewClient(f.endpoint, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(16<<20)))
	if err != nil {
		return err
	}
	defer conn.Close()

	broadcaster := record.NewBroadcaster()
	defer broadcaster.Shutdown()
	broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: client.CoreV1().Events("")})
	recorder := broadcaster.NewRecorder(scheme.Scheme, v1.EventSource{Component: "kubelet", Host: f.nodeName})

	podFactory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithTweakListOptions(func(o *metav1.ListOptions) {
		o.FieldSelector = fields.OneTermEqualSelector("spec.nodeName", f.nodeName).String()
	}))
	podInformer := podFactory.Core().V1().Pods()
	provider, err := vknode.New(ctx, vknode.Config{
		NodeName: f.nodeName, Runtime: runtimeapi.NewRuntimeServiceClient(conn), Images: runtimeapi.NewImageServiceClient(conn),
		Client: client, Recorder: recorder, APIPods: podInformer.Lister(), NodeIPs: ips, RootDir: f.rootDir, PodLogsDir: f.podLogsDir,
		MaxPods: f.maxPods, ContainerLogMaxSize: f.containerLogMaxSize, ContainerLogMaxFiles: f.containerLogMaxFiles, CgroupRoot: f.cgroupRoot, CgroupDriver: configgen.CgroupDriver(f.cgroupDriver),
		ClusterDomain: f.clusterDomain, ClusterDNS: splitList(f.clusterDNS), ResolvConf: resolv, Logf: logf,
	})
	if err != nil {
		return err
	}

	lis, srv, err := kubeletAPI(f, provider, logger)
	if err != nil {
		return err
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.ServeTLS(lis, "", "") }()
	defer srv.Close()

	nodeObj := provider.Node()
	nodeObj.Status.DaemonEndpoints.KubeletEndpoint.Port = int32(lis.Addr().(*net.TCPAddr).Port)
	nodeCtl, err := node.NewNodeController(node.NaiveNodeProvider{}, nodeObj, client.CoreV1().Nodes(),
		node.WithNodeEnableLeaseV1(client.CoordinationV1().Leases(v1.NamespaceNodeLease), 40))
	if err != nil {
		return err
	}
	nodeCtx, stopNode := context.WithCancel(ctx)
	defer stopNode()
	go func() { _ = nodeCtl.Run(nodeCtx) }()
	select {
	case <-nodeCtl.Ready():
	case <-nodeCtl.Done():
		return fmt.Errorf("node controller: %w", nodeCtl.Err())
	case <-ctx.Done():
		return nil
	}
	logger.Warnf("node %s registered, kubelet API on %s", f.nodeName, lis.Addr())

	podCtl, podCtx, stopPods, err := podController(ctx, client, podFactory, provider, recorder)
	if err != nil {
		return err
	}
	defer stopPods()
	podDone := make(chan error, 1)
	go func() { podDone <- podCtl.Run(podCtx, 4) }()

	select {
	case <-ctx.Done():
	case err := <-serveErr:
		return fmt.Errorf("kubelet API: %w", err)
	case err := <-podDone:
		return fmt.Errorf("pod controller: %v", err)
	}
	logger.Warnf("stopping: every pod is stopped")
	stopPods()
	<-podDone
	sctx, cancel := context.WithTimeout(context.Background(), f.shutdownGrace+2*time.Minute)
	defer cancel()
	return provider.Shutdown(sctx, f.shutdownGrace)
}

// podController is virtual-kubelet's pod controller for the pods bound to the node, from
// podFactory, which is started here. The
// ConfigMap, Secret and Service informers it requires are never started: the provider resolves
// environments itself (SkipDownwardAPIResolution), and the Node authorizer would refuse their
// lists.
func podController(ctx context.Context, client kubernetes.Interface, podFactory informers.SharedInformerFactory, provider *vknode.Provider, recorder record.EventRecorder) (*node.PodController, context.Context, func(), error) {
	unused := informers.NewSharedInformerFactory(client, 0)
	ctl, err := node.NewPodController(node.PodControllerConfig{
		PodClient: client.CoreV1(), PodInformer: podFactory.Core().V1().Pods(), EventRecorder: recorder, Provider: provider,
		ConfigMapInformer: unused.Core().V1().ConfigMaps(), SecretInformer: unused.Core().V1().Secrets(),
		ServiceInformer: unused.Core().V1().Services(), SkipDownwardAPIResolution: true,
		// A status update that conflicts (the informer has not seen the pod's last update yet)
		// is retried within a second, not after the default's exponential back-off of up to
		// 1000 s: kubelet's status manager retries on its next sync, every 10 s at most.
		SyncPodStatusFromProviderRateLimiter: workqueue.NewTypedItemExponentialFailureRateLimiter[any](5*time.Millisecond, time.Second),
	})
	if err != nil {
		return nil, nil, nil, err
	}
	podCtx, cancel := context.WithCancel(ctx)
	podFactory.Start(podCtx.Done())
	return ctl, podCtx, func() { cancel(); podFactory.Shutdown() }, nil
}

// kubeletAPI listens on the kubelet port and serves /containerLogs and /exec over TLS to
// clients whose certificates -client-ca-file signed and whose common names -allowed-clients
// lists; anyone else is refused.
func kubeletAPI(f *flags, provider *vknode.Provider, logger *logrus.Logger) (net.Listener, *http.Server, error) {
	cert, err := tls.LoadX509KeyPair(f.certFile, f.keyFile)
	if err != nil {
		return nil, nil, err
	}
	caPEM, err := os.ReadFile(f.clientCAFile)
	if err != nil {
		return nil, nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, nil, fmt.Errorf("-client-ca-file %s: no certificate", f.clientCAFile)
	}
	allowed := map[string]bool{}
	for _, n := range splitList(f.allowedClients) {
		allowed[n] = true
	}
	mux := http.NewServeMux()
	api.AttachPodRoutes(api.PodHandlerConfig{
		RunInContainer: provider.RunInContainer, GetContainerLogs: provider.ContainerLogs, GetPods: provider.GetPods,
		StreamIdleTimeout: 4 * time.Hour, StreamCreationTimeout: 30 * time.Second,
	}, mux, false)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 || !allowed[r.TLS.PeerCertificates[0].Subject.CommonName] {
			http.Error(w, "Forbidden", http.StatusForbidden)
			return
		}
		mux.ServeHTTP(w, r)
	})
	lis, err := net.Listen("tcp", net.JoinHostPort(f.address, fmt.Sprint(f.port)))
	if err != nil {
		return nil, nil, err
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 30 * time.Second,
		ErrorLog:          log.New(logger.WriterLevel(logrus.DebugLevel), "", 0),
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}, ClientCAs: pool,
			ClientAuth: tls.RequireAndVerifyClientCert, MinVersion: tls.VersionTLS12},
	}
	return lis, srv, nil
}

func parseIPs(s string) ([]net.IP, error) {
	var ips []net.IP
	for _, v := range splitList(s) {
		ip := net.ParseIP(v)
		if ip == nil {
			return nil, fmt.Errorf("-node-ip: %q is not an IP address", v)
		}
		ips = append(ips, ip)
	}
	return ips, nil
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
