package validation

import (
	"encoding/json"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// FuzzContainerValidation feeds pod specs decoded from arbitrary JSON to the containers' checks:
// a hostile spec is refused with errors, never with a panic.
func FuzzContainerValidation(f *testing.F) {
	for _, seed := range []string{
		`{"containers":[{"name":"app","image":"nginx"}]}`,
		`{"containers":[{"name":"a","resources":{"limits":{"hugepages-100E":"1","memory":"1"},"requests":{"hugepages-0":"-1"}}}],"resources":{"limits":{"hugepages-1e30":"1"}}}`,
		`{"containers":[{"name":"a","livenessProbe":{"tcpSocket":{"port":"x"},"httpGet":{"port":0}},"lifecycle":{"stopSignal":"SIGX","preStop":{"sleep":{"seconds":-1}}}}],"os":{"name":"linux"}}`,
		`{"initContainers":[{"name":"i","restartPolicy":"Always","restartPolicyRules":[{"action":"Restart"}],"resizePolicy":[{"resourceName":"cpu","restartPolicy":"RestartContainer"}]}]}`,
		`{"ephemeralContainers":[{"name":"e","targetContainerName":"x","ports":[{"containerPort":1}],"volumeMounts":[{"name":"v","subPath":"../x","mountPropagation":"Bidirectional"}]}],"volumes":[{"name":"v","emptyDir":{}}]}`,
		`{"containers":[{"env":[{"name":"A=","valueFrom":{"fileKeyRef":{"path":".."}}}],"envFrom":[{}],"volumeDevices":[{"name":"","devicePath":".."}]}],"overhead":{"pods":"1.5"}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var spec v1.PodSpec
		if json.Unmarshal(data, &spec) != nil {
			return
		}
		path := field.NewPath("spec")
		vols := make(map[string]v1.VolumeSource, len(spec.Volumes))
		for _, v := range spec.Volumes {
			vols[v.Name] = v.VolumeSource
		}
		claims := gatherPodResourceClaimNames(spec.ResourceClaims)
		_ = validateContainers(&spec, vols, claims, path.Child("containers"))
		_ = validateInitContainers(&spec, vols, claims, path.Child("initContainers"))
		_ = validateEphemeralContainers(&spec, vols, claims, path.Child("ephemeralContainers"))
		_ = validatePodResources(&spec, claims, path)
		_ = validateOverhead(spec.Overhead, path.Child("overhead"))
		_ = validateContainersOnlyForPod(spec.Containers, path.Child("containers"))
	})
}
