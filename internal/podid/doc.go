// Package podid holds the node's rules for a pod's identity: the namespace, name and UID that
// become host paths (<root>/pods/<uid>, <logs>/<namespace>_<name>_<uid>), cgroup names
// (kubepods-pod<uid>.slice), DNS names (<namespace>.svc.<domain> in resolv.conf) and lines of
// files. They are the API server's rules for the namespace and name, and for the UID the forms a
// cluster or kubelet assigns, so that no two pods share a directory, a cgroup or a search domain.
package podid
