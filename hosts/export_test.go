package hosts

// The steps HostsFileContent and GeneratePodHostNameAndDomain are made of, under kubelet's names,
// for the external tests.
var (
	ManagedHostsFileContent     = managedHostsFileContent
	NodeHostsFileContent        = nodeHostsFileContent
	EnsureHostsFile             = ensureHostsFile
	TruncatePodHostnameIfNeeded = truncatePodHostnameIfNeeded
	FileMode                    = fileMode
)
