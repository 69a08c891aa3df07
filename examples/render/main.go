// Command render prints the CRI configs kubelet v1.37 would give a pod, offline: no root, no
// node, no cluster. It reads a multi-document YAML (a Pod, and the ConfigMaps, Secrets, Services
// and Node it refers to, plus an optional RenderContext with the pod's IPs and the images' users)
// and prints, as JSON, the sandbox config and, per container, its environment, command and args,
// /etc/hosts file, log path and full CRI container config.
//
//	go run ./examples/render examples/render/testdata/pod.yaml
//
// With "-" or no file it reads standard input. On bad input it prints one line to standard error
// and exits with status 1.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "render: "+err.Error())
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) > 1 {
		return errors.New("usage: render [pod.yaml|-]")
	}
	r := stdin
	if len(args) == 1 && args[0] != "-" {
		f, err := os.Open(args[0])
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	in, err := load(r)
	if err != nil {
		return err
	}
	out, err := render(context.Background(), in)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
