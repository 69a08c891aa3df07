// Command sidebyside summarises the runs of the side-by-side benchmark over the real pods: the
// files the benchmark's -sidebyside.out flag named, each holding one JSON object a run.
//
//	go test -ldflags=-checklinkname=0 -run - -bench 'SideBySide/pods' -benchtime 7x -count 5 -args -sidebyside.out=/tmp/runs.jsonl
//	go run ./cmd/sidebyside /tmp/runs.jsonl
//
// It prints Markdown: the distribution over the pods of podconfig's time over kubelet's, and the
// worst pods with what sets them apart.
package main

import (
	"fmt"
	"os"

	"github.com/podconfig/podconfig/conformance/internal/sidebyside"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: sidebyside RUNS.jsonl...")
		os.Exit(2)
	}
	var runs []sidebyside.Run
	for _, name := range os.Args[1:] {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		rs, err := sidebyside.ReadRuns(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			os.Exit(1)
		}
		runs = append(runs, rs...)
	}
	if len(runs) == 0 {
		fmt.Fprintln(os.Stderr, "no runs")
		os.Exit(1)
	}
	sidebyside.Summarise(runs).WriteReport(os.Stdout)
}
