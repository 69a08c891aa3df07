package configgen_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
)

// The service variables a Generator caches, checked once when stored, must not change what any
// call returns: pods of four namespaces, each seeing other
// Services, render at once on one Generator (the cache is replaced back and forth), and each gets
// exactly the environment and args MakeEnvironmentVariables and ExpandContainerCommandAndArgs
// give it alone. The namespace whose Service makes an invalid variable name is refused every
// time, whoever stored the cache entry last.
func TestGeneratorServiceCacheAcrossNamespaces(t *testing.T) {
	const namespaces, rounds = 4, 40
	objs := []interface{}{kubernetesService()}
	for n := 0; n < namespaces; n++ {
		ns := fmt.Sprintf("ns%d", n)
		for s := 0; s <= n; s++ {
			objs = append(objs, svc(ns, fmt.Sprintf("s%d", s), fmt.Sprintf("10.1.%d.%d", n, s), port("p", int32(80+n), v1.ProtocolTCP)))
		}
	}
	objs = append(objs, svc("ns2", "bad", "10.9.9.9", port("x=y", 1, v1.ProtocolTCP)))
	const wantBad = `pod "ns2/web-7d9f8" container "web": invalid environment variable name "BAD_SERVICE_PORT_X=Y": must not contain '='`
	node := configgentest.NewNode(objs...)
	gen, err := node.Generator()
	require.NoError(t, err)
	podIn := func(n int) *v1.Pod {
		pod := samplePod()
		pod.Namespace = fmt.Sprintf("ns%d", n)
		pod.Spec.EnableServiceLinks = ptr.To(true)
		pod.Spec.Containers[0].Args = []string{"$(S0_SERVICE_HOST)", "$(S1_PORT)", "$(KUBERNETES_PORT)", "$(S3_SERVICE_PORT_P)"}
		return pod
	}
	ctx := context.Background()
	wantEnv := make([][]configgen.EnvVar, namespaces)
	wantArgs := make([][]string, namespaces)
	for n := range namespaces {
		pod := podIn(n)
		wantEnv[n], _, err = configgen.MakeEnvironmentVariables(ctx, configgen.EnvInput{Pod: pod, Container: &pod.Spec.Containers[0],
			PodIPs: []string{"10.244.1.17"}, NodeIPs: node.Options.NodeIPs, Services: node.Objects, Node: node.Objects})
		require.NoError(t, err)
		_, wantArgs[n], err = configgen.ExpandContainerCommandAndArgs(&pod.Spec.Containers[0], wantEnv[n])
		require.NoError(t, err)
	}
	require.Equal(t, []string{"10.1.0.0", "$(S1_PORT)", "tcp://10.96.0.1:443", "$(S3_SERVICE_PORT_P)"}, wantArgs[0])
	require.Equal(t, []string{"10.1.3.0", "tcp://10.1.3.1:83", "tcp://10.96.0.1:443", "83"}, wantArgs[3])

	var wg sync.WaitGroup
	failures := make(chan string, namespaces*rounds)
	for n := range namespaces {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				pod := podIn(n)
				cfg, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0],
					PodIPs: []string{"10.244.1.17"}, ImageRef: "sha256:abc", Volumes: node.Volumes(pod)})
				switch {
				case n == 2 && (err == nil || err.Error() != wantBad):
					failures <- fmt.Sprintf("ns2 round %d: error %v, want %s", r, err, wantBad)
				case n == 2:
				case err != nil:
					failures <- fmt.Sprintf("ns%d round %d: %v", n, r, err)
				default:
					got := make([]configgen.EnvVar, len(cfg.Envs))
					for i, kv := range cfg.Envs {
						got[i] = configgen.EnvVar{Name: kv.Key, Value: string(kv.Value)}
					}
					if !slices.Equal(got, wantEnv[n]) || !slices.Equal(cfg.Args, wantArgs[n]) {
						failures <- fmt.Sprintf("ns%d round %d: env %v args %q, want %v %q", n, r, got, cfg.Args, wantEnv[n], wantArgs[n])
					}
				}
			}
		}()
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
}

// FuzzGeneratorEnvMatchesMakeEnvironmentVariables renders a container whose environment the
// fuzzer shapes (Service and port names, an envFrom prefix and key, values with references, args)
// three times on one Generator, a different pod in between, so that the later calls take the
// service variables from the cache. Property: every
// successful config has exactly MakeEnvironmentVariables' environment, and the args and command
// ExpandContainerCommandAndArgs makes of it; none of its names is empty or holds '=' or NUL, no
// value holds NUL, and it survives proto.Marshal.
func FuzzGeneratorEnvMatchesMakeEnvironmentVariables(f *testing.F) {
	f.Add("redis", "db-1", "A", "$(REDIS_PORT)$(A)", "P_", "$(DB_1_SERVICE_HOST)", uint8(0))
	f.Add("a", "b", "A_PORT", "x", "", "$(A_PORT)$(B_PORT_81_UDP_ADDR)", uint8(1))
	f.Add("kubernetes", "x", "KUBERNETES_PORT", "$(KUBERNETES_SERVICE_HOST)", "K", "$(KUBERNETES_PORT)", uint8(2))
	f.Add("ab", "ab-c", "AB_PORT_80_TCP", "$(AB_C_SERVICE_HOST)", "AB_", "$(AB_SERVICE_PORT_AB_C)", uint8(36))
	f.Fuzz(func(t *testing.T, svc1, svc2, envName, envValue, prefix, arg string, mode uint8) {
		node := configgentest.NewNode(
			svc("shop", svc1, "10.0.0.5", port(svc2, 80, v1.ProtocolTCP)),
			svc("shop", svc2, "10.0.0.6", port("p", 81, v1.ProtocolUDP), port(svc1, 82, "")),
			kubernetesService(),
			cm("shop", "cfg", map[string]string{envName: envValue, svc1: arg, "Z": "z"}),
		)
		gen, err := node.Generator()
		if err != nil {
			t.Fatal(err)
		}
		podFor := func(round int) *v1.Pod {
			pod := samplePod()
			pod.Spec.EnableServiceLinks = ptr.To(mode%2 == 0)
			c := &pod.Spec.Containers[0]
			c.EnvFrom = []v1.EnvFromSource{{Prefix: prefix, ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}}}}
			c.Env = append(c.Env, v1.EnvVar{Name: envName, Value: envValue}, v1.EnvVar{Name: "R", Value: arg})
			if round == 1 {
				c.Env = append(c.Env, v1.EnvVar{Name: "V", Value: strings.Repeat(arg, 3)})
				for i := 0; i < int(mode%40); i++ {
					c.Env = append(c.Env, v1.EnvVar{Name: "N" + strings.Repeat("x", i), Value: "$(R)"})
				}
			}
			c.Command = []string{"$(KUBERNETES_PORT)", "$(" + prefix + envName + ")", "$(" + prefix + svc1 + ")"}
			c.Args = []string{arg, "$(" + envName + ")", "$(R)", envValue}
			return pod
		}
		ctx := context.Background()
		for round := range 3 {
			pod := podFor(round)
			c := &pod.Spec.Containers[0]
			req := configgen.ContainerRequest{Pod: pod, Container: c, PodIPs: []string{"10.244.1.17"}, ImageRef: "sha256:abc", Volumes: node.Volumes(pod)}
			cfg, err := gen.GenerateContainerConfig(ctx, req)
			if err != nil {
				continue
			}
			want, _, err := configgen.MakeEnvironmentVariables(ctx, configgen.EnvInput{
				Pod: pod, Container: c, PodIPs: req.PodIPs, NodeIPs: node.Options.NodeIPs, Volumes: req.Volumes,
				ConfigMaps: node.Objects, Secrets: node.Objects, Services: node.Objects, Node: node.Objects,
			})
			if err != nil {
				t.Fatalf("round %d: the Generator succeeded, MakeEnvironmentVariables failed: %v", round, err)
			}
			if _, err := proto.Marshal(cfg); err != nil {
				t.Fatalf("round %d: the config does not marshal: %v", round, err)
			}
			got := make([]configgen.EnvVar, len(cfg.Envs))
			for i, kv := range cfg.Envs {
				got[i] = configgen.EnvVar{Name: kv.Key, Value: string(kv.Value)}
				if kv.Key == "" || strings.ContainsAny(kv.Key, "=\x00") || strings.IndexByte(got[i].Value, 0) >= 0 {
					t.Fatalf("round %d: %q=%q reached CRI", round, kv.Key, kv.Value)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("round %d: environment\n got %v\nwant %v", round, got, want)
			}
			cmd, args, err := configgen.ExpandContainerCommandAndArgs(c, want)
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			if !slices.Equal(cmd, cfg.Command) || !slices.Equal(args, cfg.Args) {
				t.Fatalf("round %d: command and args\n got %q %q\nwant %q %q", round, cfg.Command, cfg.Args, cmd, args)
			}
		}
	})
}
