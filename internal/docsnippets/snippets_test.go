package docsnippets

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// Every Go snippet of README.md and docs/*.md type-checks against the
// project's packages.
func TestSnippetsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the project's packages")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	snips, err := Find(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(snips) < 15 {
		t.Fatalf("only %d Go snippets found", len(snips))
	}
	paths := make([]string, 0, len(Imports))
	for _, p := range Imports {
		paths = append(paths, p)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports | packages.NeedDeps, Dir: root}, paths...)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]*types.Package{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types != nil {
			byPath[p.PkgPath] = p.Types
		}
		for _, e := range p.Errors {
			t.Errorf("loading %s: %v", p.PkgPath, e)
		}
	})
	imp := importerFunc(func(path string) (*types.Package, error) {
		if p := byPath[path]; p != nil {
			return p, nil
		}
		return importer.Default().Import(path)
	})
	for _, s := range snips {
		src := Source(s)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "snippet.go", src, parser.SkipObjectResolution) // //line names the Markdown
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		var errs []string
		conf := types.Config{Importer: imp, Error: func(err error) {
			msg := err.Error()
			if strings.Contains(msg, "declared and not used") || strings.Contains(msg, "imported and not used") {
				return // fragments show values without using them
			}
			errs = append(errs, msg)
		}}
		conf.Check("snippet", fset, []*ast.File{f}, nil)
		for _, e := range errs {
			t.Error(e)
		}
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
