package configgen

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"

	v1 "k8s.io/api/core/v1"
	utilnet "k8s.io/utils/net"

	"github.com/podconfig/podconfig/internal/downward"
)

// fieldRef resolves a fieldRef (kubelet: podFieldSelectorRuntimeValue).
func (b *envBuilder) fieldRef(fs *v1.ObjectFieldSelector) (string, error) {
	path, err := convertFieldLabel(fs.APIVersion, fs.FieldPath)
	if err != nil {
		return "", err
	}
	pod := b.in.Pod
	switch path {
	case "spec.nodeName":
		return pod.Spec.NodeName, nil
	case "spec.serviceAccountName":
		return pod.Spec.ServiceAccountName, nil
	case "status.hostIP", "status.hostIPs":
		ips, err := b.nodeHostIPs()
		if err != nil {
			if b.in.UnknownIPs == UnknownIPsEmpty && errors.Is(err, ErrIPNotKnown) {
				b.warn(ReasonHostIPNotKnown, fmt.Sprintf("%s is empty: the node's IP is not known yet (%v)", path, err))
				return "", nil
			}
			return "", err
		}
		if path == "status.hostIP" {
			return ips[0], nil
		}
		return strings.Join(ips, ","), nil
	case "status.podIP", "status.podIPs":
		b.sortPodIPs()
		if len(b.podIPs) == 0 {
			switch b.in.UnknownIPs {
			case UnknownIPsFail:
				return "", newEnvError(ErrIPNotKnown, fmt.Sprintf("%s: %s is not known yet: the pod has no IP", b.where(), path), nil)
			case UnknownIPsEmpty:
				b.warn(ReasonPodIPNotKnown, fmt.Sprintf("%s is empty: the pod has no IP yet", path))
			}
		}
		if path == "status.podIP" {
			return b.podIP, nil
		}
		return strings.Join(b.podIPs, ","), nil
	}
	return podFieldValue(pod, path)
}

// convertFieldLabel checks a downward API field path and returns the path to read (kubelet:
// podshelper.ConvertDownwardAPIFieldLabel). Only apiVersion "v1" is accepted, an empty one too
// fails, as the API server defaults it.
func convertFieldLabel(apiVersion, label string) (string, error) {
	if apiVersion != "v1" {
		return "", newEnvError(ErrFieldRef, "unsupported pod version: "+apiVersion, nil)
	}
	if path, _, ok := downward.SplitSubscript(label); ok {
		switch path {
		case "metadata.annotations", "metadata.labels":
			return label, nil
		}
		return "", newEnvError(ErrFieldRef, "field label does not support subscript: "+label, nil)
	}
	switch label {
	case "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid",
		"spec.nodeName", "spec.restartPolicy", "spec.serviceAccountName", "spec.schedulerName",
		"status.phase", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs":
		return label, nil
	case "spec.host":
		// Old v1 clients' name for spec.nodeName.
		return "spec.nodeName", nil
	}
	return "", newEnvError(ErrFieldRef, "field label not supported: "+label, nil)
}

// podFieldValue reads the metadata fields of the pod (kubelet: fieldpath.ExtractFieldPathAsString).
// spec.restartPolicy, spec.schedulerName and status.phase pass convertFieldLabel but fail here, as
// in kubelet.
func podFieldValue(pod *v1.Pod, fieldPath string) (string, error) {
	v, err := downward.PodFieldValue(pod, fieldPath)
	if err != nil {
		return "", newEnvError(ErrFieldRef, err.Error(), nil)
	}
	return v, nil
}

// sortPodIPs picks the first pod IP of the node's primary family and the first of the other
// family, in canonical notation; when it finds one, the first becomes status.podIP (kubelet:
// sortPodIPs, and the podIP that kuberuntime passes, the first of the pod IPs as reported).
func (b *envBuilder) sortPodIPs() {
	if b.podIPDone {
		return
	}
	b.podIPDone = true
	if len(b.in.PodIPs) > 0 {
		b.podIP = b.in.PodIPs[0]
	}
	primaryV4 := len(b.in.NodeIPs) == 0 || utilnet.IsIPv4(b.in.NodeIPs[0])
	var primary, secondary string
	for _, s := range b.in.PodIPs {
		ip, v4, ok := canonicalIP(s)
		if !ok {
			continue
		}
		if v4 == primaryV4 {
			if primary == "" {
				primary = ip
			}
		} else if secondary == "" {
			secondary = ip
		}
	}
	b.podIPs = nil
	if primary != "" {
		b.podIPs = append(b.podIPs, primary)
	}
	if secondary != "" {
		b.podIPs = append(b.podIPs, secondary)
	}
	if len(b.podIPs) > 0 {
		b.podIP = b.podIPs[0]
	}
}

// canonicalIP parses an IP as kubelet does (utilnet.ParseIPSloppy: IPv4 parts with leading zeros
// are decimal, zones are rejected) and returns its canonical text, reusing s when it already is.
func canonicalIP(s string) (ip string, v4, ok bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		if a.Zone() != "" {
			return "", false, false
		}
		a = a.Unmap()
		var buf [64]byte
		text := a.AppendTo(buf[:0])
		if string(text) == s {
			return s, a.Is4(), true
		}
		return string(text), a.Is4(), true
	}
	parsed := utilnet.ParseIPSloppy(s)
	if parsed == nil {
		return "", false, false
	}
	return parsed.String(), parsed.To4() != nil, true
}

// nodeHostIPs returns the node's host IPs: the first InternalIP (else ExternalIP) and the first
// address of the other family (kubelet: getHostIPsAnyWay and utilnode.GetNodeHostIPs).
func (b *envBuilder) nodeHostIPs() ([]string, error) {
	if b.hostIPs != nil {
		return b.hostIPs, nil
	}
	node, err := b.getNode()
	if err != nil {
		return nil, newEnvError(ErrNode, err.Error(), err)
	}
	var first string
	var firstV4 bool
	var ips []string
	for _, want := range []v1.NodeAddressType{v1.NodeInternalIP, v1.NodeExternalIP} {
		for _, addr := range node.Status.Addresses {
			if addr.Type != want {
				continue
			}
			ip, v4, ok := canonicalIP(addr.Address)
			if !ok {
				continue
			}
			if first == "" {
				first, firstV4 = ip, v4
				ips = append(ips, ip)
			} else if v4 != firstV4 {
				ips = append(ips, ip)
				b.hostIPs = ips
				return ips, nil
			}
		}
	}
	if first == "" {
		return nil, newEnvError(ErrNode, fmt.Sprintf("host IP unknown; known addresses: %v", node.Status.Addresses), ErrIPNotKnown)
	}
	b.hostIPs = ips
	return ips, nil
}

// getNode returns the node once per call; a nil NodeGetter gives an empty node.
func (b *envBuilder) getNode() (*v1.Node, error) {
	if !b.nodeDone {
		b.nodeDone = true
		if b.in.Node == nil {
			b.node = &v1.Node{}
		} else {
			b.node, b.nodeErr = b.in.Node.GetNode(b.ctx)
			if b.nodeErr == nil && b.node == nil {
				b.nodeErr = fmt.Errorf("%s: the node getter returned neither a node nor an error", b.where())
			}
		}
	}
	return b.node, b.nodeErr
}
