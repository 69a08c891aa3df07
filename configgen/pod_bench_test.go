package configgen_test

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/internal/benchpod"
)

// benchPodEnvInput is benchEnvInput's pod with three containers (an init container, the app and
// a sidecar-style second container), each with the app's env, envFrom and resources, and 10
// Services in the namespace.
func benchPodEnvInput() configgen.PodEnvInput {
	in := benchEnvInput(2)
	pod := in.Pod.DeepCopy()
	app := pod.Spec.Containers[0]
	initC, second := *app.DeepCopy(), *app.DeepCopy()
	initC.Name, second.Name = "init", "second"
	pod.Spec.InitContainers = []v1.Container{initC}
	pod.Spec.Containers = append(pod.Spec.Containers, second)
	in.Pod = pod
	return podInput(in)
}

// The whole-pod helper against MakeEnvironmentVariables called once per container, the way a
// provider would without it (its result kept as configgen.EnvVar, not converted).
func BenchmarkPodEnvironment(b *testing.B) {
	ctx := context.Background()
	b.Run("MakePodEnvironmentVariables", func(b *testing.B) {
		in := benchPodEnvInput()
		envs, _, err := configgen.MakePodEnvironmentVariables(ctx, in)
		if err != nil || len(envs) != 3 {
			b.Fatal(err, len(envs))
		}
		b.ReportAllocs()
		defer benchpod.ReportCPU(b)()
		for b.Loop() {
			if _, _, err := configgen.MakePodEnvironmentVariables(ctx, in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("MakeEnvironmentVariablesPerContainer", func(b *testing.B) {
		pod := benchPodEnvInput()
		in := configgen.EnvInput{Pod: pod.Pod, ConfigMaps: pod.ConfigMaps, Secrets: pod.Secrets, Services: pod.Services, Node: pod.Node, PodIPs: pod.PodIPs, NodeIPs: pod.NodeIPs}
		containers := configgen.PodContainers(in.Pod)
		b.ReportAllocs()
		defer benchpod.ReportCPU(b)()
		for b.Loop() {
			for _, pc := range containers {
				in.Container = pc.Container
				if _, _, err := configgen.MakeEnvironmentVariables(ctx, in); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
