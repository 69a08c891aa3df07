package logs_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/podconfig/podconfig/logs"
)

func TestLegacyLogSymlink(t *testing.T) {
	id := "d3b07384d113edec49eaa6238ad5ff00"
	long := strings.Repeat("p", 240)
	tests := []struct {
		name                          string
		id, container, pod, namespace string
		want                          string
	}{
		{
			name: "pod name, namespace, container name and ID make the file name",
			id:   id, container: "app", pod: "web-0", namespace: "shop",
			want: "/var/log/containers/web-0_shop_app-" + id + ".log",
		},
		{
			name: "a name of exactly 255 bytes is kept",
			id:   "x", container: "c", pod: strings.Repeat("p", 255-len("_n_c-x.log")), namespace: "n",
			want: "/var/log/containers/" + strings.Repeat("p", 245) + "_n_c-x.log",
		},
		{
			name: "a longer name is cut to 251 bytes before the .log suffix",
			id:   id, container: "app", pod: long, namespace: "shop",
			want: "/var/log/containers/" + (long + "_shop_app-" + id)[:251] + ".log",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := logs.LegacyLogSymlink(tt.id, tt.container, tt.pod, tt.namespace)
			assert.Equal(t, tt.want, got)
			assert.LessOrEqual(t, len(got)-len("/var/log/containers/"), 255)
		})
	}
}
