// Package clientgo adapts client-go to podconfig: listers, informers and a clientset serve the
// ConfigMaps, Secrets, Services and Node that configgen's getters ask for, an informer's HasSynced
// becomes the Services' ServiceSyncChecker, and an EventRecorder records configgen's warnings and
// errors as kubelet records its events.
//
// It is a module of its own, so that the core module does not depend on client-go.
package clientgo
