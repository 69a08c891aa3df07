package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/podconfig/podconfig/manifest"
)

// source is one input: standard input ("-"), a file named on the command line, or a file found
// by listing a directory named there.
type source struct {
	name  string
	inDir bool
}

// errNotRegular: a file found in a directory is not a regular file, and is not read.
var errNotRegular = errors.New("not a regular file")

// listSources replaces each directory among names with its .yaml, .yml and .json files, in name
// order, as kubectl -f does; with recursive (-R), those of its subdirectories too, depth first,
// and without it a subdirectory is named in a warning. Only regular files and real directories
// are taken from a directory: opening a named pipe would block, and following a symbolic link
// would let whoever wrote the directory make the command read a file elsewhere. The entries
// skipped are returned as warnings. Names given on the command line are taken as they are, so a
// symbolic link or a pipe (<(kubectl get ...)) named there is read.
func listSources(names []string, recursive bool) ([]source, []string, error) {
	var out []source
	var warnings []string
	for _, name := range names {
		fi, err := os.Stat(name)
		if name == "-" || err != nil || !fi.IsDir() {
			out = append(out, source{name: name}) // a missing file fails when it is opened, naming it
			continue
		}
		found, skipped, subdirs, err := listDir(name, recursive)
		if err != nil {
			return nil, nil, err
		}
		warnings = append(warnings, skipped...)
		if len(subdirs) > 0 {
			warnings = append(warnings, fmt.Sprintf("%s: subdirectories not read (-R reads them): %s", name, strings.Join(subdirs, ", ")))
		}
		if len(found) == 0 {
			if len(skipped) > 0 {
				return nil, nil, fmt.Errorf("%s: no regular .yaml, .yml or .json file in the directory (%s)", name, strings.Join(skipped, "; "))
			}
			return nil, nil, fmt.Errorf("%s: no .yaml, .yml or .json file in the directory", name)
		}
		out = append(out, found...)
	}
	return out, warnings, nil
}

// listDir lists one directory's manifest files, and its subdirectories' with recursive; without
// it, the subdirectories are returned by name.
func listDir(dir string, recursive bool) (found []source, skipped, subdirs []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if e.IsDir() {
			if !recursive {
				subdirs = append(subdirs, e.Name())
				continue
			}
			f, s, _, err := listDir(path, true)
			if err != nil {
				return nil, nil, nil, err
			}
			found, skipped = append(found, f...), append(skipped, s...)
			continue
		}
		switch filepath.Ext(e.Name()) {
		case ".yaml", ".yml", ".json":
		default:
			continue
		}
		if e.Type().IsRegular() {
			found = append(found, source{name: path, inDir: true})
			continue
		}
		skipped = append(skipped, fmt.Sprintf("%s: skipped: %s; only regular files are read from a directory (name it on the command line to read it)", path, describeType(e.Type())))
	}
	return found, skipped, subdirs, nil
}

// describeType names the kind of a file that is not regular.
func describeType(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	default:
		return errNotRegular.Error()
	}
}

// openSources opens every source; the files are closed by the returned function, also on error.
func openSources(sources []source, stdin io.Reader) ([]manifest.Input, func(), error) {
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	inputs := make([]manifest.Input, 0, len(sources))
	for _, s := range sources {
		if s.name == "-" && !s.inDir {
			inputs = append(inputs, manifest.Input{Name: "stdin", Reader: stdin})
			continue
		}
		open := os.Open
		if s.inDir {
			open = openRegular
		}
		f, err := open(s.name)
		if err != nil {
			closeAll()
			return nil, func() {}, err
		}
		files = append(files, f)
		inputs = append(inputs, manifest.Input{Name: s.name, Reader: f})
	}
	return inputs, closeAll, nil
}
