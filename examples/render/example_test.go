package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Render a pod given on standard input and read one container's expanded arguments.
func Example() {
	pod := `
apiVersion: v1
kind: Pod
metadata: {name: hello, namespace: demo, uid: 1f2e}
spec:
  enableServiceLinks: false
  containers:
  - name: hello
    image: busybox
    args: ["echo", "$(GREETING)"]
    env: [{name: GREETING, value: hi}]
`
	var out bytes.Buffer
	if err := run([]string{"-"}, strings.NewReader(pod), &out); err != nil {
		panic(err)
	}
	var rendered output
	if err := json.Unmarshal(out.Bytes(), &rendered); err != nil {
		panic(err)
	}
	c := rendered.Containers[0]
	fmt.Println(c.Args, c.LogPath)
	// Output:
	// [echo hi] /var/log/pods/demo_hello_1f2e/hello/0.log
}
