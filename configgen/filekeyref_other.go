//go:build !linux

package configgen

// readEnvFile reads key from the env file that SecureJoin resolved to path; off Linux there is no
// race-free open inside a root, so it reads path through fsys.
func readEnvFile(fsys EnvFileFS, _, _, path, key string) (string, error) {
	return readEnvFileFS(fsys, path, key)
}
