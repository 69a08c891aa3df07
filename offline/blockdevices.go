package offline

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/podconfig/podconfig/blockdev"
)

var _ blockdev.SymlinkChecker = (*BlockDevices)(nil)

// BlockDevices is the offline node's blockdev.SymlinkChecker: the block-device symlinks (a block
// volume's map path, where kubelet links the device) that exist. A path exists when it was
// added; there are no devices behind them, so a link counts as existing as a dangling one does
// for kubelet's lstat-based check. The zero value holds none; it is safe for concurrent use.
type BlockDevices struct {
	mu    sync.Mutex
	paths map[string]bool
}

// NewBlockDevices returns a set holding paths.
func NewBlockDevices(paths ...string) *BlockDevices {
	b := &BlockDevices{paths: make(map[string]bool, len(paths))}
	for _, p := range paths {
		b.paths[p] = true
	}
	return b
}

// Add records path as a block-device symlink.
func (b *BlockDevices) Add(path string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.paths == nil {
		b.paths = map[string]bool{}
	}
	b.paths[path] = true
}

// IsSymlinkExist reports whether path was added. It never fails.
func (b *BlockDevices) IsSymlinkExist(path string) (bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.paths[path], nil
}

// removeBelow forgets the symlinks below dir, as removing the directory from the host would.
func (b *BlockDevices) removeBelow(dir string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	dir = filepath.Clean(dir)
	for p := range b.paths {
		if strings.HasPrefix(filepath.Clean(p), dir+"/") {
			delete(b.paths, p)
		}
	}
}
