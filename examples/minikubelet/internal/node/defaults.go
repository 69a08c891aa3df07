package node

import (
	"crypto/sha256"
	"fmt"
	"os"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/podconfig/podconfig/defaults"
)

// applyDefaults gives a pod read from a file what the API server and the scheduler would have
// given it before it reaches a node: the API server's defaults, the namespace "default", a UID and
// the node's name. A pod without a UID gets one derived from its namespace, name and node, as
// kubelet derives the UIDs of static pods from what identifies them, so a pod run twice on a node
// has the same directories.
func applyDefaults(pod *v1.Pod, nodeName string) {
	if nodeName == "" {
		nodeName, _ = os.Hostname()
	}
	defaults.SetObjectDefaultsPod(pod)
	if pod.Namespace == "" {
		pod.Namespace = v1.NamespaceDefault
	}
	if pod.UID == "" {
		sum := sha256.Sum256([]byte(pod.Namespace + "/" + pod.Name + "/" + nodeName))
		h := fmt.Sprintf("%x", sum[:16])
		pod.UID = types.UID(h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32])
	}
	if pod.Spec.NodeName == "" {
		pod.Spec.NodeName = nodeName
	}
}
