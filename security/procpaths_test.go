package security_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/security"
)

// fakeSys builds a sysfs tree with the given possible-CPU list (absent when "-") and
// thermal_throttle directories for the listed CPUs.
func fakeSys(t *testing.T, possible string, throttled ...string) string {
	t.Helper()
	root := t.TempDir()
	cpuDir := filepath.Join(root, "devices/system/cpu")
	require.NoError(t, os.MkdirAll(cpuDir, 0o755))
	if possible != "-" {
		require.NoError(t, os.WriteFile(filepath.Join(cpuDir, "possible"), []byte(possible), 0o644))
	}
	for _, n := range throttled {
		require.NoError(t, os.MkdirAll(filepath.Join(cpuDir, "cpu"+n, "thermal_throttle"), 0o755))
	}
	return root
}

func TestHostCPUsThermalThrottlePaths(t *testing.T) {
	path := func(n string) string { return "/sys/devices/system/cpu/cpu" + n + "/thermal_throttle" }
	for _, tc := range []struct {
		name      string
		possible  string
		throttled []string
		want      []string
	}{
		{name: "single range keeps CPUs whose directory exists, in CPU order", possible: "0-3\n", throttled: []string{"3", "0", "2"}, want: []string{path("0"), path("2"), path("3")}},
		{name: "list of ranges and single CPUs", possible: "0,2-3,8", throttled: []string{"0", "1", "3", "8", "9"}, want: []string{path("0"), path("3"), path("8")}},
		{name: "no directories gives nothing", possible: "0-7", want: nil},
		{name: "malformed list falls back to the CPUs Go sees", possible: "0-x", throttled: []string{"0"}, want: []string{path("0")}},
		{name: "reversed range alone gives no CPU, so it falls back to the CPUs Go sees", possible: "5-1", throttled: []string{"0"}, want: []string{path("0")}},
		{name: "reversed range inside a list adds no CPU and the rest of the list is kept, as in kubelet", possible: "0,2,5-1", throttled: []string{"0", "1", "2"}, want: []string{path("0"), path("2")}},
		{name: "a CPU listed twice is masked twice, as in kubelet", possible: "0,0-1", throttled: []string{"0"}, want: []string{path("0"), path("0")}},
		{name: "huge range falls back instead of looping", possible: "0-2000000000", throttled: []string{"0"}, want: []string{path("0")}},
		{name: "missing possible file falls back to the CPUs Go sees", possible: "-", throttled: []string{"0"}, want: []string{path("0")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := security.HostCPUs{SysRoot: fakeSys(t, tc.possible, tc.throttled...)}.ThermalThrottlePaths()
			assert.Equal(t, tc.want, got)
		})
	}
	require.GreaterOrEqual(t, runtime.NumCPU(), 1)
}

func TestMaskedAndReadonlyPaths(t *testing.T) {
	r := newResolver(t, nil)
	for _, tc := range []struct {
		name         string
		procMount    *v1.ProcMountType
		wantMasked   []string
		wantReadonly []string
	}{
		{name: "unset procMount masks the defaults and the node's thermal paths", procMount: nil, wantMasked: defaultMasked(), wantReadonly: defaultReadonly()},
		{name: "Default procMount masks the defaults", procMount: ptrProcMount(v1.DefaultProcMount), wantMasked: defaultMasked(), wantReadonly: defaultReadonly()},
		{name: "Unmasked procMount masks nothing, as non-nil empty lists", procMount: ptrProcMount(v1.UnmaskedProcMount), wantMasked: []string{}, wantReadonly: []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			masked := r.MaskedPaths(tc.procMount)
			readonly := security.ReadonlyPaths(tc.procMount)
			assert.Equal(t, tc.wantMasked, masked)
			assert.Equal(t, tc.wantReadonly, readonly)
			assert.NotNil(t, masked)
			assert.NotNil(t, readonly)
		})
	}
}

func TestMaskedPathsAreCopies(t *testing.T) {
	r := newResolver(t, nil)
	a, b := r.MaskedPaths(nil), r.MaskedPaths(nil)
	a[0] = "/changed"
	assert.Equal(t, defaultMasked(), b)
	assert.Equal(t, defaultMasked(), r.MaskedPaths(nil))
	ro := security.ReadonlyPaths(nil)
	ro[0] = "/changed"
	assert.Equal(t, defaultReadonly(), security.ReadonlyPaths(nil))
}

// countingThermal counts how often the Resolver asks for the host's thermal paths.
type countingThermal struct{ calls int }

func (c *countingThermal) ThermalThrottlePaths() []string {
	c.calls++
	return []string{"/sys/devices/system/cpu/cpu9/thermal_throttle"}
}

func TestResolverReadsThermalPathsOnceAndLazily(t *testing.T) {
	src := &countingThermal{}
	r := security.New(security.Config{ThermalThrottle: src})
	assert.Equal(t, 0, src.calls, "New must not touch the host")
	r.MaskedPaths(ptrProcMount(v1.UnmaskedProcMount))
	assert.Equal(t, 0, src.calls, "Unmasked containers need no host paths")
	got := r.MaskedPaths(nil)
	r.MaskedPaths(nil)
	assert.Equal(t, 1, src.calls)
	assert.Equal(t, "/sys/devices/system/cpu/cpu9/thermal_throttle", got[len(got)-1])
	security.New(security.Config{ThermalThrottle: src}).MaskedPaths(nil)
	assert.Equal(t, 2, src.calls, "each Resolver computes its own")
}

func ptrProcMount(p v1.ProcMountType) *v1.ProcMountType { return &p }

func TestHostCPUsOnThisNode(t *testing.T) {
	for _, p := range (security.HostCPUs{}).ThermalThrottlePaths() {
		assert.Regexp(t, `^/sys/devices/system/cpu/cpu[0-9]+/thermal_throttle$`, p)
		assert.DirExists(t, p)
	}
}
