// Package sysctl holds the one rule for writing a sysctl's name, shared by the API server's
// validation and kubelet's sysctls.
package sysctl
