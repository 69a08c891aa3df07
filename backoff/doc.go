// Package backoff is kubelet's crash-loop back-off: how long a container that keeps exiting
// waits before it is started again (CrashLoopBackOff).
package backoff
