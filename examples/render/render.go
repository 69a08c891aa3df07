package main

import (
	"context"
	"fmt"
	"path/filepath"

	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/hosts"
	"github.com/podconfig/podconfig/security"
)

// output is what render prints.
type output struct {
	Sandbox    *runtimeapi.PodSandboxConfig `json:"sandbox"`
	Containers []containerOutput            `json:"containers"`
	Warnings   []string                     `json:"warnings,omitempty"`
}

type containerOutput struct {
	Name string `json:"name"`
	// Type is "init", "container" or "ephemeral".
	Type string `json:"type"`
	// LogPath is the container's log file on the node (sandbox log directory + config log_path).
	LogPath   string                      `json:"logPath"`
	Env       []envVar                    `json:"env"`
	Command   []string                    `json:"command"`
	Args      []string                    `json:"args"`
	HostsFile string                      `json:"hostsFile,omitempty"`
	Config    *runtimeapi.ContainerConfig `json:"config"`
	Warnings  []string                    `json:"warnings,omitempty"`
}

type envVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// render renders every container of the pod, init containers first, the way a node would start
// them, on an offline node that holds the input's objects.
func render(ctx context.Context, in *input) (*output, error) {
	pod := in.pod
	objs := []interface{}{}
	for _, o := range in.configMaps {
		objs = append(objs, o)
	}
	for _, o := range in.secrets {
		objs = append(objs, o)
	}
	for _, o := range in.services {
		objs = append(objs, o)
	}
	if in.node != nil {
		objs = append(objs, in.node)
	}
	node := configgentest.NewNode(objs...)
	for image, u := range in.context.ImageUsers {
		node.ImageUsers[image] = security.ImageUser{UID: u.UID, Username: u.Username}
	}
	out := &output{}
	warnings := map[string][]string{}
	node.Options.OnWarning = func(_ *v1.Pod, c *v1.Container, w configgen.Warning) {
		msg := w.String()
		if c == nil {
			out.Warnings = append(out.Warnings, msg)
			return
		}
		warnings[c.Name] = append(warnings[c.Name], msg)
	}
	gen, err := node.Generator()
	if err != nil {
		return nil, err
	}
	volumes := node.Volumes(pod)

	out.Sandbox, err = gen.GeneratePodSandboxConfig(ctx, pod, 0)
	if err != nil {
		return nil, fmt.Errorf("pod %s/%s: sandbox: %w", pod.Namespace, pod.Name, err)
	}

	type entry struct {
		c        v1.Container
		kind     string
		nsTarget string
	}
	var entries []entry
	for _, c := range pod.Spec.InitContainers {
		entries = append(entries, entry{c: c, kind: "init"})
	}
	for _, c := range pod.Spec.Containers {
		entries = append(entries, entry{c: c, kind: "container"})
	}
	for _, ec := range pod.Spec.EphemeralContainers {
		e := entry{c: v1.Container(ec.EphemeralContainerCommon), kind: "ephemeral"}
		if ec.TargetContainerName != "" {
			e.nsTarget = "container-id-of-" + ec.TargetContainerName
		}
		entries = append(entries, e)
	}
	for _, e := range entries {
		c := e.c
		cfg, cleanup, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{Pod: pod, Container: &c, RestartCount: in.context.RestartCount, PodIPs: in.context.PodIPs, ImageRef: c.Image, Volumes: volumes, NamespaceTarget: e.nsTarget})
		if err != nil {
			return nil, fmt.Errorf("pod %s/%s, container %s: %w", pod.Namespace, pod.Name, c.Name, err)
		}
		cleanup()
		co := containerOutput{
			Name: c.Name, Type: e.kind, Config: cfg, Warnings: warnings[c.Name],
			LogPath: filepath.Join(out.Sandbox.LogDirectory, cfg.LogPath),
			Command: cfg.Command, Args: cfg.Args,
			Env: make([]envVar, len(cfg.Envs)),
		}
		for i, kv := range cfg.Envs {
			co.Env[i] = envVar{Name: kv.Key, Value: string(kv.Value)}
		}
		for _, m := range cfg.Mounts {
			if m.ContainerPath == hosts.ContainerPath && m.HostPath == hosts.EtcHostsPath(filepath.Dir(m.HostPath)) {
				if b, err := node.Files.ReadFile(m.HostPath); err == nil {
					co.HostsFile = string(b)
				}
			}
		}
		out.Containers = append(out.Containers, co)
	}
	return out, nil
}
