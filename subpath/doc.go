// Package subpath is the Linux host backend behind mounts.Subpather: symlink-safe subPath
// directory creation, bind mounts through held file descriptors, and their cleanup.
package subpath
