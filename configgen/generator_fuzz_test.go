package configgen_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
)

// FuzzGeneratorUTF8 puts one hostile string into every field that reaches a CRI message or a host
// path, directly, through a ConfigMap (an envFrom key and a value expanded into args and a
// subPathExpr) and through a Secret. Property: whenever a Generator call succeeds, its config
// survives proto.Marshal, which refuses invalid UTF-8 exactly as gRPC does.
func FuzzGeneratorUTF8(f *testing.F) {
	for _, seed := range []struct {
		s     string
		field uint8
	}{
		{"ok", 0}, {"\xff", 1}, {"a\x00b", 2}, {"\xc3", 3}, {"é", 4}, {"$(X)", 5}, {"\xed\xa0\x80", 6},
		{"..", 7}, {"\xf4\x90\x80\x80", 8}, {"x\xff", 9}, {"\xff", 10}, {"\xff", 11}, {"\xff", 12},
		{"\xff", 13}, {"\xff", 14}, {"\xff", 15}, {"\xff", 16}, {"\xff", 17}, {"\xff", 18}, {"\xff", 19},
	} {
		f.Add(seed.s, seed.field)
	}
	f.Fuzz(func(t *testing.T, s string, field uint8) {
		node := configgentest.NewNode(
			cm("shop", "cfg", map[string]string{"K": s, s: "v"}),
			secret("shop", "sec", map[string]string{"K": s}),
		)
		gen, err := node.Generator()
		if err != nil {
			t.Fatal(err)
		}
		pod := samplePod()
		c := &pod.Spec.Containers[0]
		c.EnvFrom = []v1.EnvFromSource{{ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}}}}
		c.Env = append(c.Env, v1.EnvVar{Name: "SEC", ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{
			LocalObjectReference: v1.LocalObjectReference{Name: "sec"}, Key: "K"}}})
		c.Args = append(c.Args, "$(K)", "$(SEC)")
		c.VolumeMounts = append(c.VolumeMounts, v1.VolumeMount{Name: "data", MountPath: "/x", SubPathExpr: "e/$(K)"})
		switch field % 20 {
		case 0:
			pod.Name = s
		case 1:
			pod.Namespace = s
		case 2:
			pod.UID = types.UID("u" + ptrString(s))
		case 3:
			pod.Labels[s] = s
		case 4:
			pod.Annotations = map[string]string{s: s}
		case 5:
			c.Name = s
		case 6:
			c.Image = s
		case 7:
			c.Command = []string{s}
		case 8:
			c.WorkingDir = s
		case 9:
			c.VolumeMounts[0].MountPath = s
		case 10:
			c.VolumeMounts[0].SubPath = s
		case 11:
			c.TerminationMessagePath = s
		case 12:
			c.SecurityContext = &v1.SecurityContext{Capabilities: &v1.Capabilities{Add: []v1.Capability{v1.Capability(s)}},
				SELinuxOptions: &v1.SELinuxOptions{Type: s}}
		case 13:
			pod.Spec.SecurityContext = &v1.PodSecurityContext{SeccompProfile: &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost, LocalhostProfile: ptr.To(s)}}
		case 14:
			pod.Spec.SecurityContext = &v1.PodSecurityContext{Sysctls: []v1.Sysctl{{Name: "kernel.shm_rmid_forced", Value: s}}}
		case 15:
			pod.Spec.DNSConfig = &v1.PodDNSConfig{Searches: []string{s}, Options: []v1.PodDNSConfigOption{{Name: s}}}
		case 16:
			c.Env = append(c.Env, v1.EnvVar{Name: s, Value: s})
		case 17:
			c.Ports = []v1.ContainerPort{{Name: s, ContainerPort: 80, HostIP: s}}
		case 18:
			c.SecurityContext = &v1.SecurityContext{AppArmorProfile: &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeLocalhost, LocalhostProfile: ptr.To(s)}}
		case 19:
			c.TerminationMessagePolicy = v1.TerminationMessagePolicy(s)
		}
		ctx := context.Background()
		if sb, err := gen.GeneratePodSandboxConfig(ctx, pod, 0); err == nil {
			if _, err := proto.Marshal(sb); err != nil {
				t.Fatalf("sandbox config for field %d does not marshal: %v", field%20, err)
			}
		}
		cfg, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{Pod: pod, Container: c, RestartCount: 0, PodIPs: []string{"10.244.1.17"}, ImageRef: "sha256:abc", Volumes: node.Volumes(pod)})
		if err != nil {
			return
		}
		if _, err := proto.Marshal(cfg); err != nil {
			t.Fatalf("container config for field %d does not marshal: %v", field%20, err)
		}
	})
}

// ptrString keeps a UID free of '/' so the fuzzer explores more than the path-element rule.
func ptrString(s string) string {
	out := []byte(s)
	for i, b := range out {
		if b == '/' {
			out[i] = '_'
		}
	}
	return string(out)
}

// FuzzGeneratorExpansion builds chains of variables from a template in which "@" stands for the
// previous variable, and args from another: whatever the fuzzer writes, a Generator with small
// bounds either fails with ErrInvalidPod or returns a config whose expanded values and args keep
// within them.
func FuzzGeneratorExpansion(f *testing.F) {
	f.Add("@@", "$(V9)$(V9)$(V9)", uint8(12))
	f.Add("x$(@)$(@)y", "$(V3)", uint8(30))
	f.Add("$$(@)$(", "$(V1)$(V1)$(V1)$(V1)$(V1)", uint8(5))
	f.Add("$(@)$(@)$(@)$(@)", "a$(V2)b", uint8(255))
	const perValue, perContainer = 256, 1024
	f.Fuzz(func(t *testing.T, tmpl, args string, lines uint8) {
		node := configgentest.NewNode()
		node.Options.ExpansionLimits = configgen.ExpansionLimits{MaxValueBytes: perValue, MaxContainerBytes: perContainer}
		gen, err := node.Generator()
		if err != nil {
			t.Fatal(err)
		}
		pod := samplePod()
		c := &pod.Spec.Containers[0]
		c.Env = []v1.EnvVar{{Name: "V0", Value: "ab"}}
		for i := 1; i <= int(lines); i++ {
			c.Env = append(c.Env, v1.EnvVar{Name: fmt.Sprintf("V%d", i), Value: strings.ReplaceAll(tmpl, "@", fmt.Sprintf("V%d", i-1))})
		}
		c.Args = []string{args, args}
		cfg, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{
			Pod: pod, Container: c, PodIPs: []string{"10.244.1.17"}, ImageRef: "sha256:abc", Volumes: node.Volumes(pod)})
		if err != nil {
			if !errors.Is(err, configgen.ErrInvalidPod) {
				t.Fatalf("error outside ErrInvalidPod: %v", err)
			}
			return
		}
		total := 0
		for _, e := range cfg.Envs {
			if strings.HasPrefix(e.Key, "V") && e.Key != "V0" && strings.Contains(tmpl, "$") {
				if len(e.Value) > perValue {
					t.Fatalf("%s is %d bytes, over %d", e.Key, len(e.Value), perValue)
				}
				total += len(e.Value)
			}
		}
		for _, a := range cfg.Args {
			if strings.Contains(args, "$") {
				if len(a) > perValue {
					t.Fatalf("an arg is %d bytes, over %d", len(a), perValue)
				}
				total += len(a)
			}
		}
		if total > perContainer {
			t.Fatalf("the container expanded %d bytes, over %d", total, perContainer)
		}
		if _, err := proto.Marshal(cfg); err != nil {
			t.Fatalf("config does not marshal: %v", err)
		}
	})
}
