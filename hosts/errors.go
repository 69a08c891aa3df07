package hosts

import (
	"github.com/podconfig/podconfig/internal/errkind"
)

// Error categories, for errors.Is. The error texts themselves match kubelet's where it has one.
var (
	// ErrInvalidHostname: a pod's hostname, hostnameOverride, subdomain, name or namespace cannot
	// name the pod in DNS, or truncating it left nothing.
	ErrInvalidHostname = errkind.Sentinel(errkind.InvalidPod, "invalid pod hostname")
	// ErrFQDNTooLong: hostname.domain does not fit the kernel's 64-byte nodename.
	ErrFQDNTooLong = errkind.Sentinel(errkind.InvalidPod, "pod FQDN too long")
	// ErrInvalidHostsEntry: a pod IP, hostname, domain or hostAlias would not make a well-formed
	// line of the hosts file, and could add lines of its own.
	ErrInvalidHostsEntry = errkind.Sentinel(errkind.InvalidPod, "invalid hosts file entry")
	// ErrInvalidPodDir: the pod directory given to MakeHostsFile could place the file elsewhere.
	ErrInvalidPodDir = errkind.Sentinel(errkind.InvalidOptions, "invalid pod directory")
)

// kindError is the shared error type: kubelet's text, a category and a cause.
type kindError = errkind.Error
