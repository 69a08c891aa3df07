//go:build linux

package volumes

func openBenchFS(dir string) (FS, error) { return OpenLinuxFS(dir) }
