// Package downward computes the values the downward API exposes from a pod's metadata and its
// containers' resources, shared by environment variables and downwardAPI volume files.
package downward
