package configgen

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// stopSignal spells every API signal as CRI's table does: "SIGNAL_" and the name with '+' and '-'
// written PLUS and MINUS, anything else being RUNTIME_DEFAULT.
func TestStopSignalMatchesItsDefinition(t *testing.T) {
	reference := func(sig v1.Signal) runtimeapi.Signal {
		name := string(sig)
		if strings.Contains(name, "PLUS") || strings.Contains(name, "MINUS") {
			return runtimeapi.Signal_SIGNAL_RUNTIME_DEFAULT
		}
		name = strings.NewReplacer("+", "PLUS", "-", "MINUS").Replace(name)
		return runtimeapi.Signal(runtimeapi.Signal_value["SIGNAL_"+name])
	}
	names := []v1.Signal{"", "SIGTERM", "sigterm", "SIGRTMIN+", "SIGRTMAX--1", "+-", "RUNTIME_DEFAULT", "SIGNAL_SIGTERM",
		v1.Signal(strings.Repeat("SIGRTMIN+1", 20))}
	for criName := range runtimeapi.Signal_value {
		api := strings.TrimPrefix(criName, "SIGNAL_")
		api = strings.ReplaceAll(strings.ReplaceAll(api, "PLUS", "+"), "MINUS", "-")
		names = append(names, v1.Signal(api), v1.Signal(criName))
	}
	reached := map[runtimeapi.Signal]bool{}
	for _, sig := range names {
		got := stopSignal(sig)
		assert.Equal(t, reference(sig), got, "%q", sig)
		reached[got] = true
	}
	assert.Len(t, reached, len(runtimeapi.Signal_value), "every CRI signal is reached")
}
