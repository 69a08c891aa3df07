package logs_test

import (
	"fmt"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/logs"
)

// Example lays out the logs of a container that has already run, and works out the restart count
// kubelet would give its next run when it has no status for it.
func Example() {
	podDir := logs.BuildPodLogsDirectory(logs.DefaultPodLogsDirectory, "shop", "web-0", "5f3c")
	dir := logs.BuildContainerLogsDirectory(logs.DefaultPodLogsDirectory, "shop", "web-0", "5f3c", "app")

	fsys := hostfs.NewMemory()
	_ = fsys.MkdirAll(dir, 0o755)
	for _, f := range []string{"0.log", "1.log", "4.log.20240101-000000", "7.log.gz", "junk.log"} {
		_ = fsys.WriteFile(dir+"/"+f, nil, 0o640)
	}
	restarts, _ := logs.CalcRestartCountByLogDir(fsys, dir)

	fmt.Println(podDir)
	fmt.Println(logs.BuildContainerLogsPath("app", restarts))
	fmt.Println(logs.ParsePodUIDFromLogsDirectory("shop_web-0_5f3c"))
	fmt.Println(logs.LegacyLogSymlink("0123abcd", "app", "web-0", "shop"))
	// Output:
	// /var/log/pods/shop_web-0_5f3c
	// app/8.log
	// 5f3c
	// /var/log/containers/web-0_shop_app-0123abcd.log
}
