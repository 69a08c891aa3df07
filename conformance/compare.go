package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/conformance/internal/result"
)

// Diff is one difference between kubelet's and podconfig's rendering of a scenario: a field path
// (sandbox.linux.sysctls.kernel.shm_rmid_forced, container[app].envs, container[app].error) and
// each side's value.
type Diff struct {
	Path      string
	Kubelet   string
	Podconfig string
	// KubeletErr and PodconfigErr are the errors of an error difference.
	KubeletErr, PodconfigErr error
	// Failed says both sides failed the container the difference is in.
	Failed bool
}

func (d Diff) String() string {
	return fmt.Sprintf("%s: kubelet %s, podconfig %s", d.Path, d.Kubelet, d.Podconfig)
}

// Normalise makes a result comparable: environment variables sorted by name (kubelet's order comes
// from a Go map), DNS options sorted, and kubelet's random termination-message file name replaced
// by the name podconfig was given.
func Normalise(r *result.Result, podDir, terminationName string) {
	if r.Sandbox != nil && r.Sandbox.DnsConfig != nil {
		sort.Strings(r.Sandbox.DnsConfig.Options)
	}
	for _, c := range r.Containers {
		if c.Config == nil {
			continue
		}
		sort.SliceStable(c.Config.Envs, func(i, j int) bool { return c.Config.Envs[i].Key < c.Config.Envs[j].Key })
		containers := filepath.Join(podDir, "containers", c.Name) + "/"
		for _, m := range c.Config.Mounts {
			if strings.HasPrefix(m.HostPath, containers) && !strings.Contains(strings.TrimPrefix(m.HostPath, containers), "/") {
				m.HostPath = containers + terminationName
			}
		}
	}
}

// Compare returns every difference between kubelet's result k and podconfig's p, both normalised.
// An error matches when podconfig's text contains kubelet's (podconfig adds the pod, container and
// field it concerns).
func Compare(k, p *result.Result) []Diff {
	var diffs []Diff
	diffs = append(diffs, compareErr("sandbox.error", k.SandboxErr, p.SandboxErr)...)
	if k.SandboxErr == nil && p.SandboxErr == nil {
		diffs = append(diffs, compareProto("sandbox", k.Sandbox, p.Sandbox)...)
	}
	if len(k.Containers) != len(p.Containers) {
		return append(diffs, Diff{Path: "containers", Kubelet: fmt.Sprint(len(k.Containers)), Podconfig: fmt.Sprint(len(p.Containers))})
	}
	for i := range k.Containers {
		kc, pc := k.Containers[i], p.Containers[i]
		prefix := fmt.Sprintf("container[%s]", kc.Name)
		diffs = append(diffs, compareErr(prefix+".error", kc.Err, pc.Err)...)
		if kc.Err == nil && pc.Err == nil {
			diffs = append(diffs, compareProto(prefix, kc.Config, pc.Config)...)
		}
		if !bytes.Equal(kc.HostsFile, pc.HostsFile) {
			diffs = append(diffs, Diff{Path: prefix + ".etcHosts", Kubelet: fmt.Sprintf("%q", kc.HostsFile), Podconfig: fmt.Sprintf("%q", pc.HostsFile),
				Failed: kc.Err != nil && pc.Err != nil})
		}
	}
	return diffs
}

func compareErr(path string, k, p error) []Diff {
	switch {
	case k == nil && p == nil:
		return nil
	case k == nil:
		return []Diff{{Path: path, Kubelet: "no error", Podconfig: fmt.Sprintf("%q", p.Error()), PodconfigErr: p}}
	case p == nil:
		return []Diff{{Path: path, Kubelet: fmt.Sprintf("%q", k.Error()), Podconfig: "no error", KubeletErr: k}}
	case !strings.Contains(p.Error(), k.Error()):
		return []Diff{{Path: path, Kubelet: fmt.Sprintf("%q", k.Error()), Podconfig: fmt.Sprintf("%q", p.Error()), KubeletErr: k, PodconfigErr: p}}
	}
	return nil
}

// compareProto flattens both messages to JSON leaves and compares them path by path.
func compareProto(prefix string, k, p proto.Message) []Diff {
	kl, pl := map[string]string{}, map[string]string{}
	flatten(prefix, toJSON(k), kl)
	flatten(prefix, toJSON(p), pl)
	keys := map[string]bool{}
	for key := range kl {
		keys[key] = true
	}
	for key := range pl {
		keys[key] = true
	}
	sorted := make([]string, 0, len(keys))
	for key := range keys {
		sorted = append(sorted, key)
	}
	sort.Strings(sorted)
	var diffs []Diff
	for _, key := range sorted {
		kv, kok := kl[key]
		pv, pok := pl[key]
		if kok && pok && kv == pv {
			continue
		}
		if !kok {
			kv = "unset"
		}
		if !pok {
			pv = "unset"
		}
		diffs = append(diffs, Diff{Path: key, Kubelet: kv, Podconfig: pv})
	}
	return diffs
}

var marshal = protojson.MarshalOptions{UseProtoNames: false, EmitUnpopulated: false}

func toJSON(m proto.Message) any {
	if m == nil {
		return nil
	}
	switch v := m.(type) {
	case *runtimeapi.ContainerConfig:
		if v == nil {
			return nil
		}
	case *runtimeapi.PodSandboxConfig:
		if v == nil {
			return nil
		}
	}
	data, err := marshal.Marshal(m)
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	var out any
	_ = json.Unmarshal(data, &out)
	return out
}

func flatten(prefix string, v any, out map[string]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			flatten(prefix+"."+k, e, out)
		}
	case []any:
		out[prefix+".len"] = fmt.Sprint(len(v))
		for i, e := range v {
			flatten(fmt.Sprintf("%s[%d]", prefix, i), e, out)
		}
	case nil:
	default:
		b, _ := json.Marshal(v)
		out[prefix] = string(b)
	}
}
