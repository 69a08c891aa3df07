// Package linuxtest holds root-only tests of mounts.MakeMounts with the Linux subpath backend;
// it is separate so that the mounts package's own tests never depend on the backend building.
package linuxtest
