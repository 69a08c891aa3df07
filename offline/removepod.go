package offline

import (
	"errors"
	"path/filepath"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/internal/pathelem"
	"github.com/podconfig/podconfig/logs"
)

// RemovePod removes what the node holds for a pod that is gone, as kubelet's cleanup of an
// orphaned pod does: its directory <RootDir>/pods/<uid> and its logs directory in Files, the
// paths below the pod's directory that HostUtils and BlockDevices know, and its subPath binds. A program that
// renders many pods on one node, one after the other, removes each once it is done with it, so
// that what the node holds does not grow with the number of pods. The node's objects stay. A
// namespace, name or UID that is not a single path element is an error, and nothing is removed.
func (n *Node) RemovePod(pod *v1.Pod) error {
	if n == nil || pod == nil {
		return nil
	}
	for _, f := range []struct{ field, value string }{
		{"metadata.namespace", pod.Namespace}, {"metadata.name", pod.Name}, {"metadata.uid", string(pod.UID)},
	} {
		if msg := pathelem.Validate(f.field, f.value); msg != "" {
			return errors.New(msg)
		}
	}
	root := n.Options.RootDir
	if root == "" {
		root = configgen.DefaultRootDir
	}
	logsDir := n.Options.PodLogsDir
	if logsDir == "" {
		logsDir = logs.DefaultPodLogsDirectory
	}
	podDir := filepath.Join(root, "pods", string(pod.UID))
	if n.Subpather != nil {
		for _, v := range pod.Spec.Volumes {
			// A name that is not a path element has no binds to remove.
			_ = n.Subpather.CleanSubPaths(podDir, v.Name)
		}
	}
	if n.HostUtils != nil {
		n.HostUtils.RemovePaths(podDir)
	}
	if n.BlockDevices != nil {
		n.BlockDevices.removeBelow(podDir)
	}
	if n.Files == nil {
		return nil
	}
	if err := n.Files.RemoveAll(podDir); err != nil {
		return err
	}
	return n.Files.RemoveAll(logs.BuildPodLogsDirectory(logsDir, pod.Namespace, pod.Name, pod.UID))
}
