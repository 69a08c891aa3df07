package resources

import (
	"io/fs"
	"os"
)

// osFiles reads the real host.
type osFiles struct{}

func (osFiles) ReadFile(p string) ([]byte, error)       { return os.ReadFile(p) }
func (osFiles) ReadDir(p string) ([]fs.DirEntry, error) { return os.ReadDir(p) }
func (osFiles) Stat(p string) (fs.FileInfo, error)      { return os.Stat(p) }

var _ hostFiles = osFiles{}

// HostNode reads this node's facts (cgroup version, memory capacity, hugepage sizes, whether swap
// can be controlled) and its memory page size from the sources
// kubelet's cadvisor and cgroup libraries use. It reads several files: call it once and keep the
// result.
func HostNode() (Node, error) {
	n, err := detectNode(osFiles{})
	if err != nil {
		return Node{}, err
	}
	n.PageSize = int64(os.Getpagesize())
	return n, nil
}
