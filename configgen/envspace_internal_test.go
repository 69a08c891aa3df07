package configgen

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// release keeps the space of a usual environment for the next call, emptied of the call's names
// and values, and drops space a pod grew past the bound, so the pool holds neither.
func TestEnvSpaceRelease(t *testing.T) {
	secret := EnvVar{Name: "TOKEN", Value: "s3cr3t"}
	tests := []struct {
		name     string
		envs     int
		wantKept bool
	}{
		{name: "a usual environment's space is kept, emptied", envs: 90, wantKept: true},
		{name: "space at the bound is kept", envs: maxPooledEnvs, wantKept: true},
		{name: "space past the bound is dropped", envs: maxPooledEnvs + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &envSpace{vars: make([]EnvVar, 1, tt.envs), index: map[string]int{secret.Name: 0}}
			s.vars[0] = secret
			// A later definition may have been appended past the result's length.
			s.vars[:2][1] = secret
			assert.Equal(t, tt.wantKept, s.release())
			if tt.wantKept {
				assert.Empty(t, s.index, "no name stays in the index")
				for i, e := range s.vars[:cap(s.vars)] {
					assert.Zero(t, e, "element %d still holds a value", i)
				}
			}
		})
	}
}
