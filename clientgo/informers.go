package clientgo

import (
	"k8s.io/client-go/informers"
)

// FromInformers returns Sources over factory's ConfigMap, Secret, Service and Node informers,
// registering them with the factory: call it before factory.Start, then wait for
// factory.WaitForCacheSync (the Services report their sync state until then). nodeName names
// the node the pods run on. A factory limited to one namespace serves only that namespace's
// objects; the Services of "default" (the kubernetes Service) then come from nowhere, so give
// such a provider a second factory for them.
func FromInformers(factory informers.SharedInformerFactory, nodeName string) Sources {
	core := factory.Core().V1()
	services := core.Services()
	return Sources{
		ConfigMaps: ConfigMapLister(core.ConfigMaps().Lister()),
		Secrets:    SecretLister(core.Secrets().Lister()),
		Services:   ServiceLister(services.Lister(), services.Informer().HasSynced),
		Node:       NodeLister(core.Nodes().Lister(), nodeName),
	}
}
