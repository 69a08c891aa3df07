package security_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/offline"
	"github.com/podconfig/podconfig/security"
)

// testPod is pod "bar" in namespace "new" with uid "12345678" and one container "foo".
func testPod(podSC *v1.PodSecurityContext, containerSC *v1.SecurityContext) *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "bar", Namespace: "new", UID: "12345678"},
		Spec: v1.PodSpec{
			SecurityContext: podSC,
			Containers:      []v1.Container{{Name: "foo", Image: "busybox", SecurityContext: containerSC}},
		},
	}
}

// thermal is the fixed host-dependent tail the tests render with.
var thermal = offline.ThermalPaths{"/sys/devices/system/cpu/cpu0/thermal_throttle"}

// defaultMasked is kubelet's default masked list followed by thermal.
func defaultMasked() []string {
	return []string{
		"/proc/asound", "/proc/acpi", "/proc/interrupts", "/proc/kcore", "/proc/keys",
		"/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats", "/proc/sched_debug",
		"/proc/scsi", "/sys/firmware", "/sys/devices/virtual/powercap",
		"/sys/devices/system/cpu/cpu0/thermal_throttle",
	}
}

func defaultReadonly() []string {
	return []string{"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"}
}

func newResolver(t testing.TB, mutate func(*security.Config)) *security.Resolver {
	t.Helper()
	cfg := security.Config{ThermalThrottle: thermal}
	if mutate != nil {
		mutate(&cfg)
	}
	r := security.New(cfg)
	require.NotNil(t, r)
	return r
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
