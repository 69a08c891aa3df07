package defaults

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func TestSetRenderIdentity(t *testing.T) {
	tests := []struct {
		name          string
		meta          metav1.ObjectMeta
		wantNamespace string
		wantUID       types.UID
	}{
		{"namespace defaults to default and the UID is derived", metav1.ObjectMeta{Name: "web"},
			"default", RenderUID("default", "web")},
		{"namespace and UID set are kept", metav1.ObjectMeta{Name: "web", Namespace: "prod", UID: "0c9b7e1e-1111-4222-8333-444455556666"},
			"prod", "0c9b7e1e-1111-4222-8333-444455556666"},
		{"a namespace set is kept and the UID derived from it", metav1.ObjectMeta{Name: "web", Namespace: "prod"},
			"prod", RenderUID("prod", "web")},
		{"a UID set is kept when the namespace is defaulted", metav1.ObjectMeta{Name: "web", UID: "fixed"},
			"default", "fixed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &v1.Pod{ObjectMeta: tt.meta}
			SetRenderIdentity(pod)
			assert.Equal(t, tt.wantNamespace, pod.Namespace)
			assert.Equal(t, tt.wantUID, pod.UID)
			assert.Equal(t, tt.meta.Name, pod.Name, "the name is not changed")
		})
	}
}

func TestRenderUID(t *testing.T) {
	t.Run("the same pod always gets the same UID", func(t *testing.T) {
		// Python's uuid.uuid5(uuid.UUID("4df74a17-66b3-5016-8dff-59d6cade7d50"), "default/web") agrees.
		assert.Equal(t, types.UID("e1ff9f8b-76eb-572b-bb09-376b1a72b073"), RenderUID("default", "web"))
		assert.Equal(t, RenderUID("default", "web"), RenderUID("default", "web"))
	})
	t.Run("namespace and name both count, and cannot be confused", func(t *testing.T) {
		uids := map[types.UID]string{}
		for _, nn := range [][2]string{{"default", "web"}, {"prod", "web"}, {"default", "web2"}, {"a", "b-c"}, {"a-b", "c"}, {"", ""}} {
			uid := RenderUID(nn[0], nn[1])
			assert.NotContains(t, uids, uid, "%v", nn)
			uids[uid] = nn[0] + "/" + nn[1]
		}
	})
	t.Run("it is a version 5 RFC 9562 UUID", func(t *testing.T) {
		uid := string(RenderUID("kube-system", "coredns-0"))
		assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, uid)
	})
}

func TestUUIDv5(t *testing.T) {
	dns := [16]byte{0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}
	url := [16]byte{0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}
	t.Run("the well-known vector: python.org in the DNS namespace", func(t *testing.T) {
		assert.Equal(t, "886313e1-3b8a-5372-9b90-0c9aee199e5d", formatUUID(uuidV5(dns, "python.org")))
	})
	t.Run("the render namespace is the UUID its comment names", func(t *testing.T) {
		assert.Equal(t, renderUIDNamespace, uuidV5(url, "https://github.com/podconfig/podconfig/defaults#RenderUID"))
		assert.Equal(t, "4df74a17-66b3-5016-8dff-59d6cade7d50", formatUUID(renderUIDNamespace))
	})
}
