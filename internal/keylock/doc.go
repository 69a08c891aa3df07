// Package keylock provides a fixed set of mutexes picked by a key, for serialising work on one
// key (a pod, a path) without a map that grows with the keys: two keys share a mutex only by
// their hash, and then merely wait for each other.
package keylock
