// Package sidebyside holds what the conformance module's side-by-side benchmark measures over a
// set of pods (every config of each pod, on kubelet's code and on podconfig's backends, in
// interleaved passes) and summarises it: the distribution over the pods of podconfig's time as a
// fraction of kubelet's.
package sidebyside

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
)

// Side is who renders a config.
type Side int

// The sides: kubelet's own code, podconfig on hostfs.OS (production) and on its in-memory files
// (offline rendering).
const (
	Kubelet Side = iota
	OS
	Memory
	Sides
)

// String is the side's name in benchmark output.
func (s Side) String() string {
	return [...]string{"kubelet", "podconfig-os", "podconfig-memory"}[s]
}

// Run is one run of the benchmark: every pod measured in Passes interleaved passes.
type Run struct {
	Start time.Time `json:"start"`
	// LoadStart and LoadEnd are /proc/loadavg's 1, 5 and 15 minute averages before and after.
	LoadStart [3]float64 `json:"loadStart"`
	LoadEnd   [3]float64 `json:"loadEnd"`
	// LstatCPU is the CPU time of one lstat(2) of a pod's volumes directory, taken before and
	// after the passes (ns): what a path lookup, the unit of both sides' host work, costs on the
	// machine at the time.
	LstatCPU [2]float64 `json:"lstatCPU"`
	// Batch is how many calls each side makes of a config in a row, timed together.
	Batch  int   `json:"batch"`
	Passes int   `json:"passes"`
	Pods   []Pod `json:"pods"`
}

// Pod is one pod's configs.
type Pod struct {
	Name       string   `json:"name"`
	Sandbox    Config   `json:"sandbox"`
	Containers []Config `json:"containers"`
}

// Config is what was measured of one config (the sandbox or a container).
type Config struct {
	Name string `json:"name"`
	// Wall and CPU are the time per call, by side, one value per pass (ns). CPU is the process's
	// user and system time (getrusage), which the other processes sharing the cores inflate
	// less than wall time.
	Wall [Sides][]float64 `json:"wall"`
	CPU  [Sides][]float64 `json:"cpu"`
	// Allocs and Bytes are the allocations per call, by side.
	Allocs [Sides]float64 `json:"allocs"`
	Bytes  [Sides]float64 `json:"bytes"`
	// HostCalls are podconfig's calls of its file backend per call on hostfs.OS, by method, and
	// Syscalls what they cost in system calls.
	HostCalls map[string]int `json:"hostCalls,omitempty"`
	Syscalls  int            `json:"syscalls"`
	// Envs and Mounts count the config's environment variables and mounts.
	Envs   int `json:"envs"`
	Mounts int `json:"mounts"`
}

// Metric chooses wall or CPU time.
type Metric int

// The metrics.
const (
	Wall Metric = iota
	CPU
)

func (m Metric) String() string { return [...]string{"wall", "cpu"}[m] }

func (c *Config) times(m Metric) *[Sides][]float64 {
	if m == CPU {
		return &c.CPU
	}
	return &c.Wall
}

// Kind chooses a pod's containers or its sandbox.
type Kind int

// The kinds of config.
const (
	Containers Kind = iota
	Sandbox
)

func (k Kind) String() string { return [...]string{"container", "sandbox"}[k] }

// configs are the pod's configs of kind k.
func (p *Pod) configs(k Kind) []Config {
	if k == Sandbox {
		return []Config{p.Sandbox}
	}
	return p.Containers
}

// Ratio is side's time over kubelet's for the pod's configs of kind k: in each pass the sum over
// the configs of side's time per call over kubelet's, then the median of the passes.
func (p *Pod) Ratio(k Kind, side Side, m Metric) float64 {
	cs := p.configs(k)
	if len(cs) == 0 {
		return math.NaN()
	}
	passes := len(cs[0].times(m)[Kubelet])
	var ratios []float64
	for r := range passes {
		var num, den float64
		for i := range cs {
			t := cs[i].times(m)
			if r >= len(t[side]) || r >= len(t[Kubelet]) {
				continue
			}
			num += t[side][r]
			den += t[Kubelet][r]
		}
		if den > 0 {
			ratios = append(ratios, num/den)
		}
	}
	return Median(ratios)
}

// PerConfig is the median over passes of side's time per call of kind k's configs, averaged over
// the pod's configs of that kind (ns).
func (p *Pod) PerConfig(k Kind, side Side, m Metric) float64 {
	cs := p.configs(k)
	var sum float64
	for i := range cs {
		sum += Median(cs[i].times(m)[side])
	}
	return sum / float64(len(cs))
}

// mean of a per-config figure over the pod's configs of kind k.
func (p *Pod) mean(k Kind, f func(*Config) float64) float64 {
	cs := p.configs(k)
	var sum float64
	for i := range cs {
		sum += f(&cs[i])
	}
	return sum / float64(len(cs))
}

// Median of xs (NaN for none); xs is not changed.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Nearest is the nearest-rank q-quantile of xs (0 < q <= 1); xs is not changed.
func Nearest(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(i, 0)]
}

// Distribution is how a ratio spreads over the pods.
type Distribution struct {
	Median, P90, Worst float64
	WorstPod           string
	Pods               int
}

// Distribution is the distribution over the run's pods of their Ratio.
func (r *Run) Distribution(k Kind, side Side, m Metric) Distribution {
	byPod := map[string]float64{}
	for i := range r.Pods {
		if v := r.Pods[i].Ratio(k, side, m); !math.IsNaN(v) {
			byPod[r.Pods[i].Name] = v
		}
	}
	return distributionOf(byPod)
}

func distributionOf(byPod map[string]float64) Distribution {
	var d Distribution
	var xs []float64
	d.Worst = math.Inf(-1)
	for name, v := range byPod {
		xs = append(xs, v)
		if v > d.Worst || (v == d.Worst && name < d.WorstPod) {
			d.Worst, d.WorstPod = v, name
		}
	}
	d.Median, d.P90, d.Pods = Median(xs), Nearest(xs, 0.9), len(xs)
	return d
}

// ReadRuns reads the runs a benchmark appended to its output, one JSON object a line.
func ReadRuns(r io.Reader) ([]Run, error) {
	dec := json.NewDecoder(r)
	var runs []Run
	for {
		var run Run
		err := dec.Decode(&run)
		if err == io.EOF {
			return runs, nil
		}
		if err != nil {
			return nil, err
		}
		runs = append(runs, run)
	}
}

// Summary is the runs taken together.
type Summary struct {
	Runs []Run
	// Pods are each pod's ratios, the median of its runs'.
	Pods []PodSummary
}

// PodSummary is a pod's figures over the runs: medians of each run's.
type PodSummary struct {
	Name string
	// Ratio is by kind, side and metric.
	Ratio [2][Sides][2]float64
	// Time is the time per config by kind, side and metric (ns).
	Time [2][Sides][2]float64
	// Allocs per config by kind and side; Syscalls per config on hostfs.OS.
	Allocs          [2][Sides]float64
	Syscalls        [2]float64
	Containers      int
	Envs, Mounts    float64 // per container
	HostCallSummary string  // the containers' host calls by method, per config
}

// Summarise takes the runs together.
func Summarise(runs []Run) *Summary {
	s := &Summary{Runs: runs}
	type acc struct {
		ratio, time [2][Sides][2][]float64
		last        *Pod
	}
	byName := map[string]*acc{}
	var order []string
	for ri := range runs {
		for pi := range runs[ri].Pods {
			p := &runs[ri].Pods[pi]
			a := byName[p.Name]
			if a == nil {
				a = &acc{}
				byName[p.Name] = a
				order = append(order, p.Name)
			}
			a.last = p
			for k := range Kind(2) {
				for side := range Sides {
					for m := range Metric(2) {
						a.ratio[k][side][m] = append(a.ratio[k][side][m], p.Ratio(k, side, m))
						a.time[k][side][m] = append(a.time[k][side][m], p.PerConfig(k, side, m))
					}
				}
			}
		}
	}
	for _, name := range order {
		a := byName[name]
		ps := PodSummary{Name: name, Containers: len(a.last.Containers)}
		for k := range Kind(2) {
			for side := range Sides {
				for m := range Metric(2) {
					ps.Ratio[k][side][m] = Median(a.ratio[k][side][m])
					ps.Time[k][side][m] = Median(a.time[k][side][m])
				}
				ps.Allocs[k][side] = a.last.mean(k, func(c *Config) float64 { return c.Allocs[side] })
			}
			ps.Syscalls[k] = a.last.mean(k, func(c *Config) float64 { return float64(c.Syscalls) })
		}
		ps.Envs = a.last.mean(Containers, func(c *Config) float64 { return float64(c.Envs) })
		ps.Mounts = a.last.mean(Containers, func(c *Config) float64 { return float64(c.Mounts) })
		ps.HostCallSummary = hostCallSummary(a.last.Containers)
		s.Pods = append(s.Pods, ps)
	}
	return s
}

// hostCallSummary is the containers' host calls per config, by method.
func hostCallSummary(cs []Config) string {
	total := map[string]int{}
	for _, c := range cs {
		for m, n := range c.HostCalls {
			total[m] += n
		}
	}
	var parts []string
	for _, m := range slices.Sorted(maps.Keys(total)) {
		parts = append(parts, fmt.Sprintf("%s %.3g", m, float64(total[m])/float64(len(cs))))
	}
	return strings.Join(parts, ", ")
}

// Distribution is the distribution over the pods of their ratio (the median of their runs').
func (s *Summary) Distribution(k Kind, side Side, m Metric) Distribution {
	byPod := map[string]float64{}
	for _, p := range s.Pods {
		if v := p.Ratio[k][side][m]; !math.IsNaN(v) {
			byPod[p.Name] = v
		}
	}
	return distributionOf(byPod)
}

// Worst are the n pods of the highest ratio of kind k on side, by metric m.
func (s *Summary) Worst(k Kind, side Side, m Metric, n int) []PodSummary {
	pods := slices.Clone(s.Pods)
	slices.SortFunc(pods, func(a, b PodSummary) int {
		return cmp.Or(cmp.Compare(b.Ratio[k][side][m], a.Ratio[k][side][m]), strings.Compare(a.Name, b.Name))
	})
	return pods[:min(n, len(pods))]
}

// Pod is the summary of the named pod, or nil.
func (s *Summary) Pod(name string) *PodSummary {
	for i := range s.Pods {
		if s.Pods[i].Name == name {
			return &s.Pods[i]
		}
	}
	return nil
}

// RunRange is the lowest and highest over the runs of a figure of each run's distribution.
func (s *Summary) RunRange(k Kind, side Side, m Metric, of func(Distribution) float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := range s.Runs {
		v := of(s.Runs[i].Distribution(k, side, m))
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// LstatRange is the lowest and highest CPU time of an lstat(2) seen at a run's start or end (ns).
func (s *Summary) LstatRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, r := range s.Runs {
		for _, v := range r.LstatCPU {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	return lo, hi
}

// LoadRange is the lowest and highest one-minute load average seen at a run's start or end.
func (s *Summary) LoadRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, r := range s.Runs {
		for _, v := range []float64{r.LoadStart[0], r.LoadEnd[0]} {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	return lo, hi
}
