package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/podconfig/podconfig/internal/terminal"
)

// Exit statuses, as kubectl uses them.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

const usage = `podconfig prints the CRI configs kubelet v1.37 gives the pods of a manifest, offline.

Usage:
  podconfig render [flags] FILE...|-
  podconfig version

Commands:
  render   render the pods of manifests (run "podconfig render -h" for its flags)
  version  print podconfig's version, the kubelet version it reproduces and its license
  help     print this help
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command, with its streams, returning the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	case "render":
		return runRender(args[1:], stdin, stdout, stderr)
	case "version", "--version":
		return runVersion(args[1:], stdout, stderr)
	default:
		fmt.Fprintf(stderr, "podconfig: unknown command %q\n\n%s", args[0], usage)
		return exitUsage
	}
}

// usageError is a problem with the command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func runRender(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, fs := newRenderFlags()
	fs.SetOutput(io.Discard) // errors are reported below, in one line
	files, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fs.Usage()
		return exitOK
	}
	if err == nil {
		cfg.files = files
		err = cfg.validate()
	}
	if err != nil {
		fmt.Fprintf(stderr, "podconfig render: %v\n", oneLine(err))
		fmt.Fprintln(stderr, `Run "podconfig render -h" for usage.`)
		return exitUsage
	}
	// Each pod is written as soon as it is rendered; the document is opened by the first.
	pw := &podWriter{w: stdout, format: cfg.output}
	emit := pw.pod
	if cfg.output == "crictl" {
		emit = func(p *podResult) error { return writeCrictlPod(stdout, cfg.outputDir, p) }
	}
	out, err := render(cfg, stdin, emit)
	if err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "podconfig render: %v\n", oneLine(err))
			return exitUsage
		}
		fmt.Fprintf(stderr, "podconfig render: %v\n", oneLine(err))
		return exitError
	}
	if out.Rendered > 0 || len(out.Failures) == 0 {
		if cfg.output == "crictl" {
			// Made (or checked) even when no pod was: the user asked for it.
			var o *crictlOut
			if o, err = openCrictlOut(cfg.outputDir); err == nil {
				o.close()
			}
		} else {
			err = pw.finish(out.Warnings)
		}
		if err != nil {
			fmt.Fprintf(stderr, "podconfig render: %v\n", oneLine(err))
			return exitError
		}
	}
	// Every warning goes to standard error, in every output format, never among the configs:
	// the input's, then the pods' (which -o json and yaml also carry as data).
	for _, w := range append(summarize(out.Warnings), podWarnings(out.Pods)...) {
		fmt.Fprintf(stderr, "warning: %s\n", oneLine(errors.New(w)))
	}
	// Every failure, one line each, after the pods that did render.
	for _, f := range out.Failures {
		fmt.Fprintf(stderr, "podconfig render: %s\n", oneLine(errors.New(f)))
	}
	if len(out.Failures) > 0 {
		if out.Rendered > 0 {
			fmt.Fprintf(stderr, "podconfig render: %d failed, %d pods rendered\n", len(out.Failures), out.Rendered)
		}
		return exitError
	}
	return exitOK
}

// parseInterspersed parses flags wherever they are among the file names, as kubectl does; "--"
// ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return files, nil
		}
		if args[0] == "--" {
			return append(files, args[1:]...), nil
		}
		files = append(files, args[0])
		args = args[1:]
	}
}

// oneLine keeps an error on one line of standard error, with the control characters that
// manifest strings may carry escaped, so that what a terminal shows is what the error says.
// Line breaks between an error's lines become "; "; other spacing is kept, so that the API
// server's texts read as the API server writes them.
func oneLine(err error) string {
	msg := strings.TrimSpace(err.Error())
	msg = strings.ReplaceAll(strings.ReplaceAll(msg, "\r\n", "\n"), "\n", "; ")
	return terminal.Escape(msg)
}
