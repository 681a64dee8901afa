package docsnippets

import (
	"go/importer"
	"go/types"
	"path/filepath"
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
		for _, e := range Check(s, imp) {
			t.Error(e)
		}
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
