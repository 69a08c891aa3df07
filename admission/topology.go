package admission

// topologyLabels are the node labels the PodTopologyLabels plugin copies onto pods bound to it.
var topologyLabels = []string{"topology.kubernetes.io/zone", "topology.kubernetes.io/region"}

// podTopologyLabelsAdmit is podtopologylabels.Plugin.admitPod: a pod bound to a known node gets
// that node's zone and region labels, overwriting its own.
func (a *admitter) podTopologyLabelsAdmit() error {
	if a.pod.Spec.NodeName == "" {
		return nil
	}
	n, ok := a.objs.nodes[a.pod.Spec.NodeName]
	if !ok {
		return nil
	}
	for _, k := range topologyLabels {
		if v, ok := n.Labels[k]; ok {
			if a.pod.Labels == nil {
				a.pod.Labels = map[string]string{}
			}
			a.pod.Labels[k] = v
		}
	}
	return nil
}
