package defaults

import (
	"crypto/sha1"
	"encoding/hex"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// DefaultNamespace is the namespace the API server puts a namespaced object in when neither the
// object nor the request names one (kubectl's default context does the same).
const DefaultNamespace = v1.NamespaceDefault

// renderUIDNamespace is the UUID namespace of render UIDs: the version 5 UUID of
// "https://github.com/podconfig/podconfig/defaults#RenderUID" in RFC 9562's URL namespace,
// 4df74a17-66b3-5016-8dff-59d6cade7d50.
var renderUIDNamespace = [16]byte{0x4d, 0xf7, 0x4a, 0x17, 0x66, 0xb3, 0x50, 0x16, 0x8d, 0xff, 0x59, 0xd6, 0xca, 0xde, 0x7d, 0x50}

// SetRenderIdentity gives a pod that never met an API server the identity kubelet needs to render
// it: the namespace "default" when it has none, and when it has no UID, RenderUID of its namespace
// and name. This is not API server defaulting: the API server takes the namespace from the
// request and gives every pod a random UID. Use it only to render pods offline; a pod on a node
// keeps the UID the API server gave it. The name is not generated from metadata.generateName.
func SetRenderIdentity(pod *v1.Pod) {
	if pod == nil {
		return
	}
	if pod.Namespace == "" {
		pod.Namespace = DefaultNamespace
	}
	if pod.UID == "" {
		pod.UID = RenderUID(pod.Namespace, pod.Name)
	}
}

// RenderUID is the UID SetRenderIdentity gives a pod: a version 5 (name-based, SHA-1) UUID of
// "<namespace>/<name>" in a namespace of podconfig's own, so the same pod always gets the same UID,
// and its pod directory and log paths are the same from one render to the next.
func RenderUID(namespace, name string) types.UID {
	return types.UID(formatUUID(uuidV5(renderUIDNamespace, namespace+"/"+name)))
}

// uuidV5 is RFC 9562's name-based UUID, version 5.
func uuidV5(namespace [16]byte, name string) [16]byte {
	h := sha1.New()
	h.Write(namespace[:])
	h.Write([]byte(name))
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x50 // version 5
	u[8] = u[8]&0x3f | 0x80 // RFC 9562 variant
	return u
}

func formatUUID(u [16]byte) string {
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b[:])
}
