package offline_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/offline"
)

func TestRuntimeClasses(t *testing.T) {
	m := offline.RuntimeClasses{"gvisor": "runsc"}
	for _, tc := range []struct {
		name    string
		class   *string
		want    string
		wantErr string
	}{
		{name: "nil class is the default handler", class: nil, want: ""},
		{name: "empty class is the default handler", class: ptr.To(""), want: ""},
		{name: "known class gives its handler", class: ptr.To("gvisor"), want: "runsc"},
		{name: "unknown class is the lister's NotFound, resource runtimeclass", class: ptr.To("kata"), wantErr: `runtimeclass.node.k8s.io "kata" not found`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := m.LookupRuntimeHandler(tc.class)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				assert.True(t, apierrors.IsNotFound(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
