//go:build linux

package podconfig_test

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/build"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// apiPackages are the directories whose exported API TestExportedAPIDoesNotPanic calls: every
// package of the module except commands and examples, which export nothing users import.
func apiPackages(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		switch {
		case p == ".":
			return nil
		case strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || p == "cmd" || p == "examples":
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
			return filepath.SkipDir // a nested module
		}
		if files, _ := filepath.Glob(filepath.Join(p, "*.go")); len(files) > 0 {
			dirs = append(dirs, p)
		}
		return nil
	})
	require.NoError(t, err)
	sort.Strings(dirs)
	return dirs
}

// apiEntry is one exported function or method: Name as the registry spells it, Expr the Go
// expression of its value.
type apiEntry struct {
	Name, Expr, Import, Alias string
	Method                    bool
}

// exportedAPI lists the exported functions and the exported methods of exported types of dir, for
// linux. Generic functions and methods of generic types cannot be called without instantiation
// and are left out.
func exportedAPI(t *testing.T, dir string) []apiEntry {
	t.Helper()
	ctx := build.Default
	ctx.GOOS = "linux"
	fset := token.NewFileSet()
	pkgs := map[string][]*ast.File{}
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	for _, name := range names {
		base := filepath.Base(name)
		if ok, _ := ctx.MatchFile(dir, base); !ok || strings.HasSuffix(base, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		pkgs[f.Name.Name] = append(pkgs[f.Name.Name], f)
	}
	var out []apiEntry
	for name, files := range pkgs {
		if name == "main" {
			continue
		}
		imp := "github.com/podconfig/podconfig/" + filepath.ToSlash(dir)
		alias := strings.ReplaceAll(filepath.ToSlash(dir), "/", "_")
		for _, f := range files {
			for _, decl := range f.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || !fn.Name.IsExported() || fn.Type.TypeParams != nil {
					continue
				}
				if fn.Recv == nil {
					out = append(out, apiEntry{Name: name + "." + fn.Name.Name, Expr: alias + "." + fn.Name.Name, Import: imp, Alias: alias})
					continue
				}
				recv := fn.Recv.List[0].Type
				star := false
				if s, ok := recv.(*ast.StarExpr); ok {
					star, recv = true, s.X
				}
				id, ok := recv.(*ast.Ident)
				if !ok || !id.IsExported() {
					continue // generic or unexported receiver
				}
				if star {
					out = append(out, apiEntry{Name: fmt.Sprintf("%s.(*%s).%s", name, id.Name, fn.Name.Name), Expr: fmt.Sprintf("(*%s.%s).%s", alias, id.Name, fn.Name.Name), Import: imp, Alias: alias, Method: true})
				} else {
					out = append(out, apiEntry{Name: fmt.Sprintf("%s.%s.%s", name, id.Name, fn.Name.Name), Expr: fmt.Sprintf("%s.%s.%s", alias, id.Name, fn.Name.Name), Import: imp, Alias: alias, Method: true})
				}
			}
		}
	}
	return out
}

// TestExportedAPIDoesNotPanic calls every exported function and method of the module's packages
// with the zero value of every parameter (nil pointers, slices, maps, interfaces and funcs, empty
// strings, zero structs) and fails for each one that panics. The list of functions is read from
// the source, so a new one is covered without registering it: the test writes a small program
// calling each of them by reflection into a temporary directory of the module and runs it.
//
// A method is called on the zero value of its receiver's type (a pointer to it, for a pointer
// receiver), which must work or return an error; for the types whose constructor builds what the
// zero value lacks (apiReceivers below), it is also called on the constructor's value. Every
// function, and every method on the zero value, is then called once more with inputs that pass
// the first checks (a valid pod, a container, a request for them, a path in a scratch
// directory), since zero arguments mostly stop at the first check.
// context.Context parameters get context.Background(), since a nil context is a programming error
// Go's own packages reject too. Host backends get in-memory stand-ins or fail on empty paths.
func TestExportedAPIDoesNotPanic(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program of the whole module")
	}
	var all []apiEntry
	for _, dir := range apiPackages(t) {
		all = append(all, exportedAPI(t, dir)...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	require.Greater(t, len(all), 100, "the exported API was not found")

	dir, err := os.MkdirTemp(".", "_apinil")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), apiProgram(t, all), 0o644))

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "run", "./"+filepath.Base(dir)).CombinedOutput()
	require.NoError(t, err, "%s", out)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Equal(t, fmt.Sprintf("called %d functions", len(all)), lines[len(lines)-1], "%s", out)
	require.Empty(t, lines[:len(lines)-1], "exported functions that panic on zero inputs")
}

// apiProgram is the source of the program that calls every entry.
func apiProgram(t *testing.T, all []apiEntry) []byte {
	imports := map[string]string{}
	for _, e := range all {
		imports[e.Alias] = e.Import
	}
	aliases := make([]string, 0, len(imports))
	for a := range imports {
		aliases = append(aliases, a)
	}
	sort.Strings(aliases)
	var b bytes.Buffer
	b.WriteString("package main\n\nimport (\n\t\"context\"\n\t\"fmt\"\n\t\"os\"\n\t\"reflect\"\n\t\"time\"\n\n")
	b.WriteString("\tcorev1 \"k8s.io/api/core/v1\"\n\tmetav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n")
	for _, a := range aliases {
		fmt.Fprintf(&b, "\t%s %q\n", a, imports[a])
	}
	b.WriteString(")\n\nvar api = []struct {\n\tname   string\n\tfn     any\n\tmethod bool\n}{\n")
	for _, e := range all {
		fmt.Fprintf(&b, "\t{%q, %s, %v},\n", e.Name, e.Expr, e.Method)
	}
	b.WriteString("}\n")
	b.WriteString(apiHarness)
	src, err := format.Source(b.Bytes())
	require.NoError(t, err, "%s", b.String())
	return src
}

// apiHarness is the program's body. It refers to the packages by their generated aliases
// (the directory with "/" as "_").
const apiHarness = `
// apiReceivers build a working receiver for the types whose constructor sets what the zero value
// lacks; the zero value is called too.
var apiReceivers = map[reflect.Type]func() any{
	reflect.TypeFor[*configgen.Generator](): func() any {
		gen, err := configgen_configgentest.NewNode().Generator()
		if err != nil {
			panic(err)
		}
		return gen
	},
	reflect.TypeFor[*subpath.Linux](): func() any { return subpath.New() },
	reflect.TypeFor[*resources.Calculator](): func() any {
		c, err := resources.New(resources.DefaultConfig(resources.Node{CgroupV2: true, MemoryCapacity: 1 << 30}))
		if err != nil {
			panic(err)
		}
		return c
	},
	reflect.TypeFor[*security.Resolver]():  func() any { return security.New(security.Config{}) },
	reflect.TypeFor[*hostfs.Memory]():      func() any { return hostfs.NewMemory() },
	reflect.TypeFor[*hostfs_hostfstest.Interceptor](): func() any {
		return hostfs_hostfstest.Wrap(hostfs.NewMemory(), hostfs_hostfstest.Funcs{})
	},
	reflect.TypeFor[*mounts_mountstest.Subpather](): func() any {
		return mounts_mountstest.NewSubpather(mounts_mountstest.NewHostUtils())
	},
	reflect.TypeFor[*configgen_configgentest.Node](): func() any { return configgen_configgentest.NewNode() },
	reflect.TypeFor[*offline.Node]():                 func() any { return offline.NewNode() },
	reflect.TypeFor[*offline.Subpather]():            func() any { return offline.NewSubpather(offline.NewHostUtils()) },
}

// receiverKind says which receiver a method is called on.
type receiverKind int

const (
	working receiverKind = iota // the constructor's, for types in apiReceivers
	zero                        // the zero value (a pointer to it, for pointer receivers)
)

func main() {
	for _, e := range api {
		fn := reflect.ValueOf(e.fn)
		typ := fn.Type()
		kinds := []receiverKind{working}
		if e.method {
			if _, ok := apiReceivers[typ.In(0)]; ok {
				kinds = append(kinds, zero)
			}
		}
		for _, kind := range kinds {
			args := make([]reflect.Value, typ.NumIn())
			for i := range args {
				args[i] = arg(typ.In(i), i == 0 && e.method, kind)
			}
			if msg := call(fn, args, typ.IsVariadic()); msg != "" {
				fmt.Printf("%s%s: %s\n", e.name, [...]string{"", " on a zero receiver"}[kind], msg)
			}
			// Zero arguments mostly stop at the first check; the zero value must also hold
			// against inputs that get past it (a built receiver is held to them by its own tests).
			if kind == working && e.method {
				if _, ok := apiReceivers[typ.In(0)]; ok {
					continue
				}
			}
			first := 0
			if e.method {
				first = 1
			}
			for i := first; i < len(args); i++ {
				if v, ok := sample(typ.In(i)); ok {
					args[i] = v
				}
			}
			if msg := call(fn, args, typ.IsVariadic()); msg != "" {
				fmt.Printf("%s%s with valid inputs: %s\n", e.name, [...]string{"", " on a zero receiver"}[kind], msg)
			}
		}
	}
	_ = os.RemoveAll(scratchDir)
	fmt.Printf("called %d functions\n", len(api))
}

// scratchDir is where the sample paths lead, removed when the program ends.
var scratchDir = func() string {
	dir, err := os.MkdirTemp("", "apinil")
	if err != nil {
		panic(err)
	}
	return dir
}()

// sample returns a valid input of typ that a zero receiver must refuse or handle: a pod with a
// container, a request for it, and paths inside a scratch directory.
func sample(typ reflect.Type) (reflect.Value, bool) {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "pod", UID: "0b6e3d7a-uid"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "img"}}},
	}
	switch typ {
	case reflect.TypeFor[*corev1.Pod]():
		return reflect.ValueOf(pod), true
	case reflect.TypeFor[*corev1.Container]():
		return reflect.ValueOf(&pod.Spec.Containers[0]), true
	case reflect.TypeFor[configgen.ContainerRequest]():
		return reflect.ValueOf(configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.0.0.1"}}), true
	case reflect.TypeFor[string]():
		return reflect.ValueOf(scratchDir + "/x"), true
	}
	return reflect.Value{}, false
}

func arg(typ reflect.Type, receiver bool, kind receiverKind) reflect.Value {
	if typ == reflect.TypeFor[context.Context]() {
		return reflect.ValueOf(context.Background())
	}
	if receiver {
		if make, ok := apiReceivers[typ]; ok && kind == working {
			return reflect.ValueOf(make())
		}
		if typ.Kind() == reflect.Pointer {
			return reflect.New(typ.Elem())
		}
	}
	return reflect.Zero(typ)
}

func call(fn reflect.Value, args []reflect.Value, variadic bool) string {
	done := make(chan string, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Sprint(r)
			}
		}()
		if variadic {
			fn.CallSlice(args)
		} else {
			fn.Call(args)
		}
		done <- ""
	}()
	select {
	case msg := <-done:
		return msg
	case <-time.After(10 * time.Second):
		return "did not return within 10s"
	}
}
`
