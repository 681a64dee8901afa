package gen

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/imports"
)

// typeChecker type-checks generated packages in process, against the
// runtime's source, so a fuzz target can check thousands of them without
// running the compiler. The importer caches what it has loaded.
type typeChecker struct {
	mu   sync.Mutex
	fset *token.FileSet
	imp  types.Importer
}

var checker = sync.OnceValue(func() *typeChecker {
	fset := token.NewFileSet()
	return &typeChecker{fset: fset, imp: importer.ForCompiler(fset, "source", nil)}
})

// check parses and type-checks the .go files of one generated package.
func (c *typeChecker) check(files map[string][]byte) (*types.Package, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var parsed []*ast.File
	for _, n := range goFiles(files) {
		f, err := parser.ParseFile(c.fset, n, files[n], parser.ParseComments)
		if err != nil {
			return nil, err
		}
		parsed = append(parsed, f)
	}
	conf := types.Config{Importer: c.imp}
	return conf.Check(parsed[0].Name.Name, c.fset, parsed, nil)
}

// FuzzGenerate: on any input the model accepts, Generate does not panic,
// and what it returns parses, type-checks and is formatted as
// imports.Process formats it. Inputs the model refuses are FuzzLoad's
// concern.
//
// Generating is about 5 ms of CPU for a small ABI (tens of kilobytes of
// formatted Go: most of it go/format), and type-checking the result and
// formatting it again took three times as long, so that an input the model
// accepted cost some 20 ms. The type-check and the imports.Process check
// now run once per shape of generated package (fuzzshape_test.go: the
// same program up to a renaming of its own names, texts and constants of
// the same size); an input that generates a shape already checked is
// only generated. Every seed's shape is checked in go test's own run. The
// inputs the model refuses run at thousands a second, the ones it accepts
// at a few hundred (generation itself), and the mix at 500 a second on one
// loaded core (#31): scripts/fuzz.sh gives it a floor of its own.
func FuzzGenerate(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "golden", "*", "input*"))
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil && len(data) < 16<<10 {
			f.Add(data)
		}
	}
	// Type-check the runtime from source once, before any input: it takes
	// seconds, and inside the first input it made a worker on a loaded
	// machine look hung to the fuzz coordinator.
	if _, err := checker().imp.Import("github.com/antelopego/abigen/antelope"); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := generateBytes(data, Options{Package: "fuzzed", Source: "fuzz"})
		if err != nil {
			if strings.Contains(err.Error(), "bug in abigen") {
				t.Fatal(err)
			}
			return // refused by the model (FuzzLoad's concern) or by a limit
		}
		shape, known := seenShapes.shapeOf(res.Files)
		if known && seenShapes.seen(shape) {
			return
		}
		pkg, err := checker().check(res.Files)
		if err != nil {
			t.Fatalf("generated code does not type-check: %v", err)
		}
		// formatSource must give what imports.Process gives: its output is
		// a fixed point of imports.Process.
		for n, src := range res.Files {
			if !strings.HasSuffix(n, ".go") {
				continue
			}
			again, err := imports.Process(n, src, &imports.Options{FormatOnly: true, Comments: true, TabIndent: true, TabWidth: 8})
			if err != nil || !bytes.Equal(again, src) {
				t.Fatalf("%s is not as imports.Process formats it (%v)", n, err)
			}
		}
		if !known {
			seenShapes.learnImports(pkg)
			shape, _ = seenShapes.shapeOf(res.Files)
		}
		seenShapes.add(shape)
	})
}
