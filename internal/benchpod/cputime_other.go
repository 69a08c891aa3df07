//go:build !linux

package benchpod

import (
	"testing"
	"time"
)

// ReportCPU reports nothing where getrusage's figures are not read (see the Linux version).
func ReportCPU(*testing.B) func() { return func() {} }

// ProcessCPU is the CPU time the process has used so far; 0 where it is not measured.
func ProcessCPU() time.Duration { return 0 }
