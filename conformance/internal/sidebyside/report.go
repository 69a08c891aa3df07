package sidebyside

import (
	"fmt"
	"io"
	"math"
)

// WriteReport writes the summary as Markdown: the distribution over the pods of podconfig's
// time as a fraction of kubelet's (median, 90th percentile and worst pod, with the range of each
// run's figure), then the worst pods of the production container config with what sets them
// apart.
func (s *Summary) WriteReport(w io.Writer) {
	lo, hi := s.LoadRange()
	batch, passes := 0, 0
	if len(s.Runs) > 0 {
		batch, passes = s.Runs[0].Batch, s.Runs[0].Passes
	}
	llo, lhi := s.LstatRange()
	fmt.Fprintf(w, "%d runs of %d pods, %d interleaved passes each (batches of %d calls a side), load average %.1f–%.1f, one lstat(2) %.2f–%.2f µs of CPU\n\n",
		len(s.Runs), len(s.Pods), passes, batch, lo, hi, llo/1e3, lhi/1e3)
	fmt.Fprintln(w, "| config | side | time | median over the pods | 90th percentile | worst pod |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, k := range []Kind{Containers, Sandbox} {
		for _, side := range []Side{OS, Memory} {
			for _, m := range []Metric{Wall, CPU} {
				d := s.Distribution(k, side, m)
				mlo, mhi := s.RunRange(k, side, m, func(d Distribution) float64 { return d.Median })
				plo, phi := s.RunRange(k, side, m, func(d Distribution) float64 { return d.P90 })
				wlo, whi := s.RunRange(k, side, m, func(d Distribution) float64 { return d.Worst })
				fmt.Fprintf(w, "| %s | %s | %s | %.3fx (runs %.3f–%.3f) | %.3fx (%.3f–%.3f) | %.3fx (%.3f–%.3f): %s |\n",
					k, side, m, d.Median, mlo, mhi, d.P90, plo, phi, d.Worst, wlo, whi, d.WorstPod)
			}
		}
	}
	fmt.Fprintln(w)
	for _, k := range []Kind{Containers, Sandbox} {
		fmt.Fprintf(w, "Worst pods, %s config on %s (wall time; per config: kubelet's and podconfig's µs, allocations, podconfig's system calls):\n\n", k, OS)
		fmt.Fprintln(w, "| pod | wall ratio | CPU ratio | kubelet µs | podconfig µs | allocs kubelet / podconfig | syscalls | containers | envs | mounts | host calls per config |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
		for _, p := range s.Worst(k, OS, Wall, 8) {
			fmt.Fprintf(w, "| %s | %.3f | %.3f | %.1f | %.1f | %.0f / %.0f | %.0f | %d | %.1f | %.1f | %s |\n",
				p.Name, p.Ratio[k][OS][Wall], p.Ratio[k][OS][CPU], p.Time[k][Kubelet][Wall]/1e3, p.Time[k][OS][Wall]/1e3,
				p.Allocs[k][Kubelet], p.Allocs[k][OS], p.Syscalls[k], p.Containers, p.Envs, p.Mounts, orDash(k == Containers, p.HostCallSummary))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "Per config over all pods (medians of the pods' figures):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| config | kubelet wall µs | podconfig-os wall µs | kubelet allocs | podconfig-os allocs | podconfig-memory allocs | podconfig-os syscalls |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, k := range []Kind{Containers, Sandbox} {
		col := func(f func(PodSummary) float64) float64 {
			var xs []float64
			for _, p := range s.Pods {
				if v := f(p); !math.IsNaN(v) {
					xs = append(xs, v)
				}
			}
			return Median(xs)
		}
		fmt.Fprintf(w, "| %s | %.1f | %.1f | %.0f | %.0f | %.0f | %.0f |\n", k,
			col(func(p PodSummary) float64 { return p.Time[k][Kubelet][Wall] / 1e3 }),
			col(func(p PodSummary) float64 { return p.Time[k][OS][Wall] / 1e3 }),
			col(func(p PodSummary) float64 { return p.Allocs[k][Kubelet] }),
			col(func(p PodSummary) float64 { return p.Allocs[k][OS] }),
			col(func(p PodSummary) float64 { return p.Allocs[k][Memory] }),
			col(func(p PodSummary) float64 { return p.Syscalls[k] }))
	}
}

func orDash(ok bool, s string) string {
	if !ok || s == "" {
		return "—"
	}
	return s
}
