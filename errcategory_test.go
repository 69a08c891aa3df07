package podconfig_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEverySentinelHasACategory checks that every exported Err* variable of every package in the
// repository (nested modules included) is made with errkind.Sentinel, is one of the three
// categories, or is another package's or the same package's Err* under a second (deprecated)
// name. A sentinel made with errors.New would have no category, and configgen would report it as
// ErrDependencyFailed, telling callers to retry a spec that can never run.
func TestEverySentinelHasACategory(t *testing.T) {
	categories := map[string]bool{"InvalidPod": true, "InvalidOptions": true, "DependencyFailed": true}
	var checked int
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		errkindName := ""
		for _, imp := range f.Imports {
			if strings.Trim(imp.Path.Value, `"`) == "github.com/podconfig/podconfig/internal/errkind" {
				errkindName = "errkind"
				if imp.Name != nil {
					errkindName = imp.Name.Name
				}
			}
		}
		isErrkind := func(e ast.Expr, name string) bool {
			sel, ok := e.(*ast.SelectorExpr)
			if !ok {
				return false
			}
			x, ok := sel.X.(*ast.Ident)
			return ok && errkindName != "" && x.Name == errkindName && (name == "" || sel.Sel.Name == name)
		}
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			for _, spec := range gen.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if !name.IsExported() || !strings.HasPrefix(name.Name, "Err") {
						continue
					}
					checked++
					where := fset.Position(name.Pos()).String()
					if i >= len(vs.Values) {
						t.Errorf("%s: %s has no value: define it with errkind.Sentinel(category, text)", where, name.Name)
						continue
					}
					switch v := vs.Values[i].(type) {
					case *ast.CallExpr:
						if !isErrkind(v.Fun, "Sentinel") || len(v.Args) != 2 {
							t.Errorf("%s: %s has no category: define it with errkind.Sentinel(errkind.InvalidPod|InvalidOptions|DependencyFailed, text)", where, name.Name)
							continue
						}
						sel, ok := v.Args[0].(*ast.SelectorExpr)
						assert.True(t, ok && isErrkind(sel, "") && categories[sel.Sel.Name],
							"%s: %s: the category must be errkind.InvalidPod, InvalidOptions or DependencyFailed", where, name.Name)
					case *ast.SelectorExpr: // a category, or another package's sentinel
						ok := isErrkind(v, "") && categories[v.Sel.Name] || !isErrkind(v, "") && strings.HasPrefix(v.Sel.Name, "Err")
						assert.True(t, ok, "%s: %s must be a category or another sentinel", where, name.Name)
					case *ast.Ident: // a second name for a sentinel of the same package
						assert.True(t, strings.HasPrefix(v.Name, "Err"), "%s: %s must be a category or another sentinel", where, name.Name)
					default:
						t.Errorf("%s: %s has no category: define it with errkind.Sentinel(category, text)", where, name.Name)
					}
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, checked, 40, "the walk found the module's sentinels")
}
