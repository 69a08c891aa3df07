package resources_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/podconfig/podconfig/resources"
)

func TestMilliCPUToShares(t *testing.T) {
	tests := []struct {
		name  string
		milli int64
		want  int64
	}{
		{name: "zero millicores give the kernel minimum of 2", milli: 0, want: 2},
		{name: "1m rounds down below the minimum and gives 2", milli: 1, want: 2},
		{name: "negative millicores give 2", milli: -100, want: 2},
		{name: "250m gives 256", milli: 250, want: 256},
		{name: "one CPU gives 1024", milli: 1000, want: 1024},
		{name: "256 CPUs give the kernel maximum 262144", milli: 256000, want: 262144},
		{name: "more than 256 CPUs is clamped to 262144", milli: 1000000, want: 262144},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, resources.MilliCPUToShares(tt.milli))
		})
	}
}

func TestMilliCPUToQuota(t *testing.T) {
	tests := []struct {
		name         string
		milli        int64
		period       int64
		customPeriod bool
		want         int64
	}{
		{name: "no limit gives quota 0", milli: 0, period: 100000, customPeriod: true, want: 0},
		{name: "one CPU over 100ms gives 100000", milli: 1000, period: 100000, customPeriod: true, want: 100000},
		{name: "quota scales with a custom period", milli: 500, period: 50000, customPeriod: true, want: 25000},
		{name: "without the custom period gate the period is 100000", milli: 500, period: 50000, want: 50000},
		{name: "quota below 1ms is raised to 1000", milli: 5, period: 100000, customPeriod: true, want: 1000},
		{name: "quota below 1ms with a short period is raised to 1000", milli: 100, period: 5000, customPeriod: true, want: 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, resources.MilliCPUToQuota(tt.milli, tt.period, tt.customPeriod))
		})
	}
}
