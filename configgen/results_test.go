package configgen_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/internal/benchpod"
)

// resultVariant is benchpod's pod made distinct: its own name and UID (so its own host paths), an
// environment value of its own length, and an argument that expands it.
func resultVariant(i int) *v1.Pod {
	pod := benchpod.Pod()
	pod.Name += "-" + strconv.Itoa(i)
	pod.UID = types.UID(string(pod.UID) + "-" + strconv.Itoa(i))
	c := benchpod.Container(pod)
	c.Env = append(c.Env, v1.EnvVar{Name: "VARIANT", Value: strings.Repeat(strconv.Itoa(i), 1+i*37)})
	c.Args = append(c.Args, "--variant=$(VARIANT)")
	return pod
}

// Nothing a Generator returns may point into what it keeps or reuses (the cached service
// variables): configs kept while other calls run on the same Generator, from many goroutines,
// stay exactly what each pod renders to on a Generator of its own.
func TestGeneratorResultsOutliveLaterCalls(t *testing.T) {
	const variants, rounds = 6, 15
	fixedName := func() uint32 { return 7 } // termination-message files get one name on every node
	ctx := context.Background()
	render := func(gen *configgen.Generator, req configgen.ContainerRequest) (*runtimeapi.ContainerConfig, *runtimeapi.PodSandboxConfig, error) {
		cfg, err := gen.GenerateContainerConfig(ctx, req)
		if err != nil {
			return nil, nil, err
		}
		sandbox, err := gen.GeneratePodSandboxConfig(ctx, req.Pod, 1)
		return cfg, sandbox, err
	}
	request := func(pod *v1.Pod, volumes configgen.ContainerRequest) configgen.ContainerRequest {
		volumes.Pod, volumes.Container = pod, benchpod.Container(pod)
		return volumes
	}
	base := configgen.ContainerRequest{PodIPs: benchpod.NodeFacts().PodIPs, ImageRef: benchpod.ImageRef}

	wantCfg := make([]*runtimeapi.ContainerConfig, variants)
	wantSandbox := make([]*runtimeapi.PodSandboxConfig, variants)
	for i := range variants {
		node, _, volumes := benchNode(t)
		node.Options.TerminationMessageRand = fixedName
		gen, err := node.Generator()
		require.NoError(t, err)
		base.Volumes = volumes
		cfg, sandbox, err := render(gen, request(resultVariant(i), base))
		require.NoError(t, err)
		wantCfg[i], wantSandbox[i] = proto.Clone(cfg).(*runtimeapi.ContainerConfig), proto.Clone(sandbox).(*runtimeapi.PodSandboxConfig)
	}
	for i := 1; i < variants; i++ {
		require.False(t, proto.Equal(wantCfg[0], wantCfg[i]), "variants %d and 0 must differ", i)
	}

	node, _, volumes := benchNode(t)
	node.Options.TerminationMessageRand = fixedName
	gen, err := node.Generator()
	require.NoError(t, err)
	base.Volumes = volumes
	type result struct {
		variant int
		cfg     *runtimeapi.ContainerConfig
		sandbox *runtimeapi.PodSandboxConfig
		err     error
	}
	results := make(chan result, variants*rounds)
	var wg sync.WaitGroup
	for i := range variants {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				// A pod of its own each round, as a caller that decodes it afresh would have.
				cfg, sandbox, err := render(gen, request(resultVariant(i), base))
				results <- result{i, cfg, sandbox, err}
			}
		}()
	}
	wg.Wait()
	close(results)
	n := 0
	for r := range results {
		n++
		require.NoError(t, r.err)
		if !proto.Equal(wantCfg[r.variant], r.cfg) {
			t.Fatalf("variant %d: a container config kept across other calls changed:\n got %v\nwant %v", r.variant, r.cfg, wantCfg[r.variant])
		}
		if !proto.Equal(wantSandbox[r.variant], r.sandbox) {
			t.Fatalf("variant %d: a sandbox config kept across other calls changed:\n got %v\nwant %v", r.variant, r.sandbox, wantSandbox[r.variant])
		}
	}
	require.Equal(t, variants*rounds, n)
}
