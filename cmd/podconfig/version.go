package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// kubeletVersion is the kubelet release whose behaviour podconfig reproduces.
const kubeletVersion = "v1.37.2"

// license is the license podconfig is distributed under (LICENSE).
const license = "Apache-2.0"

// runVersion prints the module's version, the kubelet version it reproduces and the license.
func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "podconfig version: takes no arguments\n")
		return exitUsage
	}
	version := "(devel)"
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		version = info.Main.Version
	}
	fmt.Fprintf(stdout, "podconfig %s\n", version)
	fmt.Fprintf(stdout, "Reproduces: kubelet %s (Linux), with the API server's defaults and admission of the same release\n", kubeletVersion)
	fmt.Fprintf(stdout, "Go: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(stdout, "License: %s\n", license)
	return exitOK
}
