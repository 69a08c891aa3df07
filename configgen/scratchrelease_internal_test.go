package configgen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/mounts"
)

// release keeps the space of a usual call for the next one, emptied of the call's data, and drops
// the space a pod grew past the bounds, so a pooled scratch holds neither.
func TestScratchRelease(t *testing.T) {
	secret := EnvVar{Name: "TOKEN", Value: "s3cr3t"}
	tests := []struct {
		name     string
		envs     int
		mounts   int
		services int
		fileBuf  int
		subPaths int
		wantKept bool
	}{
		{name: "a usual call's space is kept, emptied", envs: 90, mounts: 8, services: 6, fileBuf: 512, subPaths: 2, wantKept: true},
		{name: "space at the bounds is kept", envs: maxKeptEnvs, mounts: maxKeptMounts, services: maxKeptServices, fileBuf: maxKeptFileBuf, subPaths: maxKeptSubPaths, wantKept: true},
		{name: "space past the bounds is dropped", envs: maxKeptEnvs + 1, mounts: maxKeptMounts + 1, services: maxKeptServices + 1, fileBuf: maxKeptFileBuf + 1, subPaths: maxKeptSubPaths + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &envScratch{
				all:      make([]EnvVar, tt.envs),
				table:    make([]int32, 2*tt.envs),
				mounts:   make([]mounts.Mount, tt.mounts),
				services: make([]*v1.Service, tt.services),
				fileBuf:  make([]byte, 0, tt.fileBuf),
			}
			// The env file's reader fills the buffer with the file's bytes, a Secret's perhaps.
			copy(s.fileBuf[:cap(s.fileBuf)], "TOKEN='s3cr3t'\n")
			s.all[0], s.mounts[0], s.services[0] = secret, mounts.Mount{HostPath: "/var/lib/kubelet/pods/x"}, &v1.Service{}
			s.subPathEnv = map[string]string{}
			for i := range tt.subPaths {
				s.subPathEnv[string(rune('a'+i%26))+string(rune('a'+i/26))] = "v"
			}
			s.builder.in.Pod = &v1.Pod{}
			s.builder.out = s.all
			s.run.opts.Hostname = "web-0"
			s.release()

			assert.Zero(t, s.builder, "the builder keeps nothing of the last call")
			assert.Zero(t, s.run, "the run options keep nothing of the last call")
			if !tt.wantKept {
				assert.Nil(t, s.all)
				assert.Nil(t, s.table)
				assert.Nil(t, s.mounts)
				assert.Nil(t, s.services)
				assert.Nil(t, s.fileBuf)
				assert.Nil(t, s.subPathEnv)
				return
			}
			assert.Equal(t, tt.envs, cap(s.all))
			assert.Equal(t, 2*tt.envs, cap(s.table))
			assert.Equal(t, tt.mounts, cap(s.mounts))
			assert.Equal(t, tt.services, cap(s.services))
			assert.Equal(t, tt.fileBuf, cap(s.fileBuf))
			assert.Equal(t, make([]byte, tt.fileBuf), s.fileBuf[:cap(s.fileBuf)], "no env file's bytes stay in the pooled read buffer")
			assert.Zero(t, s.all[0], "no Secret value stays in the pooled result array")
			assert.Zero(t, s.mounts[0])
			assert.Nil(t, s.services[0])
			assert.NotNil(t, s.subPathEnv)
			assert.Empty(t, s.subPathEnv)
		})
	}
}
