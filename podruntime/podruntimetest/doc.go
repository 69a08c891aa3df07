// Package podruntimetest is a CRI runtime in memory for the tests of code that runs pods with
// podruntime, as net/http/httptest is a server for the tests of HTTP clients: [Runtime] serves
// the CRI runtime and image services over an in-process gRPC connection, so the code under test
// talks to it through the same runtimeapi clients it gives containerd. Containers run until the
// test makes them exit; every call is recorded and any can be made to fail.
//
// It models what podruntime relies on, not a whole runtime: no processes, no mounts, no logs,
// no networks beyond one IP per sandbox.
package podruntimetest
