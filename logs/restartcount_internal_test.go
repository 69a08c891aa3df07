package logs

import (
	"regexp"
	"testing"
)

// kubeletPattern is kubelet's own expression, kept here to hold restartNumber to it.
var kubeletPattern = regexp.MustCompile(`^(\d+)\.log(\..*)?`)

func FuzzRestartNumberMatchesKubeletPattern(f *testing.F) {
	for _, s := range []string{"0.log", "12.log.gz", "3.logfoo", "3.lo", "x3.log", ".log", "٣.log", "3.log\n", "007.log.", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		digits, ok := restartNumber(name)
		m := kubeletPattern.FindStringSubmatch(name)
		if ok != (m != nil) || (ok && digits != m[1]) {
			t.Fatalf("restartNumber(%q) = %q, %t; kubelet's pattern gives %q", name, digits, ok, m)
		}
	})
}
