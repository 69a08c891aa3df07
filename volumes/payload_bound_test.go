package volumes

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
)

// Sources.MaxPayloadBytes bounds one volume's files as they are collected: a source naming one
// object many times is a copy each time.
func TestPayloadBound(t *testing.T) {
	cfgItems := func(n int) []v1.KeyToPath {
		var items []v1.KeyToPath
		for i := range n {
			items = append(items, v1.KeyToPath{Key: "a.conf", Path: string(rune('a' + i))})
		}
		return items
	}
	cfgSources := func(n int) []v1.VolumeProjection {
		var out []v1.VolumeProjection
		for i := range n {
			out = append(out, v1.VolumeProjection{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"},
				Items: []v1.KeyToPath{{Key: "a.conf", Path: string(rune('a' + i))}}}})
		}
		return out
	}
	names := func(n int) []v1.DownwardAPIVolumeFile {
		var out []v1.DownwardAPIVolumeFile
		for i := range n {
			out = append(out, v1.DownwardAPIVolumeFile{Path: string(rune('a' + i)), FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}})
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		max    int64
		source v1.VolumeSource
		files  int
		err    string
	}{
		{"configMap items of one key count once each: three 1-byte files fit 3 bytes", 3,
			v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, DefaultMode: i32(0o644), Items: cfgItems(3)}}, 3, ""},
		{"configMap items of one key past the bound fail", 2,
			v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, DefaultMode: i32(0o644), Items: cfgItems(3)}}, 0,
			"volume files too large: the volume's files would take more than 2 bytes"},
		{"a configMap without items counts every key", 3,
			v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, DefaultMode: i32(0o644)}}, 0,
			"volume files too large: the volume's files would take more than 3 bytes"},
		{"projected sources naming one ConfigMap count together and fail once, not per source", 2,
			v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: i32(0o644), Sources: cfgSources(5)}}, 0,
			"volume files too large: the volume's files would take more than 2 bytes"},
		{"downwardAPI items count the values they copy", 8,
			v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{DefaultMode: i32(0o644), Items: names(3)}}, 0,
			"volume files too large: the volume's files would take more than 8 bytes"},
		{"no bound (0) is kubelet's: everything is collected", 0,
			v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: i32(0o644), Sources: cfgSources(5)}}, 5, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := testSources()
			s.MaxPayloadBytes = tc.max
			p, err := s.Payload(context.Background(), testPod(), &v1.Volume{Name: "v", VolumeSource: tc.source})
			if tc.err != "" {
				require.Error(t, err)
				assert.True(t, errors.Is(err, ErrPayloadTooLarge))
				assert.Equal(t, `MountVolume.SetUp failed for volume "v" of pod shop/web: `+tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Len(t, p, tc.files)
		})
	}
}
