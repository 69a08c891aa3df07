package configgen_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/configgen"
)

// TestZeroGenerator calls every method of a Generator that New did not build, with a pod that a
// built one renders: each returns ErrInvalidOptions and touches nothing, where a zero
// Generator used to panic (its backends are set only by New) or, for PodDir,
// answer a path under "/".
func TestZeroGenerator(t *testing.T) {
	ctx := context.Background()
	node, gen := sampleNode(t)
	pod := samplePod()
	req := configgen.ContainerRequest{
		Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.244.1.17"}, Volumes: node.Volumes(pod),
	}
	calls := map[string]func(g *configgen.Generator) error{
		"GenerateContainerConfig": func(g *configgen.Generator) error {
			_, err := g.GenerateContainerConfig(ctx, req)
			return err
		},
		"GenerateRunContainerOptions": func(g *configgen.Generator) error {
			_, err := g.GenerateRunContainerOptions(ctx, req)
			return err
		},
		"GeneratePodSandboxConfig": func(g *configgen.Generator) error {
			_, err := g.GeneratePodSandboxConfig(ctx, pod, 0)
			return err
		},
		"MakePodDataDirs": func(g *configgen.Generator) error { return g.MakePodDataDirs(pod) },
		"MakePodLogsDirectory": func(g *configgen.Generator) error {
			_, err := g.MakePodLogsDirectory(pod)
			return err
		},
		"PodDir": func(g *configgen.Generator) error {
			_, err := g.PodDir(pod)
			return err
		},
		"PodDataDirs": func(g *configgen.Generator) error {
			_, err := g.PodDataDirs(pod)
			return err
		},
		"RestartCountFromLogs": func(g *configgen.Generator) error {
			_, err := g.RestartCountFromLogs(pod, "web")
			return err
		},
	}
	for name, call := range calls {
		for recv, g := range map[string]*configgen.Generator{"zero": {}, "nil": nil} {
			t.Run(name+" on a "+recv+" Generator says it was not built by New", func(t *testing.T) {
				err := call(g)
				require.ErrorIs(t, err, configgen.ErrInvalidOptions)
				assert.ErrorContains(t, err, "not built by configgen.New")
			})
		}
	}
	for name, call := range calls {
		t.Run(name+" on a built Generator works", func(t *testing.T) {
			assert.NoError(t, call(gen))
		})
	}
}
