package conformance

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/conformance/internal/kubeletside"
	"github.com/podconfig/podconfig/conformance/internal/podconfigside"
	"github.com/podconfig/podconfig/conformance/internal/result"
	"github.com/podconfig/podconfig/conformance/internal/sidebyside"
	"github.com/podconfig/podconfig/conformance/scenario"
	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/hostfs/hostfstest"
	"github.com/podconfig/podconfig/internal/benchpod"
)

var (
	sideBySideBatch  = flag.Int("sidebyside.batch", 8, "BenchmarkSideBySide/pods: how many calls of a config each side makes in a row, timed together")
	sideBySideOut    = flag.String("sidebyside.out", "", "BenchmarkSideBySide/pods: a file each run's figures are appended to, one JSON line a run (summarise with go run ./cmd/sidebyside FILE)")
	sideBySidePasses = flag.Int("sidebyside.passes", 7, "BenchmarkSideBySide/pods: how many interleaved passes each pod's configs are measured in")
	sideBySideSelect = flag.String("sidebyside.pods", "", "BenchmarkSideBySide/pods: measure only the pods whose name matches this regular expression (to profile a few)")
	sideBySideOnly   = flag.String("sidebyside.only", "", "BenchmarkSideBySide/pods: time this side alone (kubelet, podconfig-os or podconfig-memory), so that strace counts its system calls")
)

// sideBySidePods renders every config (the sandbox and each container) of benchpod and of every
// pod of the real manifests (realworldScenarios) with kubelet's code, with podconfig on hostfs.OS
// over the same tmpfs directories (production) and with podconfig on its in-memory files, after
// checking that each podconfig side renders every pod as kubelet does. Each pod is measured in
// -sidebyside.passes passes; in a pass each of its configs is rendered -sidebyside.batch times in
// a row by each side in turn (the order of the sides reversed every other pass), so that the sides
// are measured close together in time on a shared machine. A pod's ratio is, in each pass, the sum
// over its containers of podconfig's time per call over kubelet's, then the median of the passes;
// the sandbox has its own. The metrics are the distribution of those ratios over the pods; with
// -sidebyside.out each run's figures, per config, go to a file for cmd/sidebyside to summarise.
// Allocations per call and podconfig's host calls (hostfstest's Interceptor around hostfs.OS,
// priced in system calls) are counted once per pod, before its passes. A b.Loop iteration is a
// whole run, appended to -sidebyside.out as it ends; the metrics are the last run's. -benchtime 1x
// runs one (and a run takes longer than the default second).
func sideBySidePods(b *testing.B) {
	ctx := context.Background()
	dir := tmpfsDir(b)
	root, logs := filepath.Join(dir, "root"), filepath.Join(dir, "logs")
	realPods := realworldScenarios(b, filepath.Join(dir, "host"))
	only := sidebyside.Sides
	for s := range sidebyside.Sides {
		if s.String() == *sideBySideOnly {
			only = s
		}
	}
	if *sideBySideOnly != "" && only == sidebyside.Sides {
		b.Fatalf("-sidebyside.only=%q: want kubelet, podconfig-os or podconfig-memory", *sideBySideOnly)
	}

	unlock := kubeletside.Lock()
	defer unlock()
	scs := []*scenario.Scenario{benchScenario()}
	skipped := 0
	for _, p := range realPods {
		if p.sc == nil {
			b.Logf("left out: %s", p.skipped)
			skipped++
			continue
		}
		scs = append(scs, p.sc)
	}
	if *sideBySideSelect != "" {
		re, err := regexp.Compile(*sideBySideSelect)
		if err != nil {
			b.Fatalf("-sidebyside.pods: %v", err)
		}
		scs = slices.DeleteFunc(scs, func(sc *scenario.Scenario) bool { return !re.MatchString(sc.Name) })
	}
	var run sidebyside.Run
	for b.Loop() {
		run = sidebyside.Run{Start: time.Now(), LoadStart: loadAverage(), Batch: *sideBySideBatch, Passes: *sideBySidePasses}
		run.LstatCPU[0] = lstatCPU(b, root)
		for _, sc := range scs {
			p, err := measurePod(ctx, sc, root, logs, only)
			if err != nil {
				b.Fatal(err)
			}
			run.Pods = append(run.Pods, p)
		}
		run.LoadEnd = loadAverage()
		run.LstatCPU[1] = lstatCPU(b, root)
		if only == sidebyside.Sides && *sideBySideOut != "" {
			if err := appendRun(*sideBySideOut, &run); err != nil {
				b.Fatal(err)
			}
		}
	}
	if only == sidebyside.Sides { // one side alone has no ratio
		reportDistributions(b, &run, skipped)
	}
}

// reportDistributions gives the distributions as the benchmark's metrics, and names the worst pods.
func reportDistributions(b *testing.B, run *sidebyside.Run, skipped int) {
	for _, k := range []sidebyside.Kind{sidebyside.Containers, sidebyside.Sandbox} {
		for _, side := range []sidebyside.Side{sidebyside.OS, sidebyside.Memory} {
			for _, m := range []sidebyside.Metric{sidebyside.Wall, sidebyside.CPU} {
				if side == sidebyside.Memory && m == sidebyside.CPU {
					continue
				}
				d := run.Distribution(k, side, m)
				name := fmt.Sprintf("%s-%s-%s", k, strings.TrimPrefix(side.String(), "podconfig-"), m)
				b.ReportMetric(d.Median, name+"-median-x")
				if side == sidebyside.OS {
					b.ReportMetric(d.P90, name+"-p90-x")
					b.ReportMetric(d.Worst, name+"-worst-x")
					b.Logf("%s: worst pod %s (%.3fx)", name, d.WorstPod, d.Worst)
				}
			}
		}
	}
	b.ReportMetric(float64(len(run.Pods)), "pods")
	b.ReportMetric(float64(skipped), "pods-left-out")
	b.ReportMetric(run.LoadStart[0], "load-start")
	b.ReportMetric(run.LoadEnd[0], "load-end")
}

// appendRun appends run to the file name as one JSON line.
func appendRun(name string, run *sidebyside.Run) error {
	data, err := json.Marshal(run)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// lstatCPU is the CPU time of one lstat(2) of a directory as deep as a pod's volumes directory
// under root (ns), the median of five rounds of 2,000.
func lstatCPU(b *testing.B, root string) float64 {
	dir := filepath.Join(root, "pods", "00000000-0000-0000-0000-000000000000", "volumes")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(filepath.Dir(dir))
	const n = 2000
	var rounds []float64
	for range 5 {
		var st syscall.Stat_t
		start := benchpod.ProcessCPU()
		for range n {
			if err := syscall.Lstat(dir, &st); err != nil {
				b.Fatal(err)
			}
		}
		rounds = append(rounds, float64((benchpod.ProcessCPU()-start).Nanoseconds())/n)
	}
	return sidebyside.Median(rounds)
}

// loadAverage is /proc/loadavg's 1, 5 and 15 minute load averages, zero where there is none.
func loadAverage() [3]float64 {
	var avg [3]float64
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return avg
	}
	for i, f := range strings.Fields(string(data)) {
		if i == len(avg) {
			break
		}
		avg[i], _ = strconv.ParseFloat(f, 64)
	}
	return avg
}

// benchedPod is one pod set up on every side, and what was measured of it.
type benchedPod struct {
	sc         *scenario.Scenario
	pod        *v1.Pod
	containers []*v1.Container
	kl         *kubeletside.Kubelet
	// nodes are podconfig's sides; counted is podconfig on hostfs.OS through an Interceptor
	// that counts its calls.
	nodes   [sidebyside.Sides]*podconfigside.Node
	counted *podconfigside.Node
	calls   *hostCalls
	out     sidebyside.Pod
}

// measurePod sets sc's pod up on every side, counts its allocations and host calls, measures it
// in -sidebyside.passes passes (only on side only, unless that is sidebyside.Sides), and takes it
// down. The pods are measured one at a time, so that the heap the collector walks holds one pod's
// kubelet and Generators, as a node's does, not the whole set's. The caller holds kubeletside's
// lock.
func measurePod(ctx context.Context, sc *scenario.Scenario, root, logs string, only sidebyside.Side) (sidebyside.Pod, error) {
	p, err := newBenchedPod(ctx, sc, root, logs)
	if err != nil {
		return sidebyside.Pod{}, err
	}
	defer p.kl.Close()
	if err := p.count(ctx); err != nil {
		return sidebyside.Pod{}, err
	}
	order := []sidebyside.Side{sidebyside.Kubelet, sidebyside.OS, sidebyside.Memory}
	for range *sideBySidePasses {
		if err := p.pass(ctx, order, only); err != nil {
			return sidebyside.Pod{}, err
		}
		slices.Reverse(order)
	}
	return p.out, nil
}

// newBenchedPod sets sc's pod up on every side under root and logs and checks that each of
// podconfig's sides renders it as kubelet does, without an error. The caller holds kubeletside's
// lock.
func newBenchedPod(ctx context.Context, sc *scenario.Scenario, root, logs string) (*benchedPod, error) {
	restore, err := kubeletside.Pin(sc.Node.WithDefaults())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sc.Name, err)
	}
	defer restore()
	pod := PodFor(sc)
	p := &benchedPod{sc: sc, pod: pod, containers: scenario.Containers(pod), calls: &hostCalls{}}
	p.kl, err = kubeletside.New(ctx, sc, pod, kubeletside.Dirs{Root: root, Logs: logs})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sc.Name, err)
	}
	k := p.kl.RenderAll(ctx, pod.DeepCopy())
	id := usernsHostID(k)
	if p.nodes[sidebyside.OS], err = podconfigside.NewOnHost(sc, pod, root, logs, id); err != nil {
		return nil, fmt.Errorf("%s: %w", sc.Name, err)
	}
	if p.nodes[sidebyside.Memory], err = podconfigside.New(sc, pod, root, logs, id); err != nil {
		return nil, fmt.Errorf("%s: %w", sc.Name, err)
	}
	if p.counted, err = podconfigside.NewOnFiles(sc, pod, root, logs, id, p.calls.wrap(hostfs.OS{})); err != nil {
		return nil, fmt.Errorf("%s: %w", sc.Name, err)
	}
	podDir := filepath.Join(root, "pods", string(pod.UID))
	Normalise(k, podDir, podconfigside.TerminationMessageName)
	if err := firstError(k); err != nil {
		return nil, fmt.Errorf("%s: kubelet: %w", sc.Name, err)
	}
	for _, n := range []*podconfigside.Node{p.nodes[sidebyside.OS], p.nodes[sidebyside.Memory], p.counted} {
		r := n.Render(ctx, pod.DeepCopy())
		Normalise(r, podDir, podconfigside.TerminationMessageName)
		if diffs := Compare(k, r); len(diffs) > 0 {
			return nil, fmt.Errorf("%s renders differently: %s", sc.Name, diffs[0])
		}
	}
	p.out = sidebyside.Pod{Name: sc.Name, Sandbox: sidebyside.Config{Name: "sandbox"}}
	for i, c := range p.containers {
		cfg := k.Containers[i].Config
		p.out.Containers = append(p.out.Containers, sidebyside.Config{Name: c.Name, Envs: len(cfg.Envs), Mounts: len(cfg.Mounts)})
	}
	return p, nil
}

// firstError is the first error of a result.
func firstError(r *result.Result) error {
	if r.SandboxErr != nil {
		return fmt.Errorf("sandbox: %w", r.SandboxErr)
	}
	for _, c := range r.Containers {
		if c.Err != nil {
			return fmt.Errorf("container %s: %w", c.Name, c.Err)
		}
	}
	return nil
}

// config is the measured config i: -1 is the sandbox, else the i-th container.
func (p *benchedPod) config(i int) *sidebyside.Config {
	if i < 0 {
		return &p.out.Sandbox
	}
	return &p.out.Containers[i]
}

// render renders config i on side once (podconfig's side on node n, when not nil).
func (p *benchedPod) render(ctx context.Context, side sidebyside.Side, n *podconfigside.Node, i int) error {
	var err error
	switch {
	case side == sidebyside.Kubelet && i < 0:
		_, err = p.kl.Sandbox(ctx, p.pod)
	case side == sidebyside.Kubelet:
		_, err = p.kl.Container(ctx, p.pod, p.containers[i])
	case i < 0:
		_, err = n.Sandbox(ctx, p.pod)
	default:
		_, err = n.Container(ctx, p.pod, p.containers[i])
	}
	return err
}

// count measures each config's allocations per call on every side and podconfig's host calls
// on hostfs.OS.
func (p *benchedPod) count(ctx context.Context) error {
	restore, err := kubeletside.Pin(p.sc.Node.WithDefaults())
	if err != nil {
		return err
	}
	defer restore()
	const calls = 16
	for i := -1; i < len(p.containers); i++ {
		c := p.config(i)
		for side := range sidebyside.Sides {
			c.Allocs[side], c.Bytes[side] = allocsPerCall(calls, func() {
				_ = p.render(ctx, side, p.nodes[side], i)
			})
		}
		p.calls.reset()
		_ = p.render(ctx, sidebyside.OS, p.counted, i)
		var err error
		if c.HostCalls, c.Syscalls, err = p.calls.take(); err != nil {
			return fmt.Errorf("%s: %s: %w", p.sc.Name, c.Name, err)
		}
	}
	return nil
}

// allocsPerCall is the allocations and bytes allocated per call of f, over n calls.
func allocsPerCall(n int, f func()) (allocs, bytes float64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		f()
	}
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs-before.Mallocs) / float64(n), float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
}

// pass renders each of the pod's configs a batch of times on each side, in order (only that side
// when only is one), and records the time per call.
func (p *benchedPod) pass(ctx context.Context, order []sidebyside.Side, only sidebyside.Side) error {
	restore, err := kubeletside.Pin(p.sc.Node.WithDefaults())
	if err != nil {
		return err
	}
	defer restore()
	batch := *sideBySideBatch
	for i := -1; i < len(p.containers); i++ {
		c := p.config(i)
		for _, side := range order {
			if only != sidebyside.Sides && side != only {
				continue
			}
			n := p.nodes[side]
			cpu, start := benchpod.ProcessCPU(), time.Now()
			for range batch {
				if err := p.render(ctx, side, n, i); err != nil {
					return fmt.Errorf("%s: %s: %s: %w", p.sc.Name, c.Name, side, err)
				}
			}
			wall, cpuTime := time.Since(start), benchpod.ProcessCPU()-cpu
			c.Wall[side] = append(c.Wall[side], float64(wall.Nanoseconds())/float64(batch))
			c.CPU[side] = append(c.CPU[side], float64(cpuTime.Nanoseconds())/float64(batch))
		}
	}
	return nil
}

// hostCalls counts the calls made through the Interceptor it wraps a backend in, by method.
type hostCalls struct {
	mu sync.Mutex
	n  map[string]int
}

func (h *hostCalls) add(method string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n == nil {
		h.n = map[string]int{}
	}
	h.n[method]++
}

func (h *hostCalls) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.n = nil
}

// take returns the calls counted since the last reset, and what they cost on hostfs.OS in system
// calls (osSyscalls); a method without a price is an error, so that a new kind of call is priced
// before it is counted.
func (h *hostCalls) take() (map[string]int, int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	calls, syscalls := h.n, 0
	h.n = nil
	for method, n := range calls {
		cost, ok := osSyscalls[method]
		if !ok {
			return nil, 0, fmt.Errorf("no system-call price for hostfs's %s: add it to osSyscalls", method)
		}
		syscalls += n * cost
	}
	return calls, syscalls, nil
}

// osSyscalls is what each of podconfig's host calls costs on hostfs.OS, in system calls, with the
// outcome every config after a pod's first sees: the directories and files exist and the pod's
// etc-hosts is unchanged (the core module's TestContainerConfigHostCalls prices them alike, and
// strace of this benchmark checks the total: docs/performance.md).
var osSyscalls = map[string]int{
	"Stat":      1, // newfstatat
	"Lstat":     1, // newfstatat
	"MkdirAll":  1, // newfstatat of the existing directory
	"WriteFile": 4, // openat, fstat, pread64, close: the content is unchanged
	"Chmod":     1, // fchmodat
	"Create":    2, // openat, close
	// openat (root), openat2 (O_PATH), fstat, openat (reopen), fstat, 2 close; the caller's read
	// and close
	"OpenBeneath": 9,
	"Readlink":    1, // readlinkat
}

// wrap is fsys seen through an Interceptor that counts each call in h.
func (h *hostCalls) wrap(fsys hostfstest.FS) *hostfstest.Interceptor {
	return hostfstest.Wrap(fsys, hostfstest.Funcs{
		MkdirAll: func(f hostfstest.FS, p string, perm fs.FileMode) error {
			h.add("MkdirAll")
			return f.MkdirAll(p, perm)
		},
		WriteFile: func(f hostfstest.FS, p string, data []byte, perm fs.FileMode) error {
			h.add("WriteFile")
			return f.WriteFile(p, data, perm)
		},
		Create:   func(f hostfstest.FS, p string) error { h.add("Create"); return f.Create(p) },
		Chmod:    func(f hostfstest.FS, p string, perm fs.FileMode) error { h.add("Chmod"); return f.Chmod(p, perm) },
		ReadFile: func(f hostfstest.FS, p string) ([]byte, error) { h.add("ReadFile"); return f.ReadFile(p) },
		Open:     func(f hostfstest.FS, p string) (fs.File, error) { h.add("Open"); return f.Open(p) },
		OpenBeneath: func(f hostfstest.FS, root, p string) (fs.File, error) {
			h.add("OpenBeneath")
			return f.OpenBeneath(root, p)
		},
		Stat:     func(f hostfstest.FS, p string) (fs.FileInfo, error) { h.add("Stat"); return f.Stat(p) },
		Lstat:    func(f hostfstest.FS, p string) (fs.FileInfo, error) { h.add("Lstat"); return f.Lstat(p) },
		Readlink: func(f hostfstest.FS, p string) (string, error) { h.add("Readlink"); return f.Readlink(p) },
		ReadDir:  func(f hostfstest.FS, p string) ([]fs.DirEntry, error) { h.add("ReadDir"); return f.ReadDir(p) },
		Symlink:  func(f hostfstest.FS, o, n string) error { h.add("Symlink"); return f.Symlink(o, n) },
		Remove:   func(f hostfstest.FS, p string) error { h.add("Remove"); return f.Remove(p) },
	})
}
