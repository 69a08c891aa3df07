package mountstest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/podconfig/podconfig/mounts/mountstest"
)

func TestHostUtilsRemovePaths(t *testing.T) {
	tests := []struct {
		name   string
		remove string
		left   []string
	}{
		{"the directory and every path below it go", "/pods/a", []string{"/pods/ab", "/pods/b/x", "/srv"}},
		{"a directory given with a trailing slash is cleaned", "/pods/a/", []string{"/pods/ab", "/pods/b/x", "/srv"}},
		{"a file alone", "/pods/a/v/f", []string{"/pods/a", "/pods/a/v", "/pods/ab", "/pods/b/x", "/srv"}},
		{"an unknown path removes nothing", "/nope", []string{"/pods/a", "/pods/a/v", "/pods/a/v/f", "/pods/ab", "/pods/b/x", "/srv"}},
		{"the root removes everything", "/", nil},
	}
	all := []string{"/pods/a", "/pods/a/v", "/pods/a/v/f", "/pods/ab", "/pods/b/x", "/srv"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hu := mountstest.NewHostUtils()
			for _, p := range all {
				hu.AddPath(p, 0o755)
			}
			hu.RemovePaths(tt.remove)
			var left []string
			for _, p := range all {
				if ok, _ := hu.PathExists(p); ok {
					left = append(left, p)
				}
			}
			assert.Equal(t, tt.left, left)
		})
	}
}
