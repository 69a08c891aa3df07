// Package etcd is empty: its module only pins the etcd server that the control-plane stage
// (.ci/stages/40-controlplane.sh) builds with `go build go.etcd.io/etcd/server/v3`.
package etcd
