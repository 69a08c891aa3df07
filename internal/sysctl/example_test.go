package sysctl_test

import (
	"fmt"

	"github.com/podconfig/podconfig/internal/sysctl"
)

// A sysctl written with slashes reads as the dotted name the kernel's namespaces are known by.
func ExampleNormalize() {
	fmt.Println(sysctl.Normalize("net/ipv4/conf/eno2.100/rp_filter"))
	// Output: net.ipv4.conf.eno2/100.rp_filter
}
