package configgen_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/internal/expansion"
)

// referenceEnv is a plain, map-based reading of kubelet's makeEnvironmentVariables and getServiceEnvVarMap for envFrom ConfigMaps, literal
// and configMapKeyRef env entries and service links, returning variables in the documented order.
func referenceEnv(pod *v1.Pod, cms map[string]*v1.ConfigMap, svcs []*v1.Service) []configgen.EnvVar {
	// Services: default/kubernetes first-wins, the pod's namespace last-wins by name.
	byName := map[string]*v1.Service{}
	for _, s := range svcs {
		if s.Spec.ClusterIP == "" || s.Spec.ClusterIP == "None" {
			continue
		}
		if s.Namespace == "default" && s.Name == "kubernetes" {
			if _, ok := byName[s.Name]; !ok {
				byName[s.Name] = s
			}
		} else if s.Namespace == pod.Namespace && *pod.Spec.EnableServiceLinks {
			byName[s.Name] = s
		}
	}
	envName := func(s string) string { return strings.ToUpper(strings.ReplaceAll(s, "-", "_")) }
	picked := make([]*v1.Service, 0, len(byName))
	for _, s := range byName {
		picked = append(picked, s)
	}
	// The documented tie rule: the Service whose prefix, then name, sorts later wins.
	slices.SortFunc(picked, func(a, b *v1.Service) int {
		return cmp.Or(strings.Compare(envName(a.Name)+"_", envName(b.Name)+"_"), strings.Compare(a.Name, b.Name))
	})
	svcEnv := map[string]string{}
	for _, s := range picked {
		p := envName(s.Name)
		svcEnv[p+"_SERVICE_HOST"] = s.Spec.ClusterIP
		svcEnv[p+"_SERVICE_PORT"] = strconv.Itoa(int(s.Spec.Ports[0].Port))
		for _, sp := range s.Spec.Ports {
			if sp.Name != "" {
				svcEnv[p+"_SERVICE_PORT_"+envName(sp.Name)] = strconv.Itoa(int(sp.Port))
			}
		}
		for i, sp := range s.Spec.Ports {
			proto := cmp.Or(string(sp.Protocol), "TCP")
			url := fmt.Sprintf("%s://%s", strings.ToLower(proto), net.JoinHostPort(s.Spec.ClusterIP, strconv.Itoa(int(sp.Port))))
			if i == 0 {
				svcEnv[p+"_PORT"] = url
			}
			base := fmt.Sprintf("%s_PORT_%d_%s", p, sp.Port, strings.ToUpper(proto))
			svcEnv[base] = url
			svcEnv[base+"_PROTO"] = strings.ToLower(proto)
			svcEnv[base+"_PORT"] = strconv.Itoa(int(sp.Port))
			svcEnv[base+"_ADDR"] = s.Spec.ClusterIP
		}
	}

	tmp := map[string]string{}
	var order []string
	define := func(k, v string) {
		if _, ok := tmp[k]; !ok {
			order = append(order, k)
		}
		tmp[k] = v
	}
	c := &pod.Spec.Containers[0]
	for _, ef := range c.EnvFrom {
		cm := cms[ef.ConfigMapRef.Name]
		keys := make([]string, 0, len(cm.Data))
		for k := range cm.Data {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			define(ef.Prefix+k, cm.Data[k])
		}
	}
	mapping := expansion.MappingFuncFor(tmp, svcEnv)
	for _, e := range c.Env {
		switch {
		case e.Value != "":
			define(e.Name, expansion.Expand(e.Value, mapping))
		case e.ValueFrom != nil && e.ValueFrom.ConfigMapKeyRef != nil:
			if v, ok := cms[e.ValueFrom.ConfigMapKeyRef.Name].Data[e.ValueFrom.ConfigMapKeyRef.Key]; ok {
				define(e.Name, v)
			}
		default:
			define(e.Name, "")
		}
	}
	var out []configgen.EnvVar
	for _, k := range order {
		out = append(out, configgen.EnvVar{Name: k, Value: tmp[k]})
	}
	var rest []string
	for k := range svcEnv {
		if _, ok := tmp[k]; !ok {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		out = append(out, configgen.EnvVar{Name: k, Value: svcEnv[k]})
	}
	return out
}

// TestMakeEnvironmentVariablesMatchesReference runs random pods through both, with few names so
// that redefinitions, shadowed service variables, colliding service variables and references of
// every kind are frequent.
func TestMakeEnvironmentVariablesMatchesReference(t *testing.T) {
	names := []string{"A", "B", "C", "A_B", "KUBERNETES_SERVICE_HOST", "FOO_PORT", "FOO_PORT_80_TCP_PORT", "X-1", ""}
	svcNames := []string{"foo", "foo-port-80-tcp", "a-b", "a", "kubernetes", "x-y", "x", "b-"}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(list []string) string { return list[rng.IntN(len(list))] }
	value := func() string {
		var b strings.Builder
		for range rng.IntN(4) {
			switch rng.IntN(4) {
			case 0:
				b.WriteString("$(" + pick(names) + ")")
			case 1:
				b.WriteString("$$")
			case 2:
				b.WriteString("$(" + pick(names))
			default:
				b.WriteString("x")
			}
		}
		return b.String()
	}
	for iter := range 400 {
		cms := map[string]*v1.ConfigMap{}
		for _, n := range []string{"one", "two"} {
			data := map[string]string{}
			for range rng.IntN(6) {
				data[pick(names)] = value()
			}
			cms[n] = cm("ns", n, data)
		}
		var svcs []*v1.Service
		for range rng.IntN(6) {
			ns := pick([]string{"ns", "default", "other"})
			ip := pick([]string{"10.0.0.1", "fd00::1", "None", ""})
			var ports []v1.ServicePort
			for j := range 1 + rng.IntN(3) {
				ports = append(ports, port(pick([]string{"", "http", "a-b"}), int32([]int{80, 443, 8080}[rng.IntN(3)]+j), v1.Protocol(pick([]string{"", "UDP", "SCTP", "TCP"}))))
			}
			svcs = append(svcs, svc(ns, pick(svcNames), ip, ports...))
		}
		var env []v1.EnvVar
		for range rng.IntN(8) {
			switch rng.IntN(3) {
			case 0:
				env = append(env, cmKey(pick(names), pick([]string{"one", "two"}), pick(names), true))
			case 1:
				env = append(env, v1.EnvVar{Name: pick(names)})
			default:
				env = append(env, lit(pick(names), value()))
			}
		}
		pod := testPod(env...)
		pod.Spec.EnableServiceLinks = new(rng.IntN(2) == 0)
		for range rng.IntN(3) {
			pod.Spec.Containers[0].EnvFrom = append(pod.Spec.Containers[0].EnvFrom, fromConfigMap(pick([]string{"one", "two"}), pick([]string{"", "P_"}), false))
		}
		in := envInput(pod)
		in.ConfigMaps = configgen.ConfigMapGetterFunc(func(_ context.Context, _, name string) (*v1.ConfigMap, error) { return cms[name], nil })
		in.Services = services(svcs...)

		got, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
		require.NoError(t, err, "iteration %d", iter)
		require.Equal(t, referenceEnv(pod, cms, svcs), got, "iteration %d", iter)
	}
}
