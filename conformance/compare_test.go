package conformance

import (
	"errors"
	"fmt"
	"testing"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/conformance/internal/result"
)

func containerResult(cfg *runtimeapi.ContainerConfig, err error) *result.Result {
	return &result.Result{Sandbox: &runtimeapi.PodSandboxConfig{Hostname: "h"}, Containers: []result.Container{{Name: "app", Config: cfg, Err: err}}}
}

// The comparison normalises what kubelet leaves to map order and randomness, and finds every
// other difference.
func TestCompare(t *testing.T) {
	env := func(kv ...string) []*runtimeapi.KeyValue {
		var out []*runtimeapi.KeyValue
		for i := 0; i < len(kv); i += 2 {
			out = append(out, &runtimeapi.KeyValue{Key: kv[i], Value: []byte(kv[i+1])})
		}
		return out
	}
	tests := []struct {
		name      string
		k, p      *result.Result
		wantPaths []string
	}{
		{"same", containerResult(&runtimeapi.ContainerConfig{Envs: env("A", "1")}, nil), containerResult(&runtimeapi.ContainerConfig{Envs: env("A", "1")}, nil), nil},
		{"env order is a set", containerResult(&runtimeapi.ContainerConfig{Envs: env("B", "2", "A", "1")}, nil),
			containerResult(&runtimeapi.ContainerConfig{Envs: env("A", "1", "B", "2")}, nil), nil},
		{"env value", containerResult(&runtimeapi.ContainerConfig{Envs: env("A", "1")}, nil),
			containerResult(&runtimeapi.ContainerConfig{Envs: env("A", "2")}, nil), []string{"container[app].envs[0].value"}},
		{"missing field", containerResult(&runtimeapi.ContainerConfig{WorkingDir: "/w"}, nil),
			containerResult(&runtimeapi.ContainerConfig{}, nil), []string{"container[app].workingDir"}},
		{"termination file name", containerResult(&runtimeapi.ContainerConfig{Mounts: []*runtimeapi.Mount{{HostPath: "/r/pods/u/containers/app/5f3a9c01"}}}, nil),
			containerResult(&runtimeapi.ContainerConfig{Mounts: []*runtimeapi.Mount{{HostPath: "/r/pods/u/containers/app/0000002a"}}}, nil), nil},
		{"error wrapped by podconfig", containerResult(nil, errors.New(`couldn't find key x`)),
			containerResult(nil, fmt.Errorf(`pod "ns/p" container "app": couldn't find key x`)), nil},
		{"error text differs", containerResult(nil, errors.New(`couldn't find key x`)),
			containerResult(nil, errors.New(`no key x`)), []string{"container[app].error"}},
		{"only podconfig fails", containerResult(&runtimeapi.ContainerConfig{}, nil),
			containerResult(nil, errors.New("boom")), []string{"container[app].error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			Normalise(tt.k, "/r/pods/u", "0000002a")
			Normalise(tt.p, "/r/pods/u", "0000002a")
			var got []string
			for _, d := range Compare(tt.k, tt.p) {
				got = append(got, d.Path)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.wantPaths) {
				t.Errorf("diff paths = %v, want %v", got, tt.wantPaths)
			}
		})
	}
}

// A difference is explained only by a deviation the scenario lists.
func TestClassify(t *testing.T) {
	invalid := Diff{Path: "container[app].error", Kubelet: "no error", PodconfigErr: fmt.Errorf("x: %w", configgen.ErrInvalidPod)}
	other := Diff{Path: "container[app].workingDir", Kubelet: `"/w"`, Podconfig: "unset"}
	explained, unexplained := Classify([]Diff{invalid, other}, []string{"node-side-validation"})
	if len(explained["node-side-validation"]) != 1 || len(unexplained) != 1 || unexplained[0].Path != other.Path {
		t.Errorf("explained %v, unexplained %v", explained, unexplained)
	}
	_, unexplained = Classify([]Diff{invalid}, nil)
	if len(unexplained) != 1 {
		t.Errorf("a deviation the scenario does not list explained %v", invalid)
	}
	for _, d := range Deviations {
		if d.Name == "" || d.Why == "" || d.Match == nil {
			t.Errorf("deviation %+v is incomplete", d)
		}
	}
}
