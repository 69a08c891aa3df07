//go:build !linux

package configgen_test

import "testing"

// reportCPU reports nothing where getrusage's figures are not read (see the Linux version).
func reportCPU(*testing.B) func() { return func() {} }
