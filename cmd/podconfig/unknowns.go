package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/manifest"
)

// unknowns are what a node knows and a manifest cannot say, that the pods rendered needed and
// render assumed: each becomes one warning naming the pods and the flag that gives it.
type unknowns struct {
	hostsPods []string
	cronPods  []string
	// extended lists, per extended resource without --device, the containers requesting it.
	extended map[v1.ResourceName][]string
}

// note records what pod, rendered from a document of kind, took from render's assumptions.
func (u *unknowns) note(cfg *renderConfig, bundle *manifest.Bundle, kind string, pod *v1.Pod) {
	name := pod.Namespace + "/" + pod.Name
	if pod.Spec.HostNetwork && cfg.hostsFile == "" {
		u.hostsPods = append(u.hostsPods, name)
	}
	if kind == "CronJob" && bundle.Context.ScheduledTime.IsZero() {
		u.cronPods = append(u.cronPods, name)
	}
	for _, c := range slices.Concat(pod.Spec.InitContainers, pod.Spec.Containers) {
		for res := range c.Resources.Limits {
			if isExtendedResource(res) && cfg.devices[res] == nil {
				if u.extended == nil {
					u.extended = map[v1.ResourceName][]string{}
				}
				u.extended[res] = append(u.extended[res], name+" container "+c.Name)
			}
		}
	}
}

// warnings are the warnings of what the rendered pods took from render's assumptions.
func (u *unknowns) warnings() []string {
	var out []string
	if n := len(u.hostsPods); n > 0 {
		out = append(out, fmt.Sprintf("%d host-network %s the node's /etc/hosts, which kubelet copies in and is not known offline (%s): rendered with one line, 127.0.0.1 localhost; give the node's with --hosts-file FILE",
			n, plural(n, "pod gets", "pods get"), strings.Join(u.hostsPods, ", ")))
	}
	if n := len(u.cronPods); n > 0 {
		out = append(out, fmt.Sprintf("%d %s named for the time %s scheduled, which is not known offline (%s): named for the epoch (0); give it with --scheduled-time TIME or a RenderContext's scheduledTime",
			n, plural(n, "pod of a CronJob is", "pods of CronJobs are"), plural(n, "its Job is", "their Jobs are"), strings.Join(u.cronPods, ", ")))
	}
	for _, res := range slices.Sorted(maps.Keys(u.extended)) {
		who := u.extended[res]
		out = append(out, fmt.Sprintf("%d %s %s, an extended resource whose device plugin gives each container its devices, mounts, environment and annotations on a node, which are not known offline (%s): rendered without them; give its devices with --device %s=HOSTPATH[:CONTAINERPATH[:PERMISSIONS]]",
			len(who), plural(len(who), "container requests", "containers request"), res, strings.Join(who, ", "), res))
	}
	return out
}

// isExtendedResource reports whether name is an extended resource (the API's
// IsExtendedResourceName): a qualified name with a domain outside kubernetes.io, which a device
// plugin or a scheduler extension provides, not the node.
func isExtendedResource(name v1.ResourceName) bool {
	s := string(name)
	domain, _, ok := strings.Cut(s, "/")
	if !ok || strings.HasPrefix(s, v1.DefaultResourceRequestsPrefix) {
		return false
	}
	return domain != "kubernetes.io" && !strings.HasSuffix(domain, ".kubernetes.io")
}

// deviceResources gives each container the --device devices of the extended resources it
// requests, as their device plugins' Allocate would, in the order of the resources' names.
func (c *renderConfig) deviceResources() configgen.DeviceResourceGetter {
	if len(c.devices) == 0 {
		return nil
	}
	return configgen.DeviceResourceGetterFunc(func(_ context.Context, _ *v1.Pod, ctr *v1.Container) (*configgen.DeviceResources, error) {
		dr := &configgen.DeviceResources{}
		for _, res := range slices.Sorted(maps.Keys(c.devices)) {
			if _, ok := ctr.Resources.Limits[res]; ok {
				dr.Devices = append(dr.Devices, c.devices[res]...)
			}
		}
		return dr, nil
	})
}
