package sidebyside

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMedianAndNearest(t *testing.T) {
	tests := []struct {
		name           string
		xs             []float64
		median, near90 float64
	}{
		{"an odd count's median is its middle value", []float64{3, 1, 2}, 2, 3},
		{"an even count's median is the mean of its two middle values", []float64{4, 1, 3, 2}, 2.5, 4},
		{"the 90th percentile of ten values is the ninth smallest", []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 5.5, 9},
		{"one value is its own median and percentile", []float64{7}, 7, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			xs := append([]float64(nil), tt.xs...)
			assert.Equal(t, tt.median, Median(xs))
			assert.Equal(t, tt.near90, Nearest(xs, 0.9))
			assert.Equal(t, tt.xs, xs, "the values are left in their order")
		})
	}
	assert.True(t, math.IsNaN(Median(nil)), "no values have no median")
	assert.True(t, math.IsNaN(Nearest(nil, 0.9)), "no values have no percentile")
}

// config is a config measured in len(k) passes, with the same time on CPU as on the wall.
func config(k, os []float64) Config {
	var c Config
	c.Wall[Kubelet], c.Wall[OS], c.Wall[Memory] = k, os, os
	c.CPU = c.Wall
	return c
}

func TestPodRatio(t *testing.T) {
	tests := []struct {
		name string
		pod  Pod
		kind Kind
		want float64
	}{
		{
			name: "a pod's containers count together in each pass, then the passes' median",
			pod: Pod{Containers: []Config{
				config([]float64{100, 100, 100}, []float64{10, 50, 30}),
				config([]float64{100, 300, 100}, []float64{30, 50, 10}),
			}},
			kind: Containers,
			want: 0.2, // passes: 40/200, 100/400, 40/200
		},
		{
			name: "the sandbox is its own ratio",
			pod: Pod{
				Sandbox:    config([]float64{10, 10, 10}, []float64{5, 6, 7}),
				Containers: []Config{config([]float64{1}, []float64{1})},
			},
			kind: Sandbox,
			want: 0.6,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, tt.pod.Ratio(tt.kind, OS, Wall), 1e-12)
			assert.InDelta(t, tt.want, tt.pod.Ratio(tt.kind, Memory, CPU), 1e-12)
		})
	}
	assert.True(t, math.IsNaN((&Pod{}).Ratio(Containers, OS, Wall)), "a pod without containers has no container ratio")
}

func TestDistributionNamesTheWorstPod(t *testing.T) {
	run := Run{Pods: []Pod{
		{Name: "a", Containers: []Config{config([]float64{100}, []float64{20})}},
		{Name: "b", Containers: []Config{config([]float64{100}, []float64{60})}},
		{Name: "c", Containers: []Config{config([]float64{100}, []float64{30})}},
	}}
	d := run.Distribution(Containers, OS, Wall)
	assert.Equal(t, Distribution{Median: 0.3, P90: 0.6, Worst: 0.6, WorstPod: "b", Pods: 3}, d)
}

func TestSummaryTakesEachPodsMedianOverTheRuns(t *testing.T) {
	runOf := func(os float64) Run {
		return Run{Pods: []Pod{{Name: "p", Sandbox: config([]float64{100}, []float64{os}), Containers: []Config{config([]float64{100}, []float64{os})}}}}
	}
	var buf bytes.Buffer
	for _, os := range []float64{10, 90, 30} {
		data, err := json.Marshal(runOf(os))
		require.NoError(t, err)
		buf.Write(append(data, '\n'))
	}
	runs, err := ReadRuns(&buf)
	require.NoError(t, err)
	require.Len(t, runs, 3)
	s := Summarise(runs)
	assert.InDelta(t, 0.3, s.Pod("p").Ratio[Containers][OS][Wall], 1e-12)
	assert.InDelta(t, 0.3, s.Distribution(Sandbox, OS, Wall).Worst, 1e-12)
	lo, hi := s.RunRange(Containers, OS, Wall, func(d Distribution) float64 { return d.Median })
	assert.Equal(t, [2]float64{0.1, 0.9}, [2]float64{lo, hi})
	assert.Nil(t, s.Pod("q"), "a pod no run measured has no summary")
}
