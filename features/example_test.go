package features_test

import (
	"fmt"

	"github.com/podconfig/podconfig/features"
)

// A node that turns on an alpha gate starts from kubelet's defaults.
func ExampleDefault() {
	gates := features.Default()
	gates.ContainerStopSignals = true
	fmt.Printf("%+v\n", gates)
	// Output: {EnvFiles:true PodLevelResources:true MemoryQoS:true CustomCPUCFSQuotaPeriod:true ContainerStopSignals:true DefaultPodSysctls:false DRANodeAllocatableResources:false}
}
