package configgen

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
)

// An object that gains keys between being counted and being read must not break the builder:
// the table grows and the result still holds every variable once, service variables after.
func TestEnvBuilderMoreDefinitionsThanReserved(t *testing.T) {
	b := &envBuilder{in: EnvInput{Pod: &v1.Pod{}, Container: &v1.Container{}}}
	b.svcCount = 1
	b.reserve(1)
	b.all[1] = EnvVar{Name: "SVC", Value: "s"}
	b.svc = b.all[1:2]
	b.svcFirst['S'/64] |= 1 << ('S' % 64)
	var want []EnvVar
	for i := range 40 {
		name := fmt.Sprintf("V%02d", i)
		b.set(name, "x")
		want = append(want, EnvVar{Name: name, Value: "x"})
	}
	b.set("V07", "again")
	want[7].Value = "again"
	got := b.result()
	assert.Equal(t, append(want, EnvVar{Name: "SVC", Value: "s"}), got)
	for i := range 40 {
		v, ok := b.lookup(fmt.Sprintf("V%02d", i))
		assert.True(t, ok)
		assert.NotEmpty(t, v)
	}
}
