// Package conformance runs kubelet v1.37's own code and podconfig side by side on the same pods
// and compares the CRI configs they produce field by field.
//
// Each scenario (testdata/scenarios, format in package scenario) is rendered twice: by a Kubelet
// and a kuberuntime manager assembled around fakes, whose unexported generatePodSandboxConfig and
// generateContainerConfig are called by name, and by a podconfig Generator given the same node
// facts. Every difference must be a known deviation (Deviations) listed by the scenario; a listed
// deviation that no longer occurs is a failure too. Random pods from a seeded generator run the
// same way; a difference there must be one of the known deviations.
//
// TestAdmission and TestValidation run the API server's own admission plugins and create
// validation beside packages admission and validation the same way (ValidationDeviations).
//
// The tests need kubelet's unexported functions, so they are built with
//
//	go test -ldflags=-checklinkname=0 ./...
//
// PODCONFIG_CONFORMANCE_SEED replays a random run; PODCONFIG_CONFORMANCE_RANDOM sets how many
// random pods run.
package conformance
